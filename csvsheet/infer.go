// Package csvsheet converts delimited text (CSV, TSV) to worksheets,
// inferring cell types the way a person reading the file would, and
// conservatively: a value becomes a number, boolean or date only when
// nothing is lost by it.
package csvsheet

import (
	"strings"
	"time"

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

func digits(s string, n int) (int, bool) {
	if len(s) < n {
		return 0, false
	}
	v := 0
	for i := range n {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// parseClock reads hh:mm:ss[.fffffffff] and reports how much of s it used.
func parseClock(s string) (h, m, sec, nsec, n int, ok bool) {
	var ok1, ok2, ok3 bool
	h, ok1 = digits(s, 2)
	m, ok2 = digits(s[min(3, len(s)):], 2)
	sec, ok3 = digits(s[min(6, len(s)):], 2)
	if !ok1 || !ok2 || !ok3 || s[2] != ':' || s[5] != ':' || h > 23 || m > 59 || sec > 59 {
		return 0, 0, 0, 0, 0, false
	}
	n = 8
	if n < len(s) && s[n] == '.' {
		n++
		scale := 100_000_000
		start := n
		for n < len(s) && '0' <= s[n] && s[n] <= '9' && n-start < 9 {
			nsec += int(s[n]-'0') * scale
			scale /= 10
			n++
		}
		if n == start {
			return 0, 0, 0, 0, 0, false
		}
	}
	return h, m, sec, nsec, n, true
}

func inferTime(s string) (xlsx.Cell, bool) {
	if len(s) >= 8 && s[2] == ':' {
		h, m, sec, nsec, n, ok := parseClock(s)
		if !ok || n != len(s) {
			return xlsx.Cell{}, false
		}
		return xlsx.TimeOfDay(time.Date(2000, 1, 1, h, m, sec, nsec, time.UTC)), true
	}
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return xlsx.Cell{}, false
	}
	y, ok1 := digits(s, 4)
	mo, ok2 := digits(s[5:], 2)
	d, ok3 := digits(s[8:], 2)
	if !ok1 || !ok2 || !ok3 || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || y < 1900 {
		return xlsx.Cell{}, false
	}
	if len(s) == 10 {
		return xlsx.Date(time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)), true
	}
	if len(s) < 19 || s[10] != 'T' && s[10] != ' ' {
		return xlsx.Cell{}, false
	}
	h, m, sec, nsec, n, ok := parseClock(s[11:])
	if !ok || 11+n != len(s) {
		return xlsx.Cell{}, false
	}
	return xlsx.Time(time.Date(y, time.Month(mo), d, h, m, sec, nsec, time.UTC)), true
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
