package csvsheet

import "testing"

// TestShortestFloatAllocates nothing: it runs for every 16- or 17-digit
// field of a column of floats.
func TestShortestFloatAllocates(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { shortestFloat("0.14285714285714285") }); n != 0 {
		t.Errorf("%v allocs", n)
	}
}
