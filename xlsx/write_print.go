package xlsx

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// checkPrintSetup refuses what Excel would not open or would drop.
func checkPrintSetup(p *PrintSetup) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrPrint}, args...)...)
	}
	switch {
	case p.PaperSize < 0 || p.PaperSize > 118:
		return bad("paper size %d is not one of Excel's codes (1-118)", p.PaperSize)
	case p.Scale != 0 && (p.Scale < 10 || p.Scale > 400):
		return bad("scale %d%% outside 10-400", p.Scale)
	case p.FitWide < 0 || p.FitTall < 0 || p.FitWide > 32767 || p.FitTall > 32767:
		return bad("fit to %d x %d pages", p.FitWide, p.FitTall)
	case p.FirstPageNumber < 0 || p.FirstPageNumber > 32767:
		return bad("first page number %d", p.FirstPageNumber)
	case len(p.RowBreaks) > maxPageBreaks || len(p.ColumnBreaks) > maxPageBreaks:
		return bad("more than %d page breaks", maxPageBreaks)
	}
	if m := p.Margins; m != nil {
		for _, v := range []float64{m.Left, m.Right, m.Top, m.Bottom, m.Header, m.Footer} {
			if v < 0 || v >= 49 || math.IsNaN(v) {
				return bad("margin %g inches", v)
			}
		}
	}
	for _, hf := range []struct{ what, text string }{{"header", p.Header}, {"footer", p.Footer}} {
		if err := checkHeaderFooter(hf.text); err != nil {
			return bad("%s %.40q: %v", hf.what, hf.text, err)
		}
	}
	if a := p.Area; a != (Range{}) {
		probe := a
		if probe.LastRow == 0 {
			probe.LastRow = MaxRows
		}
		if !probe.valid() {
			return bad("print area %v", a)
		}
	}
	for _, l := range []struct {
		what  string
		lines Lines
		max   int
	}{{"rows", p.RepeatRows, MaxRows}, {"columns", p.RepeatColumns, MaxColumns}} {
		if l.lines != (Lines{}) && (l.lines.First < 1 || l.lines.Last < l.lines.First || l.lines.Last > l.max) {
			return bad("repeated %s %d-%d", l.what, l.lines.First, l.lines.Last)
		}
	}
	for _, brk := range []struct {
		what   string
		breaks []int
		max    int
	}{{"row", p.RowBreaks, MaxRows}, {"column", p.ColumnBreaks, MaxColumns}} {
		for _, n := range brk.breaks {
			if n < 1 || n >= brk.max {
				return bad("a page break after %s %d", brk.what, n)
			}
		}
	}
	return nil
}

// checkHeaderFooter checks a header's or footer's text and codes.
func checkHeaderFooter(s string) error {
	if !validAttrText(s) {
		return fmt.Errorf("a character XML cannot carry")
	}
	if n := utf16Len(s); n > 255 {
		return fmt.Errorf("%d characters; Excel takes 255", n)
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '&' {
			continue
		}
		i++
		if i == len(s) {
			return fmt.Errorf("it ends with a lone &")
		}
		switch c := s[i]; {
		case strings.IndexByte("LCRPNDTFAZBIUSXYE&", c) >= 0:
		case c == '"':
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				return fmt.Errorf(`a font (&") without its closing quote`)
			}
			i += end + 1
		case '0' <= c && c <= '9':
			for i+1 < len(s) && '0' <= s[i+1] && s[i+1] <= '9' {
				i++
			}
		case c == 'K':
			if i+6 >= len(s) || strings.ContainsFunc(s[i+1:i+7], func(r rune) bool { return r > 0x7f || !isHex(byte(r)) }) {
				return fmt.Errorf("&K takes a colour as six hex digits")
			}
			i += 6
		case c == 'G':
			return fmt.Errorf("pictures (&G) are not supported")
		default:
			return fmt.Errorf("unknown code &%c", c)
		}
	}
	return nil
}

