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
