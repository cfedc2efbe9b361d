package xlsx

import (
	"bytes"
	"context"
	"fmt"
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
			if string(AppendNumberText(nil, f)) != s {
				t.Errorf("%q is short, but the shortest form of its double is %s", s, AppendNumberText(nil, f))
			}
		}
	}
}

// BenchmarkReadRows reads 100,000 rows of W1-like mixed cells written by
// the writer (shared strings, compact references), on one and on two
// parse workers; it reports ns and allocations per cell.
func BenchmarkReadRows(b *testing.B) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Options{})
	s, _ := w.AddSheet("W1", SheetOptions{})
	row := make([]Cell, 10)
	const rows = 100000
	for i := range rows {
		row[0], row[1], row[2], row[3] = Int(int64(i)), Int(int64(i*7%100000)), Int(int64(i*13%1000)), Int(int64(i*31%1000000))
		row[4], row[5], row[6] = Float(float64(i)*1.25+0.5), Float(float64(i%10000)/100), Float(float64(i)/7)
		row[7], row[8], row[9] = String(fmt.Sprintf("name-%d", i%1000)), String(fmt.Sprintf("city-%d", i%50)), String(fmt.Sprintf("x%d", i))
		s.WriteRow(row)
	}
	w.Close()
	data := buf.Bytes()
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				wb, err := NewReader(bytes.NewReader(data), int64(len(data)), ReadOptions{Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				rows, _ := wb.Rows(context.Background(), 0)
				sum, n := 0.0, 0
				for rows.Next() {
					for i := range rows.Row().Cells {
						c := &rows.Row().Cells[i]
						sum += c.Float()
						n += len(c.Bytes())
					}
				}
				if rows.Err() != nil || sum == 0 {
					b.Fatal(rows.Err())
				}
				rows.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(rows*10), "ns/cell")
		})
	}
}
