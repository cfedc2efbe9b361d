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

// FuzzBearer: no Authorization header passes but the bearer scheme (in
// any case) and the exact token, and none panics.
func FuzzBearer(f *testing.F) {
	for _, s := range []string{"Bearer s3cret", "bearer s3cret", "Bearer  s3cret", "Bearer", "Bearer ", "Basic czNjcmV0", "s3cret", "Bearer s3cret\x00", "BEARER s3cre", "Bearer s3cretx", " Bearer s3cret", "Bearer\ts3cret", "Beärer s3cret"} {
		f.Add(s)
	}
	want := []byte("s3cret")
	f.Fuzz(func(t *testing.T, header string) {
		got := bearerMatches(header, want)
		scheme, rest, ok := strings.Cut(header, " ")
		should := ok && strings.EqualFold(scheme, "bearer") && strings.TrimLeft(rest, " ") == "s3cret"
		if got != should {
			t.Fatalf("bearerMatches(%q) = %v, want %v", header, got, should)
		}
	})
}
