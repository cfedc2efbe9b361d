package xlsx

import (
	"fmt"
	"strings"
)

type hyperlink struct {
	row, col int
	target   string
	display  string
	internal bool
}

// maxHyperlinks is Excel's limit per worksheet.
const maxHyperlinks = 65530

func (s *Sheet) addLink(row, col int, c *Cell) error {
	if len(s.links) >= maxHyperlinks {
		return &CellError{s.name, row, col, fmt.Errorf("%w: more than %d hyperlinks in a sheet", ErrRange, maxHyperlinks)}
	}
	target := c.linkTarget()
	if target == "" || len(target) > 2079 || !validAttrText(target) {
		return &CellError{s.name, row, col, fmt.Errorf("%w: hyperlink target must be 1..2079 characters of text", ErrRange)}
	}
	if c.link == linkExternal {
		target = escapeURL(target)
	}
	display := ""
	if text := c.linkText(); text != c.linkTarget() {
		display = strings.Clone(text)
	}
	s.links = append(s.links, hyperlink{row: row, col: col, target: strings.Clone(target),
		display: display, internal: c.link == linkInternal})
	return nil
}

// escapeURL percent-encodes the characters Excel will not take raw in a
// hyperlink target, leaving existing %XX escapes alone.
func escapeURL(u string) string {
	const unsafeChars = " \"<>[]^`{}"
	var sb strings.Builder
	for i := 0; i < len(u); i++ {
		c := u[i]
		isEscape := c == '%' && i+2 < len(u) && isHex(u[i+1]) && isHex(u[i+2])
		if strings.IndexByte(unsafeChars, c) >= 0 || c == '%' && !isEscape {
			if sb.Len() == 0 {
				sb.WriteString(u[:i])
			}
			sb.WriteByte('%')
			sb.WriteByte(hexDigits[c>>4])
			sb.WriteByte(hexDigits[c&15])
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte(c)
		}
	}
	if sb.Len() == 0 {
		return u
	}
	return sb.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
