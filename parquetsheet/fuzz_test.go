package parquetsheet

import (
	"bytes"
	"context"
	"testing"

	"github.com/sheetstream/sheetstream/arrowsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// FuzzReader: any bytes as a Parquet file are read to the end or refused
// with an error, never a panic or a hang; seeded with a file Write makes.
func FuzzReader(f *testing.F) {
	var book bytes.Buffer
	xw, _ := xlsx.NewWriter(&book, xlsx.Options{})
	sh, _ := xw.AddSheet("S", xlsx.SheetOptions{})
	sh.WriteRow([]xlsx.Cell{xlsx.String("n"), xlsx.String("s"), xlsx.String("d")})
	for i := range 20 {
		sh.WriteRow([]xlsx.Cell{xlsx.Int(int64(i)), xlsx.String("x"), xlsx.Float(float64(i) / 3)})
	}
	xw.Close()
	wb, _ := xlsx.NewReader(bytes.NewReader(book.Bytes()), int64(book.Len()), xlsx.ReadOptions{})
	rows, _ := wb.Rows(context.Background(), 0)
	r, _ := arrowsheet.NewReader(rows, "S", arrowsheet.ReadOptions{})
	var pq bytes.Buffer
	if _, err := Write(&pq, r); err != nil {
		f.Fatal(err)
	}
	r.Release()
	rows.Close()
	f.Add(pq.Bytes())
	f.Add([]byte("PAR1PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		pr, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		defer pr.Close()
		for n := 0; pr.Next(); n++ {
			if n > 1_000_000 {
				t.Fatal("more rows than the bytes could hold")
			}
		}
	})
}
