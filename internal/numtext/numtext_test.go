package numtext

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		in    string
		want  Result
		isInt bool
		v     float64
	}{
		{"0", OK, true, 0}, {"-12", OK, true, -12}, {"+7", OK, true, 7}, {"007", OK, true, 7},
		{"999999999999999", OK, true, 999999999999999}, {"1000000000000000", TooPrecise, false, 0},
		{"1.50", OK, false, 1.5}, {".5", OK, false, 0.5}, {"5.", OK, false, 5}, {"0.000123", OK, false, 0.000123},
		{"1e300", OK, false, 1e300}, {"1e999", TooPrecise, false, 0}, {"123456789012345.6", TooPrecise, false, 0},
		{"12345678901234.5", OK, false, 12345678901234.5}, {"9223372036854775808", TooPrecise, false, 0},
		{"", NotNumber, false, 0}, {"-", NotNumber, false, 0}, {".", NotNumber, false, 0}, {"1e", NotNumber, false, 0},
		{"1x", NotNumber, false, 0}, {"NaN", NotNumber, false, 0}, {" 1", NotNumber, false, 0}, {"1,5", NotNumber, false, 0},
	}
	for _, c := range cases {
		n, res := Parse(c.in)
		if res != c.want || res == OK && (n.IsInt != c.isInt || n.IsInt && float64(n.Int) != c.v || !n.IsInt && n.Float != c.v) {
			t.Errorf("Parse(%q) = %+v, %d; want %d, int %v, %v", c.in, n, res, c.want, c.isInt, c.v)
		}
	}
}

// TestParseMatchesStrconv checks the fast path for decimals against
// strconv.ParseFloat on random decimals of every shape it takes.
func TestParseMatchesStrconv(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		intPart := strconv.FormatUint(r.Uint64N(1_000_000_000), 10)
		frac := strconv.FormatUint(r.Uint64N(1_000_000_000_000), 10)
		frac = strings.Repeat("0", r.IntN(8)) + frac[:r.IntN(len(frac))+1]
		s := intPart[:r.IntN(len(intPart))+1] + "." + frac
		if r.IntN(2) == 0 {
			s = "-" + s
		}
		n, res := Parse(s)
		want, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		if res == OK && math.Float64bits(n.Float) != math.Float64bits(want) {
			t.Fatalf("Parse(%q) = %v, strconv says %v", s, n.Float, want)
		}
	}
}

func BenchmarkParseDecimal(b *testing.B) {
	inputs := []string{"0.5", "1250000.75", "-0.142857", "12345.678", "0.01"}
	for i := 0; b.Loop(); i++ {
		Parse(inputs[i%len(inputs)])
	}
}

func BenchmarkPlain(b *testing.B) {
	inputs := []string{"12345", "0.5", "1250000.75", "-0.142857", "0.14285714285714285714", "100.00"}
	for i := 0; b.Loop(); i++ {
		Plain(inputs[i%len(inputs)])
	}
}

func TestPlain(t *testing.T) {
	cases := []struct {
		in       string
		keep     string
		zero, ok bool
	}{
		{"0", "0", true, true}, {"-0.00", "-0.00", true, true}, {"12", "12", false, true}, {"-12", "-12", false, true},
		{"2.50", "2.5", false, true}, {"8.00", "8", false, true}, {"3.", "3", false, true}, {"1200", "1200", false, true},
		{"1200.00", "1200", false, true}, {"0.05000000000000000000", "0.05", false, true}, {"007.10", "007.1", false, true},
		{"999999999999999", "999999999999999", false, true}, {"1000000000000000", "", false, false},
		{"12345678901234.5", "12345678901234.5", false, true}, {"123456789012345.6", "", false, false},
		{"0.16666666666666666667", "", false, false}, {"0.000000000000000000001", "0.000000000000000000001", false, true},
		{"0." + strings.Repeat("0", 70) + "1", "", false, false},
		{"", "", false, false}, {"-", "", false, false}, {".", "", false, false}, {".5", "", false, false},
		{"+1", "", false, false}, {"1e5", "", false, false}, {"1.2.3", "", false, false}, {" 1", "", false, false},
		{"NaN", "", false, false}, {"--1", "", false, false}, {"1-", "", false, false},
	}
	for _, c := range cases {
		keep, zero, ok := Plain(c.in)
		if ok != c.ok || ok && (c.in[:keep] != c.keep || zero != c.zero) {
			t.Errorf("Plain(%q) = %d (%q), zero %v, %v; want %q, zero %v, %v", c.in, keep, c.in[:min(keep, len(c.in))], zero, ok, c.keep, c.zero, c.ok)
		}
	}
}

