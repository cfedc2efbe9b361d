package csvsheet

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
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
	// {"sheet":"Data","row":1,"values":[1,"a",true,null,"2024-02-29"]}.
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
	// Head and Tail, when above zero, write the first row with data (the
	// header) and only the first or the last so many rows under it, in
	// every format: with Records the header names the objects, elsewhere
	// it is written as the first row.
	Head, Tail int
	// Records, with JSONL, takes the first row as the header and writes
	// each row after it as one object keyed by the header's names:
	// {"name":"Lisbon","orders":6588}. A column without a name is keyed
	// by its letter; a name taken twice gets _2, _3...
	Records bool
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
	rw := &rowWriter{opts: opts, bw: bufio.NewWriterSize(w, 256<<10), sheet: appendJSONString(nil, rows.Sheet().Name)}
	if opts.Format > JSONLCells {
		return rw.st, fmt.Errorf("unknown format %d", opts.Format)
	}
	var tail *tailRing
	if opts.Tail > 0 {
		tail = &tailRing{max: opts.Tail}
	}
	n := 0
	for rows.Next() {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return rw.st, err
			}
		}
		row := rows.Row()
		if opts.Records && rw.names == nil {
			rw.header(row)
			continue
		}
		if !opts.Records && (opts.Head > 0 || tail != nil) && rw.st.Rows == 0 {
			// The header is written, and not counted among the rows.
			if err := rw.write(row); err != nil {
				return rw.st, err
			}
			if tail != nil {
				rw.last = 0 // the rows between are not written: no empty lines for them
			}
			continue
		}
		if opts.Head > 0 && n >= opts.Head {
			break
		}
		n++
		if tail != nil {
			if err := tail.add(row); err != nil {
				return rw.st, err
			}
			continue
		}
		if err := rw.write(row); err != nil {
			return rw.st, err
		}
	}
	if err := rows.Err(); err != nil {
		return rw.st, err
	}
	if tail != nil {
		if err := tail.each(rw.write); err != nil {
			return rw.st, err
		}
	}
	return rw.st, rw.bw.Flush()
}

// RowWriter writes rows one at a time in one format, as WriteWith writes
// a sheet's: for rows that do not come from a workbook, such as a
// database's (sqlsheet.Options.Rows). Records, with JSONL, takes the
// first row as the header; Head and Tail are WriteWith's and not used.
type RowWriter struct {
	rw  rowWriter
	row []xlsx.Value
	num int
}

// NewRowWriter writes to w, buffered: call Flush at the end.
func NewRowWriter(w io.Writer, opts WriteOptions) *RowWriter {
	return &RowWriter{rw: rowWriter{opts: opts, bw: bufio.NewWriterSize(w, 64<<10), sheet: []byte(`""`)}}
}

// WriteCells writes cells (column A on) as the next row.
func (w *RowWriter) WriteCells(cells []xlsx.Cell) error {
	w.row = slices.Grow(w.row[:0], len(cells))[:0]
	for i := range cells {
		if cells[i].IsEmpty() {
			continue
		}
		w.row = append(w.row, xlsx.Value{})
		w.row[len(w.row)-1].SetCell(i+1, &cells[i])
	}
	w.num++
	row := xlsx.Row{Num: w.num, Cells: w.row}
	if w.rw.opts.Records && w.rw.opts.Format == JSONL && w.rw.names == nil {
		w.rw.header(row)
		return nil
	}
	return w.rw.write(row)
}

// Flush writes what is buffered.
func (w *RowWriter) Flush() error { return w.rw.bw.Flush() }

// rowWriter writes rows in one format.
type rowWriter struct {
	opts  WriteOptions
	bw    *bufio.Writer
	sheet []byte // the sheet's name as a JSON string
	st    WriteStats
	line  []byte
	last  int      // the last row written, for the gaps of CSV
	width int      // the most fields a CSV record had so far
	names [][]byte // Records: the header's names as JSON strings, by column
}

// header takes a row as the names of Records' keys: a cell's text, the
// column's letter where it has none, and a suffix for a name already
// taken.
func (rw *rowWriter) header(row xlsx.Row) {
	rw.names = [][]byte{}
	seen := map[string]bool{}
	name := func(col int, text string) {
		for len(rw.names) < col {
			rw.names = append(rw.names, nil)
		}
		if text == "" {
			text = xlsx.ColumnName(col)
		}
		for base, i := text, 2; seen[text]; i++ {
			text = fmt.Sprintf("%s_%d", base, i)
		}
		seen[text] = true
		rw.names[col-1] = appendJSONString(nil, text)
	}
	for i := range row.Cells {
		c := &row.Cells[i]
		name(c.Col(), string(AppendCellText(nil, c)))
	}
	for i := range rw.names {
		if rw.names[i] == nil {
			name(i+1, "")
		}
	}
}

