package xlsx

import (
	"fmt"
	"strconv"
)

// builtinNumFmts are the format codes Excel knows by id without storing
// them (ECMA-376 Part 1, 18.8.30).
var builtinNumFmts = map[string]int{
	"General": 0, "0": 1, "0.00": 2, "#,##0": 3, "#,##0.00": 4,
	"0%": 9, "0.00%": 10, "0.00E+00": 11, "# ?/?": 12, "# ??/??": 13,
	"mm-dd-yy": 14, "d-mmm-yy": 15, "d-mmm": 16, "mmm-yy": 17,
	"h:mm AM/PM": 18, "h:mm:ss AM/PM": 19, "h:mm": 20, "h:mm:ss": 21,
	"m/d/yy h:mm": 22, "#,##0 ;(#,##0)": 37, "#,##0 ;[Red](#,##0)": 38,
	"#,##0.00;(#,##0.00)": 39, "#,##0.00;[Red](#,##0.00)": 40,
	"mm:ss": 45, "[h]:mm:ss": 46, "mmss.0": 47, "##0.0E+0": 48, "@": 49,
}

// Default formats for date and time cells that have no number format.
const (
	defaultDateTimeFmt = "yyyy-mm-dd hh:mm:ss"
	defaultDateFmt     = "yyyy-mm-dd"
	defaultTimeFmt     = "hh:mm:ss"
	defaultDurationFmt = "[h]:mm:ss"
)

const (
	firstCustomNumFmt = 164
	// Excel's limits on distinct formats per workbook.
	maxCellFormats = 64000
	maxFonts       = 1024
)

type xf struct {
	numFmt, font, fill, border int
	align                      Alignment
	protection                 CellProtection
	styleXF                    int // 1: the Hyperlink cell style
}

// styleSheet collects the styles of one workbook and writes styles.xml.
type styleSheet struct {
	fonts     []Font
	fontIndex map[Font]int
	fills     []Fill
	fillIndex map[Fill]int
	borders   []Border
	bordIndex map[Border]int
	numFmts   []string // custom codes, id = firstCustomNumFmt + index
	numIndex  map[string]int
	xfs       []xf
	styles    []Style // styles[i] is the Style of xfs[i]
	xfIndex   map[xf]StyleID

	linkStyle StyleID // 0 until a link needs it
	noteFont  bool    // a sheet has notes
	// Conditional formats' differential formats.
	dxfs     []dxf
	dxfIndex map[Style]int

	// dateVariant[id][k] caches the style a date-like cell of kind k gets
	// when its own style id has no number format; 0 = not yet made.
	dateVariant [][4]StyleID
}

func newStyleSheet() *styleSheet {
	s := &styleSheet{
		fontIndex: map[Font]int{},
		fillIndex: map[Fill]int{},
		bordIndex: map[Border]int{},
		numIndex:  map[string]int{},
		xfIndex:   map[xf]StyleID{},
	}
	s.fonts = append(s.fonts, Font{})
	s.fontIndex[Font{}] = 0
	s.fills = append(s.fills, Fill{}, Fill{Pattern: PatternGray125})
	s.fillIndex[Fill{}] = 0
	s.fillIndex[Fill{Pattern: PatternGray125}] = 1
	s.borders = append(s.borders, Border{})
	s.bordIndex[Border{}] = 0
	s.xfs = append(s.xfs, xf{})
	s.styles = append(s.styles, Style{})
	s.xfIndex[xf{}] = 0
	return s
}

func validateFont(f Font) error {
	if f.Color != "" {
		if _, err := f.Color.argb(); err != nil {
			return err
		}
	}
	if f.Size < 0 || f.Size > 409 {
		return fmt.Errorf("%w: font size %g outside 1..409", ErrStyle, f.Size)
	}
	if len(f.Name) > 31 || !validAttrText(f.Name) {
		return fmt.Errorf("%w: font name %q", ErrStyle, f.Name)
	}
	return nil
}

