package main

import (
	"bufio"
	"bytes"
	"log"
	"os"

	"github.com/sheetstream/sheetstream/bench/workload"
	"github.com/sheetstream/sheetstream/xlsx"
)

// designTemplate is a workbook as a designer leaves it: a cover sheet, the
// workload's columns as an Excel table with a totals row and one body
// row, and a column chart over the table's fifth column.
func designTemplate(wl workload.Workload) []byte {
	var buf bytes.Buffer
	w, err := xlsx.NewWriter(&buf, xlsx.Options{Strings: xlsx.StringsShared})
	if err != nil {
		log.Fatal(err)
	}
	cover, _ := w.AddSheet("Cover", xlsx.SheetOptions{})
	cover.WriteRow([]xlsx.Cell{xlsx.String("{{rows}} rows")})
	sh, _ := w.AddSheet("Data", xlsx.SheetOptions{})
	columns := make([]xlsx.TableColumn, wl.Cols)
	columns[0].TotalLabel = "Total"
	columns[4].Total = xlsx.TotalSum
	if err := sh.AddTable(xlsx.Range{FirstRow: 1, FirstCol: 1, LastRow: 3, LastCol: wl.Cols}, xlsx.Table{Name: "Data", TotalsRow: true, Columns: columns}); err != nil {
		log.Fatal(err)
	}
	if err := sh.AddChart(2, wl.Cols+2, xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{{Values: "Data!$E$2:$E$2"}}}); err != nil {
		log.Fatal(err)
	}
	header := make([]xlsx.Cell, wl.Cols)
	for j, h := range wl.Header {
		header[j] = xlsx.String(h)
	}
	sh.WriteRow(header)
	sh.WriteRow(make([]xlsx.Cell, wl.Cols))
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	return buf.Bytes()
}

// fillTemplate writes the workload into the designed template.
func fillTemplate(wl workload.Workload, out string) {
	tpl := designTemplate(wl)
	f, err := os.Create(out)
	if err != nil {
		log.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	tw, err := xlsx.NewTemplateWriter(bw, bytes.NewReader(tpl), int64(len(tpl)), xlsx.TemplateOptions{})
	if err != nil {
		log.Fatal(err)
	}
	sh, err := tw.Fill("Data", wl.Header)
	if err != nil {
		log.Fatal(err)
	}
	writeRows(wl, make([]xlsx.Cell, wl.Cols), sh)
	finish(tw, bw, f)
}

// writeRows writes the workload's rows to a sheet or a template's sheet.
func writeRows(wl workload.Workload, cells []xlsx.Cell, sh interface{ WriteRow([]xlsx.Cell) error }) {
	vals := make([]workload.Value, wl.Cols)
	for i := range wl.Rows {
		wl.Fill(i, vals, nil)
		toCells(cells, vals)
		if err := sh.WriteRow(cells); err != nil {
			log.Fatal(err)
		}
	}
}

// finish closes the workbook, then its buffer and file.
func finish(w interface{ Close() error }, bw *bufio.Writer, f *os.File) {
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

// toCells makes a workload row the writer's cells.
func toCells(cells []xlsx.Cell, vals []workload.Value) {
	for j, v := range vals {
		switch v.Kind {
		case workload.Int:
			cells[j] = xlsx.Int(v.I)
		case workload.Float:
			cells[j] = xlsx.Float(v.F)
		default:
			cells[j] = xlsx.String(v.S)
		}
	}
}
