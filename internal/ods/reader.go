// Package ods reads the tables of an OpenDocument spreadsheet's
// content.xml ([ODF 1.2] part 1, section 9): the tables, their rows and
// their cells, in document order, as a stream of events. Repeated rows
// and cells stay one event with a count; nothing is expanded. Turning
// cells into values is the caller's business.
package ods

import (
	"bytes"
	"errors"
	"fmt"
	"io"

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