func (s *styleSheet) add(st Style) (StyleID, error) {
	if err := validateFont(st.Font); err != nil {
		return 0, err
	}
	for _, c := range []Color{st.Fill.Color, st.Fill.Background, st.Border.Left.Color, st.Border.Right.Color,
		st.Border.Top.Color, st.Border.Bottom.Color, st.Border.Diagonal.Color} {
		if c != "" {
			if _, err := c.argb(); err != nil {
				return 0, err
			}
		}
	}
	if a := st.Alignment; a.Rotation != 255 && (a.Rotation < -90 || a.Rotation > 90) {
		return 0, fmt.Errorf("%w: text rotation %d outside -90..90 (or 255)", ErrStyle, a.Rotation)
	}
	if !validAttrText(st.NumFmt) || len(st.NumFmt) > 255 {
		return 0, fmt.Errorf("%w: number format %q", ErrStyle, st.NumFmt)
	}
	// Excel's defaults spelt out are the defaults: one font entry for both.
	if st.Font.Size == 11 {
		st.Font.Size = 0
	}
	if st.Font.Name == "Calibri" {
		st.Font.Name = ""
	}
	if st.Fill.Pattern == PatternNone && (st.Fill.Color != "" || st.Fill.Background != "") {
		st.Fill.Pattern = PatternSolid // a colour alone means a solid fill
	}
	x := xf{align: st.Alignment, protection: st.Protection}
	var ok bool
	if x.font, ok = s.fontIndex[st.Font]; !ok {
		if len(s.fonts) >= maxFonts {
			return 0, fmt.Errorf("%w: more than %d fonts", ErrStyle, maxFonts)
		}
		x.font = len(s.fonts)
		s.fonts = append(s.fonts, st.Font)
		s.fontIndex[st.Font] = x.font
	}
	if x.fill, ok = s.fillIndex[st.Fill]; !ok {
		x.fill = len(s.fills)
		s.fills = append(s.fills, st.Fill)
		s.fillIndex[st.Fill] = x.fill
	}
	if x.border, ok = s.bordIndex[st.Border]; !ok {
		x.border = len(s.borders)
		s.borders = append(s.borders, st.Border)
		s.bordIndex[st.Border] = x.border
	}
	x.numFmt = s.numFmtID(st.NumFmt)
	return s.addXF(x, st)
}

func (s *styleSheet) addXF(x xf, st Style) (StyleID, error) {
	if id, ok := s.xfIndex[x]; ok {
		return id, nil
	}
	if len(s.xfs) >= maxCellFormats {
		return 0, fmt.Errorf("%w: more than %d cell formats", ErrStyle, maxCellFormats)
	}
	id := StyleID(len(s.xfs))
	s.xfs = append(s.xfs, x)
	s.styles = append(s.styles, st)
	s.xfIndex[x] = id
	return id, nil
}

func (s *styleSheet) numFmtID(code string) int {
	if code == "" {
		return 0
	}
	if id, ok := builtinNumFmts[code]; ok {
		return id
	}
	if i, ok := s.numIndex[code]; ok {
		return firstCustomNumFmt + i
	}
	s.numIndex[code] = len(s.numFmts)
	s.numFmts = append(s.numFmts, code)
	return firstCustomNumFmt + len(s.numFmts) - 1
}

// hyperlink returns the style link cells get unless styled: Excel's
// built-in Hyperlink cell style (blue, underlined).
func (s *styleSheet) hyperlink() StyleID {
	if s.linkStyle == 0 {
		f := Font{Underline: UnderlineSingle, Color: themeHyperlink}
		fi, ok := s.fontIndex[f]
		if !ok {
			fi = len(s.fonts)
			s.fonts = append(s.fonts, f)
			s.fontIndex[f] = fi
		}
		s.linkStyle, _ = s.addXF(xf{font: fi, styleXF: 1}, Style{Font: f})
	}
	return s.linkStyle
}

// themeHyperlink stands for the theme's hyperlink colour; it is not a
// valid RGB value, so users cannot pass it by accident.
const themeHyperlink Color = "theme:10"

// dateStyle returns the style for a date-like cell: its own style when that
// has a number format, else a variant of it with the default format for
// the cell's kind.
func (s *styleSheet) dateStyle(id StyleID, k cellKind) StyleID {
	if s.xfs[id].numFmt != 0 {
		return id
	}
	slot := int(k - kindDateTime) // kindDateTime, kindDate, kindTimeOfDay, kindDuration
	if int(id) < len(s.dateVariant) {
		if v := s.dateVariant[id][slot]; v != 0 {
			return v
		}
	}
	for len(s.dateVariant) <= int(id) {
		s.dateVariant = append(s.dateVariant, [4]StyleID{})
	}
	code := [4]string{defaultDateTimeFmt, defaultDateFmt, defaultTimeFmt, defaultDurationFmt}[slot]
	x := s.xfs[id]
	x.numFmt = s.numFmtID(code)
	st := s.styles[id]
	st.NumFmt = code
	v, err := s.addXF(x, st)
	if err != nil {
		v = id // out of formats: keep the cell's style rather than fail
	}
	s.dateVariant[id][slot] = v
	return v
}

