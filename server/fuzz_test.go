package server

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzParseQuery: what parseQuery accepts, url.ParseQuery reads the same
// way, every non-empty pair is in the result (none dropped), and the
// result encodes back to itself.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"", "a=1", "city=Os%zzlo", "city=Lisbon;x", "a=1&a=2", "a=1&&b=%20x+y&", "k%zz=1", "=v", "a", "%E2%82%AC=%F0%9F%98%80", "a=%", "a=%2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := parseQuery(raw)
		if err != nil {
			return
		}
		std, err := url.ParseQuery(raw)
		if err != nil {
			t.Fatalf("parseQuery accepted %q, url.ParseQuery did not: %v", raw, err)
		}
		pairs := 0
		for p := range strings.SplitSeq(raw, "&") {
			if p != "" {
				pairs++
			}
		}
		if len(got) != pairs || len(std) != pairs {
			t.Fatalf("%q: %d pairs, parseQuery %d, url.ParseQuery %d", raw, pairs, len(got), len(std))
		}
		again := url.Values{}
		for k, v := range got {
			if len(std[k]) != 1 || std[k][0] != v {
				t.Fatalf("%q: %q=%q, url.ParseQuery %q", raw, k, v, std[k])
			}
			again.Set(k, v)
		}
		round, err := parseQuery(again.Encode())
		if err != nil || len(round) != len(got) {
			t.Fatalf("%q: encoded back as %q: %v %v", raw, again.Encode(), round, err)
		}
		for k, v := range got {
			if round[k] != v {
				t.Fatalf("%q: round trip changed %q: %q -> %q", raw, k, v, round[k])
			}
		}
	})
}
