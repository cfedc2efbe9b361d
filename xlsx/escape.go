package xlsx

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

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
