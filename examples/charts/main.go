// Command charts writes a dashboard of every chart kind sheetstream draws,
// each chart declared before the rows it reads and its values cached from
// them as they stream:
//
//	go run ./examples/charts charts.xlsx
//
// The Dashboard sheet has a column, stacked bar, line with markers and a
// trendline, area, pie, doughnut, scatter, radar and stock chart, and a
// column chart combined with a line on a secondary axis; the Trend sheet
// is a chartsheet; the Data sheet has the numbers and, beside each
// product's months, a sparkline.
package main

import (
	"fmt"
	"math"
	"os"
	"time"

	"github.com/sheetstream/sheetstream/xlsx"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: charts OUT.xlsx")
		os.Exit(2)
	}
	if err := run(os.Args[1], 24); err != nil {
		fmt.Fprintln(os.Stderr, "charts:", err)
		os.Exit(1)
	}
}

// The Data sheet: a month a row, from row 2.
const (
	colMonth = iota + 1
	colRevenue
	colCost
	colProfit
	colUnits
	colOpen
	colHigh
	colLow
	colClose
)

var header = []string{"Month", "Revenue", "Cost", "Profit", "Units", "Open", "High", "Low", "Close"}

// data is a range of the Data sheet's column over its rows, open-ended:
// it ends where the sheet does.
func data(col int) string {
	c := xlsx.ColumnName(col)
	return "Data!$" + c + "$2:$" + c
}

func name(col int) string { return "=Data!$" + xlsx.ColumnName(col) + "$1" }

func series(cols ...int) []xlsx.ChartSeries {
	var out []xlsx.ChartSeries
	for _, c := range cols {
		out = append(out, xlsx.ChartSeries{Name: name(c), Categories: data(colMonth), Values: data(c)})
	}
	return out
}

// charts are the dashboard's, in a grid three wide.
func charts() []xlsx.Chart {
	title := func(t string) xlsx.ChartTitle { return xlsx.ChartTitle{Text: t} }
	trend := series(colRevenue)
	trend[0].Marker = &xlsx.ChartMarker{Type: xlsx.MarkerCircle, Size: 5}
	trend[0].Trendline = &xlsx.ChartTrendline{Type: xlsx.TrendLinear, ShowEquation: true, Line: xlsx.ChartLineFormat{Dash: xlsx.DashDash}}
	pie := series(colUnits)
	pie[0].Categories = "Data!$A$2:$A$7"
	pie[0].Values = "Data!$E$2:$E$7"
	scatter := []xlsx.ChartSeries{{Name: "=Data!$E$1", Categories: data(colUnits), Values: data(colProfit),
		Marker: &xlsx.ChartMarker{Type: xlsx.MarkerDiamond, Size: 7}}}
	combined := xlsx.Chart{Type: xlsx.ChartColumn, Title: title("Revenue and units"), Series: series(colRevenue),
		Combine: &xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{{Name: name(colUnits), Categories: data(colMonth), Values: data(colUnits), Secondary: true}}},
		Y:       xlsx.ChartAxis{Title: title("EUR"), NumFmt: "#,##0"}, Y2: xlsx.ChartAxis{Title: title("units")}}
	return []xlsx.Chart{
		{Type: xlsx.ChartColumn, Title: title("Revenue and cost"), Series: series(colRevenue, colCost), Y: xlsx.ChartAxis{NumFmt: "#,##0"}},
		{Type: xlsx.ChartBarStacked, Title: title("Cost and profit"), Series: series(colCost, colProfit), Legend: xlsx.ChartLegend{Position: xlsx.LegendBottom}},
		{Type: xlsx.ChartLineWithMarkers, Title: title("Revenue trend"), Series: trend},
		{Type: xlsx.ChartAreaStacked, Title: title("Cost and profit, stacked"), Series: series(colCost, colProfit)},
		{Type: xlsx.ChartPie, Title: title("Units, first half"), Series: pie},
		{Type: xlsx.ChartDoughnut, Title: title("Units, first half"), Series: pie, HoleSize: 55},
		{Type: xlsx.ChartScatter, Title: title("Profit against units"), Series: scatter, X: xlsx.ChartAxis{Title: title("units")}, Y: xlsx.ChartAxis{Title: title("profit")}},
		{Type: xlsx.ChartRadarFilled, Title: title("Revenue and cost, by month"), Series: series(colRevenue, colCost)},
		{Type: xlsx.ChartStock, Title: title("Share price"), Series: series(colOpen, colHigh, colLow, colClose), X: xlsx.ChartAxis{NumFmt: "mmm yy"},
			UpDownBars: &xlsx.ChartUpDownBars{Up: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "70AD47"}}, Down: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "C00000"}}}},
		combined,
	}
}