func (rw *rowWriter) write(row xlsx.Row) error {
	rw.st.Rows++
	rw.st.Cells += len(row.Cells)
	line := rw.line[:0]
	switch f := rw.opts.Format; {
	case f == JSONL && rw.opts.Records:
		line = append(line, '{')
		for i := range row.Cells {
			c := &row.Cells[i]
			if c.Type() == xlsx.TypeEmpty {
				continue
			}
			if c.Col() > len(rw.names) {
				line = appendJSONString(line, xlsx.ColumnName(c.Col()))
			} else {
				line = append(line, rw.names[c.Col()-1]...)
			}
			line = append(line, ':')
			line = appendJSONValue(line, c)
			line = append(line, ',')
		}
		if len(line) > 1 {
			line = line[:len(line)-1]
		}
		line = append(line, "}\n"...)
	case f == CSV, f == TSV:
		sep := byte(',')
		if f == TSV {
			sep = '\t'
		}
		if rw.last > 0 {
			for ; rw.last+1 < row.Num; rw.last++ {
				line = append(line, '\n')
			}
		}
		rw.last = row.Num
		col := 1
		for i := range row.Cells {
			c := &row.Cells[i]
			for ; col < c.Col(); col++ {
				line = append(line, sep)
			}
			line = appendField(line, c, sep, rw.opts.EscapeFormulas)
		}
		// Pad to the widest record so far (usually the header), so
		// that readers expecting rectangles get them.
		for ; col < rw.width; col++ {
			line = append(line, sep)
		}
		rw.width = col
		line = append(line, '\n')
	case f == JSONL:
		line = append(line, `{"sheet":`...)
		line = append(line, rw.sheet...)
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
	case f == JSONLCells:
		for i := range row.Cells {
			c := &row.Cells[i]
			if c.Type() == xlsx.TypeEmpty {
				continue
			}
			line = append(line, `{"sheet":`...)
			line = append(line, rw.sheet...)
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
	}
	rw.line = line
	_, err := rw.bw.Write(line)
	return err
}

// tailRing keeps the last rows, each in xlsx.Value's binary form: the
// reader reuses a row's memory for the next.
type tailRing struct {
	max  int
	rows [][]byte
	next int
}

func (t *tailRing) add(row xlsx.Row) error {
	var b []byte
	if len(t.rows) == t.max {
		b = t.rows[t.next][:0]
	}
	b = binary.AppendUvarint(b, uint64(row.Num))
	b = binary.AppendUvarint(b, uint64(len(row.Cells)))
	for i := range row.Cells {
		start := len(b)
		b = append(b, 0, 0, 0, 0)
		var err error
		if b, err = row.Cells[i].AppendBinary(b); err != nil {
			return err
		}
		binary.LittleEndian.PutUint32(b[start:], uint32(len(b)-start-4))
	}
	if len(t.rows) < t.max {
		t.rows = append(t.rows, b)
		return nil
	}
	t.rows[t.next] = b
	t.next = (t.next + 1) % t.max
	return nil
}

// each calls fn with the rows kept, oldest first.
func (t *tailRing) each(fn func(xlsx.Row) error) error {
	var row xlsx.Row
	for i := range len(t.rows) {
		b := t.rows[(t.next+i)%len(t.rows)]
		num, n := binary.Uvarint(b)
		b = b[n:]
		count, n := binary.Uvarint(b)
		b = b[n:]
		row.Num, row.Cells = int(num), row.Cells[:0]
		for range count {
			size := binary.LittleEndian.Uint32(b)
			var v xlsx.Value
			if err := v.UnmarshalBinary(b[4 : 4+size]); err != nil {
				return err
			}
			row.Cells = append(row.Cells, v)
			b = b[4+size:]
		}
		if err := fn(row); err != nil {
			return err
		}
	}
	return nil
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
		return AppendCellText(dst, c)
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
		dst = appendDate(dst, c, 'T')
		return append(dst, '"')
	}
	return append(dst, "null"...)
}

// appendDate writes a date cell as what it holds (xlsx.Value.AppendDate):
// a day alone as 2024-02-29, so that a CSV's dates come back as they went
// in.
func appendDate(dst []byte, c *xlsx.Value, sep byte) []byte { return c.AppendDate(dst, sep) }

// AppendCellText appends a cell's text as CSV writes it, unquoted:
// numbers in their shortest exact form, dates as appendDate writes them
// (a date-time with a space), booleans as TRUE and FALSE, text and error
// codes as they are.
func AppendCellText(dst []byte, c *xlsx.Value) []byte {
	if c.Type() == xlsx.TypeDate {
		return appendDate(dst, c, ' ')
	}
	return c.AppendText(dst)
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
