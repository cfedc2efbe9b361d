package sqlsheet_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sheetstream/sheetstream/csvsheet"
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

// ExportTo hands rows to any Destination: here Lines, writing them as
// CSV through csvsheet's RowWriter. A destination of one's own (JSON, a
// preview, Arrow) implements the four methods of Destination.
func ExampleExportTo() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(dir, "shop.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	db.Exec(`CREATE TABLE orders (id INTEGER, total NUMERIC(10,2), day DATE)`)
	db.Exec(`INSERT INTO orders VALUES (1, 19.90, '2025-03-01'), (2, 5, '2025-03-02')`)

	out := csvsheet.NewRowWriter(os.Stdout, csvsheet.WriteOptions{Format: csvsheet.CSV})
	st, err := sqlsheet.ExportTo(context.Background(), db, sqlsheet.Lines(out), []sqlsheet.Query{
		{SQL: "SELECT id, total, day FROM orders ORDER BY id"},
	}, sqlsheet.Options{})
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.Rows, "rows")
	// Output:
	// id,total,day
	// 1,19.9,2025-03-01
	// 2,5,2025-03-02
	// 2 rows
}

// RedactURL is for logging a database URL: its password never shows.
func ExampleRedactURL() {
	fmt.Println(sqlsheet.RedactURL("postgres://app:s3cret@db.example/shop?sslmode=require"))
	fmt.Println(sqlsheet.RedactURL("mysql://app@db/shop?password=s3cret"))
	// Output:
	// postgres://app:xxxxx@db.example/shop?sslmode=require
	// mysql://app@db/shop?password=xxxxx
}

// ImportFrom loads CSV into a new table, typing its columns from every
// row, then merges an edited copy on a key: new keys are inserted,
// changed rows updated, the rest left. A dry run first says what the
// merge would do without doing it.
func ExampleImportFrom() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(dir, "shop.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	ctx := context.Background()
	load := func(text string, opts sqlsheet.ImportOptions) {
		st, err := sqlsheet.ImportFrom(ctx, db, csvsheet.NewTable(strings.NewReader(text), csvsheet.Options{}), opts)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("rows %d: %d inserted, %d updated, %d unchanged\n", st.Rows, st.Inserted, st.Updated, st.Unchanged)
	}
	load("sku,qty,price\nA-1,3,9.90\nB-2,10,0.50\n", sqlsheet.ImportOptions{Table: "stock"})
	edited := "sku,qty,price\nA-1,3,9.90\nB-2,8,0.50\nC-3,1,120\n"
	load(edited, sqlsheet.ImportOptions{Table: "stock", Mode: sqlsheet.Merge, Key: []string{"sku"}, DryRun: true})
	load(edited, sqlsheet.ImportOptions{Table: "stock", Mode: sqlsheet.Merge, Key: []string{"sku"}})

	rows, _ := db.Query(`SELECT sku, qty, price FROM stock ORDER BY sku`)
	defer rows.Close()
	for rows.Next() {
		var sku string
		var qty int
		var price float64
		rows.Scan(&sku, &qty, &price)
		fmt.Println(sku, qty, price)
	}
	// Output:
	// rows 2: 2 inserted, 0 updated, 0 unchanged
	// rows 3: 1 inserted, 1 updated, 1 unchanged
	// rows 3: 1 inserted, 1 updated, 1 unchanged
	// A-1 3 9.9
	// B-2 8 0.5
	// C-3 1 120
}
