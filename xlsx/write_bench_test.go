package xlsx_test

import (
	"io"
	"strconv"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/xlsx"
)

// BenchmarkWriteRow writes rows of ten mixed cells (numbers, text from a
// small vocabulary, a boolean and a date) into a discarding writer; one op
// is one row. Allocations per op must stay at 0 after warm-up. "table"
// writes the rows into an Excel table with a totals row; "chart" has a
// chart over three columns on the sheet, its caches filled as the rows
// stream (to the default limit of 32,000 points a series); "pivot" feeds
// a pivot table by the text column (1,000 items) with a sum and an
// average.
func BenchmarkWriteRow(b *testing.B) {
	for _, mode := range []struct {
		name  string
		opts  xlsx.Options
		table bool
		chart bool
		pivot bool
	}{
		{"shared", xlsx.Options{Workers: 1}, false, false, false},
		{"inline", xlsx.Options{Workers: 1, Strings: xlsx.StringsInline}, false, false, false},
		{"parallel", xlsx.Options{}, false, false, false},
		{"table", xlsx.Options{Workers: 1}, true, false, false},
		{"chart", xlsx.Options{Workers: 1}, false, true, false},
		{"pivot", xlsx.Options{Workers: 1}, false, false, true},
	} {
		b.Run(mode.name, func(b *testing.B) {
			w, err := xlsx.NewWriter(io.Discard, mode.opts)
			if err != nil {
				b.Fatal(err)
			}
			addSheet := func(name string) (*xlsx.Sheet, error) {
				if mode.pivot {
					if err := w.AddPivotTable(xlsx.PivotTable{Source: name, Rows: []string{"e"},
						Values: []xlsx.PivotValue{{Column: "c"}, {Column: "d", Func: xlsx.PivotAverage}}}); err != nil {
						return nil, err
					}
					sh, err := w.AddSheet(name, xlsx.SheetOptions{})
					if err != nil {
						return nil, err
					}
					header := make([]xlsx.Cell, 10)
					for i := range header {
						header[i] = xlsx.String(string(rune('a' + i)))
					}
					return sh, sh.WriteRow(header)
				}
				sh, err := w.AddSheet(name, xlsx.SheetOptions{})
				if err != nil || mode.chart {
					if err == nil {
						q := xlsx.QuoteSheetName(name)
						err = sh.AddChart(1, 12, xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{
							{Categories: q + "!$E$1:$E", Values: q + "!$C$1:$C"}, {Categories: q + "!$E$1:$E", Values: q + "!$D$1:$D"}}})
					}
					return sh, err
				}
				if !mode.table {
					return sh, err
				}
				columns := make([]xlsx.TableColumn, 10)
				columns[0].TotalLabel = "Total"
				for i := 1; i < 4; i++ {
					columns[i].Total = xlsx.TotalSum
				}
				if err := sh.AddTable(xlsx.Range{FirstRow: 1, FirstCol: 1, LastCol: 10}, xlsx.Table{TotalsRow: true, Columns: columns}); err != nil {
					return nil, err
				}
				return sh, sh.WriteRow(nil) // the header, named by the table
			}
			sh, err := addSheet("Bench")
			if err != nil {
				b.Fatal(err)
			}
			names, base := mixedVocabulary()
			row := make([]xlsx.Cell, 10)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if i%(xlsx.MaxRows-2) == 0 && i > 0 {
					if sh, err = addSheet("Bench" + strconv.Itoa(i)); err != nil {
						b.Fatal(err)
					}
				}
				mixedRow(row, i, names, base)
				if err := sh.WriteRow(row); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*10), "ns/cell")
		})
	}
}

func mixedVocabulary() ([]string, time.Time) {
	names := make([]string, 1000)
	for i := range names {
		names[i] = "name-" + strconv.Itoa(i)
	}
	return names, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
}

// mixedRow fills row with the i-th row of ten mixed cells.
func mixedRow(row []xlsx.Cell, i int, names []string, base time.Time) {
	row[0] = xlsx.Int(int64(i))
	row[1] = xlsx.Int(int64(i * 7 % 100000))
	row[2] = xlsx.Float(float64(i)*1.25 + 0.5)
	row[3] = xlsx.Float(float64(i%10000) / 100)
	row[4] = xlsx.String(names[i%1000])
	row[5] = xlsx.String(names[(i*7)%1000])
	row[6] = xlsx.Bool(i%2 == 0)
	row[7] = xlsx.Time(base.Add(time.Duration(i) * time.Second))
	row[8] = xlsx.Date(base)
	row[9] = xlsx.Number(uint32(i))
}

// BenchmarkSheets writes one workbook of four sheets of 100,000 mixed
// rows each, one sheet after another or all four at once from their own
// goroutines (waiting sheets blocking at the memory budget, or spilling
// to temporary files). One op is one workbook.
func BenchmarkSheets(b *testing.B) {
	const sheets, rows = 4, 100_000
	names, base := mixedVocabulary()
	fill := func(sh *xlsx.Sheet) error {
		row := make([]xlsx.Cell, 10)
		for i := range rows {
			mixedRow(row, i, names, base)
			if err := sh.WriteRow(row); err != nil {
				return err
			}
		}
		return sh.Close()
	}
	for _, mode := range []struct {
		name       string
		concurrent bool
		tempDir    bool
	}{{"sequential", false, false}, {"concurrent", true, false}, {"concurrent-spill", true, true}} {
		b.Run(mode.name, func(b *testing.B) {
			opts := xlsx.Options{}
			if mode.tempDir {
				opts.TempDir = b.TempDir()
			}
			b.ReportAllocs()
			for b.Loop() {
				w, err := xlsx.NewWriter(io.Discard, opts)
				if err != nil {
					b.Fatal(err)
				}
				errs := make(chan error, sheets)
				for s := range sheets {
					name := "S" + strconv.Itoa(s)
					if !mode.concurrent {
						sh, err := w.AddSheet(name, xlsx.SheetOptions{})
						if err == nil {
							err = fill(sh)
						}
						errs <- err
						continue
					}
					sh, err := w.AddConcurrentSheet(name, xlsx.SheetOptions{})
					if err != nil {
						b.Fatal(err)
					}
					go func() { errs <- fill(sh) }()
				}
				for range sheets {
					if err := <-errs; err != nil {
						b.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*sheets*rows*10), "ns/cell")
		})
	}
}

// BenchmarkWriteTextRow writes rows of ten distinct strings with non-ASCII
// text and characters to escape (the W3 workload): past the shared strings
// budget, text goes inline. One op is one row.
func BenchmarkWriteTextRow(b *testing.B) {
	phrases := []string{"alpha & beta", "Café résumé", "x < y > z", "中文字符测试", "plain text value",
		"Tom & Jerry <b>", "naïve façade", "数据-data-mix"}
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{Workers: 1})
	sh, _ := w.AddSheet("S", xlsx.SheetOptions{})
	row := make([]xlsx.Cell, 10)
	texts := make([]string, 1000)
	for i := range texts {
		texts[i] = "row " + strconv.Itoa(i) + " col: " + phrases[i%8]
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if i%(xlsx.MaxRows-1) == 0 && i > 0 {
			sh, _ = w.AddSheet("S"+strconv.Itoa(i), xlsx.SheetOptions{})
		}
		for j := range row {
			row[j] = xlsx.String(texts[(i*10+j)%len(texts)])
		}
		if err := sh.WriteRow(row); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	w.Close()
}
