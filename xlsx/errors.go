package xlsx

import (
	"errors"
	"fmt"
	"strconv"
)

// Sentinel errors, testable with errors.Is. Errors about a cell or row come
// wrapped in a *CellError that says where.
var (
	ErrTooManyRows    = errors.New("more than 1,048,576 rows")
	ErrTooManyColumns = errors.New("more than 16,384 columns")
	ErrCellTooLong    = errors.New("text longer than 32,767 characters")
	ErrRowOrder       = errors.New("rows must be written in ascending order")
	ErrNotFinite      = errors.New("number is NaN or infinite")
	ErrDecimal        = errors.New("not a plain decimal of at most 15 significant digits")
	ErrInvalidUTF8    = errors.New("text is not valid UTF-8")
	ErrNonCharacter   = errors.New("text contains U+FFFE or U+FFFF, which XML cannot carry")
	ErrDateRange      = errors.New("date outside Excel's range")
	ErrErrorCode      = errors.New("unknown Excel error code")
	ErrSheetName      = errors.New("invalid sheet name")
	ErrStyle          = errors.New("unknown style")
	ErrRange          = errors.New("invalid cell range")
	ErrHeadWritten    = errors.New("sheet layout must be set before the first row")
	ErrClosed         = errors.New("xlsx: writer closed")
	ErrSheetDone      = errors.New("xlsx: sheet already finished")
	ErrWidth          = errors.New("invalid column width or row height")
)

// CellError says which sheet, row and column an error is about. Row and
// Col are 1-based; 0 means the error is not about one row or column.
type CellError struct {
	Sheet string
	Row   int
	Col   int
	Err   error
}

func (e *CellError) Error() string {
	msg := "xlsx: sheet " + strconv.Quote(e.Sheet)
	switch {
	case e.Row > 0 && e.Col > 0:
		msg += fmt.Sprintf(", cell %s (row %d, column %s)", CellName(e.Row, e.Col), e.Row, ColumnName(e.Col))
	case e.Row > 0:
		msg += fmt.Sprintf(", row %d", e.Row)
	case e.Col > 0:
		msg += ", column " + ColumnName(e.Col)
	}
	return msg + ": " + e.Err.Error()
}

func (e *CellError) Unwrap() error { return e.Err }
