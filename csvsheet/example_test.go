package csvsheet_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// Convert turns CSV into a sheet with typed cells: numbers, booleans and
// ISO dates are inferred, and anything that would lose information (a
// leading zero) stays text.
func ExampleConvert() {
	in := "sku,qty,price,paid,day\n007,3,9.90,true,2025-03-01\n012,10,0.5,false,2025-03-02\n"
	var book bytes.Buffer
	w, _ := xlsx.NewWriter(&book, xlsx.Options{})
	st, err := csvsheet.Convert(context.Background(), strings.NewReader(in), w, csvsheet.Options{Sheet: "Orders"})
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.Rows, "rows in", st.Sheets)

	wb, _ := xlsx.NewReader(bytes.NewReader(book.Bytes()), int64(book.Len()), xlsx.ReadOptions{})
	rows, _ := wb.Rows(context.Background(), 0)
	defer rows.Close()
	for rows.Next() {
		var cells []string
		for _, c := range rows.Row().Cells {
			cells = append(cells, c.Type().String()+":"+c.String())
		}
		fmt.Println(strings.Join(cells, " "))
	}
	// Output:
	// 2 rows in [Orders]
	// string:sku string:qty string:price string:paid string:day
	// string:007 number:3 number:9.9 bool:TRUE date:2025-03-01T00:00:00
	// string:012 number:10 number:0.5 bool:FALSE date:2025-03-02T00:00:00
}

// WriteWith writes a sheet as CSV; EscapeFormulas keeps text that a
// spreadsheet would run as a formula from being run when the CSV is
// opened in one.
func ExampleWriteWith() {
	var book bytes.Buffer
	w, _ := xlsx.NewWriter(&book, xlsx.Options{})
	sh, _ := w.AddSheet("Feedback", xlsx.SheetOptions{})
	sh.WriteRow([]xlsx.Cell{xlsx.String("customer"), xlsx.String("comment"), xlsx.String("score")})
	sh.WriteRow([]xlsx.Cell{xlsx.String("Ann"), xlsx.String(`=HYPERLINK("http://evil.example","click")`), xlsx.Int(-1)})
	w.Close()

	wb, _ := xlsx.NewReader(bytes.NewReader(book.Bytes()), int64(book.Len()), xlsx.ReadOptions{})
	rows, _ := wb.Rows(context.Background(), 0)
	defer rows.Close()
	csvsheet.WriteWith(context.Background(), os.Stdout, rows, csvsheet.WriteOptions{Format: csvsheet.CSV, EscapeFormulas: true})
	// Output:
	// customer,comment,score
	// Ann,"'=HYPERLINK(""http://evil.example"",""click"")",-1
}

// A Table hands delimited text to code that reads rows of typed cells,
// such as sqlsheet.ImportFrom, which loads it into a database table.
func ExampleTable() {
	in := "sku;qty;price\n007;3;9,90\n012;10;0.5\n"
	table := csvsheet.NewTable(strings.NewReader(in), csvsheet.Options{Comma: ';'})
	err := table.EachRow(context.Background(), func(row xlsx.Row) error {
		var cells []string
		for _, c := range row.Cells {
			cells = append(cells, c.Type().String()+":"+c.String())
		}
		fmt.Println(row.Num, strings.Join(cells, " "))
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1 string:sku string:qty string:price
	// 2 string:007 number:3 string:9,90
	// 3 string:012 number:10 number:0.5
}
