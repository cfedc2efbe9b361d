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

// BenchmarkConvert converts CSV of E1's shape (integers, decimals, text, a
// date) with inference; it reports the cost of a field.
func BenchmarkConvert(b *testing.B) {
	var in bytes.Buffer
	in.WriteString("id,a,b,c,ratio,pct,frac,name,city,day\n")
	const rows = 50000
	for i := range rows {
		fmt.Fprintf(&in, "%d,%d,%d,%d,%.2f,%.2f,%.6f,name-%d,city-%d,2001-%02d-%02d\n",
			i, i*7%100000, i*13%1000, i*31%1000000, float64(i)*1.25+0.5, float64(i%100)/100, 1/float64(i%7+1), i, i%100, i%12+1, i%28+1)
	}
	b.SetBytes(int64(in.Len()))
	b.ReportAllocs()
	for b.Loop() {
		w, err := xlsx.NewWriter(io.Discard, xlsx.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := csvsheet.Convert(context.Background(), bytes.NewReader(in.Bytes()), w, csvsheet.Options{}); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(rows*10), "ns/field")
}
