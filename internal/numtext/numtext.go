// Package numtext reads decimal numbers written as text and says whether a
// double holds them without loss, the test both CSV inference and SQL
// DECIMAL columns apply before writing a number cell.
package numtext

import "strconv"

// MaxDigits is how many significant digits a double keeps for certain.
const MaxDigits = 15

// Result says what Parse found.
type Result uint8

const (
	// NotNumber: s is not a plain decimal number.
	NotNumber Result = iota
	// TooPrecise: s is a number, but a double would lose digits of it (or
	// it is out of range).
	TooPrecise
	// OK: Int (when IsInt) or Float holds s exactly as written.
	OK
)

// Number is a parsed decimal.
type Number struct {
	Int   int64
	Float float64
	IsInt bool
}

// Parse reads an optional sign, digits with an optional fraction and an
// optional exponent ("-12", "3.50", ".5", "1e-3"). Leading zeros are
// accepted; callers that treat "007" as an identifier check for them.
func Parse(s string) (Number, Result) {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	start := i
	intDigits := 0
	var whole uint64 // the integer part, exact when it has at most MaxDigits significant digits
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		whole = whole*10 + uint64(s[i]-'0')
		i++
		intDigits++
	}
	fracDigits := 0
	dot := i < len(s) && s[i] == '.'
	if dot {
		i++
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
			fracDigits++
		}
	}
	if intDigits+fracDigits == 0 {
		return Number{}, NotNumber
	}
	mantissaEnd := i
	exp := false
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		exp = true
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		digits := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		if i == digits {
			return Number{}, NotNumber
		}
	}
	if i != len(s) {
		return Number{}, NotNumber
	}
	// Significant digits: from the first non-zero digit to the last
	// non-zero digit ("0.00120" has 2; "1200" has 4, since its zeros count).
	first, last := -1, -1
	for j := start; j < mantissaEnd; j++ {
		if c := s[j]; c >= '1' && c <= '9' {
			if first < 0 {
				first = j
			}
			last = j
		}
	}
	sig := 0
	if first >= 0 {
		end := last
		if !dot && !exp {
			end = mantissaEnd - 1 // trailing zeros of an integer are significant
		}
		for j := first; j <= end; j++ {
			if s[j] != '.' {
				sig++
			}
		}
	}
	if sig > MaxDigits {
		return Number{}, TooPrecise
	}
	if !dot && !exp {
		// At most MaxDigits significant digits, trailing zeros included:
		// whole is below 10^15, whatever zeros lead it.
		v := int64(whole)
		if s[0] == '-' {
			v = -v
		}
		return Number{Int: v, IsInt: true}, OK
	}
	if dot && !exp && intDigits+fracDigits <= 19 && fracDigits < len(ExactPow10) {
		// Clinger's fast path, as strconv takes it but without its
		// general parsing: an integer mantissa below 2^53 and a power of
		// ten up to 1e22 are exact doubles, and one division of exact
		// operands is correctly rounded.
		var m uint64
		for j := start; j < mantissaEnd; j++ {
			if c := s[j]; c != '.' {
				m = m*10 + uint64(c-'0')
			}
		}
		if m < 1<<53 {
			f := float64(m) / ExactPow10[fracDigits]
			if s[0] == '-' {
				f = -f
			}
			return Number{Float: f}, OK
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return Number{}, TooPrecise
	}
	return Number{Float: v}, OK
}

// ExactPow10 holds the powers of ten a double holds exactly, 1e0 to
// 1e22: an integer below 2^53 divided by one of them is correctly
// rounded (Clinger's fast path).
var ExactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// MaxPlainLen bounds the text Plain accepts, which keeps tiny values such
// as 0.000…01 well inside a double's range.
const MaxPlainLen = 64

// Plain reports whether s is a plain decimal that a double holds exactly,
// so that it can be written into a worksheet as it is: an optional minus
// sign, digits, an optional fraction ("-12", "0.50", "3."; not ".5"), at most
// MaxDigits significant digits and MaxPlainLen characters. It returns how
// much of s to keep: the fraction's trailing zeros, and a point left
// bare, are dropped ("2.50" -> "2.5", "8.00" -> "8"). zero reports that
// every digit is 0 ("-0.0" is written as "0").
func Plain(s string) (keep int, zero, ok bool) {
	// Runs of digits, each found by one comparison a byte (c-'0' < 10),
	// then the significant ones counted from where the first and last
	// non-zero digits are: every decimal cell an export writes passes
	// here twice (the export's check, the writer's).
	if len(s) > MaxPlainLen {
		return 0, false, false
	}
	start := 0
	if len(s) > 0 && s[0] == '-' {
		start = 1
	}
	i := start
	for i < len(s) && s[i]-'0' < 10 {
		i++
	}
	if i == start {
		return 0, false, false // no digit before anything else ("", "-", ".5")
	}
	dot := -1
	if i < len(s) {
		if s[i] != '.' {
			return 0, false, false
		}
		dot = i
		for i++; i < len(s) && s[i]-'0' < 10; i++ {
		}
		if i < len(s) {
			return 0, false, false
		}
	}
	first := start // the first non-zero digit
	for first < len(s) && (s[first] == '0' || s[first] == '.') {
		first++
	}
	if first == len(s) {
		return len(s), true, true
	}
	// The last significant digit: an integer's trailing zeros count, a
	// decimal's do not.
	keep, end := len(s), len(s)-1
	if dot >= 0 {
		for end > dot && s[end] == '0' {
			end--
		}
		if end == dot { // no fraction digit is significant: the last is before the point
			for end = dot - 1; s[end] == '0'; end-- {
			}
			keep = dot
		} else {
			keep = end + 1
		}
	}
	sig := end - first + 1
	if dot > first && dot < end {
		sig-- // the point between them
	}
	return keep, false, sig <= MaxDigits
}