// plainReference is Plain as it was first written, a test of each byte in
// one loop: FuzzPlain holds the faster one to it.
func plainReference(s string) (keep int, zero, ok bool) {
	if len(s) > MaxPlainLen {
		return 0, false, false
	}
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits, sig, first := 0, 0, -1 // first non-zero digit
	lastNonZero := -1
	dot := -1
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case '1' <= c && c <= '9':
			if first < 0 {
				first = i
			}
			lastNonZero = i
			digits++
		case c == '0':
			digits++
		case c == '.' && dot < 0 && digits > 0:
			dot = i
		default:
			return 0, false, false
		}
	}
	if digits == 0 {
		return 0, false, false
	}
	if first < 0 {
		return len(s), true, true
	}
	// The last significant digit, as Parse counts them: an integer's
	// trailing zeros count, a decimal's do not.
	keep, end := len(s), len(s)-1
	if dot >= 0 {
		keep, end = max(lastNonZero+1, dot), lastNonZero
	}
	for j := first; j <= end; j++ {
		if s[j] != '.' {
			sig++
		}
	}
	return keep, false, sig <= MaxDigits
}

// FuzzPlain checks Plain against Parse, which counts significant digits
// its own way, and that what it keeps is the same double.
func FuzzPlain(f *testing.F) {
	for _, s := range []string{"0", "-0.00", "2.50", "1200.00", "0.05000000000000000000", "999999999999999", "1000000000000000",
		"12345678901234.5", "0.16666666666666666667", ".5", "1e5", "-", "3."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		keep, zero, ok := Plain(s)
		if k, z, o := plainReference(s); o != ok || z != zero || k != keep {
			t.Fatalf("Plain(%q) = %d, %v, %v; the reference %d, %v, %v", s, keep, zero, ok, k, z, o)
		}
		if !ok {
			if _, res := Parse(s); res == OK && len(s) <= MaxPlainLen && strings.Trim(s, "-0123456789.") == "" &&
				strings.Count(s, ".") <= 1 && strings.Count(s, "-") == 0 && !strings.HasPrefix(s, ".") {
				t.Fatalf("Plain(%q) refuses what Parse takes", s)
			}
			return
		}
		if _, res := Parse(s); res != OK {
			t.Fatalf("Plain(%q) takes what Parse refuses (%d)", s, res)
		}
		want, err1 := strconv.ParseFloat(s, 64)
		got, err2 := strconv.ParseFloat(s[:keep], 64)
		if err1 != nil || err2 != nil || got != want || zero != (want == 0) {
			t.Fatalf("Plain(%q) keeps %q: %v vs %v (%v, %v), zero %v", s, s[:keep], got, want, err1, err2, zero)
		}
	})
}

// FuzzParse holds Parse to strconv: what it reads as OK is the integer
// ParseInt reads, or bit for bit the double ParseFloat reads.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "-0", "+12", "007", "000000000000000000000001", "999999999999999", "1000000000000000",
		"-100000000000000", "1.75", "0.14285714285714285", "1e5", "-.5", "12.", "9223372036854775808"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, res := Parse(s)
		if res != OK {
			return
		}
		if n.IsInt {
			if want, err := strconv.ParseInt(s, 10, 64); err != nil || n.Int != want {
				t.Fatalf("Parse(%q) = %d, strconv says %d (%v)", s, n.Int, want, err)
			}
			return
		}
		if want, err := strconv.ParseFloat(s, 64); err != nil || math.Float64bits(n.Float) != math.Float64bits(want) {
			t.Fatalf("Parse(%q) = %v, strconv says %v (%v)", s, n.Float, want, err)
		}
	})
}

func BenchmarkPlainReference(b *testing.B) {
	inputs := []string{"12345", "0.5", "1250000.75", "-0.142857", "0.14285714285714285714", "100.00"}
	for i := 0; b.Loop(); i++ {
		plainReference(inputs[i%len(inputs)])
	}
}
