package xlsx_test

import (
	"math"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/xlsx"
)

// TestAutoFit fits a streamed sheet's columns to its first rows: text,
// numbers and a bold header, a column SetColumn set left alone, a capped
// one, and a wide value after the sampled rows that does not count.
func TestAutoFit(t *testing.T) {
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		bold, _ := w.AddStyle(xlsx.Style{Font: xlsx.Font{Bold: true}})
		sh, err := w.AddSheet("Fit", xlsx.SheetOptions{AutoFit: true, AutoFitRows: 10, AutoFitMax: 30})
		if err != nil {
			return err
		}
		if err := sh.SetColumn(4, 4, xlsx.ColumnOptions{Width: 5}); err != nil {
			return err
		}
		if err := sh.WriteRow([]xlsx.Cell{xlsx.String("Name").WithStyle(bold), xlsx.String("Amount").WithStyle(bold),
			xlsx.String("Notes").WithStyle(bold), xlsx.String("Set")}); err != nil {
			return err
		}
		for i := range 20 {
			notes := "short"
			if i == 3 {
				notes = strings.Repeat("long ", 20)
			}
			name := "Ada Lovelace"
			if i == 15 { // after the sample
				name = strings.Repeat("W", 40)
			}
			if err := sh.WriteRow([]xlsx.Cell{xlsx.String(name), xlsx.Float(1234567.25), xlsx.String(notes), xlsx.String(strings.Repeat("x", 30))}); err != nil {
				return err
			}
		}
		return nil
	})
	_, res := auditBook(t, "fit.xlsx", book)
	w := res.Widths["Fit"]
	near := func(got, want float64) bool { return math.Abs(got-want) < 1.5 }
	if !near(w["A"], 12.5) || !near(w["B"], 11) || !near(w["C"], 30.7) || !near(w["D"], 5.7) {
		t.Errorf("widths %v: want A about 12.5 (Ada Lovelace, not the late W's), B about 11 (1234567.25), C capped at 30, D as set", w)
	}
}
