// Package csvsheet converts delimited text (CSV, TSV) to worksheets,
// inferring cell types the way a person reading the file would, and
// conservatively: a value becomes a number, boolean or date only when
// nothing is lost by it.
package csvsheet

import (
	"strings"

	"github.com/sheetstream/sheetstream/internal/isotime"
	"github.com/sheetstream/sheetstream/internal/numtext"
	"github.com/sheetstream/sheetstream/xlsx"
)

// Infer returns the cell a text field stands for:
//   - integers of up to 15 digits without leading zeros ("007" stays text:
//     it is an identifier, and Excel would drop the zeros);
//   - decimals of up to 15 significant digits, with an optional exponent;
//   - true and false, in any case;
//   - ISO 8601 dates (2024-02-29), date-times (2024-02-29T13:45:00 or with
//     a space, optional fractional seconds) and times of day (13:45:00);
//   - anything else, as text. Values with a time zone stay text, since
//     Excel has none.
//
// The empty field is the empty cell.
func Infer(s string) xlsx.Cell {
	if s == "" {
		return xlsx.Cell{}
	}
	switch c := s[0]; {
	case c == '-' || c == '+' || c == '.' || '0' <= c && c <= '9':
		if cell, ok := inferNumber(s); ok {
			return cell
		}
		if cell, ok := inferTime(s); ok {
			return cell
		}
	case c == 't' || c == 'T' || c == 'f' || c == 'F':
		if len(s) == 4 && strings.EqualFold(s, "true") {
			return xlsx.Bool(true)
		}
		if len(s) == 5 && strings.EqualFold(s, "false") {
			return xlsx.Bool(false)
		}
	}
	return xlsx.String(s)
}

func inferNumber(s string) (xlsx.Cell, bool) {
	digits := s
	if digits[0] == '-' || digits[0] == '+' {
		digits = digits[1:]
	}
	if len(digits) > 1 && digits[0] == '0' && digits[1] >= '0' && digits[1] <= '9' {
		return xlsx.Cell{}, false // leading zero: an identifier
	}
	n, res := numtext.Parse(s)
	switch {
	case res != numtext.OK:
		return xlsx.Cell{}, false
	case n.IsInt:
		return xlsx.Int(n.Int), true
	default:
		return xlsx.Float(n.Float), true
	}
}

func inferTime(s string) (xlsx.Cell, bool) {
	switch t, kind := isotime.Parse(s); kind {
	case isotime.Date:
		return xlsx.Date(t), true
	case isotime.DateTime:
		return xlsx.Time(t), true
	case isotime.Clock:
		return xlsx.TimeOfDay(t), true
	}
	return xlsx.Cell{}, false
}
