package xlsx

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The one home of XML writing: every part is built by appending to a byte
// slice with these helpers, never through encoding/xml, so that encoding a
// cell costs no allocation and the bytes are exactly the ones tested
// against Excel's own files.

// Every part starts with the declaration Excel writes; these namespaces
// are SpreadsheetML's main one and that of relationship ids.
const (
	xmlHeader   = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\r\n"
	nsMain      = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
	nsRelations = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
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

// appendElem writes <tag>text</tag>, for text that is known to be valid.
func appendElem(b []byte, tag, text string) []byte {
	b = append(b, '<')
	b = append(b, tag...)
	b = append(b, '>')
	b, _ = appendText(b, text)
	b = append(b, "</"...)
	b = append(b, tag...)
	return append(b, '>')
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

// appendT writes <t>s</t>. Text was validated when it was added, so the
// escaping cannot fail here.
func appendT(b []byte, s string) []byte {
	if needsPreserve(s) {
		b = append(b, `<t xml:space="preserve">`...)
	} else {
		b = append(b, "<t>"...)
	}
	b, _ = appendText(b, s)
	return append(b, "</t>"...)
}

func appendFloatAttr(b []byte, name string, v float64) []byte {
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, `="`...)
	b = strconv.AppendFloat(b, v, 'f', -1, 64)
	return append(b, '"')
}

func appendIntAttr(b []byte, name string, v int) []byte {
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, `="`...)
	b = strconv.AppendInt(b, int64(v), 10)
	return append(b, '"')
}

// appendStringAttr writes name="value", escaped.
func appendStringAttr(b []byte, name, value string) []byte {
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, `="`...)
	b = appendAttr(b, value)
	return append(b, '"')
}
