package xlsx_test

import (
	"errors"
	"io"
	"path/filepath"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

// TestArrayFormulas writes an array formula over a range and dynamic
// array formulas; openpyxl reads them as array formulas, the validator
// checks the metadata part, and LibreOffice calculates them.
func TestArrayFormulas(t *testing.T) {
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("Calc", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		rows := [][]xlsx.Cell{
			{xlsx.Int(1), xlsx.Int(10), xlsx.ArrayFormula("{=A1:A3*B1:B3}", rng("C1:C3")), xlsx.DynamicFormula("=SUM(A1:A3*B1:B3)")},
			{xlsx.Int(2), xlsx.Int(20)},
			{xlsx.Int(3), xlsx.Int(30)},
		}
		for _, r := range rows {
			if err := sh.WriteRow(r); err != nil {
				return err
			}
		}
		return nil
	})
	path, res := auditBook(t, "arrays.xlsx", book)
	dir := filepath.Dir(path)
	if a := res.Arrays["Calc"]; a["C1"] != [2]string{"C1:C3", "=A1:A3*B1:B3"} || a["D1"] != [2]string{"D1", "=SUM(A1:A3*B1:B3)"} {
		t.Errorf("array formulas: %v", a)
	}
	if part(t, book, "xl/metadata.xml") == "" {
		t.Error("no metadata part")
	}
	resaved := pyread.Resave(t, filepath.Join(dir, "lo"), path)[0]
	again := pyread.ReadValues(t, resaved)[resaved]
	if again == nil || again.Error != "" {
		t.Fatalf("LibreOffice's copy: %+v", again)
	}
	rows := again.Calamine["Calc"]
	if len(rows) != 3 || len(rows[2]) < 3 || rows[2][2].V != 90.0 || rows[0][3].V != 140.0 {
		t.Errorf("LibreOffice calculated %v", rows)
	}
}

// TestArrayFormulaRange: an array formula's range must start at its
// cell.
func TestArrayFormulaRange(t *testing.T) {
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	defer w.Close()
	sh, _ := w.AddSheet("S", xlsx.SheetOptions{})
	if err := sh.WriteRow([]xlsx.Cell{xlsx.ArrayFormula("A1", rng("B2:B3"))}); !errors.Is(err, xlsx.ErrRange) {
		t.Errorf("error %v", err)
	}
}
