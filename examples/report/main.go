// Command report writes a sales report with what goes around the grid,
// every part streamed as its rows are written:
//
//	go run ./examples/report report.xlsx
//
// The Sales sheet is an Excel table with a totals row, a Status column
// with a drop-down list (the only cells a user may change: the sheet is
// protected), a colour scale on the amounts and data bars on the
// quantities, a note on a header cell, the company's logo above the
// table, and print setup that repeats the header on every page. The
// Regions sheet groups each region's orders under its subtotal.
package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"time"

	"github.com/sheetstream/sheetstream/xlsx"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: report OUT.xlsx")
		os.Exit(2)
	}
	if err := run(os.Args[1], 200); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
}

// order is one generated sale.
type order struct {
	id       int
	date     time.Time
	region   string
	product  string
	quantity int
	price    float64
	status   string
}

var (
	regions  = []string{"North", "South", "East", "West"}
	products = []string{"Widget", "Gadget", "Gizmo", "Doohickey"}
	statuses = []string{"Open", "Shipped", "Paid", "Cancelled"}
)

func orders(n int) []order {
	out := make([]order, n)
	day := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	for i := range out {
		out[i] = order{
			id: 1001 + i, date: day.AddDate(0, 0, i/3),
			region: regions[i*7%4], product: products[i*5%4],
			quantity: 1 + i*37%50, price: float64(5+i*13%40) + 0.99,
			status: statuses[i*3%4],
		}
	}
	return out
}

func run(path string, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := xlsx.NewWriter(f, xlsx.Options{Properties: xlsx.Properties{Title: "Sales report", Creator: "sheetstream"}})
	if err != nil {
		return err
	}
	if err := sales(w, orders(n)); err != nil {
		return err
	}
	if err := byRegion(w, orders(n)); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}

// header is the row the table starts on, under the logo and the title.
const header = 4

func sales(w *xlsx.Writer, rows []order) error {
	title, err := w.AddStyle(xlsx.Style{Font: xlsx.Font{Bold: true, Size: 16, Color: "1F4E78"}})
	if err != nil {
		return err
	}
	money, _ := w.AddStyle(xlsx.Style{NumFmt: "#,##0.00"})
	date, _ := w.AddStyle(xlsx.Style{NumFmt: "yyyy-mm-dd"})
	input, _ := w.AddStyle(xlsx.Style{Protection: xlsx.CellProtection{Unlocked: true}, Fill: xlsx.Fill{Pattern: xlsx.PatternSolid, Color: "FFF2CC"}})
	// The table style draws the header in Excel; the cells' own style
	// draws it where table styles are not (LibreOffice, printing).
	head, _ := w.AddStyle(xlsx.Style{Font: xlsx.Font{Bold: true, Color: "FFFFFF"}, Fill: xlsx.Fill{Pattern: xlsx.PatternSolid, Color: "4472C4"}})

	last := header + len(rows)
	sh, err := w.AddSheet("Sales", xlsx.SheetOptions{
		FreezeRows: header,
		Protect:    &xlsx.SheetProtection{Password: "report", Sort: true, AutoFilter: true, FormatColumns: true},
		Print: &xlsx.PrintSetup{
			Landscape: true, PaperSize: 9, FitWide: 1,
			RepeatRows: xlsx.Lines{First: header, Last: header},
			Header:     "&L&\"Calibri,Bold\"Sales report&RPrinted &D",
			Footer:     "&CPage &P of &N",
		},
	})
	if err != nil {
		return err
	}
	for col, width := range []float64{10, 12, 10, 12, 10, 10, 12, 12} {
		if err := sh.SetColumn(col+1, col+1, xlsx.ColumnOptions{Width: width}); err != nil {
			return err
		}
	}
	if err := sh.AddImage(1, 1, xlsx.Image{Data: logo(), AltText: "sheetstream logo", OffsetX: 4, OffsetY: 4}); err != nil {
		return err
	}
	if err := sh.WriteRowWith([]xlsx.Cell{{}, xlsx.String("Sales report").WithStyle(title)}, xlsx.RowOptions{Height: 24}); err != nil {
		return err
	}
	if err := sh.SkipRows(header - 2); err != nil {
		return err
	}
	// The table: its range ends with the sheet, its totals under the
	// last order; Amount is calculated from each row.
	err = sh.AddTable(xlsx.Range{FirstRow: header, FirstCol: 1, LastCol: 8}, xlsx.Table{
		Name: "Sales", Style: "TableStyleMedium2", TotalsRow: true,
		Columns: []xlsx.TableColumn{
			{Name: "Order", TotalLabel: "Total"}, {Name: "Date"}, {Name: "Region"}, {Name: "Product"},
			{Name: "Quantity", Total: xlsx.TotalSum}, {Name: "Price", Total: xlsx.TotalAverage},
			{Name: "Amount", Formula: "[@Quantity]*[@Price]", Total: xlsx.TotalSum}, {Name: "Status", Total: xlsx.TotalCount},
		},
	})
	if err != nil {
		return err
	}
	data := xlsx.Range{FirstRow: header + 1, LastRow: last}
	column := func(c int) xlsx.Range { r := data; r.FirstCol, r.LastCol = c, c; return r }
	if err := sh.AddValidation(column(8), xlsx.Validation{Type: xlsx.ValidateList, List: statuses,
		InputTitle: "Status", InputMessage: "Where the order stands", ErrorTitle: "Status", ErrorMessage: "Pick a status from the list"}); err != nil {
		return err
	}
	if err := sh.AddConditionalFormat(column(7), xlsx.ConditionalFormat{Type: xlsx.CondColorScale, MinColor: "F8696B", MidColor: "FFEB84", MaxColor: "63BE7B"}); err != nil {
		return err
	}
	if err := sh.AddConditionalFormat(column(5), xlsx.ConditionalFormat{Type: xlsx.CondDataBar, BarColor: "5B9BD5"}); err != nil {
		return err
	}
	cancelled := xlsx.Style{Font: xlsx.Font{Color: "9C0006", Strike: true}}
	if err := sh.AddConditionalFormat(column(8), xlsx.ConditionalFormat{Type: xlsx.CondCell, Operator: xlsx.EqualTo, Value1: xlsx.String("Cancelled"), Format: cancelled}); err != nil {
		return err
	}
	if err := sh.AddNote(header, 7, xlsx.Note{Text: "Quantity times price, before discounts.", Author: "Finance"}); err != nil {
		return err
	}
	heading := make([]xlsx.Cell, 8)
	for i := range heading {
		heading[i] = xlsx.Cell{}.WithStyle(head) // the table writes the names
	}
	if err := sh.WriteRow(heading); err != nil {
		return err
	}
	row := make([]xlsx.Cell, 8)
	for _, o := range rows {
		row[0] = xlsx.Int(int64(o.id))
		row[1] = xlsx.Date(o.date).WithStyle(date)
		row[2] = xlsx.String(o.region)
		row[3] = xlsx.String(o.product)
		row[4] = xlsx.Int(int64(o.quantity))
		row[5] = xlsx.Float(o.price).WithStyle(money)
		// The table's formula, with its value for readers that do not
		// calculate.
		row[6] = xlsx.Formula("Sales[[#This Row],[Quantity]]*Sales[[#This Row],[Price]]").
			WithValue(xlsx.Float(float64(o.quantity) * o.price)).WithStyle(money)
		row[7] = xlsx.String(o.status).WithStyle(input)
		if err := sh.WriteRow(row); err != nil {
			return err
		}
	}
	return nil
}

