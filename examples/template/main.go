// Command template fills a designed workbook with the demo shop's orders:
//
//	go run ./examples/template report.xlsx
//
// The template, made here as a designer would in Excel (and written next
// to the report as report-template.xlsx), has a cover sheet with
// {{placeholders}}, and an Orders sheet with an Excel table (a body row
// whose cells carry the columns' formats, a totals row) and a chart over
// the table's amounts, and a pivot table summing the amounts by customer
// over the table. The rows stream into the table: the totals row moves
// under them, the table and the chart grow to every row, the pivot cache
// is marked to be rebuilt when the file opens, the placeholders take the
// city and the count, and every other part of the template is copied as
// it is.
package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
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
	if err := makeTemplate(tplPath); err != nil {
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

// makeTemplate designs the report, as someone would in Excel.
func makeTemplate(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := xlsx.NewWriter(f, xlsx.Options{Strings: xlsx.StringsShared})
	if err != nil {
		return err
	}
	title, _ := w.AddStyle(xlsx.Style{Font: xlsx.Font{Bold: true, Size: 18}})
	cover, err := w.AddSheet("Cover", xlsx.SheetOptions{})
	if err != nil {
		return err
	}
	if err := cover.SetColumn(1, 1, xlsx.ColumnOptions{Width: 60}); err != nil {
		return err
	}
	for _, row := range [][]xlsx.Cell{
		{xlsx.String("Orders from {{city}}").WithStyle(title)},
		{xlsx.String("{{rows}} orders, as of {{now}}")},
		{xlsx.String("Prepared for {{team}}")},
	} {
		if err := cover.WriteRow(row); err != nil {
			return err
		}
	}
	orders, err := w.AddSheet("Orders", xlsx.SheetOptions{FreezeRows: 1, Print: &xlsx.PrintSetup{Header: "&COrders from {{city}}", RepeatRows: xlsx.Lines{First: 1, Last: 1}, Landscape: true, FitWide: 1}})
	if err != nil {
		return err
	}
	widths := []float64{10, 12, 28, 10, 12}
	for i, wd := range widths {
		if err := orders.SetColumn(i+1, i+1, xlsx.ColumnOptions{Width: wd}); err != nil {
			return err
		}
	}
	date, _ := w.AddStyle(xlsx.Style{NumFmt: "yyyy-mm-dd"})
	money, _ := w.AddStyle(xlsx.Style{NumFmt: "#,##0.00"})
	err = orders.AddTable(xlsx.Range{FirstRow: 1, FirstCol: 1, LastRow: 3, LastCol: 5}, xlsx.Table{Name: "Orders", TotalsRow: true,
		Style: "TableStyleMedium9", Columns: []xlsx.TableColumn{{TotalLabel: "Total"}, {}, {}, {Total: xlsx.TotalSum}, {Total: xlsx.TotalSum}}})
	if err != nil {
		return err
	}
	err = orders.AddChart(1, 7, xlsx.Chart{Type: xlsx.ChartColumn, Title: xlsx.ChartTitle{Text: "Amount by order"},
		Series: []xlsx.ChartSeries{{Name: "=Orders!$E$1", Categories: "Orders!$A$2:$A$2", Values: "Orders!$E$2:$E$2"}},
		Legend: xlsx.ChartLegend{Position: xlsx.LegendNone}, Y: xlsx.ChartAxis{NumFmt: "#,##0"}})
	if err != nil {
		return err
	}
	header := []xlsx.Cell{xlsx.String("Order"), xlsx.String("Date"), xlsx.String("Customer"), xlsx.String("Quantity"), xlsx.String("Amount")}
	if err := orders.WriteRow(header); err != nil {
		return err
	}
	// The body's one row: empty cells in the columns' formats.
	if err := orders.WriteRow([]xlsx.Cell{xlsx.Blank(), xlsx.Blank().WithStyle(date), xlsx.Blank(), xlsx.Blank(), xlsx.Blank().WithStyle(money)}); err != nil {
		return err
	}
	// A sheet for the pivot table the designer adds (see pivot.go).
	pivot, err := w.AddSheet("By customer", xlsx.SheetOptions{Print: &xlsx.PrintSetup{FitWide: 1, FitTall: 1}})
	if err != nil {
		return err
	}
	if err := pivot.SetColumn(1, 2, xlsx.ColumnOptions{Width: 28}); err != nil {
		return err
	}
	if err := pivot.WriteRow([]xlsx.Cell{xlsx.String("Amount by customer, {{city}}").WithStyle(title)}); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return addPivotTable(path, "xl/worksheets/sheet3.xml")
}

// fill streams the orders of a city into the template.
func fill(ctx context.Context, db *sql.DB, tplPath, out, city string) error {
	in, err := os.Open(tplPath)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	tw, err := xlsx.NewTemplateWriter(f, in, info.Size(), xlsx.TemplateOptions{Values: map[string]any{"city": city, "team": "Sales, North"}})
	if err != nil {
		return err
	}
	var sheet *xlsx.TemplateSheet
	opts := sqlsheet.Options{NoSchema: true, Rows: func(cells []xlsx.Cell) error {
		if sheet == nil {
			header := make([]string, len(cells))
			for i, c := range cells {
				header[i], _ = c.Value().(string)
			}
			var err error
			sheet, err = tw.Fill("Orders", header) // checks the columns before any row
			return err
		}
		return sheet.WriteRow(cells)
	}}
	// The writer only lends the rows their styles, which the template's
	// columns replace.
	scratch, err := xlsx.NewWriter(io.Discard, xlsx.Options{})
	if err != nil {
		return err
	}
	defer scratch.Abort()
	if _, err := sqlsheet.Export(ctx, db, scratch, []sqlsheet.Query{{SQL: query, Args: []any{city}}}, opts); err != nil {
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
