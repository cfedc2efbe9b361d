// Package ods reads the tables of an OpenDocument spreadsheet's
// content.xml ([ODF 1.2] part 1, section 9): the tables, their rows and
// their cells, in document order, as a stream of events. Repeated rows
// and cells stay one event with a count; nothing is expanded. Turning
// cells into values is the caller's business.
package ods

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"

	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

// Kind is the kind of an event.
type Kind uint8

const (
	TableStart Kind = iota + 1 // a table (a sheet): Name, Style
	RowStart                   // a row: Repeat
	Cell                       // a cell of the current row
	RowEnd
	TableEnd
	HiddenStyle // an automatic table style that hides its tables: Style
)

// Event is one thing read from content.xml. Its byte slices stay valid
// until the next call to Next.
type Event struct {
	Kind   Kind
	Name   []byte // TableStart: the table's name
	Offset int64  // TableStart: the offset in the stream of the table's content, after its start tag
	Empty  bool   // TableStart: an empty element, <table:table .../>
	Style  []byte // TableStart, HiddenStyle: the style's name
	Repeat int    // RowStart, Cell: how many rows or columns it stands for, at least 1

	// Cells.
	ValueType []byte // office:value-type: float, percentage, currency, date, time, boolean, string; "error" (calcext) wins; empty for none
	Value     []byte // office:value, date-value, time-value, boolean-value or string-value, as the type says; nil if absent
	Text      []byte // the text paragraphs, joined by newlines
	Formula   bool
	Covered   bool // a covered-table-cell, hidden under a merged cell
	ColSpan   int  // merged: columns and rows the cell spans, 1 if not merged
	RowSpan   int
	Link      []byte // the target of the first link in the cell's text
}

// ErrMalformed: content.xml is not well-formed, or an element is too
// large to read.
var ErrMalformed = errors.New("ods: malformed content.xml")

// Reader reads events from a content.xml stream.
type Reader struct {
	sp       *xmlscan.Splitter
	sc       xmlscan.Scanner
	buf      []byte
	text     []byte
	tables   int // tables open: one, or more for a table in a cell
	inStyles bool
	style    []byte // the table style being read
	maxText  int
	done     bool
	pending  *Event
	failed   error
	piece    bool // reading pieces of one table's content
	// The last table's start tag is "<table:table ", as SkipTable
	// searches for.
	plainTable bool
	consumed   int64 // bytes of the stream in pieces before the current one
	queued     Event
	general    bool // no fast path for cells: the tests' reference
}

// NewReader reads content.xml from r. maxElement bounds the XML of one
// row (and of anything else read whole); maxText bounds a cell's text.
func NewReader(r io.Reader, maxDepth, maxElement, maxText int) *Reader {
	rd := &Reader{sp: xmlscan.NewSplitter(r, 256<<10, maxElement, "table-row", "table", "style"), maxText: maxText}
	rd.sc.MaxDepth = maxDepth
	return rd
}

// NewPieceReader reads the rows of one table from pieces of its content
// that ResetPiece hands it, each cut before a row: the parallel reading
// of one table, whose tags a splitter found.
func NewPieceReader(maxDepth, maxText int) *Reader {
	rd := &Reader{maxText: maxText, piece: true}
	rd.sc.MaxDepth = maxDepth
	return rd
}

// ResetPiece starts reading a piece of a table's content.
func (r *Reader) ResetPiece(piece []byte) {
	r.sc.Reset(piece)
	r.tables, r.done, r.failed, r.pending, r.inStyles = 1, true, nil, nil, false
}

// next scans the next token, reading the next piece of the stream when
// the current one is used up.
func (r *Reader) next() xmlscan.Kind {
	for {
		k := r.sc.Next()
		if k != xmlscan.EOF {
			return k
		}
		if !r.load() {
			return xmlscan.EOF
		}
	}
}

