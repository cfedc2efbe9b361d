package xlsx

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sheetstream/sheetstream/internal/deflate"
	"github.com/sheetstream/sheetstream/internal/numtext"
)

// SheetState is a sheet's visibility.
type SheetState uint8

// Sheet visibility.
const (
	Visible SheetState = iota
	Hidden
	// VeryHidden sheets can only be shown again by a macro.
	VeryHidden
)

// SheetOptions set a sheet's layout. Everything here goes before the
// rows in the file, so it is fixed when the sheet is added.
type SheetOptions struct {
	State    SheetState
	TabColor Color
	// FreezeRows and FreezeCols keep that many top rows and left columns
	// in view while scrolling.
	FreezeRows, FreezeCols int
	// Dimension declares the range the sheet's cells will cover. The
	// <dimension> element comes before the rows, and a streamed sheet
	// cannot go back to fix it: a sheet that ends within its first chunk
	// (about half a megabyte of XML) gets its exact range anyway; a longer
	// one gets this range if set (and writing outside it is an error), or
	// no <dimension> at all, which Excel and other readers accept.
	Dimension Range
}

// ColumnOptions set the width, style and visibility of columns.
type ColumnOptions struct {
	// Width in characters of the default font, as Excel's column-width
	// dialog shows it (0 leaves the default, about 8.43).
	Width  float64
	Style  StyleID
	Hidden bool
}

// RowOptions set a row's height, style and visibility.
type RowOptions struct {
	// Height in points (0 leaves the default, 15).
	Height float64
	Hidden bool
	// Style applies to the row's empty cells.
	Style  StyleID
	styled bool
}

// WithStyle returns o with a row style.
func (o RowOptions) WithStyle(id StyleID) RowOptions {
	o.Style = id
	o.styled = true
	return o
}

type column struct {
	first, last int
	opts        ColumnOptions
}

type hyperlink struct {
	row, col int
	target   string
	display  string
	internal bool
}

// maxHyperlinks is Excel's limit per worksheet.
const maxHyperlinks = 65530

// Sheet streams the rows of one worksheet. Get one from Writer.AddSheet
// or Writer.AddConcurrentSheet. A Sheet is for one goroutine at a time.
type Sheet struct {
	w      *Writer
	name   string
	index  int // 0-based position in the workbook
	opts   SheetOptions
	active bool

	sink    *sheetSink
	stream  *deflate.Stream
	buf     []byte
	scratch []byte
	// styles is how many styles this sheet knows exist; a higher id is
	// checked against the workbook's styles again (AddStyle may have run).
	styles int
	// sstRefs counts this sheet's shared-string cells.
	sstRefs uint64
	// sstSeen caches shared string indexes for a concurrent sheet.
	sstSeen map[string]uint32
	// plainDates caches the date styles of unstyled date cells for a
	// concurrent sheet, by cell kind.
	plainDates [4]StyleID

	headWritten bool
	finished    bool
	row         int // last row written, 0 before the first
	cols        []column
	merges      []Range
	links       []hyperlink
	autoFilter  Range

	// The extent of the cells written so far, 1-based; minRow == 0 means
	// none yet.
	minRow, maxRow, minCol, maxCol int
}

// Name is the sheet's name.
func (s *Sheet) Name() string { return s.name }

// Index is the sheet's 0-based position in the workbook.
func (s *Sheet) Index() int { return s.index }

// LastRow is the number of the last row written, 0 if none.
func (s *Sheet) LastRow() int { return s.row }

func (s *Sheet) fail(row, col int, err error) error {
	return s.w.fail(&CellError{Sheet: s.name, Row: row, Col: col, Err: err})
}

func (s *Sheet) check() error {
	if err := s.w.loadErr(); err != nil {
		return err
	}
	if s.finished {
		return &CellError{Sheet: s.name, Err: ErrSheetDone}
	}
	return nil
}

