package xlsx

// Charts: what a chart is made of. Sheet.AddChart places one on a
// worksheet, Writer.AddChartSheet gives one a sheet of its own; the
// chart's XML is written when the workbook closes, with each series'
// values cached from the rows as they were written (write_chart*.go).

// ChartType is a chart's kind and its variant.
type ChartType uint8

// Chart types. The variants of a kind differ in grouping (clustered,
// stacked, percent-stacked) or in how their series are drawn.
const (
	ChartColumn ChartType = iota + 1
	ChartColumnStacked
	ChartColumnPercentStacked
	ChartBar
	ChartBarStacked
	ChartBarPercentStacked
	ChartLine // lines without markers
	ChartLineStacked
	ChartLinePercentStacked
	ChartLineWithMarkers
	ChartArea
	ChartAreaStacked
	ChartAreaPercentStacked
	ChartPie
	ChartDoughnut
	ChartScatter // markers only
	ChartScatterStraight
	ChartScatterStraightWithMarkers
	ChartScatterSmooth
	ChartScatterSmoothWithMarkers
	ChartRadar // lines without markers
	ChartRadarWithMarkers
	ChartRadarFilled
	// ChartStock is a high-low-close chart over three series (high, low,
	// close) or an open-high-low-close one over four (open, high, low,
	// close, with up-down bars).
	ChartStock
)

var chartTypeNames = [...]string{
	ChartColumn: "column", ChartColumnStacked: "column-stacked", ChartColumnPercentStacked: "column-percent",
	ChartBar: "bar", ChartBarStacked: "bar-stacked", ChartBarPercentStacked: "bar-percent",
	ChartLine: "line", ChartLineStacked: "line-stacked", ChartLinePercentStacked: "line-percent",
	ChartLineWithMarkers: "line-markers",
	ChartArea:            "area", ChartAreaStacked: "area-stacked", ChartAreaPercentStacked: "area-percent",
	ChartPie: "pie", ChartDoughnut: "doughnut",
	ChartScatter: "scatter", ChartScatterStraight: "scatter-straight", ChartScatterStraightWithMarkers: "scatter-straight-markers",
	ChartScatterSmooth: "scatter-smooth", ChartScatterSmoothWithMarkers: "scatter-smooth-markers",
	ChartRadar: "radar", ChartRadarWithMarkers: "radar-markers", ChartRadarFilled: "radar-filled",
	ChartStock: "stock",
}

// String is the type's name as ParseChartType takes it ("column",
// "bar-stacked", "scatter-smooth-markers"...).
func (t ChartType) String() string {
	if int(t) < len(chartTypeNames) && chartTypeNames[t] != "" {
		return chartTypeNames[t]
	}
	return "unknown"
}

// ParseChartType reads a chart type's name (see ChartType.String).
func ParseChartType(name string) (ChartType, bool) {
	for t, n := range chartTypeNames {
		if n != "" && n == name {
			return ChartType(t), true
		}
	}
	return 0, false
}

