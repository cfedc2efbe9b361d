package xlsx

// Sparklines: small charts in cells, Excel 2010's x14 extension of the
// worksheet. Sheet.AddSparklines collects a group; its XML goes in the
// sheet's extension list when the sheet ends (write_sparkline.go).

// SparklineType is how a group's sparklines are drawn.
type SparklineType uint8

// Sparkline types.
const (
	SparklineLine SparklineType = iota
	SparklineColumn
	// SparklineWinLoss draws each value as up or down.
	SparklineWinLoss
)

// Sparklines is a group of sparklines sharing their look: one in each cell
// of Location, drawing the matching row (or column) of Data.
type Sparklines struct {
	Type SparklineType
	// Location is the cells the sparklines go in: one cell, or a row or
	// column of them.
	Location Range
	// Data is the values, as "Sheet1!B2:M10" (a leading "=" and "$"
	// allowed): one row a sparkline when Location is a column (or one
	// cell), one column a sparkline when Location is a row; a range with
	// as many rows as Location has cells is split by rows either way.
	Data string
	// DateAxis is a row or column of dates that spaces the points in
	// time, as long as each sparkline's data.
	DateAxis string

	// Markers shows every point of a line; High, Low, First, Last and
	// Negative mark those points.
	Markers, High, Low, First, Last, Negative bool
	// ShowAxis draws the horizontal axis (at zero); RightToLeft plots
	// the points from the right.
	ShowAxis, RightToLeft bool
	// Empty is how empty cells are drawn (the default: gaps); ShowHidden
	// plots hidden rows and columns.
	Empty      ChartBlanks
	ShowHidden bool
	// Min and Max fix the vertical scale; SameMin and SameMax give every
	// sparkline of the group the group's lowest or highest value.
	Min, Max         *float64
	SameMin, SameMax bool
	// LineWeight in points (0: Excel's 0.75).
	LineWeight float64
	// Colours, RGB (empty: Excel's default style, theme colours).
	SeriesColor, NegativeColor, AxisColor, MarkersColor Color
	FirstColor, LastColor, HighColor, LowColor          Color
}
