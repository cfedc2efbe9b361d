package xlsx

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sheetstream/sheetstream/internal/numtext"
)

func (s *Sheet) encodeRow(b []byte, row int, cells []Cell, opts *RowOptions) (_ []byte, first, last, refs int, err error) {
	w := s.w
	b = append(b, `<row r="`...)
	b = strconv.AppendInt(b, int64(row), 10)
	b = append(b, '"')
	if opts != nil {
		if b, err = s.appendRowAttrs(b, row, opts); err != nil {
			return b, 0, 0, 0, err
		}
	}
	b = append(b, '>')
	allRefs := s.w.opts.CellRefs == CellRefsAlways
	for col0 := range cells {
		c := &cells[col0]
		if c.kind == kindEmpty {
			continue
		}
		if first == 0 {
			first = col0 + 1
		}
		// A cell's r is optional when it follows the previous one (or
		// opens the row in column A): leaving it out saves a third of the
		// XML of a typical row.
		if allRefs || col0 != last {
			b = append(b, `<c r="`...)
			b = appendCellRef(b, row, col0)
			b = append(b, '"')
		} else {
			b = append(b, `<c`...)
		}
		last = col0 + 1
		style := c.style
		if int(style) >= s.styles && !s.knownStyle(style) {
			return b, 0, 0, 0, &CellError{s.name, row, col0 + 1, fmt.Errorf("%w: %d", ErrStyle, style)}
		}
		switch c.kind {
		case kindDateTime, kindDate, kindTimeOfDay, kindDuration:
			style = s.dateStyle(style, c.kind)
		case kindString:
			if c.link != linkNone {
				if !c.styled {
					w.lockShared()
					style = w.styles.hyperlink()
					w.unlockShared()
				}
				if err := s.addLink(row, col0+1, c); err != nil {
					return b, 0, 0, 0, err
				}
			}
		}
		if style != 0 {
			b = append(b, ` s="`...)
			b = strconv.AppendUint(b, uint64(style), 10)
			b = append(b, '"')
		}
		if c.kind == kindFormula && c.link != linkNone {
			if b, err = s.appendArrayFormula(b, c, row, col0); err != nil {
				return b, 0, 0, 0, &CellError{s.name, row, col0 + 1, err}
			}
			continue
		}
		var n int
		if b, n, err = s.appendValue(b, c); err != nil {
			return b, 0, 0, 0, &CellError{s.name, row, col0 + 1, err}
		}
		refs += n
	}
	if first == 0 && opts != nil {
		// A row with only formatting: <row r="1" s="1" customFormat="1"/>.
		b[len(b)-1] = '/'
		return append(b, '>'), 0, 0, 0, nil
	}
	return append(b, "</row>"...), first, last, refs, nil
}

func (s *Sheet) appendRowAttrs(b []byte, row int, o *RowOptions) ([]byte, error) {
	if o.styled {
		if !s.knownStyle(o.Style) {
			return b, &CellError{s.name, row, 0, fmt.Errorf("%w: %d", ErrStyle, o.Style)}
		}
		b = append(b, ` s="`...)
		b = strconv.AppendUint(b, uint64(o.Style), 10)
		b = append(b, `" customFormat="1"`...)
	}
	if o.Height != 0 {
		if o.Height < 0 || o.Height > 409 || math.IsNaN(o.Height) {
			return b, &CellError{s.name, row, 0, fmt.Errorf("%w: height %g outside 0..409", ErrWidth, o.Height)}
		}
		b = appendFloatAttr(b, "ht", o.Height)
		b = append(b, ` customHeight="1"`...)
	}
	if o.Hidden {
		b = append(b, ` hidden="1"`...)
	}
	if o.OutlineLevel != 0 {
		if o.OutlineLevel > 7 {
			return b, &CellError{s.name, row, 0, fmt.Errorf("%w: outline level %d outside 0..7", ErrRange, o.OutlineLevel)}
		}
		if s.headWritten && o.OutlineLevel > s.rowOutline {
			return b, &CellError{s.name, row, 0, fmt.Errorf("%w: outline level %d is deeper than the %d the sheet's head says; declare the deepest in SheetOptions.RowOutlineLevels",
				ErrHeadWritten, o.OutlineLevel, s.rowOutline)}
		}
		s.rowOutline = max(s.rowOutline, o.OutlineLevel)
		b = appendIntAttr(b, "outlineLevel", int(o.OutlineLevel))
	}
	if o.Collapsed {
		b = append(b, ` collapsed="1"`...)
	}
	return b, nil
}

