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

// SetHyperlink links the cell at row and col (1-based) to link's target,
// a Link or InternalLink cell, after the cell was written: for links known
// only once the rows are, such as a sheet's read from another workbook
// (they follow its rows). The cell keeps the value it was written with;
// link's text, when it differs from the target, is the link's display
// text. Like MergeCells, it may come before or after the rows.
//
// Errors (in a *CellError): ErrRange for a cell outside the grid, a cell
// that is not a link, a target that is empty, longer than 2,079
// characters or not text, or more than 65,530 links in the sheet. A link
// refused so leaves the sheet and the writer as they were (it is not the
// writer's sticky error): the caller may go on without it.
func (s *Sheet) SetHyperlink(row, col int, link Cell) error {
	if err := s.check(); err != nil {
		return err
	}
	if row < 1 || row > MaxRows || col < 1 || col > MaxColumns || link.link == linkNone {
		return &CellError{s.name, row, col, fmt.Errorf("%w: a hyperlink needs a cell in the grid and a Link or InternalLink", ErrRange)}
	}
	return s.addLink(row, col, &link)
}
