package xlsx

import (
	"math"
	"strconv"
	"testing"
	"time"
)

// FuzzAppendFewDecimals: a number written through the fast path for
// few decimals is the text strconv's shortest fixed form gives, byte for
// byte, and the path takes every such number of up to four decimals.
// Inputs are k/10^p and their neighbours one unit in the last place away
// (which must not be taken for k/10^p), and any double's bits.
func FuzzAppendFewDecimals(f *testing.F) {
	for _, c := range []struct {
		k    int64
		p    uint8
		bits uint64
	}{{175, 2, 0}, {1, 2, 0}, {-5, 1, 1}, {14285714285, 4, 0}, {99999999999999, 4, 2}, {3, 1, math.Float64bits(0.1 + 0.2)}} {
		f.Add(c.k, c.p, c.bits)
	}
	f.Fuzz(func(t *testing.T, k int64, p uint8, bits uint64) {
		check := func(v float64, mustTake bool) {
			a := math.Abs(v)
			if math.IsNaN(v) || math.IsInf(v, 0) || a < 1e-5 || a >= 1e15 || v == math.Trunc(v) {
				return
			}
			want := strconv.AppendFloat(nil, v, 'f', -1, 64)
			got, ok := appendFewDecimals(nil, v, a)
			if ok && string(got) != string(want) {
				t.Fatalf("%v (%#x): %s, strconv %s", v, math.Float64bits(v), got, want)
			}
			if !ok && mustTake {
				t.Fatalf("%v: not taken, strconv %s", v, want)
			}
			if xml, err := appendXMLNumber(nil, v, false); err != nil || string(xml) != string(want) {
				t.Fatalf("appendXMLNumber(%v) = %s, %v; want %s", v, xml, err, want)
			}
		}
		scale := decimalScale[int(p)%len(decimalScale)]
		v := float64(k%1e14) / scale
		check(v, math.Abs(v) < 1e10)
		check(math.Nextafter(v, math.Inf(1)), false)
		check(math.Nextafter(v, math.Inf(-1)), false)
		check(math.Float64frombits(bits), false)
	})
}

func BenchmarkAppendXMLNumber(b *testing.B) {
	values := []float64{1.75, 0.01, 0.14285714285714285, 1234.5, 99.99, 3.0e-3}
	buf := make([]byte, 0, 32)
	for i := 0; b.Loop(); i++ {
		buf, _ = appendXMLNumber(buf[:0], values[i%len(values)], false)
	}
}

// FuzzWallClock: a time's serial and day fraction, computed from its
// instant and zone offset, are what its calendar date and clock give, in
// any zone, before 1970 and after.
func FuzzWallClock(f *testing.F) {
	f.Add(int64(0), int64(0), int32(0))
	f.Add(int64(-2208988800), int64(999999999), int32(3600))   // 1900-01-01
	f.Add(int64(-2203891200), int64(1), int32(-18000))         // 1900-03-01
	f.Add(int64(253402300799), int64(999999999), int32(50400)) // 9999-12-31 23:59:59
	f.Add(int64(1700000000), int64(123456789), int32(-34200))
	f.Fuzz(func(t *testing.T, sec, nsec int64, offset int32) {
		sec %= 1 << 40 // some 35,000 years either way
		offset %= 18 * 3600
		tm := time.Unix(sec, nsec%1e9).In(time.FixedZone("z", int(offset)))
		y, m, d := tm.Date()
		h, mi, s := tm.Clock()
		wantNanos := (int64(h)*3600+int64(mi)*60+int64(s))*int64(time.Second) + int64(tm.Nanosecond())
		day, nanos := wallClock(tm)
		if day != daysFromCivil(y, m, d) || nanos != wantNanos {
			t.Fatalf("%v: day %d nanos %d; want %d, %d", tm, day, nanos, daysFromCivil(y, m, d), wantNanos)
		}
	})
}