func run(path string, months int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := xlsx.NewWriter(f, xlsx.Options{})
	if err != nil {
		return err
	}
	if err := write(w, months); err != nil {
		w.Abort()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}

func write(w *xlsx.Writer, months int) error {
	// The dashboard prints on one landscape page.
	dash, err := w.AddSheet("Dashboard", xlsx.SheetOptions{Print: &xlsx.PrintSetup{Landscape: true, FitWide: 1, FitTall: 1}})
	if err != nil {
		return err
	}
	if err := dash.WriteRow([]xlsx.Cell{xlsx.String("Sales dashboard")}); err != nil {
		return err
	}
	for i, c := range charts() {
		c.Width, c.Height = 480, 300
		if err := dash.AddChart(3+(i/3)*16, 1+(i%3)*8, c); err != nil {
			return fmt.Errorf("chart %d: %w", i+1, err)
		}
	}
	// The chartsheet comes next in the tabs; it reads the Data sheet,
	// added after it, so its values are cached too.
	if err := w.AddChartSheet("Trend", xlsx.SheetOptions{}, xlsx.Chart{Type: xlsx.ChartLine,
		Title: xlsx.ChartTitle{Text: "Revenue, cost and profit"}, Series: series(colRevenue, colCost, colProfit)}); err != nil {
		return err
	}
	sheet, err := w.AddSheet("Data", xlsx.SheetOptions{FreezeRows: 1})
	if err != nil {
		return err
	}
	if err := sheet.SetColumn(1, 1, xlsx.ColumnOptions{Width: 10}); err != nil {
		return err
	}
	if err := sheet.SetColumn(colClose+1, colClose+1, xlsx.ColumnOptions{Width: 18}); err != nil {
		return err
	}
	bold, err := w.AddStyle(xlsx.Style{Font: xlsx.Font{Bold: true}})
	if err != nil {
		return err
	}
	monthFmt, err := w.AddStyle(xlsx.Style{NumFmt: "mmm yy"})
	if err != nil {
		return err
	}
	money, err := w.AddStyle(xlsx.Style{NumFmt: "#,##0"})
	if err != nil {
		return err
	}
	// A sparkline of each column's months, a row under the data.
	if err := sheet.AddSparklines(xlsx.Sparklines{Location: xlsx.Range{FirstRow: months + 3, FirstCol: colRevenue, LastRow: months + 3, LastCol: colUnits},
		Data: fmt.Sprintf("Data!B2:E%d", months+1), Markers: true, High: true, Low: true}); err != nil {
		return err
	}
	row := make([]xlsx.Cell, len(header))
	for i, h := range header {
		row[i] = xlsx.String(h).WithStyle(bold)
	}
	if err := sheet.WriteRow(row); err != nil {
		return err
	}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	price := 100.0
	for m := range months {
		season := math.Sin(float64(m) / 12 * 2 * math.Pi)
		revenue := 50000 + 1500*float64(m) + 12000*season
		cost := 32000 + 600*float64(m) + 4000*season
		units := 400 + 15*m + int(120*season)
		open := price
		price += 6*math.Sin(float64(m)*1.7) + 1
		row := []xlsx.Cell{
			xlsx.Date(start.AddDate(0, m, 0)).WithStyle(monthFmt),
			xlsx.Float(math.Round(revenue)).WithStyle(money), xlsx.Float(math.Round(cost)).WithStyle(money),
			xlsx.Float(math.Round(revenue - cost)).WithStyle(money), xlsx.Int(int64(units)),
			xlsx.Float(math.Round(open)), xlsx.Float(math.Round(max(open, price) + 4)), xlsx.Float(math.Round(min(open, price) - 4)), xlsx.Float(math.Round(price)),
		}
		if err := sheet.WriteRow(row); err != nil {
			return err
		}
	}
	// The sparklines' row stays empty of cells: the open-ended ranges end
	// at the last month.
	return nil
}
