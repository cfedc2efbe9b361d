// Command excelizeread reads every cell of a workbook's first sheet with
// excelize's streaming Rows iterator and prints how many it saw.
package main

import (
	"fmt"
	"log"
	"os"

	"github.com/xuri/excelize/v2"
)

func main() {
	f, err := excelize.OpenFile(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	rows, err := f.Rows(f.GetSheetName(0))
	if err != nil {
		log.Fatal(err)
	}
	cells, chars := 0, 0
	for rows.Next() {
		cols, err := rows.Columns()
		if err != nil {
			log.Fatal(err)
		}
		for _, c := range cols {
			if c != "" {
				cells++
				chars += len(c)
			}
		}
	}
	if err := rows.Error(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(cells, "cells,", chars, "text bytes")
}
