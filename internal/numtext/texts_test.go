package numtext

import (
	"strconv"
	"strings"
	"testing"
)

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"1.10": "1.1", "1.1": "1.1", "+1.10": "1.1", "2.0": "2", "2": "2", "2.": "2", ".5": "0.5", "-.50": "-0.5",
		"0.0": "0", "100.00": "100", "1e3": "1e3", "007": "7", "-03.250": "-3.25",
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTexts(t *testing.T) {
	var n Texts
	for _, s := range []string{"1.1", "1.2", "2.0"} {
		if !n.Add(s, true) {
			t.Fatalf("%s collides", s)
		}
	}
	if n.Add("1.10", false) || n.Add("2", false) {
		t.Error("1.10 after 1.1, or 2 after 2.0, does not collide")
	}
	if !n.Add("1.2", false) || !n.Add("3.5", false) {
		t.Error("the same text again, or a new number, collides")
	}
	var late Texts
	late.Add("7", false) // canonical, not remembered: no cost
	if !late.Add("7.0", false) {
		t.Error("7.0 after an unremembered 7 is not checked (documented), but collided")
	}
	if late.Add("7.00", false) {
		t.Error("7.00 after 7.0 does not collide")
	}
}

// FuzzCanonical: two plain decimal texts have one canonical form exactly
// when they are one number.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{"1.10", "1.1", "2.0", "+.5", "-0.50", "100"} {
		f.Add(s, "1.1")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		plain := func(s string) bool {
			if s == "" || len(s) > 15 || strings.ContainsAny(s, "eEinfINFxX_") {
				return false
			}
			_, err := strconv.ParseFloat(s, 64)
			return err == nil && strings.IndexFunc(s, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.' || r == '-' || r == '+') }) < 0
		}
		if !plain(a) || !plain(b) {
			return
		}
		fa, _ := strconv.ParseFloat(a, 64)
		fb, _ := strconv.ParseFloat(b, 64)
		if same := Canonical(a) == Canonical(b); same != (fa == fb) && !(fa == 0 && fb == 0) {
			t.Errorf("%q (%q) and %q (%q): same canonical %v, same number %v", a, Canonical(a), b, Canonical(b), same, fa == fb)
		}
	})
}

// FuzzPadded: Padded says exactly whether the text's canonical form is
// another text.
func FuzzPadded(f *testing.F) {
	for _, s := range []string{"1.10", "1.1", "+2", "-0.5", "-.5", "007", "1e10", "10", "1."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" || strings.IndexFunc(s, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.' || r == '-' || r == '+') }) >= 0 {
			return
		}
		if _, err := strconv.ParseFloat(s, 64); err != nil || strings.Count(s, ".") > 1 || strings.LastIndexAny(s, "+-") > 0 {
			return
		}
		if got, want := Padded(s), Canonical(s) != s; got != want && !(s == "-0" || strings.HasPrefix(Canonical(s), "-0") && !strings.HasPrefix(s, "-0")) {
			t.Errorf("Padded(%q) = %v; Canonical is %q", s, got, Canonical(s))
		}
	})
}