// load reads the next piece of the stream into the scanner; false at the
// end or on an error, which r.failed keeps.
func (r *Reader) load() bool {
	if r.sc.Err() != nil || r.done {
		return false
	}
	r.consumed += int64(len(r.buf))
	piece, err := r.sp.Next(r.buf)
	r.buf = piece
	if err == io.EOF {
		r.done = true
		return false
	}
	if err != nil {
		r.done = true
		r.sc.Reset(nil)
		r.failed = fmt.Errorf("%w: %w", ErrMalformed, err)
		return false
	}
	r.sc.Reset(piece)
	return true
}

// Next returns the next event, or io.EOF after the last.
func (r *Reader) Next() (Event, error) {
	if r.pending != nil {
		ev := *r.pending
		r.pending = nil
		return ev, nil
	}
	for {
		if r.tables == 1 && !r.general {
			if ev, n, ok := r.plainCell(r.sc.Rest()); ok {
				r.sc.Advance(n)
				return ev, nil
			}
		}
		k := r.next()
		switch k {
		case xmlscan.EOF:
			if r.failed != nil {
				return Event{}, r.failed
			}
			if err := r.sc.Err(); err != nil {
				return Event{}, fmt.Errorf("%w: %w", ErrMalformed, err)
			}
			if r.tables > 0 && !r.piece {
				// Cut short: what was read must not pass for the table.
				return Event{}, fmt.Errorf("%w: it ends inside a table", ErrMalformed)
			}
			return Event{}, io.EOF
		case xmlscan.Start, xmlscan.Empty:
			empty := k == xmlscan.Empty
			name := r.sc.Name()
			switch {
			case is(name, "table"):
				r.tables++
				if r.tables > 1 {
					continue // a table inside a cell's drawing: not a sheet
				}
				ev := Event{Kind: TableStart, Name: r.attr("table:name"), Style: r.attr("table:style-name")}
				at, _ := indexTableTag(r.sc.Token())
				r.plainTable = at == 0
				// Where the table's content starts in the stream.
				ev.Offset = r.consumed + int64(r.sc.Offset()+len(r.sc.Token()))
				ev.Empty = empty
				if empty {
					r.tables--
					r.queued = Event{Kind: TableEnd}
					r.pending = &r.queued
				}
				return ev, nil
			case r.tables == 1 && is(name, "table-row"):
				ev := Event{Kind: RowStart, Repeat: r.count("table:number-rows-repeated")}
				if empty {
					r.queued = Event{Kind: RowEnd}
					r.pending = &r.queued
				}
				return ev, nil
			case r.tables == 1 && (is(name, "table-cell") || is(name, "covered-table-cell")):
				return r.cell(is(name, "covered-table-cell"), empty)
			case is(name, "automatic-styles"):
				r.inStyles = !empty
			case r.inStyles && is(name, "style"):
				if string(r.attrRaw("style:family")) == "table" {
					r.style = append(r.style[:0], r.attr("style:name")...)
				} else {
					r.style = r.style[:0]
				}
			case r.inStyles && is(name, "table-properties"):
				if len(r.style) > 0 && string(r.attrRaw("table:display")) == "false" {
					return Event{Kind: HiddenStyle, Style: r.style}, nil
				}
			case is(name, "annotation"), is(name, "forms"):
				if !empty {
					r.skip()
				}
			}
		case xmlscan.End:
			name := r.sc.Name()
			switch {
			case is(name, "table"):
				r.tables--
				if r.tables == 0 {
					return Event{Kind: TableEnd}, nil
				}
			case r.tables == 1 && is(name, "table-row"):
				return Event{Kind: RowEnd}, nil
			case is(name, "automatic-styles"):
				r.inStyles = false
			}
		}
	}
}

// is compares an element's local name: the scanner drops prefixes.
func is(name []byte, want string) bool { return string(name) == want }