// SetColumn sets the width, style or visibility of the 1-based columns
// first..last. Columns come before the rows in the file, so this must be
// called before the first row.
func (s *Sheet) SetColumn(first, last int, opts ColumnOptions) error {
	if err := s.check(); err != nil {
		return err
	}
	if s.row > 0 {
		return s.fail(0, first, ErrHeadWritten)
	}
	if first < 1 || last > MaxColumns || first > last {
		return s.fail(0, 0, fmt.Errorf("%w: columns %d..%d", ErrRange, first, last))
	}
	if opts.Width < 0 || opts.Width > 255 || math.IsNaN(opts.Width) {
		return s.fail(0, first, fmt.Errorf("%w: width %g outside 0..255", ErrWidth, opts.Width))
	}
	if !s.knownStyle(opts.Style) {
		return s.fail(0, first, fmt.Errorf("%w: %d", ErrStyle, opts.Style))
	}
	for _, c := range s.cols {
		if first <= c.last && c.first <= last {
			return s.fail(0, first, fmt.Errorf("%w: columns %d..%d overlap columns %d..%d set before",
				ErrRange, first, last, c.first, c.last))
		}
	}
	s.cols = append(s.cols, column{first, last, opts})
	return nil
}

// MergeCells merges a range into one cell, shown with the top-left cell's
// value. Write the other cells of the range empty or with a style only.
func (s *Sheet) MergeCells(r Range) error {
	if err := s.check(); err != nil {
		return err
	}
	if !r.valid() || r.FirstRow == r.LastRow && r.FirstCol == r.LastCol {
		return s.fail(0, 0, fmt.Errorf("%w: merge %v needs at least two cells", ErrRange, r))
	}
	for _, m := range s.merges {
		if m.overlaps(r) {
			return s.fail(0, 0, fmt.Errorf("%w: merge %v overlaps %v", ErrRange, r, m))
		}
	}
	s.merges = append(s.merges, r)
	return nil
}

// SetAutoFilter puts filter buttons on the first row of r; it can be
// called any time before the sheet ends.
func (s *Sheet) SetAutoFilter(r Range) error {
	if err := s.check(); err != nil {
		return err
	}
	if !r.valid() {
		return s.fail(0, 0, fmt.Errorf("%w: autofilter %v", ErrRange, r))
	}
	s.autoFilter = r
	return nil
}

// SkipRows leaves n empty rows before the next row written.
func (s *Sheet) SkipRows(n int) error {
	if err := s.check(); err != nil {
		return err
	}
	if n < 0 || s.row+n >= MaxRows {
		return s.fail(s.row+n+1, 0, ErrTooManyRows)
	}
	s.row += n
	return nil
}

// WriteRow writes cells as the next row, the first cell in column A. Empty
// cells (the zero Cell) take their column but write nothing.
func (s *Sheet) WriteRow(cells []Cell) error {
	return s.writeRow(cells, nil)
}

// WriteRowWith writes a row with a height, style or visibility.
func (s *Sheet) WriteRowWith(cells []Cell, opts RowOptions) error {
	return s.writeRow(cells, &opts)
}

func (s *Sheet) writeRow(cells []Cell, opts *RowOptions) error {
	if err := s.check(); err != nil {
		return err
	}
	row := s.row + 1
	if row > MaxRows {
		return s.fail(row, 0, ErrTooManyRows)
	}
	if len(cells) > MaxColumns {
		return s.fail(row, MaxColumns+1, ErrTooManyColumns)
	}
	start := len(s.buf)
	b, first, last, refs, err := s.encodeRow(s.buf, row, cells, opts)
	if err != nil {
		s.buf = s.buf[:start]
		return s.w.fail(err)
	}
	if d := s.opts.Dimension; d != (Range{}) && first > 0 &&
		(row < d.FirstRow || row > d.LastRow || first < d.FirstCol || last > d.LastCol) {
		s.buf = s.buf[:start]
		return s.fail(row, 0, fmt.Errorf("%w: row is outside the declared dimension %v", ErrRange, d))
	}
	s.buf = b
	s.row = row
	s.sstRefs += uint64(refs)
	if first == 0 && opts != nil {
		// Excel counts a row that only carries formatting as used, in A.
		first, last = 1, 1
	}
	if first > 0 {
		if s.minRow == 0 {
			s.minRow, s.minCol, s.maxCol = row, first, last
		}
		s.maxRow = row
		s.minCol = min(s.minCol, first)
		s.maxCol = max(s.maxCol, last)
	}
	if len(s.buf) >= s.w.pool.ChunkSize() {
		return s.flush()
	}
	return nil
}

