package sqlsheet

import (
	"fmt"
	"strings"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Chart is a chart drawn beside a query's rows from its columns: one
// series a value column, over every row written (each sheet a query
// continues on gets its own).
type Chart struct {
	Type xlsx.ChartType
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

// ParseChart reads a chart as the command line gives it,
// TYPE:CATEGORIES:VALUES[,VALUES...] ("column:month:revenue,cost"), or
// TYPE::VALUES without categories. TYPE is one of xlsx.ChartTypeNames.
//
// Errors: a missing part or an unknown type, naming the ones there are.
func ParseChart(s string) (Chart, error) {
	typ, rest, ok := strings.Cut(s, ":")
	cats, vals, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 || strings.TrimSpace(vals) == "" {
		return Chart{}, fmt.Errorf("chart %q: write TYPE:CATEGORIES:VALUES[,VALUES...], as column:month:revenue,cost", s)
	}
	t, known := xlsx.ParseChartType(strings.ToLower(strings.TrimSpace(typ)))
	if !known {
		return Chart{}, fmt.Errorf("chart %q: unknown type %q (one of %s)", s, typ, strings.Join(xlsx.ChartTypeNames(), ", "))
	}
	c := Chart{Type: t, Categories: strings.TrimSpace(cats)}
	for _, v := range strings.Split(vals, ",") {
		if v = strings.TrimSpace(v); v == "" {
			return Chart{}, fmt.Errorf("chart %q: an empty value column", s)
		}
		c.Values = append(c.Values, v)
	}
	return c, nil
}

// String is the chart as ParseChart reads it.
func (c Chart) String() string {
	return c.Type.String() + ":" + c.Categories + ":" + strings.Join(c.Values, ",")
}

// chartPlan is a chart with its columns found.
type chartPlan struct {
	Chart
	cat  int   // 1-based column, 0 for none
	vals []int // 1-based columns
}

// planCharts finds each chart's columns among the query's, before any
// row is written.
func planCharts(charts []Chart, cols []*column, sheet string) ([]chartPlan, error) {
	find := func(c Chart, name string) (int, error) {
		for i, col := range cols {
			if col.name == name {
				return i + 1, nil
			}
		}
		for i, col := range cols {
			if strings.EqualFold(col.name, name) {
				return i + 1, nil
			}
		}
		names := make([]string, len(cols))
		for i, col := range cols {
			names[i] = col.name
		}
		return 0, fmt.Errorf("sheet %q: chart %s: the query has no column %q (it has %s)", sheet, c, name, strings.Join(names, ", "))
	}
	var out []chartPlan
	for _, c := range charts {
		p := chartPlan{Chart: c}
		if c.Categories != "" {
			var err error
			if p.cat, err = find(c, c.Categories); err != nil {
				return nil, err
			}
		}
		if len(c.Values) == 0 {
			return nil, fmt.Errorf("sheet %q: chart %s has no value columns", sheet, c)
		}
		for _, v := range c.Values {
			i, err := find(c, v)
			if err != nil {
				return nil, err
			}
			p.vals = append(p.vals, i)
		}
		switch c.Type {
		case xlsx.ChartPie, xlsx.ChartDoughnut:
			p.vals = p.vals[:1]
		case xlsx.ChartStock:
			if len(p.vals) != 3 && len(p.vals) != 4 {
				return nil, fmt.Errorf("sheet %q: chart %s: a stock chart takes 3 value columns (high, low, close) or 4 (open, high, low, close)", sheet, c)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// addCharts places the query's charts on a new sheet, right of its
// columns and one under the other, reading every row the sheet will have.
func (e *exporter) addCharts(sh *xlsx.Sheet) error {
	q := xlsx.QuoteSheetName(sh.Name())
	col := func(c int) string {
		n := xlsx.ColumnName(c)
		return "$" + n + "$2:$" + n
	}
	for i, p := range e.charts {
		c := xlsx.Chart{Type: p.Type, Width: 576, Height: 336}
		title := p.Title
		if title == "" {
			var names []string
			for _, v := range p.vals {
				names = append(names, e.cols[v-1].name)
			}
			title = strings.Join(names, ", ")
			if p.cat > 0 {
				title += " by " + e.cols[p.cat-1].name
			}
		}
		c.Title.Text = title
		for _, v := range p.vals {
			s := xlsx.ChartSeries{Name: "=" + q + "!$" + xlsx.ColumnName(v) + "$1", Values: q + "!" + col(v)}
			if p.cat > 0 {
				s.Categories = q + "!" + col(p.cat)
			}
			c.Series = append(c.Series, s)
		}
		if err := sh.AddChart(1+i*18, len(e.cols)+2, c); err != nil {
			return err
		}
	}
	return nil
}
