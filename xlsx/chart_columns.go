package xlsx

import (
	"errors"
	"fmt"
	"strings"
)

// ColumnChart is a chart said in the column names of a sheet's header, as
// the command line's --chart and the service's charts: say them: one
// series a value column, over every row under the header.
type ColumnChart struct {
	Type ChartType
	// Categories is the column that labels the points (the X values of a
	// scatter chart); empty for none.
	Categories string
	// Values are the columns plotted, one series each (a pie or doughnut
	// takes the first; a stock chart high, low, close or open, high, low,
	// close).
	Values []string
	// Title is the chart's title (default: "VALUES by CATEGORIES").
	Title string
}

// ErrNoColumn: a ColumnChart names a column its header does not have.
var ErrNoColumn = errors.New("no column")

// ParseColumnChart reads TYPE:CATEGORIES:VALUES[,VALUES...]
// ("column:month:revenue,cost"), or TYPE::VALUES without categories. TYPE
// is one of ChartTypeNames.
//
// Errors: a missing part or an unknown type, listing the types.
func ParseColumnChart(s string) (ColumnChart, error) {
	typ, rest, ok := strings.Cut(s, ":")
	cats, vals, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 || strings.TrimSpace(vals) == "" {
		return ColumnChart{}, fmt.Errorf("chart %q: write TYPE:CATEGORIES:VALUES[,VALUES...], as column:month:revenue,cost", s)
	}
	t, known := ParseChartType(strings.ToLower(strings.TrimSpace(typ)))
	if !known {
		return ColumnChart{}, fmt.Errorf("chart %q: unknown type %q (one of %s)", s, typ, strings.Join(ChartTypeNames(), ", "))
	}
	c := ColumnChart{Type: t, Categories: strings.TrimSpace(cats)}
	for _, v := range strings.Split(vals, ",") {
		if v = strings.TrimSpace(v); v == "" {
			return ColumnChart{}, fmt.Errorf("chart %q: an empty value column", s)
		}
		c.Values = append(c.Values, v)
	}
	return c, nil
}

// String is the chart as ParseColumnChart reads it.
func (c ColumnChart) String() string {
	return c.Type.String() + ":" + c.Categories + ":" + strings.Join(c.Values, ",")
}

// Chart is the chart drawn from a sheet whose header, in row 1, has the
// columns: its series over rows 2 down to the sheet's last (open-ended
// ranges), each named by its header cell, titled from the columns. A
// column is found by its exact name, else ignoring case.
//
// Errors: a column the header lacks (naming the ones it has), no value
// columns, a stock chart without 3 or 4 of them.
func (c ColumnChart) Chart(sheet string, header []string) (Chart, error) {
	find := func(name string) (int, error) {
		for i, h := range header {
			if h == name {
				return i + 1, nil
			}
		}
		for i, h := range header {
			if strings.EqualFold(h, name) {
				return i + 1, nil
			}
		}
		return 0, fmt.Errorf("chart %s: %w %q (there are %s)", c, ErrNoColumn, name, strings.Join(header, ", "))
	}
	if len(c.Values) == 0 {
		return Chart{}, fmt.Errorf("chart %s has no value columns", c)
	}
	cat := 0
	if c.Categories != "" {
		var err error
		if cat, err = find(c.Categories); err != nil {
			return Chart{}, err
		}
	}
	var vals []int
	for _, v := range c.Values {
		i, err := find(v)
		if err != nil {
			return Chart{}, err
		}
		vals = append(vals, i)
	}
	switch c.Type {
	case ChartPie, ChartDoughnut:
		vals = vals[:1]
	case ChartStock:
		if len(vals) != 3 && len(vals) != 4 {
			return Chart{}, fmt.Errorf("chart %s: a stock chart takes 3 value columns (high, low, close) or 4 (open, high, low, close)", c)
		}
	}
	q := QuoteSheetName(sheet)
	rows := func(col int) string {
		n := ColumnName(col)
		return q + "!$" + n + "$2:$" + n
	}
	out := Chart{Type: c.Type, Title: ChartTitle{Text: c.Title}}
	if out.Title.Text == "" {
		names := make([]string, len(vals))
		for i, v := range vals {
			names[i] = header[v-1]
		}
		out.Title.Text = strings.Join(names, ", ")
		if cat > 0 {
			out.Title.Text += " by " + header[cat-1]
		}
	}
	for _, v := range vals {
		s := ChartSeries{Name: "=" + q + "!$" + ColumnName(v) + "$1", Values: rows(v)}
		if cat > 0 {
			s.Categories = rows(cat)
		}
		out.Series = append(out.Series, s)
	}
	return out, nil
}

// AddColumnCharts places charts beside a sheet's columns, right of the
// last and one under another, drawn from its header's columns (see
// ColumnChart.Chart). Call it before the rows it draws are written, for
// their values to be cached.
//
// Errors: ColumnChart.Chart's, and AddChart's, in a *CellError naming the
// sheet.
func (s *Sheet) AddColumnCharts(charts []ColumnChart, header []string) error {
	for i, c := range charts {
		chart, err := c.Chart(s.name, header)
		if err != nil {
			return &CellError{Sheet: s.name, Err: fmt.Errorf("%w: %v", ErrChart, err)}
		}
		chart.Width, chart.Height = 576, 336
		if err := s.AddChart(1+i*18, len(header)+2, chart); err != nil {
			return err
		}
	}
	return nil
}