// flush hands the buffered XML to the compressor, preceded the first time
// by the sheet's head.
func (s *Sheet) flush() error {
	var err error
	if !s.headWritten {
		chunk := s.w.pool.Buffer()
		chunk = s.appendHead(chunk, false)
		chunk = append(chunk, s.buf...)
		s.buf = s.buf[:0]
		var spare []byte
		if spare, err = s.stream.Submit(chunk); err == nil {
			s.w.pool.Release(spare)
		}
	} else {
		s.buf, err = s.stream.Submit(s.buf)
	}
	if err != nil {
		return s.w.fail(fmt.Errorf("xlsx: sheet %q: %w", s.name, err))
	}
	return nil
}

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
		b = strconv.AppendUint(b, uint64(c.i), 10)
	case kindFloat, kindFloat32:
		b = append(b, "><v>"...)
		if b, err = appendNumber(b, c.num, c.kind == kindFloat32); err != nil {
			return b, 0, err
		}
	case kindDecimal:
		if b, err = appendDecimal(append(b, "><v>"...), c.s); err != nil {
			return b, 0, err
		}
	case kindBool:
		b = append(b, ` t="b"><v>`...)
		b = append(b, byte('0'+c.i))
	case kindDateTime, kindDate, kindTimeOfDay, kindDuration:
		var v float64
		if v, err = s.w.timeValue(c.kind, c); err != nil {
			return b, 0, err
		}
		b = append(b, "><v>"...)
		b, _ = appendNumber(b, v, false)
	case kindError:
		if !ErrorCode(c.s).valid() {
			return b, 0, fmt.Errorf("%w: %q", ErrErrorCode, c.s)
		}
		b = append(b, ` t="e"><v>`...)
		b = append(b, c.s...)
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

