package xlsx

import (
	"math"
	"strconv"
	"unsafe"

	"github.com/sheetstream/sheetstream/internal/numtext"
)

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\n' || b[0] == '\t' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\n' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// atoiBytes parses a small non-negative decimal.
func atoiBytes(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 10 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// refColumn reads the column of a cell reference such as "AB12".
func refColumn(ref []byte) (int, bool) {
	col, i := 0, 0
	for ; i < len(ref) && i < 3; i++ {
		c := ref[i]
		switch {
		case c >= 'A' && c <= 'Z':
			col = col*26 + int(c-'A') + 1
		case c >= 'a' && c <= 'z':
			col = col*26 + int(c-'a') + 1
		default:
			goto digits
		}
	}
digits:
	if i == 0 || col > MaxColumns || i == len(ref) {
		return 0, false
	}
	for _, c := range ref[i:] {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	return col, true
}

// bstr views b as a string without copying, for parsers that do not keep
// their argument.
func bstr(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// parseNumber reads a cell's number, already trimmed: integers and plain
// decimals of up to 15 characters directly, anything else through
// strconv. NaN and infinities are not numbers a cell can hold.
func parseNumber(b []byte) (float64, bool) {
	neg := false
	d := b
	if len(d) > 0 && d[0] == '-' {
		neg, d = true, d[1:]
	}
	if len(d) > 0 && len(d) <= 15 {
		// Up to 15 digits, an integer or with a point: the digits as an
		// integer are exact in a double, and so is one division by an
		// exact power of ten (Clinger's fast path, as strconv takes it).
		n := int64(0)
		point := -1
		i := 0
		for ; i < len(d); i++ {
			c := d[i]
			if c == '.' && point < 0 {
				point = i
				continue
			}
			if c < '0' || c > '9' {
				break
			}
			n = n*10 + int64(c-'0')
		}
		if i == len(d) && (point < 0 || len(d) > 1) { // "." alone is no number
			f := float64(n)
			if point >= 0 {
				f /= numtext.ExactPow10[len(d)-1-point]
			}
			if neg {
				return -f, true
			}
			return f, true
		}
	}
	f, err := strconv.ParseFloat(bstr(b), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		// ParseFloat's range errors still give ±Inf or 0: a number like
		// 1e-400 is zero to Excel too.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange && !math.IsInf(f, 0) {
			return f, true
		}
		return 0, false
	}
	return f, true
}
