package xlsx

import (
	"fmt"
	"strings"
)

// sheetCondFormat is a conditional format with its range, its
// differential format's id and its formulas, written after the rows.
type sheetCondFormat struct {
	ConditionalFormat
	ref                streamRange
	dxf                int // -1: none
	formula1, formula2 string
}

// AddConditionalFormat formats the cells of r as f says, any time
// before the sheet ends (the formats go after the rows). A range with
// LastRow 0 ends with the sheet's last row written. Formats added
// earlier take precedence (Excel's priority 1 is the first added).
//
// Errors (in a *CellError, leaving the sheet and the Writer as they
// were): ErrRange for an invalid range; ErrCondFormat for an unknown
// type, operator or icon set, a missing or unusable value, or text that
// XML cannot carry; ErrStyle for a colour that is not RRGGBB.
func (s *Sheet) AddConditionalFormat(r Range, f ConditionalFormat) error {
	if err := s.check(); err != nil {
		return err
	}
	refuse := func(err error) error { return s.refuse(r.FirstRow, r.FirstCol, err) }
	ref, err := s.streamRange(r, "conditional format")
	if err != nil {
		return err
	}
	cf := sheetCondFormat{ConditionalFormat: f, ref: ref, dxf: -1}
	if err := s.condFormulas(&cf); err != nil {
		return refuse(err)
	}
	for _, c := range []Color{f.MinColor, f.MidColor, f.MaxColor, f.BarColor} {
		if c != "" {
			if _, err := c.argb(); err != nil {
				return refuse(err)
			}
		}
	}
	if f.Format != (Style{}) {
		id, err := s.w.addDxf(f.Format)
		if err != nil {
			return refuse(err)
		}
		cf.dxf = id
	}
	s.condFormats = append(s.condFormats, cf)
	return nil
}

// condFormulas checks a conditional format and makes its formulas.
func (s *Sheet) condFormulas(cf *sheetCondFormat) error {
	f := &cf.ConditionalFormat
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrCondFormat}, args...)...)
	}
	if f.Type >= condTypes {
		return bad("unknown type %d", f.Type)
	}
	if !validAttrText(f.Text) {
		return bad("text %q holds a character XML cannot carry", f.Text)
	}
	cell := string(appendCellRef(nil, cf.ref.FirstRow, cf.ref.FirstCol-1))
	text := `"` + strings.ReplaceAll(f.Text, `"`, `""`) + `"`
	var err error
	switch f.Type {
	case CondCell:
		if int(f.Operator) >= len(operatorNames) {
			return bad("unknown operator %d", f.Operator)
		}
		if cf.formula1, err = s.condValue(f.Value1); err != nil {
			return err
		}
		two := f.Operator == Between || f.Operator == NotBetween
		if cf.formula1 == "" || two && f.Value2.kind == kindEmpty {
			return bad("a cell rule needs Value1 (and Value2 for Between and NotBetween)")
		}
		if two {
			cf.formula2, err = s.condValue(f.Value2)
		}
		return err
	case CondFormula:
		if f.Value1.kind != kindFormula {
			return bad("a formula rule takes its formula from Value1")
		}
		cf.formula1, err = s.condValue(f.Value1)
		return err
	case CondContains:
		cf.formula1 = "NOT(ISERROR(SEARCH(" + text + "," + cell + ")))"
	case CondNotContains:
		cf.formula1 = "ISERROR(SEARCH(" + text + "," + cell + "))"
	case CondBeginsWith:
		cf.formula1 = "LEFT(" + cell + ",LEN(" + text + "))=" + text
	case CondEndsWith:
		cf.formula1 = "RIGHT(" + cell + ",LEN(" + text + "))=" + text
	case CondBlanks:
		cf.formula1 = "LEN(TRIM(" + cell + "))=0"
	case CondNoBlanks:
		cf.formula1 = "LEN(TRIM(" + cell + "))>0"
	case CondErrors:
		cf.formula1 = "ISERROR(" + cell + ")"
	case CondNoErrors:
		cf.formula1 = "NOT(ISERROR(" + cell + "))"
	case CondTop, CondBottom:
		if f.Rank < 0 || f.Rank > 1000 || f.Percent && f.Rank > 100 {
			return bad("rank %d", f.Rank)
		}
	case CondIconSet:
		if f.Icons != "" && iconCounts[f.Icons] == 0 {
			return bad("unknown icon set %q", f.Icons)
		}
	}
	if (f.Type == CondContains || f.Type == CondNotContains || f.Type == CondBeginsWith || f.Type == CondEndsWith) && f.Text == "" {
		return bad("a text rule needs Text")
	}
	return nil
}

