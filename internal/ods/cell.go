package ods

// Cells: the general path through the XML scanner, and the fast path for
// the plain cells most files are made of.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

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
