package xlsx

// Validation limits what can be typed into a range of cells, and may
// show a message when one is selected and a drop-down list of choices.
// Add one with Sheet.AddValidation. The zero Validation accepts anything
// and only shows its input message.
type Validation struct {
	Type ValidationType
	// Operator compares a cell with Value1 (and Value2 for Between and
	// NotBetween), for whole numbers, decimals, dates, times and text
	// lengths; Between is the default.
	Operator Operator
	// Value1 and Value2 are what cells are compared with: numbers (Int,
	// Float, Decimal), dates and times (Date, Time, TimeOfDay, Duration),
	// or formulas (Formula("$B$1"), Formula("TODAY()")). A ValidateList
	// takes its choices from Value1 as a formula (Formula("$D$1:$D$9"),
	// a range on this or another sheet) when List is empty; a
	// ValidateCustom takes its rule from Value1's formula, true for a
	// valid cell.
	Value1, Value2 Cell
	// List holds a ValidateList's choices. Excel keeps them in one formula
	// of at most 255 characters, so choices cannot hold commas.
	List []string

	// RejectBlank makes empty cells invalid; HideDropDown leaves the list's
	// in-cell drop-down button off.
	RejectBlank, HideDropDown bool

	// InputTitle (32 characters at most) and InputMessage (255) show when
	// a cell of the range is selected; NoInputMessage hides them.
	InputTitle, InputMessage string
	NoInputMessage           bool
	// ErrorTitle (32) and ErrorMessage (255) replace Excel's message when
	// a value is refused; ErrorStyle says whether the value may still be
	// kept. NoErrorMessage accepts invalid values silently.
	ErrorTitle, ErrorMessage string
	ErrorStyle               ValidationErrorStyle
	NoErrorMessage           bool
}

// ValidationType is what a Validation checks.
type ValidationType uint8

// Validation types.
const (
	ValidateAny        ValidationType = iota // any value: for the input message
	ValidateWhole                            // whole numbers
	ValidateDecimal                          // numbers
	ValidateList                             // one of a list's values, with a drop-down
	ValidateDate                             // dates
	ValidateTime                             // times of day
	ValidateTextLength                       // text of a length
	ValidateCustom                           // a formula that must be true
)

var validationTypes = [...]string{"", "whole", "decimal", "list", "date", "time", "textLength", "custom"}

// Operator compares a cell with one value or two (Between and
// NotBetween), in validations and conditional formats.
type Operator uint8

// Operators.
const (
	Between Operator = iota
	NotBetween
	EqualTo
	NotEqualTo
	GreaterThan
	LessThan
	GreaterThanOrEqualTo
	LessThanOrEqualTo
)

var operatorNames = [...]string{"between", "notBetween", "equal", "notEqual", "greaterThan", "lessThan", "greaterThanOrEqual", "lessThanOrEqual"}

// ValidationErrorStyle is the icon and the choices of the message that
// refuses a value: Stop refuses it, Warning asks, Information only says.
type ValidationErrorStyle uint8

// Validation error styles.
const (
	ErrorStyleStop ValidationErrorStyle = iota
	ErrorStyleWarning
	ErrorStyleInformation
)

var validationErrorStyles = [...]string{"stop", "warning", "information"}
