package xlsx

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Table makes a range of a sheet an Excel table (a ListObject): a header
// row of column names, banded rows, filter buttons and an optional
// totals row, which formulas can name by structured references such as
// Sales[Amount]. Add one with Sheet.AddTable.
type Table struct {
	// Name is how formulas refer to the table: a letter, underscore or
	// backslash, then letters, digits, underscores and dots, not a cell
	// reference; unique in the workbook (ignoring case) among tables and
	// defined names. Empty names the tables Table1, Table2... in the
	// order they are added.
	Name string
	// NameFromSheet names a table without a Name after its sheet
	// (TableName of the sheet's name), or TableN when that is not a valid
	// name or is taken.
	NameFromSheet bool
	// Style is a built-in table style such as "TableStyleMedium2" (the
	// default), "TableStyleLight1" or "TableStyleDark11", or
	// TableStyleNone for none.
	Style string
	// NoHeaderRow leaves the header row out: the table starts with data.
	NoHeaderRow bool
	// NoAutoFilter leaves the filter buttons off the header row.
	NoAutoFilter bool
	// TotalsRow adds a row under the data with each column's
	// TotalFunction or TotalLabel. Each SUBTOTAL carries its value,
	// computed from the rows as they were written (hidden rows left out,
	// as SUBTOTAL's codes say), so viewers that do not recalculate show
	// it; over a column holding formulas the writer cannot evaluate (a
	// calculated column, a formula given without WithValue) the total is
	// left for Excel to compute, without a cached value, and so are those
	// formulas.
	TotalsRow bool
	// FirstColumn and LastColumn emphasise those columns; NoBandedRows
	// turns the row stripes off and BandedColumns turns column stripes
	// on.
	FirstColumn, LastColumn     bool
	NoBandedRows, BandedColumns bool
	// Columns names and totals the table's columns, left to right; a
	// column without a Name takes its header cell's text, or "ColumnN"
	// when that cell is empty (which the table then writes).
	Columns []TableColumn
}

// TableStyleNone is the Table.Style of a table drawn without a style.
const TableStyleNone = "None"

// TableColumn is one column of a Table.
type TableColumn struct {
	// Name is the header cell's text. When the sheet's header cell holds
	// other text, AddTable's row fails.
	Name string
	// Total is what the totals row shows under the column, computed by
	// SUBTOTAL so that filtered-out rows do not count; TotalCustom uses
	// TotalFormula.
	Total        TotalFunction
	TotalFormula string
	// TotalLabel is text for the totals row, usually "Total" under the
	// first column; a column has a label or a function, not both.
	TotalLabel string
	// Formula makes the column calculated: every data row written with
	// an empty cell in the column gets this formula, which may use
	// structured references such as [@Price]*[@Quantity] (written, as
	// Excel stores them, Table1[[#This Row],[Price]]). Arithmetic of the
	// row's cells (numbers, [@Column], + - * / ^ %, parentheses) carries
	// its computed value; other formulas are left to Excel.
	Formula string
}

// TotalFunction is what a table's totals row computes for a column.
type TotalFunction uint8

// Totals row functions.
const (
	TotalNone TotalFunction = iota
	TotalSum
	TotalAverage
	TotalCount     // cells that are not empty
	TotalCountNums // cells holding numbers
	TotalMin
	TotalMax
	TotalStdDev
	TotalVar
	TotalCustom // TableColumn.TotalFormula
)

// totalFunctions holds each function's name in the table part and its
// SUBTOTAL code (the 100s ignore hidden rows, as Excel writes them).
var totalFunctions = [...]struct {
	name string
	code int
}{
	TotalSum:       {"sum", 109},
	TotalAverage:   {"average", 101},
	TotalCount:     {"count", 103},
	TotalCountNums: {"countNums", 102},
	TotalMin:       {"min", 105},
	TotalMax:       {"max", 104},
	TotalStdDev:    {"stdDev", 107},
	TotalVar:       {"var", 110},
	TotalCustom:    {"custom", 0},
}

func (f TotalFunction) String() string {
	if f == TotalNone || int(f) >= len(totalFunctions) {
		return "none"
	}
	return totalFunctions[f].name
}

// checkTableName applies Excel's rules for defined names to a table's
// name, and refuses R1C1 references too, which a table name cannot be.
func checkTableName(name string) error {
	if strings.HasPrefix(name, "_xlnm.") || !validAttrText(name) || !validDefinedName(name) || isR1C1(name) {
		return fmt.Errorf("%w: table name %q: a letter, underscore or backslash, then letters, digits, underscores or dots, and not a cell reference", ErrTable, name)
	}
	return nil
}

// isR1C1 reports whether s reads as an R1C1 reference such as R2C3, R4
// or C7.
func isR1C1(s string) bool {
	u := strings.ToUpper(s)
	digits := func(t string) (string, bool) {
		i := 0
		for i < len(t) && '0' <= t[i] && t[i] <= '9' {
			i++
		}
		return t[i:], i > 0
	}
	if rest, ok := strings.CutPrefix(u, "R"); ok {
		rest, _ = digits(rest)
		if rest == "" {
			return true
		}
		u = rest
	}
	if rest, ok := strings.CutPrefix(u, "C"); ok {
		rest, _ = digits(rest)
		return rest == ""
	}
	return false
}

// checkColumnName: a table column's name is a header cell's text, which
// Excel keeps to 255 characters.
func checkColumnName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: an empty column name", ErrTable)
	case utf8.RuneCountInString(name) > 255:
		return fmt.Errorf("%w: column name %.20q... is over 255 characters", ErrTable, name)
	case !validAttrText(name):
		return fmt.Errorf("%w: column name %q holds a character XML cannot carry", ErrTable, name)
	}
	return nil
}

// structuredColumn writes a column name as a structured reference's
// item, [name], with the characters that mean something there ([, ], #
// and ') escaped by an apostrophe.
func structuredColumn(name string) string {
	var b strings.Builder
	b.WriteByte('[')
	for _, r := range name {
		switch r {
		case '[', ']', '#', '\'':
			b.WriteByte('\'')
		}
		b.WriteRune(r)
	}
	b.WriteByte(']')
	return b.String()
}

// TableName makes a table's name from other text, such as a sheet's
// name: characters a name cannot hold become '_', and a name that would
// not start with a letter, '_' or '\\' gets a '_' before it. The result
// may still be refused, as a cell reference ("A1") or a name in use.
func TableName(text string) string {
	var b strings.Builder
	for i, r := range text {
		if i == 0 && !(unicode.IsLetter(r) || r == '_' || r == '\\') {
			b.WriteByte('_')
		}
		if r == '_' || r == '.' || r == '\\' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}
