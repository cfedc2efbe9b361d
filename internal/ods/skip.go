package ods

// Passing over tables and rows the caller does not want, without
// parsing their cells.

import (
	"bytes"
	"fmt"

	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

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
