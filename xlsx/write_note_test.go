package xlsx_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

// TestNotes streams rows with notes: one added before its row, one on
// the row just written, one far down a long sheet past rows of other
// heights, in two authors' names and on two sheets; openpyxl reads them
// back, the validator checks the file, and LibreOffice keeps them.
func TestNotes(t *testing.T) {
	const rows = 5000
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("Orders", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		if err := sh.AddNote(1, 2, xlsx.Note{Text: "Net of discounts", Author: "Finance"}); err != nil {
			return err
		}
		if err := sh.WriteRow([]xlsx.Cell{xlsx.String("Order"), xlsx.String("Amount")}); err != nil {
			return err
		}
		for i := 2; i <= rows; i++ {
			opts := xlsx.RowOptions{}
			if i%7 == 0 {
				opts.Height = 30
			}
			if err := sh.WriteRowWith([]xlsx.Cell{xlsx.Int(int64(i)), xlsx.Float(float64(i) * 1.5)}, opts); err != nil {
				return err
			}
			if i == 100 {
				if err := sh.AddNote(100, 1, xlsx.Note{Text: "Refunded\non 3 March", Author: "Ops", Visible: true, Width: 150, Height: 80}); err != nil {
					return err
				}
				if err := sh.AddNote(rows, 2, xlsx.Note{Text: "Last order", Author: "Finance"}); err != nil {
					return err
				}
			}
		}
		other, err := w.AddSheet("Other", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		if err := other.AddNote(3, 3, xlsx.Note{Text: "Empty cell's note", Author: "Reviewer"}); err != nil {
			return err
		}
		return other.WriteRow([]xlsx.Cell{xlsx.String("x")})
	})
	pyread.Python(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.xlsx")
	if err := os.WriteFile(path, book, 0o644); err != nil {
		t.Fatal(err)
	}
	res := pyread.ReadValues(t, path)[path]
	if res == nil || res.Error != "" {
		t.Fatalf("%+v", res)
	}
	want := map[string]map[string][2]string{
		"Orders": {"B1": {"Net of discounts", "Finance"}, "A100": {"Refunded\non 3 March", "Ops"}, "B5000": {"Last order", "Finance"}},
		"Other":  {"C3": {"Empty cell's note", "Reviewer"}},
	}
	for sheet, notes := range want {
		for cell, n := range notes {
			if got := res.Notes[sheet][cell]; got != n {
				t.Errorf("%s!%s: note %q, want %q", sheet, cell, got, n)
			}
		}
		if len(res.Notes[sheet]) != len(notes) {
			t.Errorf("%s: notes %v", sheet, res.Notes[sheet])
		}
	}
	resaved := pyread.Resave(t, filepath.Join(dir, "lo"), path)[0]
	again := pyread.ReadValues(t, resaved)[resaved]
	if again == nil || again.Error != "" || again.Notes["Orders"]["A100"][0] != "Refunded\non 3 March" || len(again.Notes["Other"]) != 1 {
		t.Errorf("LibreOffice's copy: notes %v", again.Notes)
	}
}

// TestNotesValidate: a small workbook with notes passes the Open XML
// validator (the large one above would take it minutes).
func TestNotesValidate(t *testing.T) {
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		sh, _ := w.AddSheet("S", xlsx.SheetOptions{})
		if err := sh.AddNote(2, 2, xlsx.Note{Text: "<&>\"'", Author: "A & B"}); err != nil {
			return err
		}
		return sh.WriteRow([]xlsx.Cell{xlsx.Int(1)})
	})
	pyread.Python(t)
	path := filepath.Join(t.TempDir(), "n.xlsx")
	if err := os.WriteFile(path, book, 0o644); err != nil {
		t.Fatal(err)
	}
	if res := pyread.Read(t, path)[path]; res == nil || res.Error != "" || len(res.Audit) > 0 || res.Notes["S"]["B2"] != [2]string{"<&>\"'", "A & B"} {
		t.Errorf("%+v", res)
	}
}

// TestNoteErrors: notes on rows already passed, outside the sheet, or
// too large are refused, leaving the Writer usable.
func TestNoteErrors(t *testing.T) {
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	defer w.Close()
	sh, _ := w.AddSheet("S", xlsx.SheetOptions{})
	for range 3 {
		sh.WriteRow([]xlsx.Cell{xlsx.Int(1)})
	}
	for name, try := range map[string]func() error{
		"row passed": func() error { return sh.AddNote(2, 1, xlsx.Note{Text: "x"}) },
		"outside":    func() error { return sh.AddNote(3, xlsx.MaxColumns+1, xlsx.Note{Text: "x"}) },
		"size":       func() error { return sh.AddNote(3, 1, xlsx.Note{Text: "x", Width: -1}) },
		"bad text":   func() error { return sh.AddNote(3, 1, xlsx.Note{Text: "\x00"}) },
	} {
		if err := try(); !errors.Is(err, xlsx.ErrRange) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := sh.WriteRow([]xlsx.Cell{xlsx.Int(1)}); err != nil {
		t.Errorf("the Writer stopped: %v", err)
	}
}
