package numtext

// Two texts of one number. A column that holds 1.10 and 1.1 (version
// numbers), or 2.0 and 2, holds two things a number would make one:
// readers that type columns keep such a column as text.

import "strings"

// Canonical is plain number text as one number has one text: no plus
// sign, no leading zeros, no zeros after the last decimal, no lone point,
// a zero before a leading point ("+01.10" and "1.1" are "1.1", "2.0" is
// "2"). Text with an exponent is as it is.
func Canonical(s string) string {
	s = strings.TrimPrefix(s, "+")
	if strings.ContainsAny(s, "eE") {
		return s
	}
	// No zeros before the first digit that counts ("01.1" is "1.1").
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	for len(s) > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '9' {
		s = s[1:]
	}
	s = sign + s
	if strings.IndexByte(s, '.') < 0 {
		return s
	}
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	switch {
	case s == "" || s == "-":
		return "0"
	case s[0] == '.':
		return "0" + s
	case strings.HasPrefix(s, "-."):
		return "-0" + s[1:]
	}
	return s
}

// Padded says whether plain number text s is not in canonical form (a
// plus sign, a leading zero or point, zeros after the last decimal or a
// lone point), without building that form: most number text is not, and
// a reader checks every field.
func Padded(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '+' {
		return true
	}
	i := 0
	if s[0] == '-' {
		i = 1
	}
	if i < len(s) && s[i] == '.' || i+1 < len(s) && s[i] == '0' && s[i+1] >= '0' && s[i+1] <= '9' {
		return true
	}
	if last := s[len(s)-1]; last != '0' && last != '.' {
		return false
	}
	return strings.IndexByte(s, '.') >= 0 && !strings.ContainsAny(s, "eE")
}

// Decimals is the count of digits after plain number text's point, and
// whether the text is regular: no plus sign, no leading zero or point, no
// exponent. Two regular texts with as many decimals are one number only
// when they are one text, so a column of them needs no other check.
func Decimals(s string) (decimals int, regular bool) {
	if s == "" || s[0] == '+' {
		return 0, false
	}
	i := 0
	if s[0] == '-' {
		i = 1
	}
	if i < len(s) && s[i] == '.' || i+1 < len(s) && s[i] == '0' && s[i+1] >= '0' && s[i+1] <= '9' {
		return 0, false
	}
	dot := -1
	for ; i < len(s); i++ {
		if c := s[i]; c > '9' {
			return 0, false // an exponent (digits, '-', '.' are below it)
		} else if c == '.' {
			dot = i
		}
	}
	if dot < 0 {
		return 0, true
	}
	return len(s) - dot - 1, true
}

// MaxTexts bounds the texts a column remembers to find two that read as
// one number: those its reader remembers all of (a first guess's rows),
// then only those written with trailing zeros.
const MaxTexts = 8192

// Texts follows a column of numbers' texts by the number they read
// as, to find two different texts of one number. Its zero value is ready.
type Texts struct {
	seen   map[string]string // canonical text -> the text first met
	padded bool              // some text in seen is not its canonical form
}

// Add notes a number's text (with remember, also one in canonical form);
// false when another text of the same number was met before. A text in
// canonical form that is not remembered is checked only against the
// padded ones (1.1 against an earlier 1.10): those are few, and the
// common column of numbers costs a comparison.
func (n *Texts) Add(text string, remember bool) bool {
	if !remember && !Padded(text) {
		if !n.padded {
			return true // nothing it could collide with
		}
		first, ok := n.seen[text] // text is its canonical form
		return !ok || first == text
	}
	c := Canonical(text)
	if first, ok := n.seen[c]; ok {
		return first == text
	}
	if len(n.seen) < MaxTexts && (remember || c != text) {
		if n.seen == nil {
			n.seen = map[string]string{}
		}
		n.seen[strings.Clone(c)] = strings.Clone(text)
		n.padded = n.padded || c != text
	}
	return true
}

// Has says whether a text of the number canonical text c was noted.
func (n *Texts) Has(c string) bool {
	_, ok := n.seen[c]
	return ok
}

// HasPadded says whether some text noted is not in canonical form: only
// then can a canonical text collide with one noted before.
func (n *Texts) HasPadded() bool { return n.padded }
