package arrowsheet_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/arrowsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// FuzzReadSheet: a sheet of any cells (kinds, columns, gaps between
// rows) reads to the end or stops with an error naming a cell; never a
// panic, and every batch has the schema's width.
func FuzzReadSheet(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 0, 1, 2}, uint8(3), uint8(2))
	f.Add([]byte{1, 1, 1, 1, 4, 1}, uint8(1), uint8(1))
	f.Fuzz(func(t *testing.T, kinds []byte, width, sample uint8) {
		w := int(width%6) + 1
		var book bytes.Buffer
		xw, _ := xlsx.NewWriter(&book, xlsx.Options{})
		sh, _ := xw.AddSheet("S", xlsx.SheetOptions{})
		sh.WriteRow([]xlsx.Cell{xlsx.String("a"), xlsx.String("b")})
		row := make([]xlsx.Cell, w)
		for i, k := range kinds {
			c := i % w
			switch k % 8 {
			case 0:
				row[c] = xlsx.Int(int64(k))
			case 1:
				row[c] = xlsx.Float(float64(k) / 7)
			case 2:
				row[c] = xlsx.String(string(rune('a' + k%26)))
			case 3:
				row[c] = xlsx.Bool(k%2 == 0)
			case 4:
				row[c] = xlsx.Date(time.Date(2000, 1, 1+int(k), 0, 0, 0, 0, time.UTC))
			case 5:
				row[c] = xlsx.Time(time.Date(2000, 1, 1, int(k%24), 0, 0, 0, time.UTC))
			case 6:
				row[c] = xlsx.Cell{}
			case 7:
				row[c] = xlsx.Error(xlsx.ErrorNA)
			}
			if c == w-1 {
				if k%5 == 0 {
					sh.SkipRows(1) // an empty row between
				}
				sh.WriteRow(row)
			}
		}
		if err := xw.Close(); err != nil {
			return
		}
		wb, err := xlsx.NewReader(bytes.NewReader(book.Bytes()), int64(book.Len()), xlsx.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := wb.Rows(context.Background(), 0)
		defer rows.Close()
		r, err := arrowsheet.NewReader(rows, "S", arrowsheet.ReadOptions{SampleRows: int(sample%4) + 1, BatchRows: 3})
		if err != nil {
			return
		}
		defer r.Release()
		for r.Next() {
			if got := r.RecordBatch().NumCols(); got != int64(len(r.Schema().Fields())) {
				t.Fatalf("a batch of %d columns", got)
			}
		}
	})
}
