// Command sswrite writes a benchmark workload with sheetstream.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/sheetstream/sheetstream/bench/workload"
	"github.com/sheetstream/sheetstream/xlsx"
)

func main() {
	name := flag.String("workload", "W1", "W1, W2 or W3")
	out := flag.String("o", "out.xlsx", "output file")
	rows := flag.Int("rows", 0, "override the row count")
	level := flag.String("level", "balanced", "none, fastest, balanced or smallest")
	workers := flag.Int("workers", 0, "deflate workers (0: GOMAXPROCS)")
	chunk := flag.Int("chunk", 0, "chunk size in bytes (0: default)")
	strings := flag.String("strings", "auto", "auto, shared or inline")
	budget := flag.Int("sst-budget", 0, "shared strings budget in bytes (0: default)")
	password := flag.String("password", "", "encrypt the workbook with this password")
	table := flag.Bool("table", false, "make the sheet an Excel table with a totals row (sums under the numbers)")
	chart := flag.Bool("chart", false, "draw a scatter chart of column 5 against column 1 over every row")
	template := flag.Bool("template", false, "fill a template (an Excel table of the workload's columns with a totals row, and a chart over column 5) instead of a new sheet")
	flag.Parse()
	wl, err := workload.ByName(*name, *rows)
	if err != nil {
		log.Fatal(err)
	}
	opts := xlsx.Options{Workers: *workers, ChunkSize: *chunk, SharedStringsBudget: *budget, Password: *password}
	opts.Compression = map[string]xlsx.Compression{"none": xlsx.CompressionNone, "fastest": xlsx.CompressionFastest,
		"balanced": xlsx.CompressionBalanced, "smallest": xlsx.CompressionSmallest}[*level]
	opts.Strings = map[string]xlsx.StringMode{"auto": xlsx.StringsAuto, "shared": xlsx.StringsShared, "inline": xlsx.StringsInline}[*strings]
	if *template {
		fillTemplate(wl, *out)
		return
	}
	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 64<<10) // the writer hands over deflated chunks of about this size; 1 MiB here was 1.7 MiB of W1's peak RSS
	var dst io.Writer = bw
	if *password != "" {
		dst = f // encrypted in place: the writer seeks in the file
	}
	w, err := xlsx.NewWriter(dst, opts)
	if err != nil {
		log.Fatal(err)
	}
	sh, err := w.AddSheet("Sheet1", xlsx.SheetOptions{})
	if err != nil {
		log.Fatal(err)
	}
	cells := make([]xlsx.Cell, wl.Cols)
	if *table {
		// Open-ended: the table ends with the sheet, its totals under it.
		columns := make([]xlsx.TableColumn, wl.Cols)
		columns[0].TotalLabel = "Total"
		vals := make([]workload.Value, wl.Cols)
		wl.Fill(0, vals, nil)
		for j, v := range vals[1:] {
			if v.Kind != workload.String {
				columns[j+1].Total = xlsx.TotalSum
			}
		}
		if err := sh.AddTable(xlsx.Range{FirstRow: 1, FirstCol: 1, LastCol: wl.Cols}, xlsx.Table{TotalsRow: true, Columns: columns}); err != nil {
			log.Fatal(err)
		}
	}
	if *chart {
		// Open-ended, over every row: the cache fills to its limit and is
		// then dropped, as for any series past 32,000 points.
		first := 1
		if wl.Header != nil {
			first = 2
		}
		c := xlsx.Chart{Type: xlsx.ChartScatter, Series: []xlsx.ChartSeries{{
			Categories: fmt.Sprintf("Sheet1!$A$%d:$A", first), Values: fmt.Sprintf("Sheet1!$E$%d:$E", first)}}}
		if err := sh.AddChart(2, wl.Cols+2, c); err != nil {
			log.Fatal(err)
		}
	}
	if wl.Header != nil {
		for j, h := range wl.Header {
			cells[j] = xlsx.String(h)
		}
		if err := sh.WriteRow(cells); err != nil {
			log.Fatal(err)
		}
	}
	writeRows(wl, cells, sh)
	finish(w, bw, f)
}
