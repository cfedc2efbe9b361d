package xlsx

import (
	"context"
	"os"
	"strconv"
	"testing"
)

// BenchmarkReadFile reads every cell of the workbook named by
// SHEETSTREAM_READ_BENCH (e.g. W1 from the bench suite), with
// SHEETSTREAM_READ_WORKERS parse workers.
func BenchmarkReadFile(b *testing.B) {
	path := os.Getenv("SHEETSTREAM_READ_BENCH")
	if path == "" {
		b.Skip("SHEETSTREAM_READ_BENCH names no workbook")
	}
	for b.Loop() {
		wb, err := Open(path, ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		rows, err := wb.Rows(context.Background(), 0)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for rows.Next() {
			for i := range rows.Row().Cells {
				c := &rows.Row().Cells[i]
				if c.Type() == TypeString {
					n += len(c.Bytes())
				}
			}
		}
		if rows.Err() != nil {
			b.Fatal(rows.Err())
		}
		rows.Close()
		wb.Close()
	}
}

func TestShortDecimal(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "1": true, "-1": true, "0.5": true, "-0.25": true, "123456789012345": true,
		"1234567890123456": false, "0.1428571428571428": false, "0.142857142857143": true,
		"-0": false, "1.50": false, "01": false, "1e5": false, "1.": false, ".5": false, "": false, "-": false,
		"0.000000000000001": false, "0.000001": true, "0.0000001": false, "1.0": false, "12.34": true, "1,5": false,
	} {
		if got := isShortDecimal([]byte(s)); got != want {
			t.Errorf("isShortDecimal(%q) = %v", s, got)
		}
		if want {
			f, _ := strconv.ParseFloat(s, 64)
			if string(AppendNumber(nil, f)) != s {
				t.Errorf("%q is short, but the shortest form of its double is %s", s, AppendNumber(nil, f))
			}
		}
	}
}
