package xlsx

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

const hexDigits = "0123456789ABCDEF"

// textSpecial marks the bytes that appendText cannot copy as they are.
var textSpecial = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['\t'], t['\n'] = false, false
	for _, c := range "&<>_" {
		t[c] = true
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = true
	}
	return t
}()

// appendText escapes s as SpreadsheetML element text. XML cannot carry most
// control characters, and parsers turn CR into LF, so those are written as
// Excel writes them, _xHHHH_; a literal "_xHHHH_" in s gets its underscore
// escaped so that readers do not decode it. Text that is not UTF-8, or
// holds the noncharacters U+FFFE or U+FFFF (which readers do not decode
// back), is rejected rather than guessed at.
func appendText(b []byte, s string) ([]byte, error) {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if !textSpecial[c] {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			// A run of non-ASCII bytes holds whole runes: check it at once.
			j := i + 1
			for j < len(s) && s[j] >= utf8.RuneSelf {
				j++
			}
			run := s[i:j]
			if !utf8.ValidString(run) {
				return b, ErrInvalidUTF8
			}
			if strings.Contains(run, "\uFFFE") || strings.Contains(run, "\uFFFF") {
				return b, ErrNonCharacter
			}
			i = j
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '&':
			b = append(b, "&amp;"...)
		case '<':
			b = append(b, "&lt;"...)
		case '>':
			b = append(b, "&gt;"...)
		case '_':
			if isXEscape(s[i:]) {
				b = append(b, "_x005F"...)
			}
			b = append(b, '_')
		default: // control characters, CR included
			b = appendXEscape(b, uint16(c))
		}
		i++
		start = i
	}
	return append(b, s[start:]...), nil
}

func appendXEscape(b []byte, v uint16) []byte {
	return append(b, '_', 'x', hexDigits[v>>12], hexDigits[v>>8&15], hexDigits[v>>4&15], hexDigits[v&15], '_')
}

// isXEscape reports whether s starts with what will read as _xHHHH_ once
// written: "_xHHHH" followed by an underscore, or by a control character,
// whose own escape begins with one.
func isXEscape(s string) bool {
	if len(s) < 7 || s[0] != '_' || s[1] != 'x' {
		return false
	}
	if c := s[6]; c != '_' && !(c < 0x20 && c != '\t' && c != '\n') {
		return false
	}
	for _, c := range []byte(s[2:6]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// needsPreserve reports whether leading or trailing white space would be
// lost without xml:space="preserve". CR does not count: it is written as
// _x000D_.
func needsPreserve(s string) bool {
	if s == "" {
		return false
	}
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }
	return isSpace(s[0]) || isSpace(s[len(s)-1])
}

// utf16Len counts s in UTF-16 code units, the way Excel counts a cell's
// characters. Since no rune takes more UTF-16 units than UTF-8 bytes,
// callers only need it when len(s) exceeds the limit.
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c&0xC0 != 0x80 {
			n++
		}
		if c >= 0xF0 {
			n++ // a rune beyond the BMP is a surrogate pair
		}
	}
	return n
}

// appendAttr escapes s for a double-quoted attribute value. White space
// other than the plain space is written as character references, since
// attribute normalisation would turn it into spaces.
func appendAttr(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&quot;"
		case '\t':
			esc = "&#9;"
		case '\n':
			esc = "&#10;"
		case '\r':
			esc = "&#13;"
		default:
			continue
		}
		b = append(b, s[start:i]...)
		b = append(b, esc...)
		start = i + 1
	}
	return append(b, s[start:]...)
}

// validAttrText reports whether s can be an attribute value at all: UTF-8
// with no character XML forbids.
func validAttrText(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
			return false
		}
	}
	return utf8.ValidString(s)
}

// unescapeX decodes the _xHHHH_ escapes OOXML uses for characters XML
// cannot carry, in place (the result is never longer), pairing UTF-16
// surrogates. A lone surrogate becomes U+FFFD.
func unescapeX(b []byte) []byte {
	i := bytes.Index(b, []byte("_x"))
	if i < 0 {
		return b
	}
	out := b[:i]
	for i < len(b) {
		u, ok := hex4(b[i:])
		if !ok {
			out = append(out, b[i])
			i++
			continue
		}
		i += 7
		r := rune(u)
		if utf16.IsSurrogate(r) {
			r = utf8.RuneError
			if u < 0xDC00 {
				if lo, ok := hex4(b[i:]); ok && lo >= 0xDC00 && lo <= 0xDFFF {
					r = utf16.DecodeRune(rune(u), rune(lo))
					i += 7
				}
			}
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}

// hex4 reads "_xHHHH_" at the start of b.
func hex4(b []byte) (uint16, bool) {
	if len(b) < 7 || b[0] != '_' || b[1] != 'x' || b[6] != '_' {
		return 0, false
	}
	var u uint16
	for _, c := range b[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		u = u<<4 | uint16(c)
	}
	return u, true
}
