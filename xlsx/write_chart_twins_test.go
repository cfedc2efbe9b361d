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
		if len(r) == 0 {
			s.do(func(sh *xlsx.Sheet) error { return sh.SkipRows(1) })
			continue
		}
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

// stockTwin is a stock chart's test: dates in A, in a wider column.
func stockTwin(file string, cols int, c xlsx.Chart) twin {
	return widthTwin(file, cols, 11.7109375, c)
}

// widthTwin is the common test with the first columns widened.
func widthTwin(file string, cols int, width float64, c xlsx.Chart) twin {
	file = "rust_xlsxwriter/" + file + ".xlsx"
	return twin{file: file, build: func(w *xlsx.Writer) error {
		s := add(w, "Sheet1").do(func(sh *xlsx.Sheet) error {
			return sh.SetColumn(1, cols, xlsx.ColumnOptions{Width: inverseWidth(width)})
		})
		s.do(func(sh *xlsx.Sheet) error { return sh.AddChart(9, 5, c) })
		writeTwinRows(w, s, file)
		return s.err
	}}
}

// chartsheetTwin is Sheet1's rows drawn on the chartsheet Chart1, added
// while Sheet1 is open so that it caches them; more sheets may follow.
func chartsheetTwin(file string, opts xlsx.SheetOptions, c xlsx.Chart, more ...string) twin {
	file = "rust_xlsxwriter/" + file + ".xlsx"
	return twin{file: file, build: func(w *xlsx.Writer) error {
		s := add(w, "Sheet1")
		if s.err == nil {
			s.err = w.AddChartSheet("Chart1", opts, c)
		}
		writeTwinRows(w, s, file)
		for _, name := range more {
			if s.err == nil {
				s = add(w, name)
			}
		}
		return s.err
	}}
}

// chartTwinAt is the twin's rows and one chart at a cell.
func chartTwinAt(file, at string, c xlsx.Chart) twin {
	file = "rust_xlsxwriter/" + file + ".xlsx"
	return twin{file: file, build: func(w *xlsx.Writer) error {
		return chartSheet(w, file, placedChart{at, c}).err
	}}
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

var (
	red         = xlsx.ChartFormat{Line: xlsx.ChartLineFormat{Color: "FF0000"}}
	redArea     = xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "FF0000"}}
	redOnYellow = xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "FF0000"}, Line: xlsx.ChartLineFormat{Color: "FFFF00"}}
	redLongDash = xlsx.ChartLineFormat{Color: "FF0000", Width: 1, Dash: xlsx.DashLongDash}
	polyTrend   = xlsx.ChartTrendline{Type: xlsx.TrendPolynomial, Order: 2, Name: "My trend name", Forward: 0.5, Backward: 0.5, Line: redLongDash}
)

func fmtd(s xlsx.ChartSeries, f xlsx.ChartFormat) xlsx.ChartSeries       { s.Format = f; return s }
func marker(s xlsx.ChartSeries, m xlsx.ChartMarker) xlsx.ChartSeries     { s.Marker = &m; return s }
func trend(s xlsx.ChartSeries, t xlsx.ChartTrendline) xlsx.ChartSeries   { s.Trendline = &t; return s }
func labels(s xlsx.ChartSeries, l xlsx.ChartDataLabels) xlsx.ChartSeries { s.Labels = &l; return s }
func with2[T any](v T, f func(*T)) T                                     { f(&v); return v }

var (
	abc    = sers("A", "B", "C")
	noLine = xlsx.ChartFormat{Line: xlsx.ChartLineFormat{None: true}}
)

func titled(text string) xlsx.ChartAxis { return xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: text}} }

// titledAxis is an axis with a title in a font, and its labels in
// another if given.
func titledAxis(text string, f xlsx.ChartFont, labels ...xlsx.ChartFont) xlsx.ChartAxis {
	a := xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: text, Font: f}}
	if len(labels) > 0 {
		a.Font = labels[0]
	}
	return a
}

var (
	consolas      = xlsx.ChartFont{Name: "Consolas", PitchFamily: 49}
	boldItalicRed = xlsx.ChartFont{Bold: true, Italic: true, Color: "FF0000"}
	redDash       = xlsx.ChartLineFormat{Color: "FF0000", Width: 1, Dash: xlsx.DashDash}
	greenOnRed    = xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "00B050"}, Line: xlsx.ChartLineFormat{Color: "FF0000"}}
)

// dl is a chart of the three columns with labels on the first series
// (and the next), as most data label tests have.
func dl(t xlsx.ChartType, l ...xlsx.ChartDataLabels) xlsx.Chart {
	c := xlsx.Chart{Type: t, Series: sers("A", "B", "C")}
	for i := range l {
		c.Series[i].Labels = &l[i]
	}
	return c
}

func val() xlsx.ChartDataLabels { return xlsx.ChartDataLabels{Value: true} }
func pos(p xlsx.ChartLabelPosition) xlsx.ChartDataLabels {
	return xlsx.ChartDataLabels{Value: true, Position: p}
}
func leader(l xlsx.ChartDataLabels) xlsx.ChartDataLabels { l.LeaderLines = true; return l }
func valCat(sep string) xlsx.ChartDataLabels {
	return xlsx.ChartDataLabels{Value: true, Category: true, Separator: sep}
}
func custom(c ...xlsx.ChartCustomLabel) xlsx.ChartDataLabels {
	return xlsx.ChartDataLabels{Value: true, Custom: c}
}

// allLabels is every part of a pie's label shown.
func allLabels(f xlsx.ChartFormat) xlsx.ChartDataLabels {
	return xlsx.ChartDataLabels{Value: true, Category: true, SeriesName: true, Percentage: true, LegendKey: true, LeaderLines: true,
		Separator: ";", NumFmt: "#,##0.00", Position: xlsx.LabelInsideEnd, Font: consolas, Format: f}
}

func stops3(mid int) []xlsx.ChartGradientStop {
	return []xlsx.ChartGradientStop{{"DDEBCF", 0}, {"9CB86E", mid}, {"156B13", 100}}
}

func gradientFormat(angle int, stops []xlsx.ChartGradientStop) xlsx.ChartFormat {
	return xlsx.ChartFormat{Fill: xlsx.ChartFill{Gradient: &xlsx.ChartGradient{Angle: angle, Stops: stops}}}
}

func gradientChart(angle int, stops []xlsx.ChartGradientStop) xlsx.Chart {
	return xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{fmtd(ser("A"), gradientFormat(angle, stops)), ser("B"), ser("C")}}
}

func gradientTyped(t xlsx.ChartGradientType) xlsx.Chart {
	c := gradientChart(0, stops3(50))
	c.Series[0].Format.Fill.Gradient.Type = t
	return c
}

func patternFormat(p, fg, bg xlsx.ChartColor) xlsx.ChartFormat {
	return xlsx.ChartFormat{Fill: xlsx.ChartFill{Pattern: &xlsx.ChartPattern{Pattern: string(p), Foreground: fg, Background: bg}}}
}

// patternChart is eight column series over A1:H3, patterned in turn.
func patternChart(patterns [][3]string) xlsx.Chart {
	c := xlsx.Chart{Type: xlsx.ChartColumn}
	for i, col := range "ABCDEFGH" {
		s := ser(string(col) + "3")
		if i < len(patterns) {
			p := patterns[i]
			s.Format = patternFormat(xlsx.ChartColor(p[0]), xlsx.ChartColor(p[1]), xlsx.ChartColor(p[2]))
		}
		c.Series = append(c.Series, s)
	}
	return c
}

type themed struct {
	color        xlsx.ChartColor
	transparency int
}

// themeChart is a stacked line chart of A1:F8, its lines in theme
// colours.
func themeChart(colors []themed) xlsx.Chart {
	c := xlsx.Chart{Type: xlsx.ChartLineStacked}
	for i, col := range "ABCDEF" {
		s := ser(string(col) + "8")
		if i < len(colors) {
			s.Format.Line = xlsx.ChartLineFormat{Color: colors[i].color, Transparency: colors[i].transparency}
		}
		c.Series = append(c.Series, s)
	}
	return c
}

var noFill = xlsx.ChartFormat{Fill: xlsx.ChartFill{None: true}}

func fill(c xlsx.ChartColor) xlsx.ChartFormat {
	return xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: c}}
}

func points(s xlsx.ChartSeries, p ...xlsx.ChartFormat) xlsx.ChartSeries { s.Points = p; return s }

var bothGrids = xlsx.ChartAxis{MajorGridlines: &xlsx.ChartGridlines{}, MinorGridlines: &xlsx.ChartGridlines{}}

var stdErr = xlsx.ChartErrorBars{Type: xlsx.ErrorStdErr}

var legendLayout = &xlsx.ChartLayout{X: 0.80197353455818, Y: 0.37442403032954, W: 0.12858202099737, H: 0.25115157480314}

func yErr(s xlsx.ChartSeries, e xlsx.ChartErrorBars) xlsx.ChartSeries { s.YErrorBars = &e; return s }

func sec(s xlsx.ChartSeries) xlsx.ChartSeries    { s.Secondary = true; return s }
func smooth(s xlsx.ChartSeries) xlsx.ChartSeries { s.Smooth = true; return s }

// with modifies a series.
func with(s xlsx.ChartSeries, f func(*xlsx.ChartSeries)) xlsx.ChartSeries {
	f(&s)
	return s
}

