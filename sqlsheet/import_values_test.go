package sqlsheet

import "testing"

func TestIsDecimalText(t *testing.T) {
	for s, want := range map[string]bool{
		"1": true, "-1.5": true, "+.5": true, "5.": true, "1.8446744073709552E+19": true, "1e-300": true, "0042": true,
		"": false, ".": false, "-": false, "1.2.3": false, "1e": false, "e5": false, "1e+": false, "1e12345": false,
		" 1": false, "1 ": false, "0x10": false, "1,5": false, "NaN": false, "1e5e5": false, "--1": false,
	} {
		if got := isDecimalText(s); got != want {
			t.Errorf("%q: %v", s, got)
		}
	}
	var decimal bool
	if n := testing.AllocsPerRun(100, func() { decimal = isDecimalText("0.14285714285714285E-3") }); n != 0 || !decimal {
		t.Errorf("%v allocations, %v", n, decimal)
	}
}
