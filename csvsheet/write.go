package csvsheet

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Format is a text form a sheet can be written in.
type Format uint8

const (
	// CSV writes one record per row (RFC 4180 quoting), from column A and
	// from the first row with data; empty rows and cells in between stay
	// as empty records and fields, so positions are kept. A record is
	// padded to the widest one before it.
	CSV Format = iota
	// TSV is CSV with tabs.
	TSV
	// JSONL writes one object per row:
	// {"sheet":"Data","row":1,"values":[1,"a",true,null,"2024-02-29T00:00:00"]}.
	JSONL
	// JSONLCells writes one object per non-empty cell:
	// {"sheet":"Data","row":1,"col":2,"type":"number","value":1.5}.
	JSONLCells
)

// ParseFormat reads a format name: csv, tsv, jsonl.
func ParseFormat(name string) (Format, bool) {
	switch name {
	case "csv":
		return CSV, true
	case "tsv":
		return TSV, true
	case "jsonl", "ndjson":
		return JSONL, true
	}
	return 0, false
}

// WriteStats counts what Write wrote.
type WriteStats struct {
	Rows  int // rows with at least one cell
	Cells int // non-empty cells
}

// WriteOptions configure WriteWith.
type WriteOptions struct {
	Format Format
	// EscapeFormulas guards CSV and TSV output against formula injection
	// (OWASP's "CSV injection"): a spreadsheet that opens the file runs
	// any field that begins with =, +, - or @ (and some that begin with a
	// tab or CR) as a formula, so text cells that begin so are written
	// with an apostrophe in front, which spreadsheets show as text. Use
	// it for files that people will open in a spreadsheet and whose text
	// came from someone else; leave it off for files that programs read,
	// since it changes the text. Numbers, dates and booleans are never
	// changed; JSON lines are not affected.
	EscapeFormulas bool
}

// Write writes the rows of one sheet to w in the given format. Numbers
// are written in their shortest round-trip form, dates and times in ISO
// 8601, booleans as TRUE/FALSE (true/false in JSON), errors as their
// code. It stops at the first error of the reader, of w, or of ctx.
func Write(ctx context.Context, w io.Writer, rows *xlsx.Rows, f Format) (WriteStats, error) {
	return WriteWith(ctx, w, rows, WriteOptions{Format: f})
}

// WriteWith is Write with options.
func WriteWith(ctx context.Context, w io.Writer, rows *xlsx.Rows, opts WriteOptions) (WriteStats, error) {
	f := opts.Format
	bw := bufio.NewWriterSize(w, 256<<10)
	sheet := appendJSONString(nil, rows.Sheet().Name)
	var st WriteStats
	var line []byte
	last := 0  // the last row written, for the gaps of CSV
	width := 0 // the most fields a CSV record had so far
	for rows.Next() {
		if st.Rows%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return st, err
			}
		}
		row := rows.Row()
		st.Rows++
		st.Cells += len(row.Cells)
		line = line[:0]
		switch f {
		case CSV, TSV:
			sep := byte(',')
			if f == TSV {
				sep = '\t'
			}
			if last > 0 {
				for ; last+1 < row.Num; last++ {
					line = append(line, '\n')
				}
			}
			last = row.Num
			col := 1
			for i := range row.Cells {
				c := &row.Cells[i]
				for ; col < c.Col(); col++ {
					line = append(line, sep)
				}
				line = appendField(line, c, sep, opts.EscapeFormulas)
			}
			// Pad to the widest record so far (usually the header), so
			// that readers expecting rectangles get them.
			for ; col < width; col++ {
				line = append(line, sep)
			}
			width = col
			line = append(line, '\n')
		case JSONL:
			line = append(line, `{"sheet":`...)
			line = append(line, sheet...)
			line = append(line, `,"row":`...)
			line = appendInt(line, row.Num)
			line = append(line, `,"values":[`...)
			col := 1
			for i := range row.Cells {
				c := &row.Cells[i]
				for ; col < c.Col(); col++ {
					line = append(line, "null,"...)
				}
				line = appendJSONValue(line, c)
				line = append(line, ',')
				col++
			}
			line[len(line)-1] = ']'
			line = append(line, "}\n"...)
		case JSONLCells:
			for i := range row.Cells {
				c := &row.Cells[i]
				if c.Type() == xlsx.TypeEmpty {
					continue
				}
				line = append(line, `{"sheet":`...)
				line = append(line, sheet...)
				line = append(line, `,"row":`...)
				line = appendInt(line, row.Num)
				line = append(line, `,"col":`...)
				line = appendInt(line, c.Col())
				line = append(line, `,"type":"`...)
				line = append(line, c.Type().String()...)
				line = append(line, `","value":`...)
				line = appendJSONValue(line, c)
				line = append(line, "}\n"...)
			}
		default:
			return st, fmt.Errorf("csvsheet: unknown format %d", f)
		}
		if _, err := bw.Write(line); err != nil {
			return st, err
		}
	}
	if err := rows.Err(); err != nil {
		return st, err
	}
	return st, bw.Flush()
}

