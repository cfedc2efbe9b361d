// Package csvscan reads comma-separated values (RFC 4180) as
// encoding/csv's Reader does with FieldsPerRecord -1 and ReuseRecord,
// record for record and error for error, for a one-byte delimiter, in
// less time: a record's text is gathered with whole-run copies between
// the delimiters and quotes that bytes.IndexByte finds, and its fields
// are cut from one string. The differential fuzz test holds it to
// encoding/csv.
//
// What it reads: records end at \n (\r\n too; a lone \r is text); empty
// lines are skipped; a field that begins with a quote is quoted, runs to
// the quote that a delimiter, a line end or the end follows, may span
// lines, and writes a quote as two; a quote elsewhere is an error
// (csv.ErrBareQuote, csv.ErrQuote) unless LazyQuotes, which takes it as
// text. Errors are *csv.ParseError.
package csvscan

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"io"
)

// Reader reads records from a text.
type Reader struct {
	// Comma is the delimiter, an ASCII byte other than a quote, \r and \n
	// (',' when zero).
	Comma byte
	// LazyQuotes takes a quote inside an unquoted field, or one in a
	// quoted field that no delimiter or line end follows, as text, and
	// ends a quoted field left open at the end of the text.
	LazyQuotes bool
	// LineQuotes (with LazyQuotes) bounds a quoted field to the line it
	// opens on: one whose closing quote is not on that line is unquoted
	// text, its opening quote a character like any other, ending at the
	// next delimiter. A field that starts with a quote (`"AGENT" K is a
	// "doner"-wrap`) then cannot swallow the lines after it; a real
	// multi-line field becomes a record per line, which a reader of fixed
	// width refuses, naming the line. Not encoding/csv's behaviour.
	LineQuotes bool
	// Quote is the quote character, an ASCII byte other than Comma, \r
	// and \n ('"' when zero); NoQuotes makes every character text (a
	// TSV written without quoting).
	Quote    byte
	NoQuotes bool

	r      *bufio.Reader
	line   int   // lines read
	offset int64 // bytes read
	start  int   // the current record's first line
	raw    []byte
	rec    []byte
	ends   []int
	fields []string
	pos    []position // where each field of the last record begins
}

type position struct{ line, col int }

// NewReader reads from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10)}
}

// InputOffset is the input's offset after the last record read.
func (r *Reader) InputOffset() int64 { return r.offset }

// FieldPos is the line and the 1-based byte column a field of the last
// record begins on.
func (r *Reader) FieldPos(field int) (line, column int) {
	if field < 0 || field >= len(r.pos) {
		return r.start, 1
	}
	return r.pos[field].line, r.pos[field].col
}

// readLine reads one line, its \r\n made \n; the text's last line may
// lack the \n (a \r before the end is dropped).
func (r *Reader) readLine() ([]byte, error) {
	line, err := r.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		r.raw = append(r.raw[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = r.r.ReadSlice('\n')
			r.raw = append(r.raw, line...)
		}
		line = r.raw
	}
	n := len(line)
	if n > 0 && err == io.EOF {
		err = nil
		if line[n-1] == '\r' {
			line = line[:n-1]
		}
	}
	r.line++
	r.offset += int64(n)
	if k := len(line); k >= 2 && line[k-2] == '\r' && line[k-1] == '\n' {
		line[k-2] = '\n'
		line = line[:k-1]
	}
	return line, err
}

// nlLen is 1 if line ends with \n.
func nlLen(line []byte) int {
	if len(line) > 0 && line[len(line)-1] == '\n' {
		return 1
	}
	return 0
}

