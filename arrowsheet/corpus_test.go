package arrowsheet_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sheetstream/sheetstream/arrowsheet"
	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/xlsx"
)

// TestCorpusAgainstCalamine: every .xlsx of the shared corpus (the
// ones the reader opens), its first sheet read whole (every row sampled,
// so no cell misfits), against python-calamine: each cell it reads is a
// non-null value at the same place here, of a type the mapping allows for
// it, and no value here is a cell it does not read.
func TestCorpusAgainstCalamine(t *testing.T) {
	dir := testenv.Corpus(t)
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var paths []string
	sc := bufio.NewScanner(f)
	sc.Scan()
	for sc.Scan() {
		if name, _, _ := strings.Cut(sc.Text(), "\t"); strings.HasSuffix(name, ".xlsx") {
			paths = append(paths, filepath.Join(dir, name))
		}
	}
	cal := pyread.Calamine(t, paths...)
	compared, cells := 0, 0
	for _, path := range paths {
		if rel, _ := filepath.Rel(dir, path); disagreements[rel] != "" {
			continue
		}
		want := cal[path]
		if want == nil || want.Error != "" || len(want.Sheets) == 0 {
			continue
		}
		wb, err := xlsx.Open(path, xlsx.ReadOptions{})
		if err != nil {
			continue // a file the reader refuses (its own tests say why)
		}
		got, err := readWhole(wb)
		wb.Close()
		switch {
		case errors.Is(err, arrowsheet.ErrMisfit):
			t.Errorf("%s: %v (every row was sampled)", path, err)
			continue
		case err != nil:
			continue // the workbook reader refuses the sheet (its corpus test says why)
		}
		compared++
		seen := map[[2]int]bool{}
		for _, c := range want.Cells[want.Sheets[0][0]] {
			if c.Value == nil || c.Value.Type == "e" { // errors read as null
				continue
			}
			cells++
			pos := [2]int{c.Row, c.Col}
			seen[pos] = true
			typ, ok := got[pos]
			if !ok {
				t.Errorf("%s: %s: python-calamine reads %v, here null", path, xlsx.CellName(c.Row, c.Col), c.Value)
				continue
			}
			if !allowed(c.Value.Type, typ) {
				t.Errorf("%s: %s: %v in a column of %s", path, xlsx.CellName(c.Row, c.Col), c.Value, typ)
			}
		}
		for pos, typ := range got {
			if !seen[pos] && typ.ID() != arrow.STRING {
				t.Errorf("%s: %s: a %s value python-calamine does not read", path, xlsx.CellName(pos[0], pos[1]), typ)
			}
		}
	}
	if compared < 1500 || cells < 500000 {
		t.Errorf("compared %d files, %d cells", compared, cells)
	}
	t.Logf("%d files, %d cells", compared, cells)
}

// disagreements are the files where python-calamine and the workbook
// reader read cells differently on purpose.
var disagreements = map[string]string{
	// Negative serials in a time format: Excel shows ####, python-calamine
	// a time of day, the reader the number.
	"umya-spreadsheet/issue_296.xlsx": "negative date serials",
}

// readWhole reads the first sheet with every row sampled: the non-null
// values' places (row and column, from 1) and their column's type.
func readWhole(wb *xlsx.Workbook) (map[[2]int]arrow.DataType, error) {
	// The batches' first row is the sheet's first row with a cell.
	first := 1
	if rows, err := wb.Rows(context.Background(), 0); err == nil {
		if rows.Next() {
			first = rows.Row().Num
		}
		rows.Close()
	}
	rows, err := wb.Rows(context.Background(), 0)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	r, err := arrowsheet.NewReader(rows, "S", arrowsheet.ReadOptions{NoHeader: true, SampleRows: 1 << 30})
	if err != nil {
		return map[[2]int]arrow.DataType{}, nil // an empty sheet
	}
	defer r.Release()
	got := map[[2]int]arrow.DataType{}
	row := first - 1
	for r.Next() {
		rec := r.RecordBatch()
		for i := range int(rec.NumRows()) {
			for c := range int(rec.NumCols()) {
				col := rec.Column(c)
				if col.IsValid(i) && !emptyString(col, i) {
					got[[2]int{row + i + 1, c + 1}] = col.DataType()
				}
			}
		}
		row += int(rec.NumRows())
	}
	return got, r.Err()
}

// emptyString: an empty text, which python-calamine reads as no cell.
func emptyString(a arrow.Array, i int) bool {
	s, ok := a.(*array.String)
	return ok && s.Value(i) == ""
}

// allowed says whether a cell python-calamine reads as kind may stand in
// a column of typ: its own type, or text in a column of mixed kinds.
func allowed(kind string, typ arrow.DataType) bool {
	switch typ.ID() {
	case arrow.STRING:
		return true
	case arrow.INT64, arrow.FLOAT64:
		return kind == "n"
	case arrow.BOOL:
		return kind == "b"
	case arrow.DATE32, arrow.TIMESTAMP, arrow.TIME64:
		return kind == "d" || kind == "t"
	case arrow.DURATION:
		return kind == "dur" || kind == "n"
	}
	return false
}
