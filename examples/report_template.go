package examples

import (
	"os"

	"github.com/sheetstream/sheetstream/xlsx"
)

// WriteReportTemplate writes the demo shop's designed report to path, as
// someone would make it in Excel: a cover with {{city}}, {{rows}},
// {{now}} and {{team}}; an Orders sheet with an Excel table (Order, Date,
// Customer, Quantity, Amount: a body row whose cells carry the columns'
// formats, a totals row) and a chart over the amounts; and a "By
// customer" sheet with a pivot table summing the amounts by customer
// over the table. examples/template fills it, and so does the city-report
// export of exports.yaml that `sheetstream serve --demo` serves.
func WriteReportTemplate(path string) error {
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