// AddPageBreak starts a new printed page after the last row written.
//
// Errors (in a *CellError): ErrPrint before the first row and past 1,023
// breaks; nothing else changes.
func (s *Sheet) AddPageBreak() error {
	if err := s.check(); err != nil {
		return err
	}
	if s.row == 0 || s.row >= MaxRows {
		return &CellError{Sheet: s.name, Row: s.row, Err: fmt.Errorf("%w: a page break goes after a row", ErrPrint)}
	}
	if len(s.rowBreaks) >= maxPageBreaks {
		return &CellError{Sheet: s.name, Row: s.row, Err: fmt.Errorf("%w: more than %d page breaks", ErrPrint, maxPageBreaks)}
	}
	s.rowBreaks = append(s.rowBreaks, s.row)
	return nil
}

// printing reports whether the sheet has print settings, which Excel
// follows with its page setup.
func (s *Sheet) printing() bool {
	return s.opts.Print != nil || len(s.rowBreaks) > 0
}

// appendPrint writes the print settings that follow the rows:
// printOptions, pageMargins, pageSetup, headerFooter and the breaks.
func (s *Sheet) appendPrint(b []byte) []byte {
	p := s.opts.Print
	if p == nil {
		p = &PrintSetup{}
	}
	if p.CenterHorizontally || p.CenterVertically || p.Headings || p.Gridlines {
		b = append(b, "<printOptions"...)
		for _, o := range [...]struct {
			name string
			on   bool
		}{{"horizontalCentered", p.CenterHorizontally}, {"verticalCentered", p.CenterVertically}, {"headings", p.Headings}, {"gridLines", p.Gridlines}} {
			if o.on {
				b = append(append(append(b, ' '), o.name...), `="1"`...)
			}
		}
		b = append(b, "/>"...)
	}
	m := PageMargins{Left: 0.7, Right: 0.7, Top: 0.75, Bottom: 0.75, Header: 0.3, Footer: 0.3}
	if p.Margins != nil {
		m = *p.Margins
	}
	b = append(b, "<pageMargins"...)
	for _, v := range [...]struct {
		name string
		v    float64
	}{{"left", m.Left}, {"right", m.Right}, {"top", m.Top}, {"bottom", m.Bottom}, {"header", m.Header}, {"footer", m.Footer}} {
		b = appendMarginAttr(b, v.name, v.v)
	}
	b = append(b, "/>"...)
	if !s.printing() {
		return b
	}
	b = append(b, "<pageSetup"...)
	if p.PaperSize > 1 {
		b = appendIntAttr(b, "paperSize", p.PaperSize)
	}
	if p.Scale != 0 && p.Scale != 100 {
		b = appendIntAttr(b, "scale", p.Scale)
	}
	if p.FirstPageNumber > 1 {
		b = appendIntAttr(b, "firstPageNumber", p.FirstPageNumber)
	}
	if p.FitWide != 0 || p.FitTall != 0 {
		if p.FitWide != 1 {
			b = appendIntAttr(b, "fitToWidth", p.FitWide)
		}
		if p.FitTall != 1 {
			b = appendIntAttr(b, "fitToHeight", p.FitTall)
		}
	}
	if p.Landscape {
		b = append(b, ` orientation="landscape"`...)
	} else {
		b = append(b, ` orientation="portrait"`...)
	}
	if p.FirstPageNumber > 0 {
		b = append(b, ` useFirstPageNumber="1"`...)
	}
	if p.BlackAndWhite {
		b = append(b, ` blackAndWhite="1"`...)
	}
	// The resolution Excel writes with its default printer.
	b = append(b, ` horizontalDpi="200" verticalDpi="200"/>`...)
	if p.Header != "" || p.Footer != "" {
		b = append(b, "<headerFooter"...)
		if p.HeaderFooterUnscaled {
			b = append(b, ` scaleWithDoc="0"`...)
		}
		if p.HeaderFooterUnaligned {
			b = append(b, ` alignWithMargins="0"`...)
		}
		b = append(b, '>')
		if p.Header != "" {
			b = appendElem(b, "oddHeader", p.Header)
		}
		if p.Footer != "" {
			b = appendElem(b, "oddFooter", p.Footer)
		}
		b = append(b, "</headerFooter>"...)
	}
	b = appendBreaks(b, "rowBreaks", append(slices.Clone(p.RowBreaks), s.rowBreaks...), MaxColumns-1)
	return appendBreaks(b, "colBreaks", slices.Clone(p.ColumnBreaks), MaxRows-1)
}