func (s *Sheet) appendFormula(b []byte, c *Cell) ([]byte, int, error) {
	var err error
	switch c.cached {
	case kindString:
		b = append(b, ` t="str"`...)
	case kindBool:
		b = append(b, ` t="b"`...)
	case kindError:
		if !ErrorCode(c.s2).valid() {
			return b, 0, fmt.Errorf("%w: %q", ErrErrorCode, c.s2)
		}
		b = append(b, ` t="e"`...)
	}
	b = append(b, "><f>"...)
	if b, err = appendText(b, c.s); err != nil {
		return b, 0, err
	}
	b = append(b, "</f>"...)
	switch c.cached {
	case kindEmpty:
		return append(b, "</c>"...), 0, nil
	case kindString:
		if err = checkTextLen(c.s2); err != nil {
			return b, 0, err
		}
		b = append(b, "<v>"...)
		if b, err = appendText(b, c.s2); err != nil {
			return b, 0, err
		}
	case kindBool:
		b = append(b, "<v>"...)
		b = append(b, byte('0'+c.i))
	case kindError:
		b = append(b, "<v>"...)
		b = append(b, c.s2...)
	case kindInt:
		b = strconv.AppendInt(append(b, "<v>"...), c.i, 10)
	case kindUint:
		b = strconv.AppendUint(append(b, "<v>"...), uint64(c.i), 10)
	case kindFloat, kindFloat32:
		if b, err = appendNumber(append(b, "<v>"...), c.num, c.cached == kindFloat32); err != nil {
			return b, 0, err
		}
	case kindDecimal:
		if b, err = appendDecimal(append(b, "<v>"...), c.s2); err != nil {
			return b, 0, err
		}
	case kindDateTime, kindDate, kindTimeOfDay, kindDuration:
		var v float64
		if v, err = s.w.timeValue(c.cached, c); err != nil {
			return b, 0, err
		}
		b, _ = appendNumber(append(b, "<v>"...), v, false)
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

// appendNumber writes v in the shortest form that reads back as the same
// double: integers without a fraction or exponent, others in fixed
// notation where that is short and in exponent notation elsewhere.
func appendNumber(b []byte, v float64, single bool) ([]byte, error) {
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
		return strconv.AppendFloat(b, v, 'f', -1, bits), nil
	default:
		return strconv.AppendFloat(b, v, 'E', -1, bits), nil
	}
}

func (s *Sheet) addLink(row, col int, c *Cell) error {
	if len(s.links) >= maxHyperlinks {
		return &CellError{s.name, row, col, fmt.Errorf("%w: more than %d hyperlinks in a sheet", ErrRange, maxHyperlinks)}
	}
	if c.s == "" || len(c.s) > 2079 || !validAttrText(c.s) {
		return &CellError{s.name, row, col, fmt.Errorf("%w: hyperlink target must be 1..2079 characters of text", ErrRange)}
	}
	target := c.s
	if c.link == linkExternal {
		target = escapeURL(target)
	}
	display := ""
	if c.s2 != c.s {
		display = strings.Clone(c.s2)
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

// columnWidth converts a width in characters to what Excel stores: the
// pixel width the column gets with Calibri 11 (7 pixels a digit plus 5 of
// padding), back in characters, truncated to 1/256 (ECMA-376 18.3.1.13).
func columnWidth(chars float64) float64 {
	var px float64
	if chars < 1 {
		px = math.Floor(chars*12 + 0.5)
	} else {
		px = math.Floor(chars*7+0.5) + 5
	}
	return math.Floor(px/7*256) / 256
}

const (
	xmlHeader   = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\r\n"
	nsMain      = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
	nsRelations = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
)

func (s *Sheet) appendHead(b []byte, final bool) []byte {
	b = append(b, xmlHeader...)
	b = append(b, `<worksheet xmlns="`+nsMain+`" xmlns:r="`+nsRelations+`">`...)
	if s.opts.TabColor != "" {
		argb, _ := s.opts.TabColor.argb() // checked in AddSheet
		b = append(b, `<sheetPr><tabColor rgb="`...)
		b = append(b, argb...)
		b = append(b, `"/></sheetPr>`...)
	}
	switch {
	case final && s.minRow == 0:
		b = append(b, `<dimension ref="A1"/>`...)
	case final:
		b = append(b, `<dimension ref="`...)
		b = Range{s.minRow, s.minCol, s.maxRow, s.maxCol}.append(b, false)
		b = append(b, `"/>`...)
	case s.opts.Dimension != Range{}:
		b = append(b, `<dimension ref="`...)
		b = s.opts.Dimension.append(b, false)
		b = append(b, `"/>`...)
	}
	b = append(b, `<sheetViews><sheetView`...)
	if s.active {
		b = append(b, ` tabSelected="1"`...)
	}
	b = append(b, ` workbookViewId="0"`...)
	b = appendPane(b, s.opts.FreezeRows, s.opts.FreezeCols)
	b = append(b, `</sheetViews><sheetFormatPr defaultRowHeight="15"/>`...)
	if len(s.cols) > 0 {
		cols := slices.Clone(s.cols)
		slices.SortFunc(cols, func(a, b column) int { return a.first - b.first })
		b = append(b, "<cols>"...)
		for _, c := range cols {
			b = appendIntAttr(append(b, "<col"...), "min", c.first)
			b = appendIntAttr(b, "max", c.last)
			width := 8.43
			if c.opts.Width > 0 {
				width = c.opts.Width
			}
			if c.opts.Hidden && c.opts.Width == 0 {
				width = 0
			}
			b = appendFloatAttr(b, "width", columnWidth(width))
			if c.opts.Style != 0 {
				b = appendIntAttr(b, "style", int(c.opts.Style))
			}
			if c.opts.Hidden {
				b = append(b, ` hidden="1"`...)
			}
			if c.opts.Width > 0 || c.opts.Hidden {
				b = append(b, ` customWidth="1"`...)
			}
			b = append(b, "/>"...)
		}
		b = append(b, "</cols>"...)
	}
	s.headWritten = true
	return append(b, "<sheetData>"...)
}

// appendPane writes the rest of <sheetView> with frozen panes as Excel
// writes them.
func appendPane(b []byte, rows, cols int) []byte {
	if rows == 0 && cols == 0 {
		return append(b, "/>"...)
	}
	b = append(b, "><pane"...)
	if cols > 0 {
		b = appendIntAttr(b, "xSplit", cols)
	}
	if rows > 0 {
		b = appendIntAttr(b, "ySplit", rows)
	}
	b = append(b, ` topLeftCell="`...)
	b = appendCellRef(b, rows+1, cols)
	b = append(b, '"')
	switch {
	case rows > 0 && cols > 0:
		b = append(b, ` activePane="bottomRight" state="frozen"/>`...)
		b = append(b, `<selection pane="topRight" activeCell="`...)
		b = appendCellRef(b, 1, cols)
		b = append(b, `" sqref="`...)
		b = appendCellRef(b, 1, cols)
		b = append(b, `"/><selection pane="bottomLeft" activeCell="`...)
		b = appendCellRef(b, rows+1, 0)
		b = append(b, `" sqref="`...)
		b = appendCellRef(b, rows+1, 0)
		b = append(b, `"/><selection pane="bottomRight"/>`...)
	case rows > 0:
		b = append(b, ` activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/>`...)
	default:
		b = append(b, ` activePane="topRight" state="frozen"/><selection pane="topRight"/>`...)
	}
	return append(b, "</sheetView>"...)
}

func (s *Sheet) appendTail(b []byte) []byte {
	if s.minRow == 0 && s.row == 0 {
		b = b[:len(b)-len("<sheetData>")]
		b = append(b, "<sheetData/>"...)
	} else {
		b = append(b, "</sheetData>"...)
	}
	if s.autoFilter != (Range{}) {
		b = append(b, `<autoFilter ref="`...)
		b = s.autoFilter.append(b, false)
		b = append(b, `"/>`...)
	}
	if len(s.merges) > 0 {
		b = appendIntAttr(append(b, "<mergeCells"...), "count", len(s.merges))
		b = append(b, '>')
		for _, m := range s.merges {
			b = append(b, `<mergeCell ref="`...)
			b = m.append(b, false)
			b = append(b, `"/>`...)
		}
		b = append(b, "</mergeCells>"...)
	}
	if len(s.links) > 0 {
		b = append(b, "<hyperlinks>"...)
		rid := 0
		for _, l := range s.links {
			b = append(b, `<hyperlink ref="`...)
			b = appendCellRef(b, l.row, l.col-1)
			b = append(b, '"')
			if l.internal {
				b = append(b, ` location="`...)
				b = appendAttr(b, l.target)
				b = append(b, '"')
			} else {
				rid++
				b = append(b, ` r:id="rId`...)
				b = strconv.AppendInt(b, int64(rid), 10)
				b = append(b, '"')
			}
			if l.display != "" {
				b = append(b, ` display="`...)
				b = appendAttr(b, l.display)
				b = append(b, '"')
			}
			b = append(b, "/>"...)
		}
		b = append(b, "</hyperlinks>"...)
	}
	return append(b, `<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`...)
}

// rels returns the sheet's relationships part, or nil if it has none.
func (s *Sheet) rels() []byte {
	var b []byte
	rid := 0
	for _, l := range s.links {
		if l.internal {
			continue
		}
		if b == nil {
			b = append(b, xmlHeader+`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`...)
		}
		rid++
		b = append(b, `<Relationship Id="rId`...)
		b = strconv.AppendInt(b, int64(rid), 10)
		b = append(b, `" Type="`+nsRelations+`/hyperlink" Target="`...)
		b = appendAttr(b, l.target)
		b = append(b, `" TargetMode="External"/>`...)
	}
	if b == nil {
		return nil
	}
	return append(b, "</Relationships>"...)
}

// Close finishes the sheet: it writes what is left of it and lets the
// next sheet have its turn in the file. Closing it again does nothing.
// Writer.Close closes sheets still open; a concurrent sheet should be
// closed by the goroutine that writes it.
func (s *Sheet) Close() error {
	if s.finished {
		return s.w.loadErr()
	}
	s.finished = true
	if err := s.w.loadErr(); err != nil {
		s.stream.Abort()
		s.w.pool.Release(s.buf)
		s.buf = nil
		return err
	}
	var b []byte
	if !s.headWritten {
		b = s.appendHead(s.w.pool.Buffer(), true)
		b = append(b, s.buf...)
		s.w.pool.Release(s.buf)
	} else {
		b = s.buf
	}
	s.buf = nil
	b = s.appendTail(b)
	crc, size, err := s.stream.Close(b)
	if err != nil {
		return s.w.fail(fmt.Errorf("xlsx: sheet %q: %w", s.name, err))
	}
	relsName := fmt.Sprintf("xl/worksheets/_rels/sheet%d.xml.rels", s.index+1)
	return s.w.finishSink(s.sink, crc, size, relsName, s.rels())
}

// dateStyle is styleSheet.dateStyle, under the shared lock for
// concurrent sheets, which remember the answers for unstyled cells.
func (s *Sheet) dateStyle(id StyleID, k cellKind) StyleID {
	w := s.w
	if !w.concurrent {
		return w.styles.dateStyle(id, k)
	}
	slot := int(k - kindDateTime)
	if id == 0 && s.plainDates[slot] != 0 {
		return s.plainDates[slot]
	}
	w.shared.Lock()
	v := w.styles.dateStyle(id, k)
	w.shared.Unlock()
	if id == 0 {
		s.plainDates[slot] = v
	}
	return v
}

// knownStyle reports whether id is a registered style.
func (s *Sheet) knownStyle(id StyleID) bool {
	if int(id) < s.styles {
		return true
	}
	s.w.lockShared()
	s.styles = len(s.w.styles.xfs)
	s.w.unlockShared()
	return int(id) < s.styles
}