// condValue writes a value a rule compares with as Excel's formula:
// text in quotes, or an operand.
func (s *Sheet) condValue(c Cell) (string, error) {
	switch c.kind {
	case kindEmpty:
		return "", nil
	case kindString:
		if !validAttrText(c.s) {
			return "", fmt.Errorf("%w: text %q holds a character XML cannot carry", ErrCondFormat, c.s)
		}
		return `"` + strings.ReplaceAll(c.s, `"`, `""`) + `"`, nil
	}
	f, ok, err := s.operand(c)
	switch {
	case err != nil:
		return "", fmt.Errorf("%w: %w", ErrCondFormat, err)
	case !ok:
		return "", fmt.Errorf("%w: a rule compares with a number, text, a date or time, or a formula", ErrCondFormat)
	}
	return f, nil
}

// addDxf registers a differential format: the parts of a Style a
// conditional format changes.
func (w *Writer) addDxf(st Style) (int, error) {
	for _, c := range []Color{st.Font.Color, st.Fill.Color, st.Fill.Background, st.Border.Left.Color, st.Border.Right.Color, st.Border.Top.Color, st.Border.Bottom.Color} {
		if c != "" {
			if _, err := c.argb(); err != nil {
				return 0, err
			}
		}
	}
	w.lockShared()
	defer w.unlockShared()
	return w.styles.addDxf(st)
}

func (s *styleSheet) addDxf(st Style) (int, error) {
	if id, ok := s.dxfIndex[st]; ok {
		return id, nil
	}
	if !validAttrText(st.NumFmt) || len(st.NumFmt) > 255 {
		return 0, fmt.Errorf("%w: number format %q", ErrStyle, st.NumFmt)
	}
	if st.Fill.Pattern == PatternNone && (st.Fill.Color != "" || st.Fill.Background != "") {
		st.Fill.Pattern = PatternSolid // a colour alone means a solid fill
	}
	if s.dxfIndex == nil {
		s.dxfIndex = map[Style]int{}
	}
	id := len(s.dxfs)
	s.dxfs = append(s.dxfs, dxf{style: st})
	s.dxfIndex[st] = id
	return id, nil
}

// dxf is a differential format.
type dxf struct {
	style Style
}

// dxfNumFmts numbers the differential formats' number formats: Excel's
// built-in ones by their ids, the cells' own custom ones by theirs, and
// the rest after those (Excel lists them only in the dxfs).
func (s *styleSheet) dxfNumFmts() map[string]int {
	ids := map[string]int{}
	next := firstCustomNumFmt + len(s.numFmts)
	for _, d := range s.dxfs {
		code := d.style.NumFmt
		if _, done := ids[code]; done || code == "" {
			continue
		}
		if id, ok := builtinNumFmts[code]; ok {
			ids[code] = id
		} else if i, ok := s.numIndex[code]; ok {
			ids[code] = firstCustomNumFmt + i
		} else {
			ids[code] = next
			next++
		}
	}
	return ids
}