// appendValue writes the rest of a cell after its r and s attributes and
// reports how many shared string references it made.
func (s *Sheet) appendValue(b []byte, c *Cell) ([]byte, int, error) {
	var err error
	switch c.kind {
	case kindBlank:
		return append(b, "/>"...), 0, nil
	case kindInt:
		b = append(b, "><v>"...)
		b = strconv.AppendInt(b, c.i, 10)
	case kindUint:
		b = append(b, "><v>"...)
		b = strconv.AppendUint(b, c.uint(), 10)
	case kindFloat, kindFloat32:
		b = append(b, "><v>"...)
		if b, err = appendXMLNumber(b, c.num, c.kind == kindFloat32); err != nil {
			return b, 0, err
		}
	case kindDecimal:
		if b, err = appendDecimal(append(b, "><v>"...), c.decimal()); err != nil {
			return b, 0, err
		}
	case kindBool:
		b = append(b, ` t="b"><v>`...)
		b = append(b, c.boolDigit())
	case kindDateTime, kindDate, kindTimeOfDay, kindDuration:
		var v float64
		if v, err = s.w.timeValue(c.kind, c); err != nil {
			return b, 0, err
		}
		b = append(b, "><v>"...)
		b, _ = appendXMLNumber(b, v, false)
	case kindError:
		if !c.errorCode().valid() {
			return b, 0, fmt.Errorf("%w: %q", ErrErrorCode, c.errorCode())
		}
		b = append(b, ` t="e"><v>`...)
		b = append(b, c.errorCode()...)
	case kindString:
		return s.appendString(b, c.text())
	case kindRich:
		return s.appendRich(b, c.runs)
	case kindFormula:
		return s.appendFormula(b, c)
	}
	return append(b, "</v></c>"...), 0, nil
}

func checkTextLen(t string) error {
	if len(t) > MaxCellChars && utf16Len(t) > MaxCellChars {
		return fmt.Errorf("%w (%d)", ErrCellTooLong, utf16Len(t))
	}
	return nil
}

func (s *Sheet) appendString(b []byte, t string) ([]byte, int, error) {
	if err := checkTextLen(t); err != nil {
		return b, 0, err
	}
	w := s.w
	if w.opts.Strings != StringsInline {
		i, ok, err := s.sharedString(t)
		if err != nil {
			return b, 0, err
		}
		if ok {
			return appendSharedRef(b, i), 1, nil
		}
	}
	b = append(b, ` t="inlineStr"><is>`...)
	if needsPreserve(t) {
		b = append(b, `<t xml:space="preserve">`...)
	} else {
		b = append(b, "<t>"...)
	}
	var err error
	if b, err = appendText(b, t); err != nil {
		return b, 0, err
	}
	return append(b, "</t></is></c>"...), 0, nil
}

// sharedString finds t's index in the shared strings table, adding it if
// it is new and fits; ok is false when it goes inline.
func (s *Sheet) sharedString(t string) (i uint32, ok bool, err error) {
	w := s.w
	if w.concurrent {
		return s.sharedStringConcurrent(t)
	}
	if i, found := w.sst.index[t]; found {
		return i, true, nil
	}
	// A new string joins the table if it fits, once it is known to be
	// writable; past the budget it goes inline without a second look.
	if !w.sst.fits(len(t)) {
		return 0, false, nil
	}
	if s.scratch, err = appendText(s.scratch[:0], t); err != nil {
		return 0, false, err
	}
	return w.sst.add(t), true, nil
}

// sharedStringConcurrent is sharedString for sheets written at the same
// time: each keeps the indexes it has used, so that a repeated string
// costs no lock.
func (s *Sheet) sharedStringConcurrent(t string) (uint32, bool, error) {
	if i, found := s.sstSeen[t]; found {
		return i, true, nil
	}
	w := s.w
	w.shared.Lock()
	i, key, found := w.sst.lookup(t)
	fits := found || w.sst.fits(len(t))
	w.shared.Unlock()
	if !fits {
		return 0, false, nil
	}
	if !found {
		var err error
		if s.scratch, err = appendText(s.scratch[:0], t); err != nil {
			return 0, false, err
		}
		w.shared.Lock()
		i, key, found = w.sst.addIfFits(t)
		w.shared.Unlock()
		if !found {
			return 0, false, nil
		}
	}
	if s.sstSeen == nil {
		s.sstSeen = map[string]uint32{}
	}
	// key is the table's own copy: t may alias a caller's buffer.
	s.sstSeen[key] = i
	return i, true, nil
}

