package sqlsheet_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// Export writes query results to sheets, typed from the columns: here an
// integer, a NUMERIC with two decimals, a date and a boolean, from SQLite.
func ExampleExport() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(dir, "shop.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	db.Exec(`CREATE TABLE orders (id INTEGER, total NUMERIC(10,2), day DATE, paid BOOLEAN)`)
	db.Exec(`INSERT INTO orders VALUES (1, 19.90, '2025-03-01', 1), (2, 5, '2025-03-02', 0)`)

	var book bytes.Buffer
	w, _ := xlsx.NewWriter(&book, xlsx.Options{})
	st, err := sqlsheet.Export(context.Background(), db, w, []sqlsheet.Query{
		{SQL: "SELECT id, total, day, paid FROM orders ORDER BY id", Sheet: "Orders"},
	}, sqlsheet.Options{})
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
	// string:id string:total string:day string:paid
	// number:1 number:19.9 date:2025-03-01T00:00:00 bool:TRUE
	// number:2 number:5 date:2025-03-02T00:00:00 bool:FALSE
}

// RedactURL is for logging a database URL: its password never shows.
func ExampleRedactURL() {
	fmt.Println(sqlsheet.RedactURL("postgres://app:s3cret@db.example/shop?sslmode=require"))
	fmt.Println(sqlsheet.RedactURL("mysql://app@db/shop?password=s3cret"))
	// Output:
	// postgres://app:xxxxx@db.example/shop?sslmode=require
	// mysql://app@db/shop?password=xxxxx
}