// appendDxfs writes <dxfs>.
func (s *styleSheet) appendDxfs(b []byte) []byte {
	b = appendIntAttr(append(b, "<dxfs"...), "count", len(s.dxfs))
	if len(s.dxfs) == 0 {
		return append(b, "/>"...)
	}
	b = append(b, '>')
	numFmts := s.dxfNumFmts()
	for _, d := range s.dxfs {
		st := d.style
		b = append(b, "<dxf>"...)
		if f := st.Font; f.Bold || f.Italic || f.Strike || f.Underline != UnderlineNone || f.Color != "" {
			b = append(b, "<font>"...)
			if f.Bold {
				b = append(b, "<b/>"...)
			}
			if f.Italic {
				b = append(b, "<i/>"...)
			}
			if f.Strike {
				b = append(b, "<strike/>"...)
			}
			if f.Color != "" {
				b = append(b, `<condense val="0"/><extend val="0"/>`...) // as Excel writes a coloured font
			}
			b = appendUnderline(b, f.Underline)
			b = appendDxfColor(b, "color", f.Color)
			b = append(b, "</font>"...)
		}
		if st.NumFmt != "" {
			b = appendIntAttr(append(b, "<numFmt"...), "numFmtId", numFmts[st.NumFmt])
			b = appendStringAttr(b, "formatCode", st.NumFmt)
			b = append(b, "/>"...)
		}
		if fl := st.Fill; fl.Pattern != PatternNone {
			b = append(b, "<fill><patternFill"...)
			if fl.Pattern == PatternSolid {
				// A solid conditional fill is its background colour.
				b = append(b, '>')
				b = appendDxfColor(b, "bgColor", fl.Color)
			} else {
				b = appendStringAttr(b, "patternType", string(fl.Pattern))
				b = append(b, '>')
				b = appendDxfColor(b, "fgColor", fl.Color)
				b = appendDxfColor(b, "bgColor", fl.Background)
			}
			b = append(b, "</patternFill></fill>"...)
		}
		if br := st.Border; br.Left.Style != LineNone || br.Right.Style != LineNone || br.Top.Style != LineNone || br.Bottom.Style != LineNone {
			b = append(b, "<border>"...)
			b = appendLine(b, "left", br.Left)
			b = appendLine(b, "right", br.Right)
			b = appendLine(b, "top", br.Top)
			b = appendLine(b, "bottom", br.Bottom)
			b = append(b, "<vertical/><horizontal/></border>"...)
		}
		b = append(b, "</dxf>"...)
	}
	return append(b, "</dxfs>"...)
}

// appendDxfColor writes a colour a differential format sets, or nothing.
func appendDxfColor(b []byte, tag string, c Color) []byte {
	if c == "" {
		return b
	}
	return appendColor(b, tag, c, "")
}

// appendCondFormats writes the sheet's <conditionalFormatting>
// elements: one per range, in the order ranges first appear, each rule
// with its priority (1 for the first added).
func (s *Sheet) appendCondFormats(b []byte) []byte {
	done := make([]bool, len(s.condFormats))
	for i := range s.condFormats {
		if done[i] {
			continue
		}
		ref := s.condFormats[i].ref.final(s.row)
		b = append(b, `<conditionalFormatting sqref="`...)
		b = ref.append(b, false)
		b = append(b, `">`...)
		for j := i; j < len(s.condFormats); j++ {
			if !done[j] && s.condFormats[j].ref.final(s.row) == ref {
				done[j] = true
				b = s.condFormats[j].append(b, j+1)
			}
		}
		b = append(b, "</conditionalFormatting>"...)
	}
	return b
}

var cfRuleTypes = [...]string{
	CondCell: "cellIs", CondFormula: "expression", CondColorScale: "colorScale", CondDataBar: "dataBar",
	CondIconSet: "iconSet", CondTop: "top10", CondBottom: "top10", CondAboveAverage: "aboveAverage",
	CondBelowAverage: "aboveAverage", CondDuplicate: "duplicateValues", CondUnique: "uniqueValues",
	CondContains: "containsText", CondNotContains: "notContainsText", CondBeginsWith: "beginsWith",
	CondEndsWith: "endsWith", CondBlanks: "containsBlanks", CondNoBlanks: "notContainsBlanks",
	CondErrors: "containsErrors", CondNoErrors: "notContainsErrors",
}

