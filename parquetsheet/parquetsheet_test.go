package parquetsheet

import (
	"bytes"
	"context"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/arrowsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// TestRoundTrip: a sheet's typed columns to Parquet (Write) and back to
// cells (Reader), in row groups, the columns in the sheet's order.
func TestRoundTrip(t *testing.T) {
	var book bytes.Buffer
	xw, _ := xlsx.NewWriter(&book, xlsx.Options{})
	sh, _ := xw.AddSheet("S", xlsx.SheetOptions{})
	sh.WriteRow([]xlsx.Cell{xlsx.String("z"), xlsx.String("a"), xlsx.String("when"), xlsx.String("ok"), xlsx.String("took")})
	day := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	n := RowGroupRows + 10 // two row groups
	for i := range n {
		row := []xlsx.Cell{xlsx.Int(int64(i)), xlsx.String("t" + string(rune('a'+i%26))), xlsx.Time(day.Add(time.Duration(i) * time.Second)), xlsx.Bool(i%2 == 0), xlsx.Duration(time.Duration(i) * time.Minute)}
		if i == 7 {
			row[1] = xlsx.Blank()
		}
		sh.WriteRow(row)
	}
	if err := xw.Close(); err != nil {
		t.Fatal(err)
	}
	wb, _ := xlsx.NewReader(bytes.NewReader(book.Bytes()), int64(book.Len()), xlsx.ReadOptions{})
	rows, _ := wb.Rows(context.Background(), 0)
	defer rows.Close()
	r, err := arrowsheet.NewReader(rows, "S", arrowsheet.ReadOptions{BatchRows: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	var pq bytes.Buffer
	written, err := Write(&pq, r)
	if err != nil || written != int64(n) {
		t.Fatalf("%d rows, %v", written, err)
	}
	pr, err := NewReader(bytes.NewReader(pq.Bytes()), int64(pq.Len()))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	if h := pr.Header(); len(h) != 5 || h[0] != "z" || h[1] != "a" || h[4] != "took" {
		t.Fatalf("header %q", h)
	}
	var i int
	for ; pr.Next(); i++ {
		var v xlsx.Value
		cells := pr.Cells()
		v.SetCell(1, &cells[0])
		if v.Float() != float64(i) {
			t.Fatalf("row %d: z %v", i, v.Float())
		}
		v.SetCell(3, &cells[2])
		if got := v.PreciseTime(); !got.Equal(day.Add(time.Duration(i) * time.Second)) {
			t.Fatalf("row %d: when %v", i, got)
		}
		if i == 7 && !cells[1].IsEmpty() {
			t.Errorf("row 7: a null became %v", cells[1].Value())
		}
		v.SetCell(5, &cells[4])
		if v.Float() != float64(i*60_000_000) { // durations: microseconds
			t.Fatalf("row %d: took %v", i, v.Float())
		}
	}
	if err := pr.Err(); err != nil || i != n {
		t.Fatalf("%d rows, %v", i, err)
	}
	if _, err := NewReader(bytes.NewReader(book.Bytes()), int64(book.Len())); err == nil {
		t.Error("a workbook read as Parquet")
	}
}

func TestDecimalText(t *testing.T) {
	for _, c := range []struct {
		bytes []byte
		scale int
		want  string
	}{
		{[]byte{0x00, 0x96}, 2, "1.50"},
		{[]byte{0xff, 0x1f}, 2, "-2.25"},
		{[]byte{0x05}, 3, "0.005"},
		{[]byte{0xfb}, 3, "-0.005"},
		{[]byte{0x07}, 0, "7"},
	} {
		var n big.Int
		twosComplement(&n, c.bytes)
		if got := decimalText(&n, c.scale); got != c.want {
			t.Errorf("%x scale %d: %s, want %s", c.bytes, c.scale, got, c.want)
		}
	}
}

func TestFloat16(t *testing.T) {
	for h, want := range map[uint16]float32{0x3c00: 1, 0xc000: -2, 0x3800: 0.5, 0x0001: float32(math.Pow(2, -24)), 0x7c00: float32(math.Inf(1))} {
		if got := float16(h); got != want {
			t.Errorf("%#04x: %v, want %v", h, got, want)
		}
	}
}
