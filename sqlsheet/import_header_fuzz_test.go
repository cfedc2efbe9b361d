package sqlsheet

import (
	"context"
	"testing"

	"github.com/sheetstream/sheetstream/xlsx"
)

// rowsSource is a Source of rows held in memory.
type rowsSource []xlsx.Row

func (s rowsSource) SheetName() string { return "Fuzz" }

func (s rowsSource) EachRow(_ context.Context, fn func(xlsx.Row) error) error {
	for _, r := range s {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

// sheetFromBytes makes rows from fuzz input: each byte a cell (its low
// bits the type: empty, text, number, date, boolean), 0xFF ending a row;
// a row of no bytes is an empty row.
func sheetFromBytes(data []byte) rowsSource {
	var rows rowsSource
	row := xlsx.Row{Num: 1}
	col := 0
	for _, b := range data {
		if b == 0xFF || col == 20 {
			rows = append(rows, row)
			row, col = xlsx.Row{Num: row.Num + 1 + int(b>>7&1)}, 0
			if b == 0xFF {
				continue
			}
		}
		col++
		var c xlsx.Cell
		switch b % 5 {
		case 1:
			c = xlsx.String("h" + string(rune('a'+b%26)))
		case 2:
			c = xlsx.Int(int64(b))
		case 3:
			c = xlsx.Float(float64(b) + 0.5)
		case 4:
			c = xlsx.Bool(b&8 != 0)
		}
		if !c.IsEmpty() {
			row.Cells = append(row.Cells, xlsx.ValueOf(col, c))
		}
	}
	return append(rows, row)
}

// FuzzFindHeader: the header search never fails on a sheet with an
// all-text row among its first 100, and the row it picks has only text,
// lies inside the range, and either has data right under it or is the
// widest all-text row it looked at.
func FuzzFindHeader(f *testing.F) {
	f.Add([]byte{1, 1, 1, 0xFF, 2, 3, 4}, uint8(0))
	f.Add([]byte{1, 0xFF, 0xFF, 0, 1, 1, 1, 0xFF, 1, 2, 2, 0xFF, 0xFF, 1, 2}, uint8(2))
	f.Add([]byte{2, 0xFF, 1, 1, 0xFF, 1, 1, 1}, uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, firstRow uint8) {
		src := sheetFromBytes(data)
		imp := &importer{src: src, opts: ImportOptions{Table: "t", HeaderRow: HeaderAuto, Range: xlsx.Range{FirstRow: int(firstRow % 8)}}}
		err := imp.findHeader(context.Background())
		start := max(int(firstRow%8), 1)
		var seen []xlsx.Row
		for _, r := range src {
			if r.Num >= start && len(seen) < 100 && !blankRow(r.Cells) {
				seen = append(seen, r)
			}
		}
		allText := func(r xlsx.Row) bool {
			n := 0
			for _, c := range r.Cells {
				if c.Type() != xlsx.TypeString {
					return false
				}
				n++
			}
			return n > 0
		}
		if err != nil {
			for _, r := range seen {
				if allText(r) {
					t.Fatalf("no header found, but row %d is all text", r.Num)
				}
			}
			return
		}
		num := imp.stats.HeaderRow
		var header xlsx.Row
		for i, r := range seen {
			if r.Num != num {
				continue
			}
			header = r
			if !allText(r) {
				t.Fatalf("row %d picked, not all text", num)
			}
			underIsData := i+1 < len(seen) && seen[i+1].Num == num+1 && !allText(seen[i+1])
			if !underIsData {
				for _, o := range seen {
					if allText(o) && len(o.Cells) > len(r.Cells) {
						t.Fatalf("row %d picked without data under it, but row %d is a wider all-text row", num, o.Num)
					}
				}
			}
		}
		if header.Num == 0 || imp.headerRow != num-start+1 {
			t.Fatalf("row %d picked (headerRow %d from %d), not among the rows looked at", num, imp.headerRow, start)
		}
	})
}
