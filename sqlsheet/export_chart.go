package sqlsheet

import "github.com/sheetstream/sheetstream/xlsx"

// Chart is a chart drawn beside a query's rows from its columns: one
// series a value column, over every row written (each sheet a query
// continues on gets its own). See xlsx.ColumnChart.
type Chart = xlsx.ColumnChart

// ParseChart reads a chart as the command line gives it,
// TYPE:CATEGORIES:VALUES[,VALUES...] ("column:month:revenue,cost"), or
// TYPE::VALUES without categories (see xlsx.ParseColumnChart).
func ParseChart(s string) (Chart, error) { return xlsx.ParseColumnChart(s) }
