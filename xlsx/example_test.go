package xlsx_test

import (
	"fmt"
	"log"
	"os"
	"time"

	"github.com/sheetstream/sheetstream/xlsx"
)

// A report with a bold, frozen header row, typed cells, a number format
// and an autofilter, streamed to a file.
func Example() {
	f, err := os.CreateTemp("", "report-*.xlsx")
	if err != nil {
		log.Fatal(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()

	w, err := xlsx.NewWriter(f, xlsx.Options{})
	if err != nil {
		log.Fatal(err)
	}
	header, _ := w.AddStyle(xlsx.Style{Font: xlsx.Font{Bold: true}})
	money, _ := w.AddStyle(xlsx.Style{NumFmt: "#,##0.00"})

	sheet, err := w.AddSheet("Orders", xlsx.SheetOptions{FreezeRows: 1})
	if err != nil {
		log.Fatal(err)
	}
	sheet.SetColumn(1, 1, xlsx.ColumnOptions{Width: 12})
	sheet.WriteRow([]xlsx.Cell{
		xlsx.String("Date").WithStyle(header), xlsx.String("Customer").WithStyle(header), xlsx.String("Amount").WithStyle(header),
	})
	row := make([]xlsx.Cell, 3) // reused for every row: no allocation per cell
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range 3 {
		row[0] = xlsx.Date(day.AddDate(0, 0, i))
		row[1] = xlsx.String(fmt.Sprintf("customer %d", i+1))
		row[2] = xlsx.Float(float64(i+1) * 99.5).WithStyle(money)
		if err := sheet.WriteRow(row); err != nil {
			log.Fatal(err)
		}
	}
	sheet.SetAutoFilter(xlsx.Range{FirstRow: 1, FirstCol: 1, LastRow: sheet.LastRow(), LastCol: 3})
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Println("rows written:", sheet.LastRow())
	// Output: rows written: 4
}

// Errors say where they happened and wrap a sentinel for errors.Is.
func ExampleCellError() {
	w, _ := xlsx.NewWriter(discard{}, xlsx.Options{})
	sheet, _ := w.AddSheet("Data", xlsx.SheetOptions{})
	err := sheet.WriteRow([]xlsx.Cell{xlsx.Int(1), xlsx.String("bad \xff byte")})
	fmt.Println(err)
	// Output: xlsx: sheet "Data", cell B1 (row 1, column B): text is not valid UTF-8
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// Formulas, with the value a reader that does not calculate will see.
func ExampleFormula() {
	w, _ := xlsx.NewWriter(discard{}, xlsx.Options{})
	sheet, _ := w.AddSheet("Calc", xlsx.SheetOptions{})
	err := sheet.WriteRow([]xlsx.Cell{
		xlsx.Int(2), xlsx.Int(3), xlsx.Formula("=A1*B1").WithValue(xlsx.Int(6)),
	})
	fmt.Println(err, w.Close())
	// Output: <nil> <nil>
}
