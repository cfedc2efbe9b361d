package csvsheet

import (
	"strings"
	"testing"
)

func TestCommaNumber(t *testing.T) {
	for in, want := range map[string]string{
		"1234,56": "1234.56", "-0,5": "-0.5", "+7": "+7", "1.234,56": "1234.56", "1 234 567": "1234567",
		"1\u00a0234,5": "1234.5", "1.234": "1234", "12.345.678,9": "12345678.9",
		"1.5": "", "1,": "", ",5": "", "1.23,4": "", "1.234 567": "", "12345.678": "", "1,2,3": "", "": "", "-": "", "a": "",
	} {
		out, ok := commaNumber(in, nil)
		if got := string(out); ok != (want != "") || ok && got != want {
			t.Errorf("commaNumber(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
}

// FuzzCommaNumber: what reads as a decimal-comma number is the text
// without its separators, its comma a point, and nothing else; groups of
// thousands are three digits after the first.
func FuzzCommaNumber(f *testing.F) {
	for _, s := range []string{"1.234,56", "1 234", "-0,5", "1.5", "12.345.678,9", "1\u00a0234,5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		prefix := []byte("x")
		out, ok := commaNumber(s, prefix)
		if string(out[:1]) != "x" {
			t.Fatalf("commaNumber(%q) wrote over what buf held: %q", s, out)
		}
		if !ok {
			if len(out) != 1 {
				t.Fatalf("commaNumber(%q) failed but left %q", s, out)
			}
			return
		}
		got := string(out[1:])
		want := strings.NewReplacer(".", "", " ", "", "\u00a0", "", ",", ".").Replace(s)
		if got != want {
			t.Fatalf("commaNumber(%q) = %q, want %q", s, got, want)
		}
		intPart, _, _ := strings.Cut(strings.TrimLeft(s, "+-"), ",")
		for i, g := range strings.FieldsFunc(intPart, func(r rune) bool { return r == '.' || r == ' ' || r == '\u00a0' }) {
			if i > 0 && len(g) != 3 || i == 0 && (len(g) == 0 || len(g) > 3 && strings.ContainsAny(intPart, ". \u00a0")) {
				t.Fatalf("commaNumber(%q) took the group %q", s, g)
			}
		}
	})
}
