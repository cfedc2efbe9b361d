package numtext

import "testing"

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
