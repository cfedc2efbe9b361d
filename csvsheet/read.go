package csvsheet

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/sheetstream/sheetstream/xlsx"
)

// newReader reads delimited text in opts' delimiter and encoding: UTF-8
// by default, with or without a byte-order mark, or any encoding the
// WHATWG standard names (a UTF-8 or UTF-16 byte-order mark overrides it).
// Ragged rows are allowed, since real files have them.
func newReader(r io.Reader, opts Options) (*csv.Reader, error) {
	var text io.Reader
	if opts.Encoding == "" {
		br := bufio.NewReaderSize(r, 1<<16)
		if bom, err := br.Peek(3); err == nil && string(bom) == "\xEF\xBB\xBF" {
			br.Discard(3)
		}
		text = br
	} else {
		enc, err := htmlindex.Get(opts.Encoding)
		if err != nil {
			return nil, fmt.Errorf("csv: encoding %q: %w", opts.Encoding, err)
		}
		if enc == unicode.UTF8 {
			enc = unicode.UTF8BOM
		}
		text = bufio.NewReaderSize(transform.NewReader(r, unicode.BOMOverride(enc.NewDecoder())), 1<<16)
	}
	cr := csv.NewReader(text)
	cr.Comma = opts.Comma
	if cr.Comma == 0 {
		cr.Comma = ','
	}
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	return cr, nil
}

// Table is delimited text read as rows of typed cells, typed as Convert
// types them: the source sqlsheet.ImportFrom loads into a database. Row
// n is the text's nth record (the header, if any, is row 1), which is
// line n unless a quoted field spans lines or lines are empty (the CSV
// reader skips those); a record of empty fields is an empty row.
type Table struct {
	r    io.ReadSeeker
	opts Options
}

// NewTable reads delimited text from r, in opts' delimiter and encoding
// (inferring types unless NoInfer; NoHeader, Sheet and RowsPerSheet are
// Convert's and not used). r is read from its start each time EachRow
// runs: spool standard input to a file first.
func NewTable(r io.ReadSeeker, opts Options) *Table { return &Table{r: r, opts: opts} }

// SheetName is empty: delimited text has no sheets.
func (t *Table) SheetName() string { return "" }

// EachRow calls fn with every record as a row, from the first, until the
// text ends or fn returns an error, which EachRow returns. The row's
// cells are valid only during the call. Errors: the reader's seek error;
// *csv.ParseError (naming the line) for malformed quoting; a field that
// is not valid UTF-8 (name the encoding), naming record and field; the
// context's error.
func (t *Table) EachRow(ctx context.Context, fn func(xlsx.Row) error) error {
	if _, err := t.r.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	cr, err := newReader(t.r, t.opts)
	if err != nil {
		return err
	}
	var cell xlsx.Cell
	var values []xlsx.Value
	for num := 1; ; num++ {
		record, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("csv: %w", err)
		}
		values = values[:0]
		for i, f := range record {
			switch {
			case f == "":
				continue
			case t.opts.Encoding == "" && !utf8.ValidString(f):
				line, col := cr.FieldPos(i)
				return fmt.Errorf("csv: record %d (line %d, column %d), field %d: %w", num, line, col, i+1, ErrNotUTF8)
			case t.opts.NoInfer:
				cell = xlsx.String(f)
			default:
				infer(&cell, f)
			}
			values = append(values, xlsx.ValueOf(i+1, cell))
		}
		if num%progressEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := fn(xlsx.Row{Num: num, Cells: values}); err != nil {
			return err
		}
	}
}

// ErrNotUTF8 reports text that is not UTF-8 read without an encoding.
var ErrNotUTF8 = errors.New("not UTF-8 text (give its encoding, such as windows-1252)")