// attrRaw is the raw value of the current tag's attribute with the given
// full name; ODF's prefixes are fixed by convention, and a value type
// appears both as office:value-type and calcext:value-type.
func (r *Reader) attrRaw(full string) []byte {
	for a := r.sc.RawAttrs(); ; {
		name, value, rest, ok := xmlscan.NextAttr(a)
		if !ok {
			return nil
		}
		if string(name) == full {
			return value
		}
		a = rest
	}
}

// attr is attrRaw decoded, in the reader's scratch buffer (so valid only
// until the next attr call... callers copy what they keep).
func (r *Reader) attr(full string) []byte {
	v := r.attrRaw(full)
	if v == nil {
		return nil
	}
	if bytes.IndexByte(v, '&') < 0 {
		return v
	}
	out, _ := xmlscan.DecodeAttr(nil, v)
	return out
}

// count reads a repeat or span count: at least 1; absurd values are the
// caller's to bound.
func (r *Reader) count(full string) int { return atoiCount(r.attrRaw(full)) }

func atoiCount(v []byte) int {
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' || n > 1<<40 {
			return 1
		}
		n = n*10 + int(c-'0')
	}
	return max(n, 1)
}

// skip passes over the rest of the element whose start tag was just
// read, across pieces of the stream.
func (r *Reader) skip() {
	for depth := 1; depth > 0; {
		switch r.next() {
		case xmlscan.EOF:
			return
		case xmlscan.Start:
			depth++
		case xmlscan.End:
			depth--
		}
	}
}

// SkipTable passes over the rows of the table a TableStart event began,
// and its end tag, without reading them: the table's tags are searched
// for, not scanned. It assumes the tables' namespace prefix is "table",
// as every producer writes it.
func (r *Reader) SkipTable() error {
	if r.pending != nil && r.pending.Kind == TableEnd {
		r.pending = nil // an empty table
		return nil
	}
	if !r.plainTable {
		// Another prefix: the tags are read through.
		r.skip()
		r.tables--
		if r.failed != nil {
			return r.failed
		}
		if err := r.sc.Err(); err != nil {
			return fmt.Errorf("%w: %w", ErrMalformed, err)
		}
		return nil
	}
	depth := 1
	for {
		// Pieces are cut before start tags, so no tag straddles two.
		rest := r.sc.Rest()
		for i := 0; ; {
			at, isEnd := indexTableTag(rest[i:])
			if at < 0 {
				break
			}
			i += at
			close := tagClose(rest[i:])
			if close < 0 {
				return fmt.Errorf("%w: a <table:table> tag without its '>'", ErrMalformed)
			}
			selfClosing := rest[i+close-1] == '/'
			i += close + 1
			switch {
			case isEnd:
				depth--
			case !selfClosing:
				depth++ // a table in a cell's drawing
			}
			if depth == 0 {
				r.sc.AdvanceOut(i)
				r.tables--
				return nil
			}
		}
		r.sc.Advance(len(rest))
		if !r.load() {
			if r.failed != nil {
				return r.failed
			}
			if err := r.sc.Err(); err != nil {
				return fmt.Errorf("%w: %w", ErrMalformed, err)
			}
			return fmt.Errorf("%w: it ends inside a table", ErrMalformed)
		}
	}
}

// SkipRow passes over the cells of the row a RowStart event began, and
// its RowEnd.
func (r *Reader) SkipRow() {
	if r.pending != nil && r.pending.Kind == RowEnd {
		r.pending = nil
		return
	}
	// A row is whole in its piece of the stream (pieces are cut before
	// rows), so its end tag is found without reading its cells; a row
	// holding another table's rows, or written with other prefixes, is
	// read through.
	rest := r.sc.Rest()
	if i := bytes.Index(rest, rowEnd); i >= 0 && !bytes.Contains(rest[:i], rowStart) {
		r.sc.AdvanceOut(i + len(rowEnd))
		return
	}
	r.skip()
}

