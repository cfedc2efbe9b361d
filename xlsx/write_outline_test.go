package xlsx_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

// TestOutlines streams grouped rows (a collapsed group, summaries above)
// and grouped columns over a sheet longer than its first chunk, its
// deepest level declared, and reads the outline back with openpyxl.
func TestOutlines(t *testing.T) {
	const groups = 2000 // about 40,000 rows: many chunks
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("Grouped", xlsx.SheetOptions{RowOutlineLevels: 2, OutlineSummaryAbove: true})
		if err != nil {
			return err
		}
		if err := sh.SetColumn(2, 3, xlsx.ColumnOptions{OutlineLevel: 1, Collapsed: true, Hidden: true}); err != nil {
			return err
		}
		for g := range groups {
			if err := sh.WriteRowWith([]xlsx.Cell{xlsx.String(fmt.Sprint("group ", g))}, xlsx.RowOptions{Collapsed: g == 0}); err != nil {
				return err
			}
			for i := range 20 {
				level := uint8(1)
				if g == groups-1 && i > 10 {
					level = 2 // the deepest level, far past the head
				}
				if err := sh.WriteRowWith([]xlsx.Cell{xlsx.Int(int64(i))}, xlsx.RowOptions{OutlineLevel: level, Hidden: g == 0}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	pyread.Python(t)
	path := filepath.Join(t.TempDir(), "outline.xlsx")
	if err := os.WriteFile(path, book, 0o644); err != nil {
		t.Fatal(err)
	}
	res := pyread.ReadValues(t, path)[path]
	if res == nil || res.Error != "" {
		t.Fatalf("%+v", res)
	}
	o := res.Outline["Grouped"]
	if o == nil || o.LevelRow != 2 || o.LevelCol != 1 || o.SummaryBelow || !o.SummaryRight {
		t.Fatalf("outline levels %d/%d, summary below %v, right %v", o.LevelRow, o.LevelCol, o.SummaryBelow, o.SummaryRight)
	}
	check := func(row string, level float64, hidden, collapsed bool) {
		if got, want := o.Rows[row], [3]any{level, hidden, collapsed}; got != want {
			t.Errorf("row %s: %v, want %v", row, got, want)
		}
	}
	check("1", 0, false, true)
	check("2", 1, true, false)
	check("23", 1, false, false)
	last := groups*21 - 1
	check(fmt.Sprint(last), 2, false, false)
	if c := o.Cols["B"]; c != [2]any{1.0, true} {
		t.Errorf("column B: %v", c)
	}
}

// TestOutlineTooDeep: past the sheet's head, a row deeper than the level
// the head declared is an error, and a level beyond 7 always is.
func TestOutlineTooDeep(t *testing.T) {
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{ChunkSize: 4096})
	defer w.Close()
	sh, _ := w.AddSheet("S", xlsx.SheetOptions{})
	for i := range 2000 {
		if err := sh.WriteRowWith([]xlsx.Cell{xlsx.Int(int64(i))}, xlsx.RowOptions{OutlineLevel: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := sh.WriteRowWith([]xlsx.Cell{xlsx.Int(1)}, xlsx.RowOptions{OutlineLevel: 2}); !errors.Is(err, xlsx.ErrHeadWritten) {
		t.Errorf("a deeper level after the head: %v", err)
	}
	w2, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	defer w2.Close()
	sh2, _ := w2.AddSheet("S", xlsx.SheetOptions{})
	if err := sh2.WriteRowWith(nil, xlsx.RowOptions{OutlineLevel: 8}); !errors.Is(err, xlsx.ErrRange) {
		t.Errorf("level 8: %v", err)
	}
}
