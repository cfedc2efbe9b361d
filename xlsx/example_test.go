package xlsx_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"sync"
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
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	sheet, _ := w.AddSheet("Data", xlsx.SheetOptions{})
	err := sheet.WriteRow([]xlsx.Cell{xlsx.Int(1), xlsx.String("bad \xff byte")})
	fmt.Println(err)
	// Output: sheet "Data", cell B1 (row 1, column B): text is not valid UTF-8
}

// Formulas, with the value a reader that does not calculate will see.
func ExampleFormula() {
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	sheet, _ := w.AddSheet("Calc", xlsx.SheetOptions{})
	err := sheet.WriteRow([]xlsx.Cell{
		xlsx.Int(2), xlsx.Int(3), xlsx.Formula("=A1*B1").WithValue(xlsx.Int(6)),
	})
	fmt.Println(err, w.Close())
	// Output: <nil> <nil>
}

// Several sheets written at once, each from its own goroutine. Only one
// streams into the file at a time; the others wait for their turn with
// their compressed output in memory (Options.SheetBufferSize), or in
// temporary files where Options.TempDir allows it.
func ExampleWriter_AddConcurrentSheet() {
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i, region := range []string{"North", "South", "West"} {
		sheet, err := w.AddConcurrentSheet(region, xlsx.SheetOptions{})
		if err != nil {
			log.Fatal(err)
		}
		wg.Go(func() {
			for n := range 100_000 {
				if errs[i] = sheet.WriteRow([]xlsx.Cell{xlsx.String(region), xlsx.Int(int64(n))}); errs[i] != nil {
					return
				}
			}
			errs[i] = sheet.Close()
		})
	}
	wg.Wait()
	fmt.Println(errors.Join(errs...), w.Close())
	// Output: <nil> <nil>
}

// Reading a workbook: typed cells, one row at a time.
func ExampleOpen() {
	// A workbook to read, written in memory.
	var buf bytes.Buffer
	w, _ := xlsx.NewWriter(&buf, xlsx.Options{})
	sheet, _ := w.AddSheet("Orders", xlsx.SheetOptions{})
	sheet.WriteRow([]xlsx.Cell{xlsx.String("Date"), xlsx.String("Amount"), xlsx.String("Paid")})
	sheet.WriteRow([]xlsx.Cell{xlsx.Date(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)), xlsx.Float(99.5), xlsx.Bool(true)})
	w.Close()

	// xlsx.Open(path, ...) reads a file; NewReader any io.ReaderAt.
	wb, err := xlsx.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), xlsx.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	rows, err := wb.Rows(context.Background(), 0)
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		row := rows.Row()
		for _, c := range row.Cells {
			fmt.Printf("%s%d %s %s\n", xlsx.ColumnName(c.Col()), row.Num, c.Type(), c.String())
		}
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// A1 string Date
	// B1 string Amount
	// C1 string Paid
	// A2 date 2026-03-01T00:00:00
	// B2 number 99.5
	// C2 bool TRUE
}

// Order is a row of the struct examples: tags name the columns and set
// formats; Internal is left out of the sheet.
type Order struct {
	ID       int64     `xlsx:"Order ID"`
	Placed   time.Time `xlsx:",date"`
	Customer string
	Amount   float64 `xlsx:",format=#,##0.00"`
	Coupon   *string `xlsx:",omitempty"`
	Internal string  `xlsx:"-"`
}

// Write a slice of structs: a header row from the fields, then a row per
// value, without a cell slice in sight.
func ExampleNewStructWriter() {
	var buf bytes.Buffer
	w, _ := xlsx.NewWriter(&buf, xlsx.Options{})
	sheet, _ := w.AddSheet("Orders", xlsx.SheetOptions{FreezeRows: 1})
	orders, err := xlsx.NewStructWriter[Order](sheet, xlsx.StructOptions{})
	if err != nil {
		log.Fatal(err)
	}
	spring := "SPRING"
	for _, o := range []Order{
		{ID: 1, Placed: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Customer: "Ada", Amount: 1250.5, Coupon: &spring},
		{ID: 2, Placed: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), Customer: "Bo", Amount: 99},
	} {
		if err := orders.Write(o); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Println("rows:", sheet.LastRow())
	// Output: rows: 3
}

// Read rows back into structs, matching headers to fields by name
// (ignoring case, spaces, underscores and hyphens).
func ExampleNewStructReader() {
	var buf bytes.Buffer
	w, _ := xlsx.NewWriter(&buf, xlsx.Options{})
	sheet, _ := w.AddSheet("Orders", xlsx.SheetOptions{})
	sheet.WriteRow([]xlsx.Cell{xlsx.String("customer"), xlsx.String("ORDER_ID"), xlsx.String("Amount"), xlsx.String("Notes")})
	sheet.WriteRow([]xlsx.Cell{xlsx.String("Ada"), xlsx.Int(1), xlsx.Float(1250.5), xlsx.String("call first")})
	sheet.WriteRow([]xlsx.Cell{xlsx.String("Bo"), xlsx.Int(2), xlsx.String("99")})
	w.Close()

	wb, _ := xlsx.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), xlsx.ReadOptions{})
	rows, _ := wb.Rows(context.Background(), 0)
	defer rows.Close()
	orders, err := xlsx.NewStructReader[Order](rows, xlsx.StructOptions{}) // lenient: Notes has no field, Placed no column
	if err != nil {
		log.Fatal(err)
	}
	for o, err := range orders.All() {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%d %s %.2f\n", o.ID, o.Customer, o.Amount)
	}
	// Output:
	// 1 Ada 1250.50
	// 2 Bo 99.00
}