var chartTwins = slices.Concat(
	[]twin{
		chartTwin("chart_bar01", xlsx.Chart{Type: xlsx.ChartBar, Series: sers("A:B", "A:C")}),
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
		{file: "rust_xlsxwriter/chart_bar03.xlsx", build: func(w *xlsx.Writer) error {
			return chartSheet(w, "rust_xlsxwriter/chart_bar03.xlsx",
				placedChart{"E9", xlsx.Chart{Type: xlsx.ChartBar, Series: sers("A:B", "A:C")}},
				placedChart{"F25", xlsx.Chart{Type: xlsx.ChartBar, Series: sers("A:B4", "A:C4")}}).err
		}},
		chartTwin("chart_title02", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A"), Title: xlsx.ChartTitle{Text: "Title!"}}),
		chartTwin("chart_column01", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A", "B", "C")}),
		chartTwin("chart_column02", xlsx.Chart{Type: xlsx.ChartColumnStacked, Series: sers("A", "B", "C")}),
		chartTwin("chart_column03", xlsx.Chart{Type: xlsx.ChartColumnPercentStacked, Series: sers("A", "B", "C")}),
		chartTwin("chart_column09", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A:B")}),
		chartTwin("chart_column10", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A:B")}),
		chartTwin("chart_column11", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A", "B", "C"), Style: 1}),
		chartTwin("chart_column12", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A", "B", "C"), Style: 48}),
		chartTwin("chart_column13", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{{Categories: "Sheet1!$A$1:$B$1", Values: "Sheet1!$A$2:$B$2"}}}),
		chartTwin("chart_bar05", xlsx.Chart{Type: xlsx.ChartBar, Series: sers("A", "B", "C")}),
		chartTwin("chart_bar06", xlsx.Chart{Type: xlsx.ChartBar, Series: sers("A", "B", "C"), X: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "Pear"}}, Y: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "Apple"}}, Title: xlsx.ChartTitle{Text: "Title"}}),
		chartTwin("chart_bar07", xlsx.Chart{Type: xlsx.ChartBar, Series: sers("A", "B", "C"), X: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "=Sheet1!$A$3"}}, Y: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "=Sheet1!$A$2"}}, Title: xlsx.ChartTitle{Text: "=Sheet1!$A$1"}}),
		chartTwin("chart_bar09", xlsx.Chart{Type: xlsx.ChartBarStacked, Series: sers("A", "B", "C")}),
		chartTwin("chart_bar10", xlsx.Chart{Type: xlsx.ChartBarPercentStacked, Series: sers("A", "B", "C")}),
		chartTwin("chart_line02", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{ser("A"), sec(ser("B"))}}),
		chartTwin("chart_line03", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{smooth(ser("A")), ser("B"), ser("C")}}),
		chartTwin("chart_line04", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{smooth(ser("A")), ser("B"), smooth(ser("C"))}}),
		chartTwin("chart_line05", xlsx.Chart{Type: xlsx.ChartLineStacked, Series: sers("A", "B", "C")}),
		chartTwin("chart_line06", xlsx.Chart{Type: xlsx.ChartLinePercentStacked, Series: sers("A", "B", "C")}),
		chartTwin("chart_area03", xlsx.Chart{Type: xlsx.ChartAreaPercentStacked, Series: sers("A:B", "A:C")}),
		chartTwin("chart_area04", xlsx.Chart{Type: xlsx.ChartArea, Series: []xlsx.ChartSeries{ser("A"), sec(ser("B"))}}),
		chartTwin("chart_pie02", xlsx.Chart{Type: xlsx.ChartPie, Series: sers("A:B3"), Legend: xlsx.ChartLegend{Font: xlsx.ChartFont{Bold: true, Italic: true}}}),
		chartTwin("chart_pie03", xlsx.Chart{Type: xlsx.ChartPie, Series: sers("A:B3"), Legend: xlsx.ChartLegend{Delete: []int{1}}}),
		chartTwin("chart_pie04", xlsx.Chart{Type: xlsx.ChartPie, Series: sers("A:B3"), Legend: xlsx.ChartLegend{Overlay: true}}),
		chartTwin("chart_pie05", xlsx.Chart{Type: xlsx.ChartPie, Series: sers("A:B3"), FirstSliceAngle: 45}),
		chartTwin("chart_doughnut02", xlsx.Chart{Type: xlsx.ChartDoughnut, Series: sers("A:B3"), HoleSize: 10}),
		chartTwin("chart_doughnut03", xlsx.Chart{Type: xlsx.ChartDoughnut, Series: sers("A:B3"), HoleSize: 90}),
		chartTwin("chart_doughnut04", xlsx.Chart{Type: xlsx.ChartDoughnut, Series: sers("A:B3"), FirstSliceAngle: 30}),
		chartTwin("chart_doughnut05", xlsx.Chart{Type: xlsx.ChartDoughnut, Series: sers("A:B3"), FirstSliceAngle: 360}),
		chartTwin("chart_doughnut06", xlsx.Chart{Type: xlsx.ChartDoughnut, Series: sers("A3", "B3")}),
		chartTwin("chart_doughnut07", xlsx.Chart{Type: xlsx.ChartDoughnut, Series: []xlsx.ChartSeries{
			{Name: "=Sheet1!$H$2", Values: "Sheet1!$H$3:$H$6"}, {Name: "=Sheet1!$I$2", Values: "Sheet1!$I$3:$I$6"}}}),
		chartTwin("chart_scatter06", xlsx.Chart{Type: xlsx.ChartScatter, Series: sers("A:B", "A:C"),
			X: xlsx.ChartAxis{MajorUnit: ptr(3.0), MinorUnit: ptr(1.0)}, Y: xlsx.ChartAxis{MajorUnit: ptr(4.0), MinorUnit: ptr(2.0)}}),
		chartTwin("chart_scatter07", xlsx.Chart{Type: xlsx.ChartScatter, Series: []xlsx.ChartSeries{ser("A:B"), sec(ser("C:D"))}}),
		chartTwin("chart_scatter11", xlsx.Chart{Type: xlsx.ChartScatterStraightWithMarkers, Series: []xlsx.ChartSeries{smooth(ser("A:B")), ser("A:C")}}),
		stockTwin("chart_stock01", 4, xlsx.Chart{Type: xlsx.ChartStock, Series: sers("A:B", "A:C", "A:D")}),
		stockTwin("chart_stock03", 5, xlsx.Chart{Type: xlsx.ChartStock, Series: sers("A:B", "A:C", "A:D", "A:E"), UpDownBars: &xlsx.ChartUpDownBars{}}),
		chartsheetTwin("chartsheet01", xlsx.SheetOptions{Active: true}, xlsx.Chart{Type: xlsx.ChartBar, Series: sers("A", "B", "C")}),
		chartsheetTwin("chartsheet03", xlsx.SheetOptions{State: xlsx.SheetHidden}, xlsx.Chart{Type: xlsx.ChartBar, Series: sers("A", "B", "C")}),
		chartsheetTwin("chartsheet06", xlsx.SheetOptions{TabColor: "FF0000"}, xlsx.Chart{Type: xlsx.ChartBar, Series: sers("A", "B", "C")}),
		chartsheetTwin("chart_bar12", xlsx.SheetOptions{}, xlsx.Chart{Type: xlsx.ChartBar, Series: sers("A", "B", "C")}),
		chartTwin("chart_format01", xlsx.Chart{Type: xlsx.ChartLine, Series: sers("A:B", "A:C")}),
		chartTwin("chart_format02", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{fmtd(ser("A:B"), red), ser("A:C")}}),
		chartTwin("chart_format03", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{fmtd(ser("A:B"), redOnYellow), ser("A:C")}}),
		chartTwin("chart_format04", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{fmtd(ser("A:B"), redArea), ser("A:C")}}),
		chartTwin("chart_format05", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{marker(ser("A:B"), xlsx.ChartMarker{}), ser("A:C")}}),
		chartTwin("chart_format06", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{marker(ser("A:B"), xlsx.ChartMarker{Type: xlsx.MarkerDiamond, Size: 7}), ser("A:C")}}),
		chartTwin("chart_format07", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{marker(ser("A:B"), xlsx.ChartMarker{Type: xlsx.MarkerSquare, Size: 5, Format: redOnYellow}), ser("A:C")}}),
		chartTwin("chart_format08", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{trend(ser("A:B"), xlsx.ChartTrendline{}), ser("A:C")}}),
		chartTwin("chart_format09", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{fmtd(ser("A:B"), xlsx.ChartFormat{Line: xlsx.ChartLineFormat{Color: "FF0000", Width: 1.25, Dash: xlsx.DashSquareDot}}), ser("A:C")}}),
		chartTwin("chart_format10", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{trend(ser("A:B"), xlsx.ChartTrendline{Line: redLongDash}), ser("A:C")}}),
		chartTwin("chart_format11", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{trend(ser("A:B"), polyTrend), ser("A:C")}}),
		chartTwin("chart_format12", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{trend(ser("A:B"), xlsx.ChartTrendline{Type: xlsx.TrendMovingAverage, Period: 2, Line: redLongDash}), ser("A:C")}}),
		chartTwin("chart_format13", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{labels(ser("A:B"), xlsx.ChartDataLabels{Value: true}), ser("A:C")}}),
		chartTwin("chart_format14", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{labels(ser("A:B"), xlsx.ChartDataLabels{Value: true, Category: true, SeriesName: true}), ser("A:C")}}),
		chartTwin("chart_format15", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{trend(ser("A:B"), xlsx.ChartTrendline{}), ser("A:C")}, Legend: xlsx.ChartLegend{Delete: []int{2, 0}}}),
		chartTwin("chart_format16", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{labels(ser("A:B"), xlsx.ChartDataLabels{Value: true, Category: true, SeriesName: true, Position: xlsx.LabelCenter}), ser("A:C")}}),
		chartTwin("chart_format17", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{fmtd(ser("A"), xlsx.ChartFormat{Fill: xlsx.ChartFill{None: true}}), ser("B"), ser("C")}}),
		chartTwin("chart_format18", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{fmtd(ser("A"), xlsx.ChartFormat{Fill: xlsx.ChartFill{None: true}, Line: xlsx.ChartLineFormat{None: true}}), ser("B"), ser("C")}}),
		chartTwin("chart_format19", xlsx.Chart{Type: xlsx.ChartColumnStacked, Series: []xlsx.ChartSeries{ser("A"), ser("B"), labels(ser("C"), xlsx.ChartDataLabels{Value: true, Position: xlsx.LabelInsideBase})}}),
		chartTwin("chart_format21", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{fmtd(ser("A:B"), xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "FF0000", Transparency: 24}, Line: xlsx.ChartLineFormat{Color: "FFFF00"}}), ser("A:C")}}),
		chartTwin("chart_format22", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{fmtd(ser("A:B"), xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "FF0000", Transparency: 1}, Line: xlsx.ChartLineFormat{Color: "FFFF00"}}), ser("A:C")}}),
		chartTwin("chart_format23", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{fmtd(ser("A:B"), xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "FF0000", Transparency: 100}, Line: xlsx.ChartLineFormat{Color: "FFFF00"}}), ser("A:C")}}),
		chartTwin("chart_format24", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A:B", "A:C"),
			PlotArea: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "FF0000", Transparency: 25}}, ChartArea: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "FFFF00", Transparency: 75}}}),
		chartTwin("chart_format25", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{fmtd(ser("A:B"), xlsx.ChartFormat{Line: xlsx.ChartLineFormat{Color: "FF0000", Transparency: 50}}), ser("A:C")}}),
		chartTwin("chart_format26", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{trend(ser("A:B"), xlsx.ChartTrendline{ShowEquation: true}), ser("A:C")}, Legend: xlsx.ChartLegend{Delete: []int{2, 0}}}),
		chartTwin("chart_format27", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{trend(ser("A:B"), with2(polyTrend, func(t *xlsx.ChartTrendline) { t.ShowEquation = true })), ser("A:C")}}),
		chartTwin("chart_format28", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{trend(ser("A:B"), xlsx.ChartTrendline{ShowEquation: true, ShowRSquared: true}), ser("A:C")}, Legend: xlsx.ChartLegend{Delete: []int{0, 2}}}),
		chartTwin("chart_format29", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{trend(ser("A:B"), with2(polyTrend, func(t *xlsx.ChartTrendline) { t.ShowEquation, t.ShowRSquared = true, true })), ser("A:C")}}),
		chartTwin("chart_format30", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{trend(ser("A:B"), xlsx.ChartTrendline{ShowEquation: true, ShowRSquared: true, Intercept: ptr(0.8)}), ser("A:C")}, Legend: xlsx.ChartLegend{Delete: []int{0, 2}}}),
		chartTwin("chart_format31", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{trend(ser("A:B"), with2(polyTrend, func(t *xlsx.ChartTrendline) { t.ShowEquation, t.ShowRSquared, t.Intercept = true, true, ptr(1.5) })), ser("A:C")}}),
		chartTwin("chart_format33", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{trend(ser("A:B"), xlsx.ChartTrendline{ShowEquation: true, LabelFormat: redArea}), ser("A:C")}}),
		chartTwin("chart_format34", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{trend(ser("A:B"), xlsx.ChartTrendline{ShowEquation: true, LabelFormat: redOnYellow}), ser("A:C")}}),
		chartTwin("chart_format35", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{trend(ser("A:B"), xlsx.ChartTrendline{ShowEquation: true, LabelFormat: redOnYellow,
			LabelFont: xlsx.ChartFont{Bold: true, NotItalic: true, Color: "0070C0"}}), ser("A:C")}}),
		chartTwin("chart_axis01", xlsx.Chart{Type: xlsx.ChartBar, Series: abc, X: titled("YYY"), Y: titled("XXX")}),
		chartTwin("chart_axis02", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: titled("XXX"), Y: titledAxis("YYY", xlsx.ChartFont{Rotation: 0})}),
		stockTwin("chart_axis03", 4, xlsx.Chart{Type: xlsx.ChartStock, Series: sers("A:B", "A:C", "A:D"), Title: xlsx.ChartTitle{Text: "Title"}, X: titled("XXX"), Y: titled("YYY")}),
		chartTwin("chart_axis04", xlsx.Chart{Type: xlsx.ChartScatter, Series: sers("A:B", "A:C"), X: titled("XXX"), Y: titled("YYY")}),
		chartTwin("chart_axis05", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, X: titled("XXX"), Y: titled("YYY")}),
		chartTwin("chart_axis06", xlsx.Chart{Type: xlsx.ChartPie, Series: sers("A:B3"), Title: xlsx.ChartTitle{Text: "Title"}, X: titled("XXX"), Y: titled("YYY")}),
		chartTwin("chart_axis07", xlsx.Chart{Type: xlsx.ChartArea, Series: sers("A:B", "A:C"), X: titled("XXX"), Y: titled("YYY")}),
		chartTwin("chart_axis08", xlsx.Chart{Type: xlsx.ChartBar, Series: sers("A:B", "A:C"), X: xlsx.ChartAxis{Reverse: true}}),
		chartTwin("chart_axis09", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{Reverse: true}}),
		chartTwin("chart_axis10", xlsx.Chart{Type: xlsx.ChartBar, Series: sers("A:B", "A:C"), X: xlsx.ChartAxis{Reverse: true}, Y: xlsx.ChartAxis{Reverse: true}}),
		chartTwin("chart_axis11", xlsx.Chart{Type: xlsx.ChartBar, Series: abc, Y: xlsx.ChartAxis{Min: ptr(0.0), Max: ptr(20.0)}}),
		chartTwin("chart_axis12", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Y: xlsx.ChartAxis{Min: ptr(0.0), Max: ptr(16.0)}}),
		chartTwin("chart_axis13", xlsx.Chart{Type: xlsx.ChartScatter, Series: sers("A:B", "A:C"), X: xlsx.ChartAxis{Min: ptr(0.0), Max: ptr(6.0)}, Y: xlsx.ChartAxis{Min: ptr(0.0), Max: ptr(16.0)}}),
		stockTwin("chart_axis14", 4, xlsx.Chart{Type: xlsx.ChartStock, Series: sers("A:B", "A:C", "A:D"), X: xlsx.ChartAxis{Min: ptr(39083.0), Max: ptr(39087.0)}, Y: xlsx.ChartAxis{Min: ptr(0.0), Max: ptr(30.0)}}),
		chartTwin("chart_axis15", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Y: xlsx.ChartAxis{MajorUnit: ptr(2.0), MinorUnit: ptr(0.4)}}),
		stockTwin("chart_axis16", 4, xlsx.Chart{Type: xlsx.ChartStock, Series: sers("A:B", "A:C", "A:D"), X: xlsx.ChartAxis{MajorUnit: ptr(1.0), MajorTimeUnit: "months", MinorUnit: ptr(14.0)}}),
		chartTwin("chart_axis17", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Y: xlsx.ChartAxis{LogBase: 10}}),
		chartTwin("chart_axis18", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{with(ser("A"), func(s *xlsx.ChartSeries) { s.InvertIfNegative = true }), ser("B"), ser("C")}}),
		chartTwin("chart_axis19", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{Labels: xlsx.AxisLabelsHigh}, Y: xlsx.ChartAxis{Labels: xlsx.AxisLabelsLow}}),
		chartTwin("chart_axis20", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Y: xlsx.ChartAxis{Labels: xlsx.AxisLabelsNone}}),
		chartTwin("chart_axis21", xlsx.Chart{Type: xlsx.ChartScatter, Series: sers("A:B", "A:C"), X: xlsx.ChartAxis{Reverse: true}}),
		chartTwin("chart_axis22", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{NumFmt: "#,##0.00"}}),
		chartTwin("chart_axis23", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{NumFmt: "dd/mm/yyyy"}, Y: xlsx.ChartAxis{NumFmt: "0.00%"}}),
		chartTwin("chart_axis24", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{NumFmt: "dd/mm/yyyy", NumFmtLinked: true}, Y: xlsx.ChartAxis{NumFmt: "0.00%"}}),
		chartTwin("chart_axis25", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{NumFmt: "[$¥-411]#,##0.00"}, Y: xlsx.ChartAxis{NumFmt: "0.00%"}}),
		chartTwin("chart_axis26", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, X: xlsx.ChartAxis{Font: xlsx.ChartFont{Rotation: 45}}}),
		chartTwin("chart_axis27", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, X: xlsx.ChartAxis{Font: xlsx.ChartFont{Rotation: -35}}}),
		chartTwin("chart_axis28", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, X: xlsx.ChartAxis{Font: xlsx.ChartFont{Rotation: 90}}}),
		chartTwin("chart_axis29", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, X: xlsx.ChartAxis{Font: xlsx.ChartFont{Rotation: -90}}}),
		chartTwin("chart_axis30", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, X: xlsx.ChartAxis{Categories: xlsx.CategoriesOnTick}}),
		chartTwin("chart_axis31", xlsx.Chart{Type: xlsx.ChartBar, Series: abc, X: xlsx.ChartAxis{Categories: xlsx.CategoriesOnTick}}),
		chartTwin("chart_axis32", xlsx.Chart{Type: xlsx.ChartArea, Series: abc, X: xlsx.ChartAxis{Categories: xlsx.CategoriesBetween}}),
		chartTwin("chart_axis33", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, X: titledAxis("XXX", xlsx.ChartFont{Rotation: -45}), Y: titledAxis("YYY", xlsx.ChartFont{Rotation: -45})}),
		chartTwin("chart_axis34", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, X: xlsx.ChartAxis{LabelInterval: 2}}),
		chartTwin("chart_axis35", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Y: xlsx.ChartAxis{Format: noLine}}),
		chartTwin("chart_axis36", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{Format: noLine}}),
		chartTwin("chart_axis37", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{Format: xlsx.ChartFormat{Line: xlsx.ChartLineFormat{Color: "FFFF00"}}}, Y: xlsx.ChartAxis{Format: red}}),
		chartTwin("chart_axis38", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Y: xlsx.ChartAxis{Format: redOnYellow}}),
		chartTwin("chart_axis39", xlsx.Chart{Type: xlsx.ChartScatter, Series: sers("A:B", "A:C"), X: xlsx.ChartAxis{Format: noLine}, Y: xlsx.ChartAxis{Format: noLine}}),
		chartTwin("chart_axis40", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{LabelInterval: 3, TickInterval: 2}}),
		chartTwin("chart_axis41", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{MajorTicks: xlsx.TicksNone, MinorTicks: xlsx.TicksInside}, Y: xlsx.ChartAxis{MinorTicks: xlsx.TicksCross}}),
		chartTwin("chart_axis42", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{LabelAlign: xlsx.LabelAlignRight}}),
		chartTwin("chart_axis43", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{LabelAlign: xlsx.LabelAlignLeft}}),
		chartTwin("chart_axis44", xlsx.Chart{Type: xlsx.ChartBar, Series: abc, X: titledAxis("YYY", xlsx.ChartFont{Rotation: -45}, xlsx.ChartFont{Rotation: -45}), Y: titledAxis("XXX", xlsx.ChartFont{Rotation: -45}, xlsx.ChartFont{Rotation: -45})}),
		chartTwin("chart_axis49", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{Hidden: true}}),
		chartTwin("chart_axis50", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Y: xlsx.ChartAxis{Hidden: true}}),
		chartTwin("chart_axis51", xlsx.Chart{Type: xlsx.ChartScatter, Series: sers("A:B", "A:C"), X: xlsx.ChartAxis{Hidden: true}}),
		chartTwin("chart_axis53", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "XXX", Format: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "FFFF00"}}}}, Y: titled("YYY")}),
		chartTwin("chart_axis54", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "XXX", Format: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "FFFF00"}, Line: xlsx.ChartLineFormat{Color: "FF0000"}}}},
			Y: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "YYY", Format: redOnYellow}}}),
		chartTwin("chart_data_labels01", dl(xlsx.ChartColumn, val(), pos(xlsx.LabelInsideBase))),
		chartTwin("chart_data_labels02", dl(xlsx.ChartColumn, pos(xlsx.LabelInsideEnd), pos(xlsx.LabelCenter))),
		chartTwin("chart_data_labels03", dl(xlsx.ChartBar, val(), pos(xlsx.LabelInsideBase))),
		chartTwin("chart_data_labels04", dl(xlsx.ChartBar, pos(xlsx.LabelInsideEnd), pos(xlsx.LabelCenter))),
		chartTwin("chart_data_labels05", dl(xlsx.ChartLine, val(), pos(xlsx.LabelAbove), pos(xlsx.LabelBelow))),
		chartTwin("chart_data_labels06", dl(xlsx.ChartLine, val(), pos(xlsx.LabelLeft), pos(xlsx.LabelCenter))),
		chartTwin("chart_data_labels07", xlsx.Chart{Type: xlsx.ChartArea, Series: []xlsx.ChartSeries{labels(ser("A"), val())}}),
		chartTwin("chart_data_labels08", xlsx.Chart{Type: xlsx.ChartScatter, Series: []xlsx.ChartSeries{labels(ser("A:B"), val()), ser("A:C")}}),
		chartTwin("chart_data_labels09", xlsx.Chart{Type: xlsx.ChartScatter, Series: []xlsx.ChartSeries{labels(ser("A:B"), pos(xlsx.LabelAbove)), labels(ser("A:C"), pos(xlsx.LabelBelow))}}),
		chartTwin("chart_data_labels10", xlsx.Chart{Type: xlsx.ChartScatter, Series: []xlsx.ChartSeries{labels(ser("A:B"), pos(xlsx.LabelLeft)), labels(ser("A:C"), pos(xlsx.LabelCenter))}}),
		chartTwin("chart_data_labels11", xlsx.Chart{Type: xlsx.ChartPie, Series: []xlsx.ChartSeries{labels(ser("A"), leader(val()))}}),
		chartTwin("chart_data_labels12", xlsx.Chart{Type: xlsx.ChartPie, Series: []xlsx.ChartSeries{labels(ser("A"), leader(pos(xlsx.LabelOutsideEnd)))}}),
		chartTwin("chart_data_labels13", xlsx.Chart{Type: xlsx.ChartPie, Series: []xlsx.ChartSeries{labels(ser("A"), leader(pos(xlsx.LabelInsideEnd)))}}),
		chartTwin("chart_data_labels14", xlsx.Chart{Type: xlsx.ChartPie, Series: []xlsx.ChartSeries{labels(ser("A"), leader(pos(xlsx.LabelCenter)))}}),
		chartTwin("chart_data_labels15", xlsx.Chart{Type: xlsx.ChartDoughnut, Series: []xlsx.ChartSeries{labels(ser("A"), leader(val()))}}),
		chartTwin("chart_data_labels16", xlsx.Chart{Type: xlsx.ChartRadar, Series: []xlsx.ChartSeries{labels(ser("A"), val())}}),
		stockTwin("chart_data_labels17", 4, xlsx.Chart{Type: xlsx.ChartStock, Series: []xlsx.ChartSeries{ser("A:B"), ser("A:C"), labels(ser("A:D"), val())}}),
		chartTwin("chart_data_labels18", dl(xlsx.ChartColumn, valCat(""), valCat(";"), valCat("."))),
		chartTwin("chart_data_labels19", dl(xlsx.ChartColumn, valCat(""), valCat("\n"), valCat(" "))),
		chartTwin("chart_data_labels20", dl(xlsx.ChartColumn, xlsx.ChartDataLabels{Value: true, LegendKey: true})),
		chartTwin("chart_data_labels21", xlsx.Chart{Type: xlsx.ChartPie, Series: []xlsx.ChartSeries{labels(ser("A"), allLabels(xlsx.ChartFormat{}))}}),
		chartTwin("chart_data_labels22", dl(xlsx.ChartColumn, xlsx.ChartDataLabels{Value: true, NumFmt: "#,##0.00"}, xlsx.ChartDataLabels{Value: true, NumFmt: "0.00", Position: xlsx.LabelInsideBase})),
		chartTwin("chart_data_labels23", dl(xlsx.ChartColumn, xlsx.ChartDataLabels{Value: true, Font: consolas}, pos(xlsx.LabelInsideBase))),
		chartTwin("chart_data_labels24", dl(xlsx.ChartColumn, xlsx.ChartDataLabels{Value: true, Font: with2(consolas, func(f *xlsx.ChartFont) { f.Size = 12 })}, pos(xlsx.LabelInsideBase))),
		chartTwin("chart_data_labels25", dl(xlsx.ChartColumn, xlsx.ChartDataLabels{Value: true, Font: xlsx.ChartFont{Rotation: 45}},
			xlsx.ChartDataLabels{Value: true, Font: xlsx.ChartFont{Rotation: -45}, Position: xlsx.LabelInsideBase})),
		chartTwin("chart_data_labels26", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Text: "33"}))),
		chartTwin("chart_data_labels27", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Text: "=Sheet1!$D$1"}))),
		chartTwin("chart_data_labels28", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Text: "123"}, xlsx.ChartCustomLabel{Text: "abc"}, xlsx.ChartCustomLabel{},
			xlsx.ChartCustomLabel{Text: "=Sheet1!$D$1"}, xlsx.ChartCustomLabel{Text: "=Sheet1!$D$2"}))),
		chartTwin("chart_data_labels29", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Delete: true}))),
		chartTwin("chart_data_labels30", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Delete: true}, xlsx.ChartCustomLabel{}, xlsx.ChartCustomLabel{Delete: true}, xlsx.ChartCustomLabel{}, xlsx.ChartCustomLabel{Delete: true}))),
		chartTwin("chart_data_labels31", dl(xlsx.ChartColumn, xlsx.ChartDataLabels{Value: true, Category: true, SeriesName: true, Custom: []xlsx.ChartCustomLabel{{Text: "33"}}})),
		chartTwin("chart_data_labels32", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Text: "33", Font: boldItalicRed}))),
		chartTwin("chart_data_labels33", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Font: xlsx.ChartFont{Bold: true, Italic: true}}))),
		chartTwin("chart_data_labels34", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Text: "=Sheet1!$D$1", Font: boldItalicRed}))),
		chartTwin("chart_data_labels35", dl(xlsx.ChartColumn, xlsx.ChartDataLabels{Value: true, Format: red})),
		chartTwin("chart_data_labels36", xlsx.Chart{Type: xlsx.ChartPie, Series: []xlsx.ChartSeries{labels(ser("A"), allLabels(red))}}),
		chartTwin("chart_data_labels37", dl(xlsx.ChartColumn, xlsx.ChartDataLabels{Value: true, Format: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "00B050"}, Line: redDash}})),
		chartTwin("chart_data_labels38", dl(xlsx.ChartColumn, xlsx.ChartDataLabels{Value: true, Format: xlsx.ChartFormat{Fill: xlsx.ChartFill{Pattern: &xlsx.ChartPattern{Pattern: "ltVert", Foreground: "00B050", Background: "FFFFFF"}}, Line: redDash}})),
		chartTwin("chart_data_labels39", dl(xlsx.ChartColumn, xlsx.ChartDataLabels{Value: true, Format: xlsx.ChartFormat{Fill: xlsx.ChartFill{Gradient: &xlsx.ChartGradient{Angle: 90,
			Stops: []xlsx.ChartGradientStop{{"DDEBCF", 0}, {"9CB86E", 50}, {"156B13", 100}}}}, Line: redDash}})),
		chartTwin("chart_data_labels40", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Text: "33", Format: red}))),
		chartTwin("chart_data_labels41", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Text: "=Sheet1!$D$1", Format: red}))),
		chartTwin("chart_data_labels42", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Text: "=Sheet1!$D$1", Format: red, Font: xlsx.ChartFont{Color: "FF0000"}}))),
		chartTwin("chart_data_labels43", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Format: red, Font: boldItalicRed}))),
		chartTwin("chart_data_labels44", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Text: "33", Format: greenOnRed}))),
		chartTwin("chart_data_labels45", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Text: "=Sheet1!$D$1", Format: greenOnRed}))),
		chartTwin("chart_data_labels46", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Text: "=Sheet1!$D$1", Format: greenOnRed, Font: xlsx.ChartFont{Color: "FF0000"}}))),
		chartTwin("chart_data_labels47", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Format: greenOnRed, Font: boldItalicRed}))),
		chartTwin("chart_data_labels48", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Text: "31"}),
			xlsx.ChartDataLabels{Value: true, Position: xlsx.LabelInsideBase, Custom: []xlsx.ChartCustomLabel{{Text: "32"}}})),
		chartTwin("chart_data_labels49", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Text: "=Sheet1!$B$1"}),
			xlsx.ChartDataLabels{Value: true, Position: xlsx.LabelInsideBase, Custom: []xlsx.ChartCustomLabel{{Text: "=Sheet1!$B$2"}}})),
		chartTwin("chart_data_labels50", dl(xlsx.ChartColumn, xlsx.ChartDataLabels{Value: true, Position: xlsx.LabelCenter, Custom: []xlsx.ChartCustomLabel{{Format: red, Font: boldItalicRed}}})),
		chartTwin("chart_data_labels52", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Position: xlsx.LabelCenter}))),
		chartTwin("chart_data_labels53", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Text: "31"}),
			xlsx.ChartDataLabels{Value: true, Position: xlsx.LabelInsideBase, Custom: []xlsx.ChartCustomLabel{{Text: "32", Position: xlsx.LabelCenter}}})),
		chartTwin("chart_data_labels54", dl(xlsx.ChartColumn, custom(xlsx.ChartCustomLabel{Format: greenOnRed, Font: boldItalicRed, Position: xlsx.LabelCenter}))),
		chartTwin("chart_gradient01", gradientChart(90, stops3(50))),
		chartTwin("chart_gradient02", gradientChart(30, stops3(50))),
		chartTwin("chart_gradient03", gradientChart(90, stops3(40))),
		chartTwin("chart_gradient04", gradientTyped(xlsx.GradientRadial)),
		chartTwin("chart_gradient05", gradientTyped(xlsx.GradientRectangular)),
		chartTwin("chart_gradient06", gradientTyped(xlsx.GradientPath)),
		chartTwin("chart_gradient07", with2(gradientChart(90, stops3(50)), func(c *xlsx.Chart) { c.Series[0].InvertIfNegative = true })),
		chartTwin("chart_gradient08", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A", "B", "C"), ChartArea: gradientFormat(90, stops3(50))}),
		chartTwin("chart_gradient09", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A", "B", "C"), PlotArea: gradientFormat(90, stops3(50))}),
		chartTwin("chart_gradient10", gradientChart(90, []xlsx.ChartGradientStop{{"DDEBCF", 0}, {"156B13", 100}})),
		chartTwin("chart_gradient11", gradientChart(90, []xlsx.ChartGradientStop{{"DDEBCF", 0}, {"DDEBCF", 33}, {"9CB86E", 66}, {"156B13", 100}})),
		chartTwin("chart_gradient12", gradientChart(90, []xlsx.ChartGradientStop{{"DDEBCF", 10}, {"156B13", 90}})),
		chartTwin("chart_gradient13", gradientChart(355, stops3(50))),
		chartTwin("chart_pattern01", patternChart(nil)),
		chartTwin("chart_pattern02", patternChart([][3]string{{"pct5", "C00000", "FFFFFF"}, {"pct50", "FF0000", "FFFFFF"}, {"ltDnDiag", "FFC000", "FFFFFF"}, {"ltVert", "FFFF00", "FFFFFF"}, {"dashDnDiag", "92D050", "FFFFFF"}, {"zigZag", "00B050", "FFFFFF"}, {"divot", "00B0F0", "FFFFFF"}, {"smGrid", "0070C0", "FFFFFF"}})),
		chartTwin("chart_pattern03", patternChart([][3]string{{"pct10", "C00000", "FFFFFF"}, {"pct60", "FF0000", "FFFFFF"}, {"ltUpDiag", "FFC000", "FFFFFF"}, {"ltHorz", "FFFF00", "FFFFFF"}, {"dashUpDiag", "92D050", "FFFFFF"}, {"wave", "00B050", "FFFFFF"}, {"dotGrid", "00B0F0", "FFFFFF"}, {"lgGrid", "0070C0", "FFFFFF"}})),
		chartTwin("chart_pattern04", patternChart([][3]string{{"pct20", "C00000", "FFFFFF"}, {"pct70", "FF0000", "FFFFFF"}, {"dkDnDiag", "FFC000", "FFFFFF"}, {"narVert", "FFFF00", "FFFFFF"}, {"dashHorz", "92D050", "FFFFFF"}, {"diagBrick", "00B050", "FFFFFF"}, {"dotDmnd", "00B0F0", "FFFFFF"}, {"smCheck", "0070C0", "FFFFFF"}})),
		chartTwin("chart_pattern05", patternChart([][3]string{{"pct25", "C00000", "FFFFFF"}, {"pct75", "FF0000", "FFFFFF"}, {"dkUpDiag", "FFC000", "FFFFFF"}, {"narHorz", "FFFF00", "FFFFFF"}, {"dashVert", "92D050", "FFFFFF"}, {"horzBrick", "00B050", "FFFFFF"}, {"shingle", "00B0F0", "FFFFFF"}, {"lgCheck", "0070C0", "FFFFFF"}})),
		chartTwin("chart_pattern06", patternChart([][3]string{{"pct30", "C00000", "FFFFFF"}, {"pct80", "FF0000", "FFFFFF"}, {"wdDnDiag", "FFC000", "FFFFFF"}, {"dkVert", "FFFF00", "FFFFFF"}, {"smConfetti", "92D050", "FFFFFF"}, {"weave", "00B050", "FFFFFF"}, {"trellis", "00B0F0", "FFFFFF"}, {"openDmnd", "0070C0", "FFFFFF"}})),
		chartTwin("chart_pattern07", patternChart([][3]string{{"pct40", "C00000", "FFFFFF"}, {"pct90", "FF0000", "FFFFFF"}, {"wdUpDiag", "FFC000", "FFFFFF"}, {"dkHorz", "FFFF00", "FFFFFF"}, {"lgConfetti", "92D050", "FFFFFF"}, {"plaid", "00B050", "FFFFFF"}, {"sphere", "00B0F0", "FFFFFF"}, {"solidDmnd", "0070C0", "FFFFFF"}})),
		chartTwin("chart_pattern08", patternChart([][3]string{{"pct5", "FFFF00", "FF0000"}, {"pct50", "FF0000", "FFFFFF"}, {"ltDnDiag", "FFC000", "FFFFFF"}, {"ltVert", "FFFF00", "FFFFFF"}, {"dashDnDiag", "92D050", "FFFFFF"}, {"zigZag", "00B050", "FFFFFF"}, {"divot", "00B0F0", "FFFFFF"}, {"smGrid", "0070C0", "FFFFFF"}})),
		chartTwin("chart_pattern09", with2(patternChart(nil), func(c *xlsx.Chart) { c.ChartArea = patternFormat("pct5", "FF0000", "FFFF00") })),
		chartTwin("chart_pattern10", with2(patternChart(nil), func(c *xlsx.Chart) { c.PlotArea = patternFormat("pct5", "FF0000", "FFFF00") })),
		chartTwinAt("chart_theme01", "H9", themeChart(nil)),
		chartTwinAt("chart_theme02", "H9", themeChart([]themed{{"bg1", 0}, {"bg1:95", 0}, {"bg1:85", 0}, {"bg1:75", 0}, {"bg1:65", 0}, {"bg1:50", 0}})),
		chartTwinAt("chart_theme03", "H9", themeChart([]themed{{"tx1", 0}, {"tx1:50+50", 0}, {"tx1:65+35", 0}, {"tx1:75+25", 0}, {"tx1:85+15", 0}, {"tx1:95+5", 0}})),
		chartTwinAt("chart_theme04", "H9", themeChart([]themed{{"bg2", 0}, {"bg2:90", 0}, {"bg2:75", 0}, {"bg2:50", 0}, {"bg2:25", 0}, {"bg2:10", 0}})),
		chartTwinAt("chart_theme05", "H9", themeChart([]themed{{"tx2", 0}, {"tx2:20+80", 0}, {"tx2:40+60", 0}, {"tx2:60+40", 0}, {"tx2:75", 0}, {"tx2:50", 0}})),
		chartTwinAt("chart_theme06", "H9", themeChart([]themed{{"accent1", 0}, {"accent1:20+80", 0}, {"accent1:40+60", 0}, {"accent1:60+40", 0}, {"accent1:75", 0}, {"accent1:50", 0}})),
		chartTwinAt("chart_theme07", "H9", themeChart([]themed{{"accent2", 0}, {"accent2:20+80", 0}, {"accent2:40+60", 0}, {"accent2:60+40", 0}, {"accent2:75", 0}, {"accent2:50", 0}})),
		chartTwinAt("chart_theme08", "H9", themeChart([]themed{{"accent3", 0}, {"accent3:20+80", 0}, {"accent3:40+60", 0}, {"accent3:60+40", 0}, {"accent3:75", 0}, {"accent3:50", 0}})),
		chartTwinAt("chart_theme09", "H9", themeChart([]themed{{"accent4", 0}, {"accent4:20+80", 0}, {"accent4:40+60", 0}, {"accent4:60+40", 0}, {"accent4:75", 0}, {"accent4:50", 0}})),
		chartTwinAt("chart_theme10", "H9", themeChart([]themed{{"accent5", 0}, {"accent5:20+80", 0}, {"accent5:40+60", 0}, {"accent5:60+40", 0}, {"accent5:75", 0}, {"accent5:50", 0}})),
		chartTwinAt("chart_theme11", "H9", themeChart([]themed{{"accent6", 0}, {"accent6:20+80", 0}, {"accent6:40+60", 0}, {"accent6:60+40", 0}, {"accent6:75", 0}, {"accent6:50", 0}})),
		chartTwinAt("chart_theme12", "H9", themeChart([]themed{{"accent6", 10}, {"accent6:20+80", 20}, {"accent6:40+60", 30}, {"accent6:60+40", 0}, {"accent6:75", 0}, {"accent6:50", 0}})),
		chartTwin("chart_display_units01", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A")}),
		chartTwin("chart_display_units02", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A"), Y: xlsx.ChartAxis{DisplayUnits: xlsx.UnitsHundreds}}),
		chartTwin("chart_display_units03", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A"), Y: xlsx.ChartAxis{DisplayUnits: xlsx.UnitsThousands}}),
		chartTwin("chart_display_units04", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A"), Y: xlsx.ChartAxis{DisplayUnits: xlsx.UnitsTenThousands}}),
		chartTwin("chart_display_units05", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A"), Y: xlsx.ChartAxis{DisplayUnits: xlsx.UnitsHundredThousands}}),
		chartTwin("chart_display_units06", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A"), Y: xlsx.ChartAxis{DisplayUnits: xlsx.UnitsMillions}}),
		chartTwin("chart_display_units07", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A"), Y: xlsx.ChartAxis{DisplayUnits: xlsx.UnitsTenMillions}}),
		chartTwin("chart_display_units08", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A"), Y: xlsx.ChartAxis{DisplayUnits: xlsx.UnitsHundredMillions}}),
		chartTwin("chart_display_units09", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A"), Y: xlsx.ChartAxis{DisplayUnits: xlsx.UnitsBillions}}),
		chartTwin("chart_display_units10", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A"), Y: xlsx.ChartAxis{DisplayUnits: xlsx.UnitsTrillions}}),
		chartTwin("chart_display_units11", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A"), Y: xlsx.ChartAxis{DisplayUnits: xlsx.UnitsHundreds, ShowUnitsLabel: true}}),
		chartTwin("chart_display_units12", xlsx.Chart{Type: xlsx.ChartScatter, Series: sers("A:B"), X: xlsx.ChartAxis{DisplayUnits: xlsx.UnitsThousands}, Y: xlsx.ChartAxis{DisplayUnits: xlsx.UnitsHundreds}}),
		chartTwin("chart_combined01", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A", "B")}),
		chartTwin("chart_combined02", xlsx.Chart{Blanks: xlsx.BlanksGap, Type: xlsx.ChartColumn, Series: sers("A"), Combine: &xlsx.Chart{Type: xlsx.ChartLine, Series: sers("B")}}),
		chartTwin("chart_combined03", xlsx.Chart{Blanks: xlsx.BlanksGap, Type: xlsx.ChartColumn, Series: sers("A", "B"), Combine: &xlsx.Chart{Type: xlsx.ChartLine, Series: sers("C")}}),
		chartTwin("chart_combined04", xlsx.Chart{Blanks: xlsx.BlanksGap, Type: xlsx.ChartColumn, Series: sers("A"), Combine: &xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{sec(ser("B"))}}}),
		chartTwin("chart_combined05", xlsx.Chart{Blanks: xlsx.BlanksGap, Type: xlsx.ChartBar, Series: sers("A"), Combine: &xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{sec(ser("B"))}}}),
		chartTwin("chart_combined06", xlsx.Chart{Blanks: xlsx.BlanksGap, Type: xlsx.ChartArea, Series: sers("A"), Combine: &xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("B")}}),
		chartTwin("chart_combined07", xlsx.Chart{Blanks: xlsx.BlanksGap, Type: xlsx.ChartColumn, Series: sers("A:B"), Combine: &xlsx.Chart{Type: xlsx.ChartScatter, Series: sers("A:C")}}),
		chartTwin("chart_combined08", xlsx.Chart{Blanks: xlsx.BlanksGap, Type: xlsx.ChartColumn, Series: sers("A:B"), Combine: &xlsx.Chart{Type: xlsx.ChartScatter, Series: []xlsx.ChartSeries{sec(ser("A:C"))}}}),
		chartTwin("chart_combined10", xlsx.Chart{Blanks: xlsx.BlanksGap, Type: xlsx.ChartDoughnut, Series: []xlsx.ChartSeries{{Name: "=Sheet1!$H$2", Values: "Sheet1!$H$3:$H$6"}},
			Combine: &xlsx.Chart{Type: xlsx.ChartPie, Series: []xlsx.ChartSeries{{Name: "=Sheet1!$I$2", Values: "Sheet1!$I$3:$I$6"}}}}),
		chartTwinAt("chart_combined11", "A1", xlsx.Chart{Blanks: xlsx.BlanksGap, Type: xlsx.ChartDoughnut, FirstSliceAngle: 270, Legend: xlsx.ChartLegend{Position: xlsx.LegendNone},
			ChartArea: xlsx.ChartFormat{Fill: xlsx.ChartFill{None: true}, Line: xlsx.ChartLineFormat{None: true}},
			Series:    []xlsx.ChartSeries{{Name: "=Sheet1!$H$2", Values: "Sheet1!$H$3:$H$6", Points: []xlsx.ChartFormat{fill("FF0000"), fill("FFC000"), fill("00B050"), noFill}}},
			Combine: &xlsx.Chart{Type: xlsx.ChartPie, FirstSliceAngle: 270,
				Series: []xlsx.ChartSeries{{Name: "=Sheet1!$I$2", Values: "Sheet1!$I$3:$I$6", Points: []xlsx.ChartFormat{noFill, fill("FF0000"), noFill}}}}}),
		chartTwin("chart_points01", xlsx.Chart{Type: xlsx.ChartPie, Series: []xlsx.ChartSeries{{Values: "Sheet1!$A$1:$A$6", Points: []xlsx.ChartFormat{fill("FF0000")}}}}),
		chartTwin("chart_points02", xlsx.Chart{Type: xlsx.ChartPie, Series: []xlsx.ChartSeries{{Values: "Sheet1!$A$1:$A$6", Points: []xlsx.ChartFormat{{},
			{Line: xlsx.ChartLineFormat{Color: "FF0000", Dash: xlsx.DashSquareDot}}, {}, fill("FFFF00")}}}}),
		chartTwin("chart_points03", xlsx.Chart{Type: xlsx.ChartPie, Series: []xlsx.ChartSeries{{Values: "Sheet1!$A$1:$A$3", Points: []xlsx.ChartFormat{fill("FF0000"), fill("FFC000"), fill("FFFF00")}}}}),
		chartTwin("chart_points04", xlsx.Chart{Type: xlsx.ChartScatter, Series: []xlsx.ChartSeries{points(ser("A:B"), fill("FF0000"), fill("FFFF00")), points(ser("A:C"), xlsx.ChartFormat{}, xlsx.ChartFormat{}, fill("FFFF00"))}}),
		chartTwin("chart_points05", xlsx.Chart{Type: xlsx.ChartLineWithMarkers, Series: []xlsx.ChartSeries{points(ser("A:B"), fill("FF0000")), ser("A:C")}}),
		chartTwin("chart_points06", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{points(ser("A:B"), fill("FF0000")), ser("A:C")}}),
		chartTwin("chart_blank01", xlsx.Chart{Type: xlsx.ChartLine, Series: abc}),
		chartTwin("chart_blank02", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, Blanks: xlsx.BlanksZero}),
		chartTwin("chart_blank03", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, Blanks: xlsx.BlanksSpan}),
		chartTwin("chart_blank04", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, Blanks: xlsx.BlanksSpan}),
		chartTwin("chart_blank06", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, ShowHidden: true}),
		chartTwin("chart_gridlines01", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{MajorGridlines: &xlsx.ChartGridlines{}}, Y: xlsx.ChartAxis{MajorGridlines: &xlsx.ChartGridlines{Hidden: true}}}),
		chartTwin("chart_gridlines02", xlsx.Chart{Type: xlsx.ChartScatter, Series: sers("A:B", "A:C"), X: xlsx.ChartAxis{MajorGridlines: &xlsx.ChartGridlines{}}, Y: xlsx.ChartAxis{MajorGridlines: &xlsx.ChartGridlines{Hidden: true}}}),
		stockTwin("chart_gridlines03", 4, xlsx.Chart{Type: xlsx.ChartStock, Series: sers("A:B", "A:C", "A:D"), X: xlsx.ChartAxis{MajorGridlines: &xlsx.ChartGridlines{}}, Y: xlsx.ChartAxis{MajorGridlines: &xlsx.ChartGridlines{Hidden: true}}}),
		chartTwin("chart_gridlines04", xlsx.Chart{Type: xlsx.ChartRadar, Series: abc, Y: xlsx.ChartAxis{MajorGridlines: &xlsx.ChartGridlines{Hidden: true}}}),
		chartTwin("chart_gridlines05", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: bothGrids, Y: bothGrids}),
		chartTwin("chart_gridlines06", xlsx.Chart{Type: xlsx.ChartScatter, Series: sers("A:B", "A:C"), X: bothGrids, Y: bothGrids}),
		stockTwin("chart_gridlines07", 4, xlsx.Chart{Type: xlsx.ChartStock, Series: sers("A:B", "A:C", "A:D"), X: bothGrids, Y: bothGrids}),
		chartTwin("chart_gridlines08", xlsx.Chart{Type: xlsx.ChartRadar, Series: abc, Y: bothGrids}),
		chartTwin("chart_gridlines09", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc,
			X: xlsx.ChartAxis{MajorGridlines: &xlsx.ChartGridlines{Line: xlsx.ChartLineFormat{Color: "FF0000", Width: 0.5, Dash: xlsx.DashSquareDot}}, MinorGridlines: &xlsx.ChartGridlines{Line: xlsx.ChartLineFormat{Color: "FFFF00"}}},
			Y: xlsx.ChartAxis{MajorGridlines: &xlsx.ChartGridlines{Line: xlsx.ChartLineFormat{Width: 1.25, Dash: xlsx.DashDash}}, MinorGridlines: &xlsx.ChartGridlines{Line: xlsx.ChartLineFormat{Color: "00B050"}}}}),
		chartTwin("chart_font01", xlsx.Chart{Type: xlsx.ChartBar, Series: abc, Title: xlsx.ChartTitle{Text: "Title"},
			X: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "YYY"}, Font: xlsx.ChartFont{Size: 9, NotBold: true, Italic: true}},
			Y: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "XXX"}, Font: xlsx.ChartFont{Size: 11, Bold: true, Italic: true}}}),
		chartTwin("chart_font02", xlsx.Chart{Type: xlsx.ChartBar, Series: abc, Title: xlsx.ChartTitle{Text: "Title"},
			X: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "YYY", Font: xlsx.ChartFont{Bold: true, Italic: true}}, Font: xlsx.ChartFont{Size: 9, NotBold: true, Italic: true}},
			Y: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "XXX", Font: xlsx.ChartFont{NotBold: true, Italic: true}}, Font: xlsx.ChartFont{Size: 11, Bold: true, Italic: true}}}),
		chartTwin("chart_font03", xlsx.Chart{Type: xlsx.ChartBar, Series: abc, Title: xlsx.ChartTitle{Text: "Title", Font: xlsx.ChartFont{NotBold: true, Italic: true}},
			X: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "YYY", Font: xlsx.ChartFont{Bold: true, Italic: true}}, Font: xlsx.ChartFont{Size: 9, NotBold: true, Italic: true}},
			Y: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "XXX", Font: xlsx.ChartFont{NotBold: true, Italic: true}}, Font: xlsx.ChartFont{Size: 11, Bold: true, Italic: true}}}),
		chartTwin("chart_font04", xlsx.Chart{Type: xlsx.ChartBar, Series: abc, Title: xlsx.ChartTitle{Text: "=Sheet1!$A$1", Font: xlsx.ChartFont{NotBold: true, Italic: true}},
			X: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "=Sheet1!$A$3", Font: xlsx.ChartFont{Bold: true, Italic: true}}},
			Y: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "=Sheet1!$A$2", Font: xlsx.ChartFont{NotBold: true, Italic: true}}}}),
		chartTwin("chart_font05", xlsx.Chart{Type: xlsx.ChartBar, Series: abc, Title: xlsx.ChartTitle{Text: "Title"},
			X: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "YYY"}, Font: xlsx.ChartFont{Bold: true, Italic: true, Underline: true}},
			Y: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "XXX"}, Font: xlsx.ChartFont{Name: "Arial", PitchFamily: 34}}}),
		chartTwin("chart_font07", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, Legend: xlsx.ChartLegend{Font: xlsx.ChartFont{Size: 9}}}),
		chartTwin("chart_font08", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, Legend: xlsx.ChartLegend{Font: xlsx.ChartFont{Bold: true, Italic: true}}}),
		chartTwin("chart_font09", xlsx.Chart{Type: xlsx.ChartBar, Series: abc, Title: xlsx.ChartTitle{Text: "Title", Font: xlsx.ChartFont{Rotation: -45}}}),
		chartTwin("chart_layout01", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, PlotLayout: &xlsx.ChartLayout{X: 0.13171062992125, Y: 0.26436351706036, W: 0.73970734908136, H: 0.5713732137649}}),
		chartTwin("chart_layout02", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Legend: xlsx.ChartLegend{Layout: legendLayout}}),
		chartTwin("chart_layout03", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Legend: xlsx.ChartLegend{Layout: legendLayout, Overlay: true}}),
		chartTwin("chart_layout04", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Title: xlsx.ChartTitle{Text: "Title", Layout: &xlsx.ChartLayout{X: 0.42631933508311465, Y: 0.14351851851851852}}}),
		chartTwin("chart_layout05", xlsx.Chart{Type: xlsx.ChartArea, Series: sers("A:B", "A:C"),
			X: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "XXX", Layout: &xlsx.ChartLayout{X: 0.346203193350831, Y: 0.850902595508894}}},
			Y: xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "YYY", Layout: &xlsx.ChartLayout{X: 0.213888888888888, Y: 0.263499198016914}}}}),
		chartTwin("chart_layout06", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Title: xlsx.ChartTitle{Text: "Title", Overlay: true, Layout: &xlsx.ChartLayout{X: 0.42354155730533, Y: 0.16203703703703}}}),
		chartTwin("chart_layout07", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Title: xlsx.ChartTitle{Text: "=Sheet1!$A$1", Layout: &xlsx.ChartLayout{X: 0.359652668416448, Y: 0.1388888888888889}}}),
		chartTwin("chart_layout08", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Title: xlsx.ChartTitle{Text: "=Sheet1!$A$1", Overlay: true, Layout: &xlsx.ChartLayout{X: 0.359652668416448, Y: 0.16203703703703703}}}),
		chartTwin("chart_errorbars01", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{yErr(ser("A:B"), xlsx.ChartErrorBars{Type: xlsx.ErrorStdErr}), ser("A:C")}}),
		chartTwin("chart_errorbars02", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{yErr(ser("A:B"), xlsx.ChartErrorBars{Type: xlsx.ErrorFixed, Value: 2, Direction: xlsx.ErrorMinus, NoEndCap: true}),
			yErr(ser("A:C"), xlsx.ChartErrorBars{Type: xlsx.ErrorPercentage, Value: 5, Direction: xlsx.ErrorPlus})}}),
		chartTwin("chart_errorbars03", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{yErr(ser("A:B"), xlsx.ChartErrorBars{Type: xlsx.ErrorStdErr, Line: xlsx.ChartLineFormat{Color: "FF0000", Dash: xlsx.DashRoundDot}}), ser("A:C")}}),
		chartTwin("chart_errorbars04", xlsx.Chart{Type: xlsx.ChartScatter, Series: []xlsx.ChartSeries{with(yErr(ser("A:B"), xlsx.ChartErrorBars{Type: xlsx.ErrorStdErr}), func(s *xlsx.ChartSeries) {
			s.XErrorBars = &xlsx.ChartErrorBars{Type: xlsx.ErrorStdDev, Value: 1}
		}), ser("A:C")}}),
		chartTwin("chart_errorbars05", xlsx.Chart{Type: xlsx.ChartBar, Series: []xlsx.ChartSeries{yErr(ser("A:B"), xlsx.ChartErrorBars{Type: xlsx.ErrorStdErr}), ser("A:C")}}),
		chartTwin("chart_errorbars06", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{yErr(ser("A:B"), xlsx.ChartErrorBars{Type: xlsx.ErrorStdErr}), ser("A:C")}}),
		stockTwin("chart_errorbars07", 4, xlsx.Chart{Type: xlsx.ChartStock, Series: []xlsx.ChartSeries{yErr(ser("A:B"), stdErr), yErr(ser("A:C"), stdErr), yErr(ser("A:D"), stdErr)}}),
		chartTwin("chart_crossing01", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Y: xlsx.ChartAxis{CrossesMax: true}}),
		chartTwin("chart_crossing02", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{CrossesAt: ptr(3.0)}, Y: xlsx.ChartAxis{CrossesAt: ptr(8.0)}}),
		chartTwin("chart_crossing03", xlsx.Chart{Type: xlsx.ChartScatter, Series: sers("A:B", "A:C"), X: xlsx.ChartAxis{CrossesMax: true}, Y: xlsx.ChartAxis{CrossesMax: true}}),
		chartTwin("chart_crossing04", xlsx.Chart{Type: xlsx.ChartScatter, Series: sers("A:B", "A:C"), X: xlsx.ChartAxis{CrossesAt: ptr(3.0)}, Y: xlsx.ChartAxis{CrossesAt: ptr(8.0)}}),
		chartTwin("chart_crossing05", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, X: xlsx.ChartAxis{CrossesMin: true}}),
		chartTwin("chart_crossing06", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Y: xlsx.ChartAxis{CrossesMin: true}}),
		stockTwin("chart_crossing07", 4, xlsx.Chart{Type: xlsx.ChartStock, Series: sers("A:B", "A:C", "A:D"), X: xlsx.ChartAxis{CrossesAt: ptr(39085.0)}, Y: xlsx.ChartAxis{CrossesAt: ptr(15.0)}}),
		chartTwin("chart_legend01", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Legend: xlsx.ChartLegend{Position: xlsx.LegendNone}}),
		chartTwin("chart_legend03", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, Legend: xlsx.ChartLegend{Position: xlsx.LegendTopRight}}),
		chartTwin("chart_legend04", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, Legend: xlsx.ChartLegend{Position: xlsx.LegendTopRight, Overlay: true}}),
		chartTwin("chart_legend05", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, Legend: xlsx.ChartLegend{Format: xlsx.ChartFormat{Line: xlsx.ChartLineFormat{Color: "4F81BD"}}}}),
		chartTwin("chart_legend06", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, Legend: xlsx.ChartLegend{Format: fill("FFFF00")}}),
		chartTwin("chart_legend07", xlsx.Chart{Type: xlsx.ChartPie, Series: sers("A:B3"), Legend: xlsx.ChartLegend{Format: fill("FFFF00")}}),
		chartTwin("chart_chartarea01", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, ChartArea: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "FF0000"}, Line: xlsx.ChartLineFormat{None: true}},
			PlotArea: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "92D050"}, Line: xlsx.ChartLineFormat{Color: "FFFF00", Width: 1, Dash: xlsx.DashDash}}}),
		chartTwin("chart_chartarea02", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, ChartArea: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "FF0000"}, Line: xlsx.ChartLineFormat{None: true}},
			PlotArea: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "92D050"}, Line: xlsx.ChartLineFormat{Color: "FFFF00", Width: 1, Dash: xlsx.DashDash}}}),
		chartTwin("chart_chartarea03", xlsx.Chart{Type: xlsx.ChartScatter, Series: sers("A:B", "A:C"), ChartArea: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "9999FF"}, Line: xlsx.ChartLineFormat{Dash: xlsx.DashRoundDot}},
			PlotArea: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "FFC000"}, Line: xlsx.ChartLineFormat{Dash: xlsx.DashSquareDot}}}),
		stockTwin("chart_chartarea04", 4, xlsx.Chart{Type: xlsx.ChartStock, Series: sers("A:B", "A:C", "A:D"), ChartArea: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "00B050"}, Line: xlsx.ChartLineFormat{Color: "FF0000"}},
			PlotArea: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "FFC000"}, Line: xlsx.ChartLineFormat{Dash: xlsx.DashDashDot}}}),
		chartTwin("chart_chartarea05", xlsx.Chart{Type: xlsx.ChartPie, Series: sers("A:B3"), ChartArea: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "92D050"}, Line: xlsx.ChartLineFormat{Color: "FFFF00", Dash: xlsx.DashLongDash}},
			PlotArea: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "FF0000"}, Line: xlsx.ChartLineFormat{Dash: xlsx.DashSquareDot}}}),
		chartTwin("chart_chartarea06", xlsx.Chart{Type: xlsx.ChartDoughnut, Series: sers("A:B3"), ChartArea: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "92D050"}, Line: xlsx.ChartLineFormat{Color: "FFFF00", Dash: xlsx.DashLongDash}},
			PlotArea: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "FF0000"}, Line: xlsx.ChartLineFormat{Dash: xlsx.DashSquareDot}}}),
		chartTwin("chart_gap01", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A:B", "A:C"), Gap: ptr(157), Overlap: ptr(5)}),
		chartTwin("chart_gap02", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A:B", "A:C"), Gap: ptr(0), Overlap: ptr(-100)}),
		chartTwin("chart_gap03", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A:B", "A:C"), Gap: ptr(500), Overlap: ptr(100)}),
		widthTwin("chart_date01", 1, 12.7109375, xlsx.Chart{Type: xlsx.ChartLine, Series: sers("A:B10"), X: xlsx.ChartAxis{Date: true}}),
		widthTwin("chart_date02", 1, 12.7109375, xlsx.Chart{Type: xlsx.ChartLine, Series: sers("A:B10"), X: xlsx.ChartAxis{Date: true, Min: ptr(41276.0), Max: ptr(41283.0)}}),
		widthTwin("chart_date03", 1, 12.7109375, xlsx.Chart{Type: xlsx.ChartLine, Series: sers("A:B10"), X: xlsx.ChartAxis{Date: true, MajorUnit: ptr(1.0), MinorUnit: ptr(1.0)}}),
		widthTwin("chart_date04", 1, 12.7109375, xlsx.Chart{Type: xlsx.ChartLine, Series: sers("A:B10"), X: xlsx.ChartAxis{Date: true, MajorUnit: ptr(1.0), MajorTimeUnit: "years", MinorUnit: ptr(1.0), MinorTimeUnit: "months"}}),
		chartTwin("chart_title01", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{{Name: "Foo", Values: "Sheet1!$A$1:$A$5"}}, Title: xlsx.ChartTitle{Hidden: true}}),
		chartTwin("chart_title03", xlsx.Chart{Type: xlsx.ChartColumn, Series: sers("A"), Title: xlsx.ChartTitle{Text: "Title!", Font: xlsx.ChartFont{NotBold: true}}}),
		chartTwin("chart_drop_lines01", xlsx.Chart{Type: xlsx.ChartLine, Series: sers("A:B", "A:C"), DropLines: &xlsx.ChartLineFormat{}}),
		chartTwin("chart_drop_lines02", xlsx.Chart{Type: xlsx.ChartLine, Series: sers("A:B", "A:C"), DropLines: &xlsx.ChartLineFormat{Color: "FF0000", Dash: xlsx.DashSquareDot}}),
		chartTwin("chart_drop_lines03", xlsx.Chart{Type: xlsx.ChartArea, Series: sers("A:B", "A:C"), DropLines: &xlsx.ChartLineFormat{}}),
		stockTwin("chart_drop_lines04", 4, xlsx.Chart{Type: xlsx.ChartStock, Series: sers("A:B", "A:C", "A:D"), DropLines: &xlsx.ChartLineFormat{}}),
		chartTwin("chart_up_down_bars01", xlsx.Chart{Type: xlsx.ChartLine, Series: sers("A:B", "A:C"), UpDownBars: &xlsx.ChartUpDownBars{}}),
		chartTwin("chart_up_down_bars02", xlsx.Chart{Type: xlsx.ChartLine, Series: sers("A:B", "A:C"), UpDownBars: &xlsx.ChartUpDownBars{Up: redOnYellow,
			Down: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "00B050"}, Line: xlsx.ChartLineFormat{Color: "00B0F0", Dash: xlsx.DashSquareDot}}}}),
		stockTwin("chart_up_down_bars03", 4, xlsx.Chart{Type: xlsx.ChartStock, Series: sers("A:B", "A:C", "A:D"), UpDownBars: &xlsx.ChartUpDownBars{}}),
		chartTwin("chart_table01", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, DataTable: &xlsx.ChartDataTable{}}),
		chartTwin("chart_table02", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, DataTable: &xlsx.ChartDataTable{NoHorizontalBorder: true, NoVerticalBorder: true, NoOutline: true, ShowLegendKeys: true}}),
		chartTwin("chart_table03", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, DataTable: &xlsx.ChartDataTable{NoHorizontalBorder: true, NoVerticalBorder: true, NoOutline: true, ShowLegendKeys: true, Font: boldItalicRed}}),
		chartTwin("chart_high_low_lines01", xlsx.Chart{Type: xlsx.ChartLine, Series: sers("A:B", "A:C"), HighLowLines: &xlsx.ChartLineFormat{}}),
		chartTwin("chart_high_low_lines02", xlsx.Chart{Type: xlsx.ChartLine, Series: sers("A:B", "A:C"), HighLowLines: &xlsx.ChartLineFormat{Color: "FF0000", Dash: xlsx.DashSquareDot}}),
		chartTwin("chart_size01", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Width: 512, Height: 320}),
		chartTwin("chart_size02", xlsx.Chart{Type: xlsx.ChartColumn, Series: abc, Width: 512, Height: 320}),
		chartTwin("chart_name01", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, Name: "New Chart Name"}),
		{file: "rust_xlsxwriter/chart_name02.xlsx", build: func(w *xlsx.Writer) error {
			return chartSheet(w, "rust_xlsxwriter/chart_name02.xlsx", placedChart{"E9", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, Name: "New 1"}},
				placedChart{"E24", xlsx.Chart{Type: xlsx.ChartLine, Series: abc, Name: "New 2"}}).err
		}},
		chartTwin("chart_str01", xlsx.Chart{Type: xlsx.ChartLine, Series: abc}),
		chartTwin("chart_str02", xlsx.Chart{Type: xlsx.ChartScatter, Series: sers("A:B", "A:C")}),
		chartTwin("chart_sparse01", xlsx.Chart{Type: xlsx.ChartBar, Series: sers("A:B", "A:C6")}),
		chartTwin("chart_area05", xlsx.Chart{Type: xlsx.ChartArea, Series: sers("A:B", "A:C"), AltText: "Some alternative text"}),
		chartTwin("chart_column04", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{ser("A"), with(ser("B"), func(s *xlsx.ChartSeries) { s.Secondary = true })}}),
	},
)
