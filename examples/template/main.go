// Command template fills a designed workbook with the demo shop's orders:
//
//	go run ./examples/template report.xlsx
//
// The template, made as a designer would in Excel by
// examples.WriteReportTemplate (and written next to the report as
// report-template.xlsx), has a cover sheet with
// {{placeholders}}, and an Orders sheet with an Excel table (a body row
// whose cells carry the columns' formats, a totals row) and a chart over
// the table's amounts, and a pivot table summing the amounts by customer
// over the table. The rows stream into the table: the totals row moves
// under them, the table and the chart grow to every row, the pivot table
// is computed from the rows (and rebuilt again when the file opens in
// Excel or LibreOffice), the placeholders take the
// city and the count, and every other part of the template is copied as
// it is.
package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sheetstream/sheetstream/examples"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: template OUT.xlsx")
		os.Exit(2)
	}
	if err := run(context.Background(), os.Args[1], "Oslo"); err != nil {
		fmt.Fprintln(os.Stderr, "template:", err)
		os.Exit(1)
	}
}

// query is the rows the template's table takes, its columns named as the
// table's are.
const query = `SELECT o.id AS "Order", o.ordered_at AS "Date", c.name AS "Customer", o.quantity AS "Quantity",
	o.quantity * o.unit_price AS "Amount"
	FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.city = ? ORDER BY o.id`

func run(ctx context.Context, out, city string) error {
	tplPath := strings.TrimSuffix(out, filepath.Ext(out)) + "-template.xlsx"
	if err := examples.WriteReportTemplate(tplPath); err != nil {
		return fmt.Errorf("the template: %w", err)
	}
	dir, err := os.MkdirTemp("", "sheetstream-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	db, err := demoDB(ctx, dir)
	if err != nil {
		return err
	}
	defer db.Close()
	return fill(ctx, db, tplPath, out, city)
}

// fill streams the orders of a city into the template.
func fill(ctx context.Context, db *sql.DB, tplPath, out, city string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	tw, err := xlsx.OpenTemplate(f, tplPath, xlsx.TemplateOptions{Values: map[string]any{"city": city, "team": "Sales, North"}})
	if err != nil {
		return err
	}
	// The query's header is checked against the Orders table before any
	// row is written.
	dst := sqlsheet.TemplateSheet(tw, "Orders")
	if _, err := sqlsheet.ExportTo(ctx, db, dst, []sqlsheet.Query{{SQL: query, Args: []any{city}}}, sqlsheet.Options{}); err != nil {
		tw.Abort()
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return f.Close()
}

// demoDB creates the demo shop's database in dir.
func demoDB(ctx context.Context, dir string) (*sql.DB, error) {
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(dir, "demo.db"))
	if err != nil {
		return nil, err
	}
	if err := examples.CreateDemo(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}