// An Excel table over rows streamed from any source: the range ends
// with the sheet, and the totals row goes under the last row written.
func ExampleSheet_AddTable() {
	var buf bytes.Buffer
	w, _ := xlsx.NewWriter(&buf, xlsx.Options{})
	sheet, _ := w.AddSheet("Orders", xlsx.SheetOptions{})
	err := sheet.AddTable(xlsx.Range{FirstRow: 1, FirstCol: 1}, xlsx.Table{
		Name:      "Orders",
		Style:     "TableStyleMedium2",
		TotalsRow: true,
		Columns: []xlsx.TableColumn{
			{Name: "Customer", TotalLabel: "Total"},
			{Name: "Quantity", Total: xlsx.TotalSum},
			{Name: "Price"},
			{Name: "Amount", Formula: "[@Quantity]*[@Price]", Total: xlsx.TotalSum},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	sheet.WriteRow(nil) // the header row: the table writes the names
	for i, customer := range []string{"Ada", "Grace", "Edsger"} {
		sheet.WriteRow([]xlsx.Cell{xlsx.String(customer), xlsx.Int(int64(i + 1)), xlsx.Float(9.5)})
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	wb, _ := xlsx.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), xlsx.ReadOptions{})
	rows, _ := wb.Rows(context.Background(), 0)
	for rows.Next() {
		var texts []string
		for _, c := range rows.Row().Cells {
			if f := c.Formula(); len(f) > 0 {
				texts = append(texts, "="+string(f))
			} else {
				texts = append(texts, c.String())
			}
		}
		fmt.Println(strings.Join(texts, " "))
	}
	// Output:
	// Customer Quantity Price Amount
	// Ada 1 9.5 =Orders[[#This Row],[Quantity]]*Orders[[#This Row],[Price]]
	// Grace 2 9.5 =Orders[[#This Row],[Quantity]]*Orders[[#This Row],[Price]]
	// Edsger 3 9.5 =Orders[[#This Row],[Quantity]]*Orders[[#This Row],[Price]]
	// Total =SUBTOTAL(109,[Quantity]) =SUBTOTAL(109,[Amount])
}

// A designed workbook's table filled with rows: the table (and what reads
// it: charts, names, pivot caches) grows to them, {{placeholders}} take
// their values, and every other part is copied as it was.
func ExampleNewTemplateWriter() {
	// The template, as a designer would save it: a title with a
	// placeholder and an Excel table of two columns.
	var tpl bytes.Buffer
	d, _ := xlsx.NewWriter(&tpl, xlsx.Options{})
	s, _ := d.AddSheet("Report", xlsx.SheetOptions{})
	s.AddTable(xlsx.Range{FirstRow: 2, FirstCol: 1, LastRow: 3, LastCol: 2}, xlsx.Table{Name: "Sales"})
	s.WriteRow([]xlsx.Cell{xlsx.String("Sales in {{quarter}}")})
	s.WriteRow([]xlsx.Cell{xlsx.String("City"), xlsx.String("Amount")})
	s.WriteRow([]xlsx.Cell{xlsx.String(""), xlsx.Float(0)})
	d.Close()

	var out bytes.Buffer
	w, err := xlsx.NewTemplateWriter(&out, bytes.NewReader(tpl.Bytes()), int64(tpl.Len()), xlsx.TemplateOptions{Values: map[string]any{"quarter": "Q3"}})
	if err != nil {
		log.Fatal(err)
	}
	sheet, err := w.Fill("Report", []string{"City", "Amount"})
	if err != nil {
		log.Fatal(err)
	}
	sheet.WriteRow([]xlsx.Cell{xlsx.String("Oslo"), xlsx.Float(120.5)})
	sheet.WriteRow([]xlsx.Cell{xlsx.String("Rome"), xlsx.Float(99)})
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	wb, _ := xlsx.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()), xlsx.ReadOptions{})
	rows, _ := wb.Rows(context.Background(), 0)
	defer rows.Close()
	for rows.Next() {
		var texts []string
		for _, c := range rows.Row().Cells {
			texts = append(texts, c.String())
		}
		fmt.Println(strings.Join(texts, " | "))
	}
	// Output:
	// Sales in Q3
	// City | Amount
	// Oslo | 120.5
	// Rome | 99
}

// AddTableSheets writes a table the way sheetstream's exports lay one
// out: a bold frozen header, fitted columns, an autofilter, and past
// RowsPerSheet (Excel's 1,048,576 rows when zero) numbered continuations
// with the header repeated.
func ExampleWriter_AddTableSheets() {
	var buf bytes.Buffer
	w, _ := xlsx.NewWriter(&buf, xlsx.Options{})
	table, err := w.AddTableSheets(xlsx.TableSheetsOptions{Name: "Orders", Header: []string{"id", "total"}, RowsPerSheet: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 1; i <= 5; i++ {
		if err := table.WriteRow([]xlsx.Cell{xlsx.Int(int64(i)), xlsx.Float(float64(i) * 1.5)}); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := table.Close(); err != nil {
		fmt.Println(err)
		return
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(table.Sheets(), table.SheetRows())
	// Output:
	// [Orders Orders (2) Orders (3)] [2 2 1]
}
