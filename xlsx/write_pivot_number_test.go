package xlsx

import (
	"math"
	"strconv"
	"testing"
)

// FuzzApproxDecimal: approxDecimal reads what strconv reads, to within a
// few units in the last place (the margin pivots allow it is 1e-14), and
// refuses what is not a plain decimal of up to 19 significant digits.
func FuzzApproxDecimal(f *testing.F) {
	for _, s := range []string{"0.14285714285714285", "-12.5", "0.00000000000000000001", "1234567890123456789", "12345678901234567890", "1.", "-", "", "1e5", "0.1.2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, frac, ok := approxDecimal(s)
		if !ok {
			return
		}
		want, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%q read as %v, strconv refuses it: %v", s, v, err)
		}
		if math.Abs(v-want) > 1e-15*math.Abs(want) {
			t.Fatalf("%q: %v, strconv %v", s, v, want)
		}
		// A fraction below the double's resolution ("200000000000.00001")
		// reads as a whole number; the text still has a fraction.
		if !frac && want != math.Trunc(want) {
			t.Fatalf("%q: fraction %v", s, frac)
		}
	})
}

// FuzzCompileCalc: any formula compiles to steps that evaluate without a
// panic, or is left to Excel.
func FuzzCompileCalc(f *testing.F) {
	for _, s := range []string{"[@A]+[@B]*2", "-[@A]^2", "([@A]+1)%", "2^3^2", "[@[B]]/0", "((", "[@A]+", "SUM([@A])"} {
		f.Add(s)
	}
	w := &Writer{}
	f.Fuzz(func(t *testing.T, s string) {
		ops, ok := compileCalc(s, []string{"A", "B"})
		if !ok {
			return
		}
		w.evalCalc(ops, []Cell{Int(3), Float(0.5)})
	})
}
