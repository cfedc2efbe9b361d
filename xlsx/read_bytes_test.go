package xlsx

import (
	"math"
	"strconv"
	"testing"
)

// FuzzParseNumber: a cell's number reads as strconv reads it, to the bit,
// whichever path parseNumber takes; what strconv refuses (or makes
// infinite) is not a number.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "42", "-7", "1.75", "0.01", ".5", "5.", ".", "-.", "-", "0.14285714285714285",
		"123456789012345", "1234567890123456", "99999999999999.9", "0.000000000001", "1e308", "1e-400", "1.5E3", "NaN", "Inf", "+1", "1.2.3", "0x1p3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseNumber([]byte(s))
		want, err := strconv.ParseFloat(s, 64)
		if err != nil {
			if ne, isNum := err.(*strconv.NumError); isNum && ne.Err == strconv.ErrRange && !math.IsInf(want, 0) {
				err = nil // underflow: zero, as Excel reads it too
			}
		}
		wantOK := err == nil && !math.IsNaN(want) && !math.IsInf(want, 0)
		if ok != wantOK || ok && math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("parseNumber(%q) = %v, %v; strconv: %v, %v", s, got, ok, want, err)
		}
	})
}
