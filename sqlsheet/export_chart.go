package sqlsheet

import (
	"fmt"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Chart is a chart drawn beside a query's rows from its columns: one
// series a value column, over every row written (each sheet a query
// continues on gets its own). See xlsx.ColumnChart.
type Chart = xlsx.ColumnChart

// ParseChart reads a chart as the command line gives it,
// TYPE:CATEGORIES:VALUES[,VALUES...] ("column:month:revenue,cost"), or
// TYPE::VALUES without categories (see xlsx.ParseColumnChart).
func ParseChart(s string) (Chart, error) { return xlsx.ParseColumnChart(s) }

// columnNames are the query's column names, as its header has them.
func (e *exporter) columnNames() []string {
	names := make([]string, len(e.cols))
	for i, c := range e.cols {
		names[i] = c.name
	}
	return names
}

// checkCharts finds each chart's columns before any row is written.
func (e *exporter) checkCharts() error {
	for _, c := range e.opts.charts {
		if _, err := c.Chart(e.base, e.columnNames()); err != nil {
			return fmt.Errorf("sheet %q: %w", e.base, err)
		}
	}
	return nil
}