// byRegion groups the orders by region: each region's orders at outline
// level 2, folded for all but the first, under a subtotal row.
func byRegion(w *xlsx.Writer, rows []order) error {
	bold, _ := w.AddStyle(xlsx.Style{Font: xlsx.Font{Bold: true}})
	sh, err := w.AddSheet("Regions", xlsx.SheetOptions{})
	if err != nil {
		return err
	}
	if err := sh.SetColumn(1, 1, xlsx.ColumnOptions{Width: 16}); err != nil {
		return err
	}
	if err := sh.WriteRow([]xlsx.Cell{xlsx.String("Region").WithStyle(bold), xlsx.String("Order").WithStyle(bold), xlsx.String("Quantity").WithStyle(bold)}); err != nil {
		return err
	}
	for i, region := range regions {
		first := sh.LastRow() + 1
		for _, o := range rows {
			if o.region != region {
				continue
			}
			if err := sh.WriteRowWith([]xlsx.Cell{xlsx.String(region), xlsx.Int(int64(o.id)), xlsx.Int(int64(o.quantity))},
				xlsx.RowOptions{OutlineLevel: 2, Hidden: i > 0}); err != nil {
				return err
			}
		}
		total := xlsx.Formula(fmt.Sprintf("SUBTOTAL(9,C%d:C%d)", first, sh.LastRow())).WithStyle(bold)
		if err := sh.WriteRowWith([]xlsx.Cell{xlsx.String(region + " total").WithStyle(bold), {}, total},
			xlsx.RowOptions{OutlineLevel: 1, Collapsed: i > 0}); err != nil {
			return err
		}
	}
	return sh.WriteRow([]xlsx.Cell{xlsx.String("Grand total").WithStyle(bold), {},
		xlsx.Formula(fmt.Sprintf("SUBTOTAL(9,C2:C%d)", sh.LastRow())).WithStyle(bold)})
}

// logo draws the report's logo: a green square with a white grid, the
// shape of a sheet.
func logo() []byte {
	const size = 40
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	green, white := color.RGBA{0x21, 0x73, 0x46, 0xff}, color.RGBA{0xff, 0xff, 0xff, 0xff}
	for y := range size {
		for x := range size {
			c := green
			if x > 6 && x < 34 && y > 6 && y < 34 && (x%9 == 7 || y%9 == 7) {
				c = white
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	return buf.Bytes()
}
