// Command excelizewrite writes a benchmark workload with excelize's
// StreamWriter, its constant-memory path.
package main

import (
	"flag"
	"log"

	"github.com/sheetstream/sheetstream/bench/workload"
	"github.com/xuri/excelize/v2"
)

func main() {
	name := flag.String("workload", "W1", "W1, W2 or W3")
	out := flag.String("o", "out.xlsx", "output file")
	rows := flag.Int("rows", 0, "override the row count")
	flag.Parse()
	wl, err := workload.ByName(*name, *rows)
	if err != nil {
		log.Fatal(err)
	}
	f := excelize.NewFile()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		log.Fatal(err)
	}
	row := make([]any, wl.Cols)
	r := 1
	if wl.Header != nil {
		for j, h := range wl.Header {
			row[j] = h
		}
		cell, _ := excelize.CoordinatesToCellName(1, r)
		if err := sw.SetRow(cell, row); err != nil {
			log.Fatal(err)
		}
		r++
	}
	vals := make([]workload.Value, wl.Cols)
	for i := range wl.Rows {
		wl.Fill(i, vals, nil)
		for j, v := range vals {
			switch v.Kind {
			case workload.Int:
				row[j] = v.I
			case workload.Float:
				row[j] = v.F
			default:
				row[j] = v.S
			}
		}
		cell, _ := excelize.CoordinatesToCellName(1, r)
		if err := sw.SetRow(cell, row); err != nil {
			log.Fatal(err)
		}
		r++
	}
	if err := sw.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.SaveAs(*out); err != nil {
		log.Fatal(err)
	}
}