// Read reads a record. The slice is reused by the next call; its
// strings are new each time. At the end: nil, io.EOF.
func (r *Reader) Read() ([]string, error) {
	comma := r.Comma
	if comma == 0 {
		comma = ','
	}
	var line []byte
	var errRead error
	for errRead == nil {
		line, errRead = r.readLine()
		if errRead == nil && len(line) == nlLen(line) {
			line = nil
			continue // an empty line
		}
		break
	}
	if errRead == io.EOF && len(line) == 0 {
		return nil, io.EOF
	}
	r.start = r.line
	q := r.Quote
	if q == 0 {
		q = '"'
	}
	if r.NoQuotes || bytes.IndexByte(line, q) < 0 {
		return r.plain(line, comma), errRead
	}
	rec, ends := r.rec[:0], r.ends[:0]
	r.pos = r.pos[:0]
	// Where an error is: the line a field's text is on (a line read at
	// the end, empty, does not count) and the byte in it.
	posLine, lineStart := r.line, len(line)
	col := func() int { return lineStart - len(line) + 1 }
	fail := func(err error) ([]string, error) {
		r.rec, r.ends = rec, ends
		return nil, &csv.ParseError{StartLine: r.start, Line: posLine, Column: col(), Err: err}
	}
	unquoted := false // the field's opening quote is text (LineQuotes)
parse:
	for {
		if !unquoted {
			r.pos = append(r.pos, position{posLine, col()})
		}
		if len(line) == 0 || line[0] != q || unquoted {
			unquoted = false
			// An unquoted field: to the delimiter, or the line's end.
			i := bytes.IndexByte(line, comma)
			field := line
			if i >= 0 {
				field = field[:i]
			} else {
				field = field[:len(field)-nlLen(field)]
			}
			if !r.LazyQuotes {
				if j := bytes.IndexByte(field, q); j >= 0 {
					line = line[j:]
					return fail(csv.ErrBareQuote)
				}
			}
			rec = append(rec, field...)
			ends = append(ends, len(rec))
			if i >= 0 {
				line = line[i+1:]
				continue parse
			}
			break parse
		}
		// A quoted field.
		opening, recStart := line, len(rec)
		line = line[1:]
		for {
			i := bytes.IndexByte(line, q)
			if i < 0 && r.LineQuotes && r.LazyQuotes {
				// Not closed on its line: the quote was text.
				line, rec, unquoted = opening, rec[:recStart], true
				continue parse
			}
			switch {
			case i >= 0:
				rec = append(rec, line[:i]...)
				line = line[i+1:]
				switch {
				case len(line) > 0 && line[0] == q: // "" is a quote
					rec = append(rec, q)
					line = line[1:]
				case len(line) > 0 && line[0] == comma: // the field ends
					line = line[1:]
					ends = append(ends, len(rec))
					continue parse
				case len(line) == nlLen(line): // the record ends
					ends = append(ends, len(rec))
					break parse
				case r.LazyQuotes:
					rec = append(rec, q)
				default:
					return fail(csv.ErrQuote)
				}
			case len(line) > 0:
				// The field goes on past the line's end.
				rec = append(rec, line...)
				if errRead != nil {
					break parse
				}
				line, errRead = r.readLine()
				lineStart = len(line)
				if len(line) > 0 {
					posLine++
				}
				if errRead == io.EOF {
					errRead = nil
				}
			default:
				// The text ended inside the quotes.
				if !r.LazyQuotes && errRead == nil {
					return fail(csv.ErrQuote)
				}
				ends = append(ends, len(rec))
				break parse
			}
		}
	}
	if errRead == io.EOF {
		errRead = nil
	}
	r.rec, r.ends = rec, ends
	return r.cut(rec, ends), errRead
}

// plain reads a record of one line without quotes, the common case: its
// fields are cut from one string of the line, delimiters and all.
func (r *Reader) plain(line []byte, comma byte) []string {
	line = line[:len(line)-nlLen(line)]
	s := string(line)
	fields, pos := r.fields[:0], r.pos[:0]
	col := 1
	for {
		pos = append(pos, position{r.start, col})
		i := bytes.IndexByte(line, comma)
		if i < 0 {
			break
		}
		fields = append(fields, s[:i])
		s, line, col = s[i+1:], line[i+1:], col+i+1
	}
	r.fields, r.pos = append(fields, s), pos
	return r.fields
}

// cut makes the fields of a record gathered in rec, each ending at its
// end in ends, strings of one string.
func (r *Reader) cut(rec []byte, ends []int) []string {
	s := string(rec)
	fields := r.fields[:0]
	prev := 0
	for _, end := range ends {
		fields = append(fields, s[prev:end])
		prev = end
	}
	r.fields = fields
	return fields
}