// append writes one <cfRule>.
func (cf *sheetCondFormat) append(b []byte, priority int) []byte {
	b = appendStringAttr(append(b, "<cfRule"...), "type", cfRuleTypes[cf.Type])
	if cf.dxf >= 0 {
		b = appendIntAttr(b, "dxfId", cf.dxf)
	}
	b = appendIntAttr(b, "priority", priority)
	if cf.StopIfTrue {
		b = append(b, ` stopIfTrue="1"`...)
	}
	switch cf.Type {
	case CondCell:
		b = appendStringAttr(b, "operator", operatorNames[cf.Operator])
	case CondTop, CondBottom:
		if cf.Percent {
			b = append(b, ` percent="1"`...)
		}
		if cf.Type == CondBottom {
			b = append(b, ` bottom="1"`...)
		}
		rank := cf.Rank
		if rank == 0 {
			rank = 10
		}
		b = appendIntAttr(b, "rank", rank)
	case CondBelowAverage:
		b = append(b, ` aboveAverage="0"`...)
	case CondContains:
		b = appendStringAttr(appendStringAttr(b, "operator", "containsText"), "text", cf.Text)
	case CondNotContains:
		b = appendStringAttr(appendStringAttr(b, "operator", "notContains"), "text", cf.Text)
	case CondBeginsWith:
		b = appendStringAttr(appendStringAttr(b, "operator", "beginsWith"), "text", cf.Text)
	case CondEndsWith:
		b = appendStringAttr(appendStringAttr(b, "operator", "endsWith"), "text", cf.Text)
	}
	b = append(b, '>')
	switch cf.Type {
	case CondColorScale:
		b = append(b, `<colorScale><cfvo type="min"/>`...)
		colors := []Color{orColor(cf.MinColor, "F8696B"), orColor(cf.MaxColor, "63BE7B")}
		if cf.MidColor != "" {
			b = append(b, `<cfvo type="percentile" val="50"/>`...)
			colors = []Color{colors[0], cf.MidColor, colors[1]}
		}
		b = append(b, `<cfvo type="max"/>`...)
		for _, c := range colors {
			b = appendDxfColor(b, "color", c)
		}
		b = append(b, "</colorScale>"...)
	case CondDataBar:
		b = append(b, "<dataBar"...)
		if cf.BarOnly {
			b = append(b, ` showValue="0"`...)
		}
		b = append(b, `><cfvo type="min"/><cfvo type="max"/>`...)
		b = appendDxfColor(b, "color", orColor(cf.BarColor, "638EC6"))
		b = append(b, "</dataBar>"...)
	case CondIconSet:
		icons := cf.Icons
		if icons == "" {
			icons = "3Arrows"
		}
		b = appendStringAttr(append(b, "<iconSet"...), "iconSet", icons)
		if cf.IconsOnly {
			b = append(b, ` showValue="0"`...)
		}
		if cf.ReverseIcons {
			b = append(b, ` reverse="1"`...)
		}
		b = append(b, '>')
		n := iconCounts[icons]
		for i := range n {
			b = appendIntAttr(append(b, `<cfvo type="percent"`...), "val", i*100/n+boolInt(n == 3 && i == 2))
			b = append(b, "/>"...)
		}
		b = append(b, "</iconSet>"...)
	}
	if cf.formula1 != "" {
		b = appendElem(b, "formula", cf.formula1)
	}
	if cf.formula2 != "" {
		b = appendElem(b, "formula", cf.formula2)
	}
	return append(b, "</cfRule>"...)
}

// orColor is c, or fallback (RRGGBB) when c is empty.
func orColor(c Color, fallback string) Color {
	if c == "" {
		return Color(fallback)
	}
	return c
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
