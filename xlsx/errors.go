package xlsx

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sheetstream/sheetstream/internal/offcrypto"
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
	ErrClosed         = errors.New("writer closed")
	ErrAborted        = errors.New("workbook aborted")
	ErrSheetDone      = errors.New("sheet already finished")
	ErrWidth          = errors.New("invalid column width or row height")
	ErrCustomXML      = errors.New("custom XML part is not an XML document")
	ErrTable          = errors.New("invalid table")
	ErrValidation     = errors.New("invalid data validation")
	ErrPrint          = errors.New("invalid print setup")
	ErrCondFormat     = errors.New("invalid conditional format")
	ErrImage          = errors.New("unusable image")
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
	msg := "sheet " + strconv.Quote(e.Sheet)
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

// Errors a reader returns, testable with errors.Is. They come wrapped in a
// *ReadError that names the file, part, sheet and cell where they apply.
var (
	ErrNotXLSX               = errors.New("not an XLSX workbook")
	ErrEncrypted             = errors.New("password-protected workbook: give its password")
	ErrPassword              = offcrypto.ErrPassword    // the password does not open the workbook
	ErrIntegrity             = offcrypto.ErrIntegrity   // the encrypted package was damaged or changed
	ErrUnsupportedEncryption = offcrypto.ErrUnsupported // RC4 CryptoAPI, extensible encryption...
	ErrLegacyXLS             = errors.New("a legacy Excel workbook sheetstream does not read")
	ErrODF                   = errors.New("an OpenDocument file that is not a spreadsheet")
	ErrXLSB                  = errors.New("a binary (.xlsb) sheet listed by an XML workbook")
	ErrMissingPart           = errors.New("missing part")
	ErrDuplicatePart         = errors.New("the package holds two parts with this name")
	ErrLimit                 = errors.New("limit exceeded")
	ErrMalformed             = errors.New("malformed content")
	ErrNoSheet               = errors.New("no such sheet")
)

// ReadError says where reading failed. Empty fields and zero numbers do
// not apply.
type ReadError struct {
	File  string // the path given to Open
	Part  string // the package part, such as "xl/worksheets/sheet1.xml"
	Sheet string
	Row   int // 1-based
	Col   int // 1-based
	Err   error
}

func (e *ReadError) Error() string {
	var b strings.Builder

	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.Sheet != "" {
		b.WriteString("sheet " + strconv.Quote(e.Sheet))
		switch {
		case e.Row > 0 && e.Col > 0 && e.Row <= MaxRows && e.Col <= MaxColumns:
			fmt.Fprintf(&b, ", cell %s", CellName(e.Row, e.Col))
		case e.Row > 0 && e.Col > 0:
			fmt.Fprintf(&b, ", row %d, column %d", e.Row, e.Col)
		case e.Row > 0:
			fmt.Fprintf(&b, ", row %d", e.Row)
		}
		if e.Part != "" {
			b.WriteString(" (" + e.Part + ")")
		}
		b.WriteString(": ")
	} else if e.Part != "" {
		b.WriteString(e.Part + ": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *ReadError) Unwrap() error { return e.Err }

// FieldError says which field of a struct, and which cell, a StructWriter
// or StructReader error is about. Errors in the type itself (its tags, a
// field type with no cell) name only the field; empty fields and zero
// numbers do not apply.
type FieldError struct {
	Sheet  string
	Row    int // 1-based
	Col    int // 1-based
	Header string
	Field  string // the Go path: "Order.Customer.Name"
	Err    error
}

func (e *FieldError) Error() string {
	var b strings.Builder

	if e.Sheet != "" {
		b.WriteString("sheet " + strconv.Quote(e.Sheet))
		switch {
		case e.Row > 0 && e.Col > 0 && e.Row <= MaxRows && e.Col <= MaxColumns:
			b.WriteString(", cell " + CellName(e.Row, e.Col))
		case e.Row > 0:
			fmt.Fprintf(&b, ", row %d", e.Row)
		case e.Col > 0 && e.Col <= MaxColumns:
			b.WriteString(", column " + ColumnName(e.Col))
		}
		b.WriteString(" (")
	}
	if e.Header != "" {
		b.WriteString("header " + strconv.Quote(e.Header))
		if e.Field != "" {
			b.WriteString(", ")
		}
	}
	if e.Field != "" {
		b.WriteString("field " + e.Field)
	}
	if e.Sheet != "" {
		b.WriteString(")")
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *FieldError) Unwrap() error { return e.Err }