func appendSharedRef(b []byte, i uint32) []byte {
	b = append(b, ` t="s"><v>`...)
	b = strconv.AppendUint(b, uint64(i), 10)
	return append(b, "</v></c>"...)
}

func (s *Sheet) appendRich(b []byte, runs []RichRun) ([]byte, int, error) {
	w := s.w
	x := s.scratch[:0]
	total := 0
	for _, r := range runs {
		total += len(r.Text)
		if err := validateFont(r.Font); err != nil {
			return b, 0, err
		}
		x = append(x, "<r>"...)
		if r.Font != (Font{}) {
			x = append(x, "<rPr>"...)
			x = appendFontBody(x, r.Font, "rFont")
			x = append(x, "</rPr>"...)
		}
		if needsPreserve(r.Text) {
			x = append(x, `<t xml:space="preserve">`...)
		} else {
			x = append(x, "<t>"...)
		}
		var err error
		if x, err = appendText(x, r.Text); err != nil {
			return b, 0, err
		}
		x = append(x, "</t></r>"...)
	}
	s.scratch = x
	if total > MaxCellChars {
		var sb strings.Builder
		for _, r := range runs {
			sb.WriteString(r.Text)
		}
		if err := checkTextLen(sb.String()); err != nil {
			return b, 0, err
		}
	}
	if w.opts.Strings != StringsInline {
		w.lockShared()
		i, ok := w.sst.lookupRich(x)
		w.unlockShared()
		if ok {
			return appendSharedRef(b, i), 1, nil
		}
	}
	b = append(b, ` t="inlineStr"><is>`...)
	b = append(b, x...)
	return append(b, "</is></c>"...), 0, nil
}

// appendArrayFormula writes an array or dynamic array formula, which
// names its range.
func (s *Sheet) appendArrayFormula(b []byte, c *Cell, row, col0 int) ([]byte, error) {
	own := string(appendCellRef(nil, row, col0))
	ref, formula := own, c.s
	if c.link == linkArray {
		ref, formula, _ = strings.Cut(c.s, "\x00")
		if ref == "" {
			ref = own
		}
		r, err := ParseRange(ref)
		if err != nil || r.FirstRow != row || r.FirstCol != col0+1 {
			return b, fmt.Errorf("%w: array formula over %q, which must start at its cell %s", ErrRange, ref, own)
		}
	} else {
		b = append(b, ` cm="1"`...)
		s.w.dynamicArrays.Store(true)
	}
	array := *c
	array.s = formula
	b, _, err := s.appendFormulaTag(b, &array, ref)
	return b, err
}

func (s *Sheet) appendFormula(b []byte, c *Cell) ([]byte, int, error) {
	return s.appendFormulaTag(b, c, "")
}

