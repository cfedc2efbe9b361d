package xlsx_test

// What several of the package's test files share: failing a test on an
// error, adding sheets and styles, and the short builders the twin
// tables are written with.

import (
	"testing"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Cell constructors, short, for the tables of expected workbooks.
var (
	str = xlsx.String
	num = xlsx.Int
)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func addSheet(t *testing.T, w *xlsx.Writer, name string, o xlsx.SheetOptions) *xlsx.Sheet {
	t.Helper()
	sh, err := w.AddSheet(name, o)
	must(t, err)
	return sh
}

func style(t *testing.T, w *xlsx.Writer, st xlsx.Style) xlsx.StyleID {
	t.Helper()
	id, err := w.AddStyle(st)
	must(t, err)
	return id
}

// sheetOf adds a sheet and fails the build on error through the returned
// helpers; it keeps the builders below short.
type sheetOf struct {
	sh  *xlsx.Sheet
	err error
}

func add(w *xlsx.Writer, name string, o ...xlsx.SheetOptions) *sheetOf {
	var opts xlsx.SheetOptions
	if len(o) > 0 {
		opts = o[0]
	}
	sh, err := w.AddSheet(name, opts)
	return &sheetOf{sh, err}
}

// at writes cells starting at an A1 reference, skipping rows as needed.
func (s *sheetOf) at(ref string, cells ...xlsx.Cell) *sheetOf {
	return s.rowAt(ref, nil, cells...)
}

func (s *sheetOf) rowAt(ref string, opts *xlsx.RowOptions, cells ...xlsx.Cell) *sheetOf {
	if s.err != nil {
		return s
	}
	row, col, err := xlsx.ParseCellName(ref)
	if err != nil {
		s.err = err
		return s
	}
	if skip := row - s.sh.LastRow() - 1; skip > 0 {
		if s.err = s.sh.SkipRows(skip); s.err != nil {
			return s
		}
	}
	full := append(make([]xlsx.Cell, col-1), cells...)
	if opts != nil {
		s.err = s.sh.WriteRowWith(full, *opts)
	} else {
		s.err = s.sh.WriteRow(full)
	}
	return s
}

func (s *sheetOf) do(f func(sh *xlsx.Sheet) error) *sheetOf {
	if s.err == nil {
		s.err = f(s.sh)
	}
	return s
}

func st(w *xlsx.Writer, style xlsx.Style) xlsx.StyleID {
	id, err := w.AddStyle(style)
	if err != nil {
		panic(err)
	}
	return id
}

func rng(s string) xlsx.Range {
	r, err := xlsx.ParseRange(s)
	if err != nil {
		panic(err)
	}
	return r
}

func firstErr(sheets ...*sheetOf) error {
	for _, s := range sheets {
		if s.err != nil {
			return s.err
		}
	}
	return nil
}