// ChartTypeNames lists the names ParseChartType reads, in order.
func ChartTypeNames() []string {
	var out []string
	for _, n := range chartTypeNames {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// Chart is a chart: its series, and how it looks. The zero value of every
// field is Excel's default for the chart's type.
type Chart struct {
	Type   ChartType
	Series []ChartSeries

	Title  ChartTitle
	Legend ChartLegend
	// X is the category axis (the horizontal one, the vertical one of a
	// bar chart; a value axis for scatter charts), Y the value axis. X2
	// and Y2 are the secondary axes of series with Secondary set.
	X, Y, X2, Y2 ChartAxis

	// Combine is a second chart drawn on the same plot, such as a line
	// over columns. Its own Series with Secondary use the secondary axes.
	// Of its fields only Type, Series, the group options (Gap, Overlap,
	// HighLowLines...) and Y2/X2 of the outer chart count.
	Combine *Chart

	// Style is Excel's chart style number, 1..48 (0: Excel's default, 2).
	Style int
	// Width and Height in pixels (0: Excel's 480 x 288); the chart is
	// placed like a picture, from its cell moved by OffsetX and OffsetY,
	// moving and sizing with the cells unless Placement says otherwise.
	Width, Height    float64
	OffsetX, OffsetY float64
	Placement        ChartPlacement
	// Name is the chart object's name (Excel's "Chart 1"...), AltText its
	// description for screen readers.
	Name, AltText string

	ChartArea, PlotArea ChartFormat
	// PlotLayout places the plot area inside the chart (nil: Excel
	// lays it out).
	PlotLayout *ChartLayout
	// DataTable shows the series' values in a table under the plot.
	DataTable *ChartDataTable
	// Blanks is how empty cells are drawn; ShowHidden plots the values of
	// hidden rows and columns.
	Blanks     ChartBlanks
	ShowHidden bool

	// Gap between clusters and Overlap of bars within one, in percent
	// (bar and column charts; nil: Excel's 150 and 0, or 100 when
	// stacked).
	Gap, Overlap *int
	// HoleSize is a doughnut's hole in percent (10..90; 0: 50) and
	// FirstSliceAngle where a pie or doughnut's first slice starts
	// (degrees, 0..360).
	HoleSize, FirstSliceAngle int
	// HighLowLines, DropLines and UpDownBars are lines from the highest to
	// the lowest value at each category, lines down to the axis, and bars
	// from the first to the last series (line and stock charts).
	HighLowLines, DropLines *ChartLineFormat
	UpDownBars              *ChartUpDownBars

	// CacheLimit is how many points of a series the chart caches (the
	// values viewers that do not recalculate show); a series over more
	// cells is written without a cache and Excel computes it on open.
	// 0 means DefaultChartCacheLimit; negative never caches.
	CacheLimit int
}

// ChartPlacement is how a chart follows the cells under it.
type ChartPlacement uint8

// Placements: Excel's default moves and sizes a chart with its cells.
const (
	ChartMoveAndSize ChartPlacement = iota
	ChartMove
	ChartAbsolute
)

// DefaultChartCacheLimit is the number of points cached per series: the
// points of a 2-D series in Excel 2007.
const DefaultChartCacheLimit = 32000

// ChartSeries is one series: where its values are and how it looks.
//
// Ranges are written as Excel writes them, "Sheet1!$B$2:$B$13" or
// "'My data'!B2:B13" (the "$" optional, a leading "=" allowed), and may
// be open-ended, "Sheet1!$B$2:$B", to mean down to the last row the sheet
// has when it ends, as tables take them. They are one column or one row.
type ChartSeries struct {
	// Name is the series' name: text, or a cell as "=Sheet1!$B$1".
	Name string
	// Categories are the category labels (the X values of a scatter
	// chart); Values the numbers (required).
	Categories, Values string

	Format ChartFormat
	Marker *ChartMarker
	// Points formats single points (slices of a pie), in order; a zero
	// ChartFormat leaves its point as the series has it.
	Points []ChartFormat
	Labels *ChartDataLabels
	// Trendline, and error bars for the values (Y) and, in scatter
	// charts, the X values.
	Trendline              *ChartTrendline
	YErrorBars, XErrorBars *ChartErrorBars
	// Smooth draws a line series as a smooth curve.
	Smooth bool
	// InvertIfNegative fills negative bars with white.
	InvertIfNegative bool
	// Secondary plots the series against the secondary axes.
	Secondary bool
}

// ChartFormat is the line and the fill of a chart element.
type ChartFormat struct {
	Line ChartLineFormat
	Fill ChartFill
}

func (f ChartFormat) isZero() bool { return f.Line.isZero() && f.Fill.isZero() }

// ChartLineFormat is a line or border: its colour, width in points, dash, and
// transparency in percent; None hides it.
type ChartLineFormat struct {
	Color        ChartColor
	Width        float64
	Dash         ChartDash
	Transparency int
	None         bool
}

func (l ChartLineFormat) isZero() bool { return l == ChartLineFormat{} }

// ChartFill fills an area: with a colour (and transparency in percent), a
// gradient or a pattern; None leaves it empty.
type ChartFill struct {
	Color        ChartColor
	Transparency int
	Gradient     *ChartGradient
	Pattern      *ChartPattern
	None         bool
}

func (f ChartFill) isZero() bool {
	return f.Color == "" && f.Transparency == 0 && f.Gradient == nil && f.Pattern == nil && !f.None
}

// ChartColor is an RGB colour, "RRGGBB" (or "#RRGGBB"), or a theme colour
// by name ("accent1".."accent6", "dk1", "lt1", "dk2", "lt2", "tx1",
// "bg1"), optionally darker or lighter as Excel's palette has them:
// "accent1:75" is 75% of the colour's luminance, "accent1:60+40" 60% of it
// plus 40 (lumMod and lumOff in percent).
type ChartColor string

// ChartDash is a line's dash pattern.
type ChartDash uint8

// Dash patterns (DrawingML's preset dashes).
const (
	DashSolid ChartDash = iota
	DashRoundDot
	DashSquareDot
	DashDash
	DashDashDot
	DashLongDash
	DashLongDashDot
	DashLongDashDotDot
)

var dashNames = [...]string{"solid", "sysDot", "sysDash", "dash", "dashDot", "lgDash", "lgDashDot", "lgDashDotDot"}

// ChartGradient is a gradient fill: its colour stops and angle.
type ChartGradient struct {
	Stops []ChartGradientStop // 2..10; their positions rise, in percent
	// Type is linear (the default, at Angle degrees) or radial,
	// rectangular or path, from the centre.
	Type  ChartGradientType
	Angle int
}

// ChartGradientStop is one colour of a gradient at a position 0..100.
type ChartGradientStop struct {
	Color    ChartColor
	Position int
}

// ChartGradientType is a gradient's shape.
type ChartGradientType uint8

// Gradient shapes.
const (
	GradientLinear ChartGradientType = iota
	GradientRadial
	GradientRectangular
	GradientPath
)

// ChartPattern is a pattern fill: one of DrawingML's preset patterns
// ("pct5", "dkHorz", "smCheck"... ECMA-376 20.1.10.51) in two colours.
type ChartPattern struct {
	Pattern                string
	Foreground, Background ChartColor
}

// ChartFont is the font of a chart's text: name, size in points, weight,
// slant, colour and rotation in degrees (-90..90).
type ChartFont struct {
	Name         string
	Size         float64
	Bold, Italic bool
	// NotBold and NotItalic turn off what the element's default style
	// turns on (Excel makes titles bold).
	NotBold, NotItalic bool
	Underline          bool
	Color              ChartColor
	Rotation           int
	// PitchFamily and Charset describe the font to a viewer without it
	// (as Windows' LOGFONT does); 0 leaves them out.
	PitchFamily, Charset int
}

func (f ChartFont) isZero() bool { return f == ChartFont{} }

// ChartTitle is the title of a chart or an axis: text, or a cell as
// "=Sheet1!$A$1". A chart without a title shows its only series' name, if
// it has one; Hidden shows nothing.
type ChartTitle struct {
	Text    string
	Font    ChartFont
	Overlay bool
	Hidden  bool
	Format  ChartFormat
	// Layout places the title (its X and Y; nil: Excel places it).
	Layout *ChartLayout
}

// ChartLayout places an element inside the chart: X and Y of its
// top-left corner, W and H its size, each a fraction 0..1 of the chart's
// width or height.
type ChartLayout struct {
	X, Y, W, H float64
}

// ChartLegend is where the legend goes and which entries it leaves out.
type ChartLegend struct {
	Position ChartLegendPosition
	Overlay  bool
	// Delete lists the series (0-based; trendlines follow the series)
	// left out of the legend.
	Delete []int
	Font   ChartFont
	Format ChartFormat
	// Layout places the legend (nil: Excel places it).
	Layout *ChartLayout
}

// ChartLegendPosition places the legend.
type ChartLegendPosition uint8

// Legend positions.
const (
	LegendRight ChartLegendPosition = iota
	LegendTop
	LegendBottom
	LegendLeft
	LegendTopRight
	LegendNone
)

// ChartAxis is an axis: its title, scale, labels and lines.
type ChartAxis struct {
	Title ChartTitle
	// Min, Max, MajorUnit and MinorUnit fix the scale (nil: automatic).
	Min, Max, MajorUnit, MinorUnit *float64
	// LogBase (2..1000) makes the scale logarithmic.
	LogBase float64
	// Reverse runs the axis the other way.
	Reverse bool
	// CrossesAt is where the other axis crosses this one: a value, or a
	// category number (nil: at zero, or the first category); CrossesMax
	// and CrossesMin cross at this axis' maximum or minimum.
	CrossesAt              *float64
	CrossesMax, CrossesMin bool
	// NumFmt is the labels' number format (empty: the cells').
	NumFmt string
	// Date makes a category axis a date axis (dates as categories).
	Date bool
	// Hidden hides the axis.
	Hidden bool
	// Gridlines: nil leaves Excel's default (major gridlines on the
	// value axis only).
	MajorGridlines, MinorGridlines *ChartGridlines
	MajorTicks, MinorTicks         ChartTickMark
	Labels                         ChartAxisLabels
	// DisplayUnits shows values in hundreds, thousands... of, and
	// ShowUnitsLabel says so beside the axis.
	DisplayUnits   ChartDisplayUnits
	ShowUnitsLabel bool
	// Categories puts a category axis' categories on the tick marks or
	// between them (the default of area and scatter charts is on them).
	Categories ChartCategoryPosition
	// NumFmtLinked keeps NumFmt linked to the cells' format, as Excel
	// does when the format was taken from them.
	NumFmtLinked bool
	// LabelInterval and TickInterval show every nth category's label
	// and tick mark; LabelAlign aligns the labels of a category axis.
	LabelInterval, TickInterval int
	LabelAlign                  ChartLabelAlign
	// MajorTimeUnit and MinorTimeUnit are the units of a date axis'
	// MajorUnit and MinorUnit ("days", the default, "months", "years").
	MajorTimeUnit, MinorTimeUnit string
	// Font is the labels' font (Rotation turns them); Format the axis
	// line's.
	Font   ChartFont
	Format ChartFormat
}

// ChartCategoryPosition places categories on or between tick marks.
type ChartCategoryPosition uint8

// Category positions.
const (
	CategoriesDefault ChartCategoryPosition = iota
	CategoriesOnTick
	CategoriesBetween
)

// ChartLabelAlign aligns a category axis' labels.
type ChartLabelAlign uint8

// Label alignments.
const (
	LabelAlignCenter ChartLabelAlign = iota
	LabelAlignLeft
	LabelAlignRight
)

// ChartGridlines are an axis's gridlines: Hidden turns off the ones
// Excel would draw.
type ChartGridlines struct {
	Hidden bool
	Line   ChartLineFormat
}

// ChartTickMark is how an axis's tick marks are drawn.
type ChartTickMark uint8

// Tick marks; the zero value is Excel's default.
const (
	TicksDefault ChartTickMark = iota
	TicksNone
	TicksInside
	TicksOutside
	TicksCross
)

// ChartAxisLabels places an axis's labels.
type ChartAxisLabels uint8

// Axis label positions.
const (
	AxisLabelsNextTo ChartAxisLabels = iota
	AxisLabelsHigh
	AxisLabelsLow
	AxisLabelsNone
)

// ChartDisplayUnits are the units an axis shows its values in.
type ChartDisplayUnits uint8

// Display units.
const (
	UnitsNone ChartDisplayUnits = iota
	UnitsHundreds
	UnitsThousands
	UnitsTenThousands
	UnitsHundredThousands
	UnitsMillions
	UnitsTenMillions
	UnitsHundredMillions
	UnitsBillions
	UnitsTrillions
)

var unitNames = [...]string{"", "hundreds", "thousands", "tenThousands", "hundredThousands", "millions",
	"tenMillions", "hundredMillions", "billions", "trillions"}

// ChartMarker is the symbol drawn at each point of a line, scatter or
// radar series.
type ChartMarker struct {
	Type   ChartMarkerType
	Size   int // 2..72 points; 0: Excel's
	Format ChartFormat
}

// ChartMarkerType is a marker's symbol.
type ChartMarkerType uint8

// Marker symbols.
const (
	MarkerAutomatic ChartMarkerType = iota
	MarkerNone
	MarkerSquare
	MarkerDiamond
	MarkerTriangle
	MarkerX
	MarkerStar
	MarkerShortDash
	MarkerLongDash
	MarkerCircle
	MarkerPlus
)

var markerNames = [...]string{"auto", "none", "square", "diamond", "triangle", "x", "star", "dot", "dash", "circle", "plus"}

// ChartDataLabels label a series' points with their value, category,
// series name or percentage.
type ChartDataLabels struct {
	Value, Category, SeriesName, Percentage, LegendKey bool
	// LeaderLines joins labels moved away from their points to them (pie
	// charts).
	LeaderLines bool
	Position    ChartLabelPosition
	// Separator between the parts: "," (the default, shown as ", "), ";",
	// ".", "\n" or " ".
	Separator string
	NumFmt    string
	Font      ChartFont
	Format    ChartFormat
	// Custom labels single points, in order: their own text (or a cell as
	// "=Sheet1!$A$1"), or Delete to show none.
	Custom []ChartCustomLabel
}

// ChartCustomLabel is one point's label.
type ChartCustomLabel struct {
	Text     string
	Delete   bool
	Font     ChartFont
	Format   ChartFormat
	Position ChartLabelPosition
}

// ChartLabelPosition places data labels relative to their points.
type ChartLabelPosition uint8

// Label positions; which ones a chart takes depends on its type.
const (
	LabelDefault ChartLabelPosition = iota
	LabelCenter
	LabelRight
	LabelLeft
	LabelAbove
	LabelBelow
	LabelInsideBase
	LabelInsideEnd
	LabelOutsideEnd
	LabelBestFit
)

var labelPosNames = [...]string{"", "ctr", "r", "l", "t", "b", "inBase", "inEnd", "outEnd", "bestFit"}

// ChartTrendline is a series' fitted line.
type ChartTrendline struct {
	Type ChartTrendlineType
	// Order of a polynomial (2..6), Period of a moving average (2..).
	Order, Period int
	Name          string
	// Forward and Backward extend the line, in the X axis' units.
	Forward, Backward float64
	// Intercept fixes where the line crosses the Y axis.
	Intercept                  *float64
	ShowEquation, ShowRSquared bool
	Line                       ChartLineFormat
	// LabelFormat and LabelFont style the equation's label.
	LabelFormat ChartFormat
	LabelFont   ChartFont
}

// ChartTrendlineType is how a trendline is fitted.
type ChartTrendlineType uint8

// Trendline fits.
const (
	TrendLinear ChartTrendlineType = iota
	TrendExponential
	TrendLogarithmic
	TrendPolynomial
	TrendPower
	TrendMovingAverage
)

var trendNames = [...]string{"linear", "exp", "log", "poly", "power", "movingAvg"}

// ChartErrorBars are a series' error bars.
type ChartErrorBars struct {
	Type      ChartErrorType
	Value     float64 // the fixed value, percentage or number of deviations
	Direction ChartErrorDirection
	NoEndCap  bool
	Line      ChartLineFormat
}

// ChartErrorType is what an error bar's length measures.
type ChartErrorType uint8

// Error bar types.
const (
	ErrorFixed ChartErrorType = iota
	ErrorPercentage
	ErrorStdDev
	ErrorStdErr
)

var errorTypeNames = [...]string{"fixedVal", "percentage", "stdDev", "stdErr"}

// ChartErrorDirection says which way error bars go.
type ChartErrorDirection uint8

// Error bar directions.
const (
	ErrorBoth ChartErrorDirection = iota
	ErrorPlus
	ErrorMinus
)

// ChartUpDownBars are the bars of a line or stock chart from the first
// series to the last, up and down.
type ChartUpDownBars struct {
	Up, Down ChartFormat
	Gap      *int
}

// ChartDataTable shows the plotted values in a table under the chart.
type ChartDataTable struct {
	NoHorizontalBorder, NoVerticalBorder, NoOutline bool
	ShowLegendKeys                                  bool
	Font                                            ChartFont
}

// ChartBlanks is how a chart draws empty cells.
type ChartBlanks uint8

// Empty cells are gaps (Excel's default, which BlanksGap spells out),
// zero, or spanned by the line.
const (
	BlanksDefault ChartBlanks = iota
	BlanksGap
	BlanksZero
	BlanksSpan
)