// appendFormulaTag writes a formula cell's content: an array formula's
// <f> names its range (arrayRef), a plain one's nothing.
func (s *Sheet) appendFormulaTag(b []byte, c *Cell, arrayRef string) ([]byte, int, error) {
	var err error
	switch c.cached {
	case kindString:
		b = append(b, ` t="str"`...)
	case kindBool:
		b = append(b, ` t="b"`...)
	case kindError:
		if !ErrorCode(c.cachedText()).valid() {
			return b, 0, fmt.Errorf("%w: %q", ErrErrorCode, c.cachedText())
		}
		b = append(b, ` t="e"`...)
	}
	if arrayRef != "" {
		b = append(b, `><f t="array" ref="`...)
		b = append(b, arrayRef...)
		b = append(b, `">`...)
	} else {
		b = append(b, "><f>"...)
	}
	if b, err = appendText(b, c.formula()); err != nil {
		return b, 0, err
	}
	b = append(b, "</f>"...)
	switch c.cached {
	case kindEmpty:
		return append(b, "</c>"...), 0, nil
	case kindString:
		if err = checkTextLen(c.cachedText()); err != nil {
			return b, 0, err
		}
		b = append(b, "<v>"...)
		if b, err = appendText(b, c.cachedText()); err != nil {
			return b, 0, err
		}
	case kindBool:
		b = append(b, "<v>"...)
		b = append(b, c.boolDigit())
	case kindError:
		b = append(b, "<v>"...)
		b = append(b, c.cachedText()...)
	case kindInt:
		b = strconv.AppendInt(append(b, "<v>"...), c.i, 10)
	case kindUint:
		b = strconv.AppendUint(append(b, "<v>"...), c.uint(), 10)
	case kindFloat, kindFloat32:
		if b, err = appendXMLNumber(append(b, "<v>"...), c.num, c.cached == kindFloat32); err != nil {
			return b, 0, err
		}
	case kindDecimal:
		if b, err = appendDecimal(append(b, "<v>"...), c.cachedText()); err != nil {
			return b, 0, err
		}
	case kindDateTime, kindDate, kindTimeOfDay, kindDuration:
		var v float64
		if v, err = s.w.timeValue(c.cached, c); err != nil {
			return b, 0, err
		}
		b, _ = appendXMLNumber(append(b, "<v>"...), v, false)
	default:
		return append(b, "</c>"...), 0, nil
	}
	return append(b, "</v></c>"...), 0, nil
}

// appendDecimal writes decimal text checked by numtext.Plain, without the
// zeros that end its fraction.
func appendDecimal(b []byte, s string) ([]byte, error) {
	keep, zero, ok := numtext.Plain(s)
	switch {
	case !ok:
		return b, fmt.Errorf("%w: %q", ErrDecimal, s)
	case zero:
		return append(b, '0'), nil
	}
	return append(b, s[:keep]...), nil
}

// decimalScale is the powers of ten appendFewDecimals tries.
var decimalScale = [...]float64{1, 1e1, 1e2, 1e3, 1e4}

// appendFewDecimals writes v (its absolute value a, not an integer) as
// strconv's shortest fixed form would when that has at most four
// decimals, the prices and ratios most sheets hold, in a fraction of the
// time; ok is false for any other v. For the smallest p with k =
// round(a*10^p) and k/10^p == a, k/10^p is v's shortest text: k < 2^53
// and 10^p are exact, so the quotient is correctly rounded, which is
// what parsing that text gives; and two decimals of at most 15
// significant digits are never one double, so no shorter text is.
func appendFewDecimals(b []byte, v, a float64) ([]byte, bool) {
	if a >= 1e10 {
		return b, false
	}
	for p := 1; p < len(decimalScale); p++ {
		k := math.Round(a * decimalScale[p])
		if k/decimalScale[p] != a {
			continue
		}
		if v < 0 {
			b = append(b, '-')
		}
		n := uint64(k)
		b = strconv.AppendUint(b, n/uint64(decimalScale[p]), 10)
		b = append(b, '.')
		frac := n % uint64(decimalScale[p])
		for q := p - 1; q >= 0; q-- { // the fraction's digits, leading zeros kept
			b = append(b, byte('0'+frac/uint64(decimalScale[q])%10))
		}
		return b, true // p is the smallest: the last digit is not 0
	}
	return b, false
}

// appendXMLNumber writes v as a cell's <v> stores it, as Excel does: the
// shortest form that reads back as the same double (or float32 if
// single), integers without a fraction or exponent, others in fixed
// notation from 1e-5 to 1e15 and in exponent notation elsewhere.
func appendXMLNumber(b []byte, v float64, single bool) ([]byte, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return b, ErrNotFinite
	}
	bits := 64
	if single {
		bits = 32
	}
	a := math.Abs(v)
	switch {
	case a < 1e15 && v == math.Trunc(v):
		if v == 0 && math.Signbit(v) {
			return append(b, '0'), nil
		}
		return strconv.AppendInt(b, int64(v), 10), nil
	case a >= 1e-5 && a < 1e15:
		if !single {
			if out, ok := appendFewDecimals(b, v, a); ok {
				return out, nil
			}
		}
		return strconv.AppendFloat(b, v, 'f', -1, bits), nil
	default:
		return strconv.AppendFloat(b, v, 'E', -1, bits), nil
	}
}