var (
	rowStart = []byte("<table:table-row")
	rowEnd   = []byte("</table:table-row>")
)

// tableTagName is the part of <table:table ...> and </table:table> that
// indexTableTag looks for, with the byte after it.
const tableTagName = "table:table"

// tableTagShift holds, for each pair of bytes that can end a window of
// len(tableTagName)+1 bytes, how far the window may move on (Wu and
// Manber's search with two-byte blocks). Every cell of a table repeats
// "<table:table-cell", which keeps one-byte skips short and a search by
// the first byte stopping; the pair "e" + a tag's end is rare.
var tableTagShift = func() (shift [1 << 16]uint8) {
	m := len(tableTagName) + 1
	for i := range shift {
		shift[i] = uint8(m - 1)
	}
	for j := 1; j < len(tableTagName); j++ {
		pair := uint16(tableTagName[j-1])<<8 | uint16(tableTagName[j])
		shift[pair] = min(shift[pair], uint8(m-1-j))
	}
	for _, c := range []byte(" \t\n\r>/") {
		shift[uint16('e')<<8|uint16(c)] = 0
	}
	return shift
}()

// indexTableTag finds the first <table:table start tag or </table:table
// end tag in b: the offset of its '<', or -1.
func indexTableTag(b []byte) (at int, isEnd bool) {
	n := len(tableTagName)
	for i := n; i < len(b); {
		shift := tableTagShift[uint16(b[i-1])<<8|uint16(b[i])]
		if shift > 0 {
			i += int(shift)
			continue
		}
		if string(b[i-n:i]) == tableTagName && i > n {
			switch {
			case b[i-n-1] == '<':
				return i - n - 1, false
			case b[i-n-1] == '/' && i > n+1 && b[i-n-2] == '<' && b[i] != '/':
				return i - n - 2, true
			}
		}
		i++
	}
	return -1, false
}

// tagClose is the offset of the '>' that ends the tag at the start of
// b, past any quoted attribute values; -1 if b ends first.
func tagClose(b []byte) int {
	var quote byte
	for i, c := range b {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return i
		}
	}
	return -1
}

