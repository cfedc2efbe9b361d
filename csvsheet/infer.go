// Package csvsheet converts delimited text (CSV, TSV) to worksheets,
// inferring cell types the way a person reading the file would, and
// conservatively: a value becomes a number, boolean or date only when
// nothing is lost by it.
package csvsheet

import (
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/sheetstream/sheetstream/internal/isotime"
	"github.com/sheetstream/sheetstream/internal/numtext"
	"github.com/sheetstream/sheetstream/xlsx"
)

// Infer returns the cell a text field stands for:
//   - integers of up to 15 digits without leading zeros ("007" stays text:
//     it is an identifier, and Excel would drop the zeros);
//   - decimals of up to 15 significant digits, with an optional exponent,
//     and decimals of up to 17 that are the shortest text of their double
//     (0.14285714285714285, as Python, Go and databases print floats):
//     the number reads back as the same text;
//   - true and false, in any case;
//   - ISO 8601 dates (2024-02-29), date-times (2024-02-29T13:45:00 or with
//     a space, optional fractional seconds) and times of day (13:45:00);
//   - anything else, as text. Values with a time zone stay text, since
//     Excel has none.
//
// The empty field is the empty cell.
func Infer(s string) xlsx.Cell {
	var c xlsx.Cell
	infer(&c, s)
	return c
}

// typeField is a field's cell: inferred, or with noInfer its text (the
// empty field is the empty cell either way).
func typeField(dst *xlsx.Cell, f string, noInfer bool, layouts []*dateLayout) {
	if noInfer && f != "" {
		*dst = xlsx.String(f)
		return
	}
	inferWith(dst, f, layouts)
}

// infer is Infer storing into dst, and saying which kind of cell it made:
// a cell is a large value, and Convert fills each row's cells in place. A
// plain decimal becomes a Decimal cell, written into the file as it is.
func infer(dst *xlsx.Cell, s string) Kind {
	if s == "" {
		*dst = xlsx.Cell{}
		return KindEmpty
	}
	switch c := s[0]; {
	case c == '-' || c == '+' || c == '.' || '0' <= c && c <= '9':
		if inferNumber(dst, s) {
			return KindNumber
		}
		if k := inferTime(dst, s); k != KindEmpty {
			return k
		}
	case c == 't' || c == 'T' || c == 'f' || c == 'F':
		if len(s) == 4 && strings.EqualFold(s, "true") {
			*dst = xlsx.Bool(true)
			return KindBool
		}
		if len(s) == 5 && strings.EqualFold(s, "false") {
			*dst = xlsx.Bool(false)
			return KindBool
		}
	}
	*dst = xlsx.String(s)
	return KindText
}

func inferNumber(dst *xlsx.Cell, s string) bool {
	digits := s
	if digits[0] == '-' || digits[0] == '+' {
		digits = digits[1:]
	}
	if len(digits) > 1 && digits[0] == '0' && digits[1] >= '0' && digits[1] <= '9' {
		return false // leading zero: an identifier
	}
	if strings.IndexByte(s, '.') >= 0 {
		if _, _, ok := numtext.Plain(s); ok {
			*dst = xlsx.Decimal(s)
			return true
		}
	}
	n, res := numtext.Parse(s)
	switch {
	case res == numtext.TooPrecise:
		if !hasPointOrExponent(s) {
			return false // an integer of 16 digits or more: an identifier
		}
		f, ok := shortestFloat(s)
		if !ok {
			return false
		}
		*dst = xlsx.Float(f)
	case res != numtext.OK:
		return false
	case n.IsInt:
		*dst = xlsx.Int(n.Int)
	default:
		*dst = xlsx.Float(n.Float)
	}
	return true
}

// shortestFloat is the double of decimal text s (a sign, digits, a
// point, an exponent), and whether s has the significant digits of the
// shortest text of that double, which is how every language prints
// floats: then the double keeps every digit s has, though there are 16 or
// 17 of them. Integers of 16 digits and more never come here: they are
// identifiers and stay text.
//
// It runs for every such field of a column of floats, so it compares in
// place, without allocating.
func shortestFloat(s string) (float64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || f == 0 {
		return 0, false
	}
	var buf [32]byte
	shortest := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	return f, sameDigits(s, unsafe.String(unsafe.SliceData(shortest), len(shortest)))
}

// sameDigits reports whether decimal texts a and b have the same
// significant digits, signs, points, exponents and the zeros around the
// digits aside, comparing in place.
func sameDigits(a, b string) bool {
	a, b = mantissa(a), mantissa(b)
	i, j := 0, 0
	for {
		for i < len(a) && a[i] == '.' {
			i++
		}
		for j < len(b) && b[j] == '.' {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i] != b[j] {
			return false
		}
		i, j = i+1, j+1
	}
}

// mantissa is decimal text without its sign, exponent, and the zeros and
// points that lead and trail its digits.
func mantissa(s string) string {
	for i := range len(s) {
		if s[i] == 'e' || s[i] == 'E' {
			s = s[:i]
			break
		}
	}
	// Loops, where strings.Trim builds a set of its cutset every call:
	// this runs for every float of 16 or 17 digits.
	for len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	for len(s) > 0 && (s[0] == '0' || s[0] == '.') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == '0' || s[len(s)-1] == '.') {
		s = s[:len(s)-1]
	}
	return s
}

// hasPointOrExponent reports whether number text s has a decimal point or
// an exponent: a loop, where strings.ContainsAny first builds a set.
func hasPointOrExponent(s string) bool {
	for i := range len(s) {
		if c := s[i]; c == '.' || c == 'e' || c == 'E' {
			return true
		}
	}
	return false
}

// inferTime makes an ISO 8601 date, date-time or time of day a cell, and
// says which (KindEmpty: none of them).
func inferTime(dst *xlsx.Cell, s string) Kind {
	t, kind := isotime.Parse(s)
	if kind == isotime.None {
		t, kind = unambiguousDate(s)
	}
	switch kind {
	case isotime.Date:
		*dst = xlsx.Date(t)
	case isotime.DateTime:
		*dst = xlsx.Time(t)
	case isotime.Clock:
		*dst = xlsx.TimeOfDay(t)
		return KindTime
	default:
		return KindEmpty
	}
	return KindDate
}
