package csvsheet_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// e1CSV is CSV of E1's shape (integers, decimals, floats of 17
// significant digits, text, a date), a header and rows records.
func e1CSV(rows int) []byte {
	var in bytes.Buffer
	in.WriteString("id,a,b,c,ratio,pct,frac,name,city,day\n")
	for i := range rows {
		fmt.Fprintf(&in, "%d,%d,%d,%d,%.2f,%.2f,%v,name-%d,city-%d,2001-%02d-%02d\n",
			i, i*7%100000, i*13%1000, i*31%1000000, float64(i)*1.25+0.5, float64(i%100)/100, 1/float64(i%7+1), i, i%100, i%12+1, i%28+1)
	}
	return in.Bytes()
}

// BenchmarkConvert converts CSV of E1's shape with inference; it reports
// the cost of a field.
func BenchmarkConvert(b *testing.B) {
	const rows = 50000
	in := e1CSV(rows)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		w, err := xlsx.NewWriter(io.Discard, xlsx.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := csvsheet.Convert(context.Background(), bytes.NewReader(in), w, csvsheet.Options{}); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(rows*10), "ns/field")
}

// BenchmarkTable reads the same CSV as typed rows, as an import does:
// parsing and typing alone, on GOMAXPROCS cores.
func BenchmarkTable(b *testing.B) {
	const rows = 50000
	in := e1CSV(rows)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		cells := 0
		err := csvsheet.NewTable(bytes.NewReader(in), csvsheet.Options{}).EachRow(context.Background(), func(r xlsx.Row) error {
			cells += len(r.Cells)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		if cells != (rows+1)*10 {
			b.Fatalf("%d cells", cells)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(rows*10), "ns/field")
}