// cell reads a table-cell or covered-table-cell with its text.
func (r *Reader) cell(covered, empty bool) (Event, error) {
	ev := Event{Kind: Cell, Covered: covered, Repeat: 1, ColSpan: 1, RowSpan: 1}
	var values cellValues
	for a := r.sc.RawAttrs(); ; {
		name, value, rest, ok := xmlscan.NextAttr(a)
		if !ok {
			break
		}
		a = rest
		values.set(&ev, name, value)
	}
	values.choose(&ev)
	if empty {
		return ev, nil
	}
	// Most cells hold one plain paragraph: <text:p>1.5</text:p> and the
	// cell's end tag, read straight from the bytes.
	if text, n, ok := plainParagraph(r.sc.Rest()); ok {
		if len(text) > r.maxText {
			return ev, fmt.Errorf("%w: a cell's text over %d bytes", ErrMalformed, r.maxText)
		}
		r.sc.AdvanceOut(n)
		ev.Text = text
		return ev, nil
	}
	r.text = r.text[:0]
	var link []byte
	paragraphs := 0
	// Depth is counted here, not by the scanner, which starts over with
	// each piece of the stream.
	para := 0 // the depth of the paragraph being read; 0 outside one
	for depth := 1; depth > 0; {
		k := r.next()
		switch k {
		case xmlscan.EOF:
			if r.failed != nil {
				return ev, r.failed
			}
			if err := r.sc.Err(); err != nil {
				return ev, fmt.Errorf("%w: %w", ErrMalformed, err)
			}
			return ev, fmt.Errorf("%w: it ends inside a cell", ErrMalformed)
		case xmlscan.End:
			if depth--; depth < para {
				para = 0
			}
		case xmlscan.Start, xmlscan.Empty:
			if k == xmlscan.Start {
				depth++
			}
			name := r.sc.Name()
			switch {
			case is(name, "p"), is(name, "h"):
				if paragraphs > 0 {
					r.text = append(r.text, '\n')
				}
				paragraphs++
				if k == xmlscan.Start && para == 0 {
					para = depth
				}
			case is(name, "s"):
				r.text = append(r.text, bytes.Repeat([]byte{' '}, min(r.count("text:c"), r.maxText+1))...)
			case is(name, "tab"):
				r.text = append(r.text, '\t')
			case is(name, "line-break"):
				r.text = append(r.text, '\n')
			case is(name, "a"):
				if link == nil {
					link = append([]byte{}, r.attr("xlink:href")...)
				}
			case is(name, "annotation"), is(name, "frame"), is(name, "custom-shape"), is(name, "note"), is(name, "ruby-text"):
				if k == xmlscan.Start {
					r.skip()
					depth--
				}
			}
		case xmlscan.Text:
			if para == 0 {
				continue // white space between elements
			}
			var err error
			start := len(r.text)
			if r.text, err = xmlscan.AppendDecoded(r.text, r.sc.Raw()); err != nil {
				return ev, fmt.Errorf("%w: %w", ErrMalformed, err)
			}
			r.text = append(r.text[:start], collapse(r.text[start:])...)
		case xmlscan.CData:
			if para > 0 {
				r.text = append(r.text, r.sc.Raw()...)
			}
		}
		if len(r.text) > r.maxText {
			return ev, fmt.Errorf("%w: a cell's text over %d bytes", ErrMalformed, r.maxText)
		}
	}
	if r.failed != nil {
		return ev, r.failed
	}
	if err := r.sc.Err(); err != nil {
		return ev, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	ev.Text, ev.Link = r.text, link
	return ev, nil
}

// cellValues gathers a cell's value attributes, of which its type says
// which one counts: office:value, date-value, time-value, boolean-value
// and string-value.
type cellValues [5][]byte

// set takes one attribute of a cell's start tag.
func (v *cellValues) set(ev *Event, name, value []byte) {
	switch string(name) {
	case "office:value-type":
		if string(ev.ValueType) != "error" {
			ev.ValueType = value
		}
	case "calcext:value-type":
		if string(value) == "error" {
			ev.ValueType = value
		}
	case "office:value":
		v[0] = value
	case "office:date-value":
		v[1] = value
	case "office:time-value":
		v[2] = value
	case "office:boolean-value":
		v[3] = value
	case "office:string-value":
		v[4] = value
	case "table:formula":
		ev.Formula = true
	case "table:number-columns-repeated":
		ev.Repeat = atoiCount(value)
	case "table:number-columns-spanned":
		ev.ColSpan = atoiCount(value)
	case "table:number-rows-spanned":
		ev.RowSpan = atoiCount(value)
	}
}

// choose sets the cell's Value by its type.
func (v *cellValues) choose(ev *Event) {
	switch string(ev.ValueType) {
	case "float", "percentage", "currency":
		ev.Value = v[0]
	case "date":
		ev.Value = v[1]
	case "time":
		ev.Value = v[2]
	case "boolean":
		ev.Value = v[3]
	case "string":
		if s := v[4]; s != nil && bytes.IndexByte(s, '&') >= 0 {
			ev.Value, _ = xmlscan.DecodeAttr(nil, s)
		} else {
			ev.Value = s
		}
	}
}

var cellTag = []byte("<table:table-cell")

// plainCell reads, at the start of b, a whole table-cell written the
// common way: attributes in double quotes, and either no content or one
// plain paragraph (see plainParagraph). It returns the cell and the bytes
// it took, or ok=false for the general path, having changed nothing.
func (r *Reader) plainCell(b []byte) (ev Event, n int, ok bool) {
	if !bytes.HasPrefix(b, cellTag) {
		return ev, 0, false
	}
	ev = Event{Kind: Cell, Repeat: 1, ColSpan: 1, RowSpan: 1}
	var values cellValues
	j := len(cellTag)
	for {
		if j >= len(b) {
			return ev, 0, false
		}
		switch b[j] {
		case ' ':
			j++
			continue
		case '/':
			if j+1 < len(b) && b[j+1] == '>' {
				values.choose(&ev)
				return ev, j + 2, true
			}
			return ev, 0, false
		case '>':
			text, m, ok := plainParagraph(b[j+1:])
			if !ok || len(text) > r.maxText {
				return ev, 0, false
			}
			values.choose(&ev)
			ev.Text = text
			return ev, j + 1 + m, true
		}
		if j == len(cellTag) {
			return ev, 0, false // a longer name, or other white space
		}
		// name="value": the name ends where the value's quote begins.
		quote := indexShort(b[j:], '"')
		if quote <= 1 || b[j+quote-1] != '=' {
			return ev, 0, false
		}
		name := b[j : j+quote-1]
		start := j + quote + 1
		end := indexShort(b[start:], '"')
		if end < 0 {
			return ev, 0, false
		}
		value := b[start : start+end]
		if !plainName(name) || bytes.IndexByte(value, '<') >= 0 {
			return ev, 0, false // malformed: the general path says so
		}
		values.set(&ev, name, value)
		j = start + end + 1
	}
}

// nameBytes holds the bytes an attribute's name is made of (letters,
// digits, ':', '-', '_', '.' and anything beyond ASCII).
var nameBytes = func() (ok [256]bool) {
	for c := range ok {
		ok[c] = c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == ':' || c == '-' || c == '_' || c == '.'
	}
	return ok
}()

// plainName reports whether name is an attribute's name the general
// scanner would read the same way.
func plainName(name []byte) bool {
	for _, c := range name {
		if !nameBytes[c] {
			return false
		}
	}
	return true
}

// indexShort is bytes.IndexByte for the short distances inside a tag,
// eight bytes at a time without a call: a byte equal to c is a zero byte
// of the word XOR c, and the lowest zero byte sets the lowest bit of
// (x - 0x01...) &^ x & 0x80... (higher ones may be false).
func indexShort(b []byte, c byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	pattern := uint64(c) * ones
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:]) ^ pattern
		if found := (x - ones) &^ x & highs; found != 0 {
			return i + bits.TrailingZeros64(found)/8
		}
	}
	for ; i < len(b); i++ {
		if b[i] == c {
			return i
		}
	}
	return -1
}

