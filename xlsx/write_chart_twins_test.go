package xlsx_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Charts' twins: rust_xlsxwriter's chart tests, each a workbook Excel
// saved. Most put the same numbers in A1:C5 and a chart at E9; the chart
// is added before the rows so that its cached values come from them as
// they stream.

// twinRows reads the cells of a twin's first sheet: the data its chart
// draws, written here as Excel has them (numbers, text, and dates in
// their formats).
func twinRows(file string) [][]twinCell {
	wb, err := xlsx.Open(filepath.Join("testdata", "excel", file), xlsx.ReadOptions{})
	if err != nil {
		panic(err)
	}
	defer wb.Close()
	rows, err := wb.Rows(context.Background(), 0)
	if err != nil {
		panic(err)
	}
	defer rows.Close()
	var out [][]twinCell
	for rows.Next() {
		r := rows.Row()
		for len(out) < r.Num-1 {
			out = append(out, nil)
		}
		var cells []twinCell
		for i := range r.Cells {
			v := &r.Cells[i]
			for len(cells) < v.Col()-1 {
				cells = append(cells, twinCell{})
			}
			c := twinCell{format: wb.NumberFormat(v.Style())}
			switch v.Type() {
			case xlsx.TypeNumber, xlsx.TypeDate:
				c.cell = xlsx.Float(v.Float())
			case xlsx.TypeString:
				c.cell = xlsx.String(string(v.Bytes()))
			case xlsx.TypeBool:
				c.cell = xlsx.Bool(v.Bool())
			}
			cells = append(cells, c)
		}
		out = append(out, cells)
	}
	if rows.Err() != nil {
		panic(rows.Err())
	}
	return out
}

type twinCell struct {
	cell   xlsx.Cell
	format string
}

// chartSheet adds Sheet1, places the charts at their cells and writes
// the twin's rows.
func chartSheet(w *xlsx.Writer, file string, placed ...placedChart) *sheetOf {
	s := add(w, "Sheet1")
	for _, p := range placed {
		s.do(func(sh *xlsx.Sheet) error {
			row, col, err := xlsx.ParseCellName(p.at)
			if err != nil {
				return err
			}
			return sh.AddChart(row, col, p.chart)
		})
	}
	writeTwinRows(w, s, file)
	return s
}

func writeTwinRows(w *xlsx.Writer, s *sheetOf, file string) {
	for _, r := range twinRows(file) {
		cells := make([]xlsx.Cell, len(r))
		for i, c := range r {
			cells[i] = c.cell
			if c.format != "" && !c.cell.IsEmpty() {
				cells[i] = c.cell.WithStyle(st(w, xlsx.Style{NumFmt: c.format}))
			}
		}
		s.do(func(sh *xlsx.Sheet) error { return sh.WriteRow(cells) })
	}
}

type placedChart struct {
	at    string
	chart xlsx.Chart
}

// chartTwin is the common test: the twin's rows and one chart at E9.
func chartTwin(file string, c xlsx.Chart) twin {
	file = "rust_xlsxwriter/" + file + ".xlsx"
	return twin{file: file, build: func(w *xlsx.Writer) error {
		return chartSheet(w, file, placedChart{"E9", c}).err
	}}
}

// ser is a series over Sheet1's columns: "A" values, or "A:B"
// categories and values, rows 1..5 (or as many as given, "A:B3").
func ser(cols string) xlsx.ChartSeries {
	rows := "5"
	if i := strings.IndexAny(cols, "0123456789"); i > 0 {
		cols, rows = cols[:i], cols[i:]
	}
	cat, val, found := strings.Cut(cols, ":")
	if !found {
		return xlsx.ChartSeries{Values: "Sheet1!$" + cat + "$1:$" + cat + "$" + rows}
	}
	return xlsx.ChartSeries{Categories: "Sheet1!$" + cat + "$1:$" + cat + "$" + rows, Values: "Sheet1!$" + val + "$1:$" + val + "$" + rows}
}

func sers(cols ...string) []xlsx.ChartSeries {
	out := make([]xlsx.ChartSeries, len(cols))
	for i, c := range cols {
		out[i] = ser(c)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// with modifies a series.
func with(s xlsx.ChartSeries, f func(*xlsx.ChartSeries)) xlsx.ChartSeries {
	f(&s)
	return s
}

var chartTwins = slices.Concat(
	[]twin{
		chartTwin("chart_bar01", xlsx.Chart{Type: xlsx.ChartBar, Series: sers("A:B", "A:C")}),
		chartTwin("chart_column01", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A:B", "A:C")}),
		chartTwin("chart_area01", xlsx.Chart{Type: xlsx.ChartArea, Series: sers("A:B", "A:C")}),
		chartTwin("chart_area02", xlsx.Chart{Type: xlsx.ChartAreaStacked, Series: sers("A:B", "A:C")}),
		chartTwin("chart_line01", xlsx.Chart{Type: xlsx.ChartLine, Series: sers("A", "B", "C")}),
		chartTwin("chart_pie01", xlsx.Chart{Type: xlsx.ChartPie, Series: sers("A:B3")}),
		chartTwin("chart_doughnut01", xlsx.Chart{Type: xlsx.ChartDoughnut, Series: sers("A:B3")}),
		chartTwin("chart_scatter01", xlsx.Chart{Type: xlsx.ChartScatter, Series: sers("A:B", "A:C")}),
		chartTwin("chart_scatter02", xlsx.Chart{Type: xlsx.ChartScatterStraightWithMarkers, Series: sers("A:B", "A:C")}),
		chartTwin("chart_scatter03", xlsx.Chart{Type: xlsx.ChartScatterStraight, Series: sers("A:B", "A:C")}),
		chartTwin("chart_scatter04", xlsx.Chart{Type: xlsx.ChartScatterSmoothWithMarkers, Series: sers("A:B", "A:C")}),
		chartTwin("chart_scatter05", xlsx.Chart{Type: xlsx.ChartScatterSmooth, Series: sers("A:B", "A:C")}),
		chartTwin("chart_radar01", xlsx.Chart{Type: xlsx.ChartRadar, Series: sers("A", "B", "C")}),
		chartTwin("chart_radar02", xlsx.Chart{Type: xlsx.ChartRadarWithMarkers, Series: sers("A", "B", "C")}),
		chartTwin("chart_radar03", xlsx.Chart{Type: xlsx.ChartRadarFilled, Series: sers("A", "B", "C")}),
		chartTwin("chart_bar03", xlsx.Chart{Type: xlsx.ChartBar, Series: sers("A:B", "A:C")}),
		chartTwin("chart_title02", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A", "B", "C"), Title: xlsx.ChartTitle{Text: "Title!"}}),
		chartTwin("chart_column04", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{ser("A"), with(ser("B"), func(s *xlsx.ChartSeries) { s.Secondary = true })}}),
	},
)