func appendColor(b []byte, tag string, c Color, dflt string) []byte {
	b = append(b, '<')
	b = append(b, tag...)
	switch {
	case c == themeHyperlink:
		b = append(b, ` theme="10"`...)
	case c == "":
		b = append(b, dflt...)
	default:
		argb, _ := c.argb() // validated when added
		b = append(b, ` rgb="`...)
		b = append(b, argb...)
		b = append(b, '"')
	}
	return append(b, "/>"...)
}

func appendUnderline(b []byte, u Underline) []byte {
	switch u {
	case UnderlineSingle:
		b = append(b, "<u/>"...)
	case UnderlineDouble:
		b = append(b, `<u val="double"/>`...)
	case UnderlineSingleAccounting:
		b = append(b, `<u val="singleAccounting"/>`...)
	case UnderlineDoubleAccounting:
		b = append(b, `<u val="doubleAccounting"/>`...)
	}
	return b
}

// appendFont writes a font's children. In a rich text run the name element
// is rFont; elsewhere it is name.
func appendFontBody(b []byte, f Font, nameTag string) []byte {
	if f.Bold {
		b = append(b, "<b/>"...)
	}
	if f.Italic {
		b = append(b, "<i/>"...)
	}
	if f.Strike {
		b = append(b, "<strike/>"...)
	}
	b = appendUnderline(b, f.Underline)
	switch f.Script {
	case ScriptSuperscript:
		b = append(b, `<vertAlign val="superscript"/>`...)
	case ScriptSubscript:
		b = append(b, `<vertAlign val="subscript"/>`...)
	}
	size := f.Size
	if size == 0 {
		size = 11
	}
	b = append(b, `<sz val="`...)
	b = strconv.AppendFloat(b, size, 'f', -1, 64)
	b = append(b, `"/>`...)
	b = appendColor(b, "color", f.Color, ` theme="1"`)
	name := f.Name
	if name == "" {
		name = "Calibri"
	}
	b = append(b, '<')
	b = append(b, nameTag...)
	b = append(b, ` val="`...)
	b = appendAttr(b, name)
	b = append(b, `"/><family val="2"/>`...)
	// The theme's minor font is Calibri; a hyperlink font is not tied to
	// the scheme, as in Excel's own files.
	if name == "Calibri" && f.Color != themeHyperlink {
		b = append(b, `<scheme val="minor"/>`...)
	}
	return b
}

func appendLine(b []byte, tag string, l BorderLine) []byte {
	b = append(b, '<')
	b = append(b, tag...)
	if l.Style == LineNone {
		return append(b, "/>"...)
	}
	b = append(b, ` style="`...)
	b = appendAttr(b, string(l.Style))
	b = append(b, `">`...)
	b = appendColor(b, "color", l.Color, ` auto="1"`)
	b = append(b, "</"...)
	b = append(b, tag...)
	return append(b, '>')
}

func appendAlignment(b []byte, a Alignment) []byte {
	b = append(b, "<alignment"...)
	if a.Horizontal != "" {
		b = append(b, ` horizontal="`...)
		b = append(b, a.Horizontal...)
		b = append(b, '"')
	}
	if a.Vertical != "" {
		b = append(b, ` vertical="`...)
		b = append(b, a.Vertical...)
		b = append(b, '"')
	}
	if a.Rotation != 0 {
		r := int(a.Rotation)
		if r < 0 {
			r = 90 - r // Excel stores -1..-90 as 91..180
		}
		b = appendIntAttr(b, "textRotation", r)
	}
	if a.Wrap {
		b = append(b, ` wrapText="1"`...)
	}
	if a.Indent != 0 {
		b = appendIntAttr(b, "indent", int(a.Indent))
	}
	if a.ShrinkToFit {
		b = append(b, ` shrinkToFit="1"`...)
	}
	return append(b, "/>"...)
}