var (
	paragraphStart = []byte("<text:p>")
	paragraphEnd   = []byte("</text:p></table:table-cell>")
)

// plainParagraph reads <text:p>text</text:p></table:table-cell> at the
// start of b, where the text has nothing to decode and no white space to
// collapse: the text and the bytes consumed.
func plainParagraph(b []byte) ([]byte, int, bool) {
	if !bytes.HasPrefix(b, paragraphStart) {
		return nil, 0, false
	}
	b = b[len(paragraphStart):]
	i := 0
	for ; i < len(b) && b[i] != '<'; i++ {
		switch b[i] {
		case '&', '\t', '\n', '\r':
			return nil, 0, false
		case ' ':
			if i == 0 || b[i-1] == ' ' {
				return nil, 0, false
			}
		}
	}
	if i > 0 && b[i-1] == ' ' || !bytes.HasPrefix(b[i:], paragraphEnd) {
		return nil, 0, false
	}
	return b[:i], len(paragraphStart) + i + len(paragraphEnd), true
}

// collapse replaces each run of XML white space with one space, as ODF
// reads paragraph text (its spaces beyond the first are text:s
// elements).
func collapse(b []byte) []byte {
	out := b[:0]
	space := false
	for _, c := range b {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			if !space {
				out = append(out, ' ')
			}
			space = true
			continue
		}
		out = append(out, c)
		space = false
	}
	return out
}
