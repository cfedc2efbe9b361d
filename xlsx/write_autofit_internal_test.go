package xlsx

import (
	"math"
	"testing"
)

// TestAutofitWidths compares the fitted widths of strings with the
// widths Excel saved for them (rust_xlsxwriter's autofit01, 04, 08 and
// 14, as Excel stored them): short words exactly; a long sentence within
// 15%, the character groups' widths being Calibri's to a pixel or so.
func TestAutofitWidths(t *testing.T) {
	for text, want := range map[string]float64{
		"A": 2.28515625, "Hello": 5.7109375, "World": 6.42578125, "aaaa": 5,
		"This is some long text to test autofit": 28.5703125,
	} {
		got := columnWidth(fittedChars(textPx(text)))
		tolerance := 1e-9
		if len(text) > 10 {
			tolerance = want * 0.15
		}
		if math.Abs(got-want) > tolerance {
			t.Errorf("%q: width %g, Excel's %g", text, got, want)
		}
	}
}