func appendInt(dst []byte, n int) []byte {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return append(dst, b[i:]...)
}

// appendField writes a cell as a CSV field, quoted when it holds the
// separator, a quote or a line break, or starts with a space; with
// escape, text that a spreadsheet would run as a formula gets an
// apostrophe in front and is quoted.
func appendField(dst []byte, c *xlsx.Value, sep byte, escape bool) []byte {
	t := c.Type()
	if t != xlsx.TypeString && t != xlsx.TypeError {
		return c.AppendText(dst)
	}
	text := c.Bytes()
	if escape && t == xlsx.TypeString && len(text) > 0 && formulaStart(text[0]) {
		dst = append(dst, '"', '\'')
		return appendQuoted(dst, text)
	}
	quote := len(text) > 0 && (text[0] == ' ' || text[0] == '\t')
	if !quote {
		for _, b := range text {
			if b == sep || b == '"' || b == '\n' || b == '\r' {
				quote = true
				break
			}
		}
	}
	if !quote {
		return append(dst, text...)
	}
	return appendQuoted(append(dst, '"'), text)
}

// formulaStart reports whether a field beginning with b may be taken
// for a formula by a spreadsheet (OWASP's list).
func formulaStart(b byte) bool {
	return b == '=' || b == '+' || b == '-' || b == '@' || b == '\t' || b == '\r'
}

// appendQuoted writes text with its quotes doubled, and the closing quote.
func appendQuoted(dst, text []byte) []byte {
	for _, b := range text {
		if b == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, b)
	}
	return append(dst, '"')
}

// appendJSONValue writes a cell as a JSON value: a number, a string (text,
// error codes, ISO dates), true/false, or null for a formula with no
// cached value.
func appendJSONValue(dst []byte, c *xlsx.Value) []byte {
	switch c.Type() {
	case xlsx.TypeNumber:
		return xlsx.AppendNumberText(dst, c.Float())
	case xlsx.TypeBool:
		if c.Bool() {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case xlsx.TypeString, xlsx.TypeError:
		return appendJSONBytes(dst, c.Bytes())
	case xlsx.TypeDate:
		dst = append(dst, '"')
		dst = c.AppendText(dst)
		return append(dst, '"')
	}
	return append(dst, "null"...)
}

// appendJSONString appends s as a JSON string.
func appendJSONString(dst []byte, s string) []byte {
	return appendJSONBytes(dst, []byte(s))
}

const hexDigits = "0123456789abcdef"

func appendJSONBytes(dst, s []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b >= 0x20 && b != '"' && b != '\\' && b < utf8.RuneSelf {
			i++
			continue
		}
		if b >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		switch b {
		case '"', '\\':
			dst = append(dst, '\\', b)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