// appendBreaks writes manual page breaks, sorted, once each, at most
// Excel's 1,023.
func appendBreaks(b []byte, tag string, breaks []int, max int) []byte {
	if len(breaks) == 0 {
		return b
	}
	slices.Sort(breaks)
	breaks = slices.Compact(breaks)
	breaks = breaks[:min(len(breaks), maxPageBreaks)]
	b = append(append(b, '<'), tag...)
	b = appendIntAttr(b, "count", len(breaks))
	b = appendIntAttr(b, "manualBreakCount", len(breaks))
	b = append(b, '>')
	for _, n := range breaks {
		b = appendIntAttr(append(b, "<brk"...), "id", n)
		b = appendIntAttr(b, "max", max)
		b = append(b, ` man="1"/>`...)
	}
	return append(append(append(b, "</"...), tag...), '>')
}

// appendMarginAttr writes a margin as Excel does: short when the value
// is, else with the 17 digits that keep every bit.
func appendMarginAttr(b []byte, name string, v float64) []byte {
	short := strconv.FormatFloat(v, 'f', -1, 64)
	if digits := strings.TrimLeft(strings.ReplaceAll(short, ".", ""), "0"); len(digits) >= 15 {
		short = strconv.FormatFloat(v, 'g', 17, 64)
	}
	return appendStringAttr(b, name, short)
}

// printNames are the sheet's print area and titles, as defined names.
func (s *Sheet) printNames() []nameEntry {
	p := s.opts.Print
	if p == nil {
		return nil
	}
	sheet := quoteSheetName(s.name) + "!"
	var out []nameEntry
	if a := p.Area; a != (Range{}) {
		if a.LastRow == 0 {
			a.LastRow = max(s.row, a.FirstRow)
		}
		if a != (Range{1, 1, MaxRows, MaxColumns}) {
			out = append(out, nameEntry{"_xlnm.Print_Area", sheet + areaRef(a), s.index, false})
		}
	}
	var titles []string
	if c := p.RepeatColumns; c != (Lines{}) {
		titles = append(titles, sheet+areaRef(Range{1, c.First, MaxRows, c.Last}))
	}
	if r := p.RepeatRows; r != (Lines{}) {
		titles = append(titles, sheet+areaRef(Range{r.First, 1, r.Last, MaxColumns}))
	}
	if len(titles) > 0 {
		out = append(out, nameEntry{"_xlnm.Print_Titles", strings.Join(titles, ","), s.index, false})
	}
	return out
}

// areaRef writes an absolute range, as whole rows ($1:$3) or whole
// columns ($A:$C) when it spans the sheet's width or height.
func areaRef(r Range) string {
	var b []byte
	switch {
	case r.FirstCol == 1 && r.LastCol == MaxColumns:
		b = strconv.AppendInt(append(b, '$'), int64(r.FirstRow), 10)
		b = strconv.AppendInt(append(b, ":$"...), int64(r.LastRow), 10)
	case r.FirstRow == 1 && r.LastRow == MaxRows:
		b = appendColumn(append(b, '$'), r.FirstCol-1)
		b = appendColumn(append(b, ":$"...), r.LastCol-1)
	default:
		b = r.append(b, true)
	}
	return string(b)
}