// xml returns the styles part.
func (s *styleSheet) xml() []byte {
	b := make([]byte, 0, 2048+256*len(s.xfs))
	b = append(b, xmlHeader...)
	b = append(b, `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`...)
	if len(s.numFmts) > 0 {
		b = appendIntAttr(append(b, "<numFmts"...), "count", len(s.numFmts))
		b = append(b, '>')
		for i, code := range s.numFmts {
			b = appendIntAttr(append(b, "<numFmt"...), "numFmtId", firstCustomNumFmt+i)
			b = append(b, ` formatCode="`...)
			b = appendAttr(b, code)
			b = append(b, `"/>`...)
		}
		b = append(b, "</numFmts>"...)
	}
	fonts := len(s.fonts)
	if s.noteFont {
		fonts++
	}
	b = appendIntAttr(append(b, "<fonts"...), "count", fonts)
	b = append(b, '>')
	for _, f := range s.fonts {
		b = append(b, "<font>"...)
		b = appendFontBody(b, f, "name")
		b = append(b, "</font>"...)
	}
	if s.noteFont {
		// The font of notes' text, which Excel lists when a sheet has
		// notes (in an indexed colour, which Font cannot name).
		b = append(b, `<font><sz val="8"/><color indexed="81"/><name val="Tahoma"/><family val="2"/></font>`...)
	}
	b = append(b, "</fonts>"...)
	b = appendIntAttr(append(b, "<fills"...), "count", len(s.fills))
	b = append(b, '>')
	for _, f := range s.fills {
		b = append(b, `<fill><patternFill patternType="`...)
		if f.Pattern == PatternNone {
			b = append(b, `none"/></fill>`...)
			continue
		}
		b = appendAttr(b, string(f.Pattern))
		if f.Color == "" && f.Background == "" {
			b = append(b, `"/></fill>`...)
			continue
		}
		b = append(b, `">`...)
		if f.Color != "" {
			b = appendColor(b, "fgColor", f.Color, "")
		}
		b = appendColor(b, "bgColor", f.Background, ` indexed="64"`)
		b = append(b, "</patternFill></fill>"...)
	}
	b = append(b, "</fills>"...)
	b = appendIntAttr(append(b, "<borders"...), "count", len(s.borders))
	b = append(b, '>')
	for _, br := range s.borders {
		b = append(b, "<border"...)
		if br.DiagonalUp {
			b = append(b, ` diagonalUp="1"`...)
		}
		if br.DiagonalDown {
			b = append(b, ` diagonalDown="1"`...)
		}
		b = append(b, '>')
		b = appendLine(b, "left", br.Left)
		b = appendLine(b, "right", br.Right)
		b = appendLine(b, "top", br.Top)
		b = appendLine(b, "bottom", br.Bottom)
		b = appendLine(b, "diagonal", br.Diagonal)
		b = append(b, "</border>"...)
	}
	b = append(b, "</borders>"...)
	linkFont := -1
	if s.linkStyle != 0 {
		linkFont = s.xfs[s.linkStyle].font
	}
	if linkFont < 0 {
		b = append(b, `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>`...)
	} else {
		b = append(b, `<cellStyleXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>`...)
		b = appendIntAttr(append(b, `<xf numFmtId="0"`...), "fontId", linkFont)
		b = append(b, ` fillId="0" borderId="0" applyNumberFormat="0" applyFill="0" applyBorder="0" applyAlignment="0" applyProtection="0"><alignment vertical="top"/><protection locked="0"/></xf></cellStyleXfs>`...)
	}
	b = appendIntAttr(append(b, "<cellXfs"...), "count", len(s.xfs))
	b = append(b, '>')
	for _, x := range s.xfs {
		b = appendIntAttr(append(b, "<xf"...), "numFmtId", x.numFmt)
		b = appendIntAttr(b, "fontId", x.font)
		b = appendIntAttr(b, "fillId", x.fill)
		b = appendIntAttr(b, "borderId", x.border)
		b = appendIntAttr(b, "xfId", x.styleXF)
		if x.numFmt != 0 {
			b = append(b, ` applyNumberFormat="1"`...)
		}
		if x.font != 0 && x.styleXF == 0 {
			b = append(b, ` applyFont="1"`...)
		}
		if x.fill != 0 {
			b = append(b, ` applyFill="1"`...)
		}
		if x.border != 0 {
			b = append(b, ` applyBorder="1"`...)
		}
		hasAlign := x.align != Alignment{}
		if hasAlign || x.styleXF != 0 {
			b = append(b, ` applyAlignment="1"`...)
		}
		hasProtection := x.protection != CellProtection{}
		if x.styleXF != 0 || hasProtection {
			b = append(b, ` applyProtection="1"`...)
		}
		if !hasAlign && !hasProtection {
			b = append(b, "/>"...)
			continue
		}
		b = append(b, '>')
		if hasAlign {
			b = appendAlignment(b, x.align)
		}
		if hasProtection {
			b = append(b, "<protection"...)
			if x.protection.Unlocked {
				b = append(b, ` locked="0"`...)
			}
			if x.protection.Hidden {
				b = append(b, ` hidden="1"`...)
			}
			b = append(b, "/>"...)
		}
		b = append(b, "</xf>"...)
	}
	b = append(b, "</cellXfs>"...)
	if linkFont < 0 {
		b = append(b, `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>`...)
	} else {
		b = append(b, `<cellStyles count="2"><cellStyle name="Hyperlink" xfId="1" builtinId="8"/><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>`...)
	}
	b = s.appendDxfs(b)
	b = append(b, `<tableStyles count="0" defaultTableStyle="TableStyleMedium9" defaultPivotStyle="PivotStyleLight16"/></styleSheet>`...)
	return b
}
