package xlsx

// ConditionalFormat formats the cells of a range that meet a rule, or
// shades them by value (colour scales, data bars, icon sets). Add one
// with Sheet.AddConditionalFormat; rules added earlier take precedence.
type ConditionalFormat struct {
	Type CondType
	// Operator and Value1 (Value2 for Between and NotBetween) for
	// CondCell: numbers, dates, text (String("X") compares with the text
	// X) or formulas (Formula("$B$1")). CondFormula takes its rule from
	// Value1's formula, true for a cell to format (relative references
	// are to the range's top-left cell).
	Operator       Operator
	Value1, Value2 Cell
	// Text for CondContains, CondNotContains, CondBeginsWith and
	// CondEndsWith.
	Text string
	// Rank for CondTop and CondBottom (10 when 0): that many cells, or
	// that percentage of them with Percent.
	Rank    int
	Percent bool

	// Format is how matching cells look: font (bold, italic, strike,
	// underline, colour), fill, border and number format; sizes, font
	// names and alignment are not part of a conditional format.
	Format Style
	// StopIfTrue leaves the rules after this one out for a cell it
	// formats.
	StopIfTrue bool

	// Colours of CondColorScale (MidColor empty: a two-colour scale) and
	// of CondDataBar's bar (BarColor; Excel's blue when empty).
	MinColor, MidColor, MaxColor Color
	BarColor                     Color
	// Icons is CondIconSet's set: "3Arrows" (the default), "3Flags",
	// "3TrafficLights1", "4Rating", "5Quarters"... (ECMA-376 Part 1,
	// 18.18.42); ReverseIcons reverses their order; IconsOnly (and, for
	// data bars, BarOnly) hides the values.
	Icons              string
	ReverseIcons       bool
	IconsOnly, BarOnly bool
}

// CondType is the kind of a conditional format.
type CondType uint8

// Conditional format types.
const (
	CondCell         CondType = iota // the cell's value compared (Operator, Value1, Value2)
	CondFormula                      // a formula true for the cell (Value1)
	CondColorScale                   // shaded from MinColor to MaxColor
	CondDataBar                      // a bar as long as the value
	CondIconSet                      // an icon by third (or quarter, fifth)
	CondTop                          // the Rank highest values
	CondBottom                       // the Rank lowest values
	CondAboveAverage                 // above the range's average
	CondBelowAverage                 // below it
	CondDuplicate                    // values that occur more than once
	CondUnique                       // values that occur once
	CondContains                     // text containing Text
	CondNotContains                  // text not containing Text
	CondBeginsWith                   // text beginning with Text
	CondEndsWith                     // text ending with Text
	CondBlanks                       // empty cells
	CondNoBlanks                     // cells that are not empty
	CondErrors                       // cells holding an error
	CondNoErrors                     // cells holding no error
	condTypes
)

// iconCounts is how many icons each of Excel's icon sets has.
var iconCounts = map[string]int{
	"3Arrows": 3, "3ArrowsGray": 3, "3Flags": 3, "3TrafficLights1": 3, "3TrafficLights2": 3, "3Signs": 3,
	"3Symbols": 3, "3Symbols2": 3, "4Arrows": 4, "4ArrowsGray": 4, "4RedToBlack": 4, "4Rating": 4,
	"4TrafficLights": 4, "5Arrows": 5, "5ArrowsGray": 5, "5Rating": 5, "5Quarters": 5,
}
