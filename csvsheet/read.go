package csvsheet

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/sheetstream/sheetstream/internal/csvscan"

	"github.com/sheetstream/sheetstream/xlsx"
)

// newReader reads delimited text in opts' delimiter and encoding: UTF-8
// by default, with or without a byte-order mark, or any encoding the
// WHATWG standard names (a UTF-8 or UTF-16 byte-order mark overrides it).
// Rows shorter than the header are allowed, since real files have them;
// wider ones are an error (ErrWideRecord) unless opts.Ragged cuts them.
func newReader(r io.Reader, opts Options) (*recordReader, error) {
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
			return nil, fmt.Errorf("encoding %q is not a character set sheetstream knows (the WHATWG Encoding Standard's names: utf-8, windows-1252, latin1, iso-8859-15, utf-16le, shift_jis, gb18030...)", opts.Encoding)
		}
		if enc == unicode.UTF8 {
			enc = unicode.UTF8BOM
		}
		text = bufio.NewReaderSize(transform.NewReader(r, unicode.BOMOverride(enc.NewDecoder())), 1<<16)
	}
	guard := &recordGuard{text: text, limit: int64(opts.MaxRecordSize)}
	if guard.limit <= 0 {
		guard.limit = defaultMaxRecordSize
	}
	cr := &recordReader{guard: guard, header: !opts.NoHeader, ragged: opts.Ragged}
	comma := opts.Comma
	if comma == 0 {
		comma = ','
	}
	if opts.Decimal != 0 && opts.Decimal != '.' && opts.Decimal != ',' {
		return nil, fmt.Errorf("the decimal mark %s: '.' or ','", decimalName(opts.Decimal))
	}
	if opts.Quote >= utf8.RuneSelf || opts.Quote == '\r' || opts.Quote == '\n' || opts.Quote != 0 && rune(opts.Quote) == comma {
		return nil, fmt.Errorf("the quote character %q: an ASCII character other than the delimiter and line ends", rune(opts.Quote))
	}
	if comma < utf8.RuneSelf {
		// The common case, read by the package's own reader (1.6 times
		// encoding/csv's speed on fields without quotes).
		sc := csvscan.NewReader(guard)
		sc.Comma, sc.LazyQuotes, sc.LineQuotes = byte(comma), opts.LazyQuotes, opts.LazyQuotes
		sc.Quote, sc.NoQuotes = opts.Quote, opts.NoQuotes
		cr.src = sc
		return cr, nil
	}
	if opts.LazyQuotes || opts.NoQuotes || opts.Quote != 0 {
		return nil, fmt.Errorf("lazy quotes, another quote character or none need a one-byte delimiter, not %q", comma)
	}
	std := csv.NewReader(guard)
	std.Comma, std.LazyQuotes, std.FieldsPerRecord, std.ReuseRecord = comma, opts.LazyQuotes, -1, true
	cr.src = std
	return cr, nil
}

// csvSource is what reads the records: csvscan for an ASCII delimiter,
// encoding/csv for another.
type csvSource interface {
	Read() ([]string, error)
	FieldPos(field int) (line, column int)
	InputOffset() int64
}

const defaultMaxRecordSize = 64 << 20

// ErrRecordTooLong reports a record longer than Options.MaxRecordSize,
// most often a quote that is never closed.
var ErrRecordTooLong = errors.New("record too long")

// recordReader is a csv.Reader whose records cannot outgrow the limit
// its guard keeps.
type recordReader struct {
	src     csvSource
	guard   *recordGuard
	records int // read so far

	header bool // the first record is a header: no record may be wider
	ragged bool // cut wider records to the header instead
	width  int  // the header's fields
	Cut    int  // records cut to the header's width (ragged)
}

// ErrWideRecord reports a record with more fields than the header: most
// often a stray delimiter or quote, which would otherwise shift its
// fields into a column of their own.
var ErrWideRecord = errors.New("a record wider than the header")

// FieldPos is the line and column a field of the last record begins on.
func (r *recordReader) FieldPos(field int) (line, column int) { return r.src.FieldPos(field) }

// Read reads a record, then moves the guard's mark to its end.
func (r *recordReader) Read() ([]string, error) {
	record, err := r.src.Read()
	if errors.Is(err, ErrRecordTooLong) {
		return nil, fmt.Errorf("record %d, from byte %d: %w", r.records+1, r.guard.start, err)
	}
	r.guard.start = r.src.InputOffset()
	if err != nil {
		return record, err
	}
	r.records++
	switch {
	case !r.header:
	case r.records == 1:
		r.width = len(record)
	case len(record) > r.width && r.ragged:
		record = record[:r.width]
		r.Cut++
	case len(record) > r.width:
		line, _ := r.FieldPos(0)
		return nil, fmt.Errorf("line %d: %d fields where the header has %d: %w", line, len(record), r.width, ErrWideRecord)
	}
	return record, nil
}

// recordGuard passes the text to the CSV reader until it has taken more
// than limit bytes past the end of the last whole record.
type recordGuard struct {
	text  io.Reader
	read  int64 // bytes handed to the CSV reader
	start int64 // the end of the last record it returned
	limit int64
}

func (g *recordGuard) Read(p []byte) (int, error) {
	if g.read-g.start > g.limit {
		return 0, fmt.Errorf("%w: over %d bytes (a quote left open?)", ErrRecordTooLong, g.limit)
	}
	n, err := g.text.Read(p)
	g.read += int64(n)
	return n, err
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
// cells are valid only during the call. Records are read on one
// goroutine and typed on others (GOMAXPROCS), in batches; fn sees them in
// order on the caller's. Errors: the reader's seek error; *csv.ParseError
// (naming the line) for malformed quoting; a field that is not valid
// UTF-8 (name the encoding), naming record and field; the context's
// error.
func (t *Table) EachRow(ctx context.Context, fn func(xlsx.Row) error) error {
	if _, err := t.r.Seek(0, io.SeekStart); err != nil {
		return err
	}
	cr, err := newReader(t.r, t.opts)
	if err != nil {
		return err
	}
	layouts, err := compileLayouts(t.opts.DateFormats)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	workers := max(1, runtime.GOMAXPROCS(0))
	work, ordered := make(chan *recordBatch, workers), make(chan *recordBatch, 2*workers)
	free := make(chan *recordBatch, 2*workers+2)
	for range cap(free) {
		free <- &recordBatch{done: make(chan struct{}, 1)}
	}
	var wg sync.WaitGroup
	wg.Add(1 + workers)
	go func() {
		defer wg.Done()
		defer close(work)
		defer close(ordered)
		t.readBatches(ctx, cr, free, work, ordered)
	}()
	for range workers {
		go func() {
			defer wg.Done()
			for b := range work {
				b.infer(t.opts.NoInfer, t.opts.Decimal, layouts)
				b.done <- struct{}{}
			}
		}()
	}
	defer func() {
		cancel()
		for b := range ordered { // let the reader end
			<-b.done
		}
		wg.Wait()
	}()
	for b := range ordered {
		<-b.done
		start := 0
		for r, end := range b.ends {
			if err := fn(xlsx.Row{Num: b.first + r, Cells: b.cells[start:end]}); err != nil {
				return err
			}
			start = end
		}
		if b.err != nil {
			return b.err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		free <- b
	}
	return nil
}

// recordBatch is records on their way from the reader through a typing
// worker to EachRow's caller.
type recordBatch struct {
	first  int      // the first record's number
	fields []string // every record's fields, one after another
	bounds []int    // where each record's fields end in fields
	cells  []xlsx.Value
	ends   []int  // where each record's cells end in cells
	plain  []byte // decimal-comma numbers in plain form
	err    error  // what ended the reading after these records
	done   chan struct{}
}

const recordsPerBatch = 256

// readBatches reads records into batches, sending each to be typed and,
// in order, to be handed on; a read error ends the last batch.
func (t *Table) readBatches(ctx context.Context, cr *recordReader, free <-chan *recordBatch, work, ordered chan<- *recordBatch) {
	num := 1
	for {
		var b *recordBatch
		select {
		case b = <-free:
		case <-ctx.Done():
			return
		}
		b.first, b.fields, b.bounds, b.err = num, b.fields[:0], b.bounds[:0], nil
		for len(b.bounds) < recordsPerBatch {
			record, err := cr.Read()
			if err == nil && t.opts.Encoding == "" {
				err = checkUTF8(cr, record, num)
			}
			if err != nil {
				if !errors.Is(err, io.EOF) {
					b.err = err
					if !errors.Is(err, ErrNotUTF8) {
						b.err = err
					}
				}
				break
			}
			b.fields = append(b.fields, record...)
			b.bounds = append(b.bounds, len(b.fields))
			num++
		}
		// To a worker first, then in line for the caller: every batch in
		// line is one a worker will finish, which EachRow's clean-up
		// waits for.
		for _, ch := range []chan<- *recordBatch{work, ordered} {
			select {
			case ch <- b:
			case <-ctx.Done():
				return
			}
		}
		if b.err != nil || len(b.bounds) < recordsPerBatch {
			return
		}
	}
}

// checkUTF8 names the first field of a record that is not UTF-8.
func checkUTF8(cr *recordReader, record []string, num int) error {
	for i, f := range record {
		if !utf8.ValidString(f) {
			line, col := cr.FieldPos(i)
			return fmt.Errorf("record %d (line %d, column %d), field %d: %w", num, line, col, i+1, ErrNotUTF8)
		}
	}
	return nil
}

// infer types the batch's fields into cells; empty fields have none.
func (b *recordBatch) infer(noInfer bool, decimal byte, layouts []*dateLayout) {
	b.cells, b.ends = b.cells[:0], b.ends[:0]
	b.plain = b.plain[:0]
	var cell xlsx.Cell
	start := 0
	for _, end := range b.bounds {
		for i, f := range b.fields[start:end] {
			if f != "" {
				if decimal == ',' && !noInfer {
					// Number text with a decimal comma, in plain form;
					// the cell keeps the field's own text as its source.
					// Text that is a number only with a decimal point
					// ("1.5") is text.
					p, n := f, len(b.plain)
					if out, ok := commaNumber(f, b.plain); ok {
						// A view of the batch's buffer: the cells live as
						// long as the batch's fields do.
						b.plain, p = out, bytesView(out[n:])
					}
					inferComma(&cell, f, p, layouts)
				} else {
					typeField(&cell, f, noInfer, layouts)
				}
				b.cells = append(b.cells, xlsx.Value{})
				v := &b.cells[len(b.cells)-1]
				v.SetCell(i+1, &cell)
				v.SetSourceText(unsafe.Slice(unsafe.StringData(f), len(f)))
			}
		}
		b.ends = append(b.ends, len(b.cells))
		start = end
	}
}

// ErrNotUTF8 reports text that is not UTF-8 read without an encoding
// (Options.Encoding names one, such as windows-1252).
var ErrNotUTF8 = errors.New("not UTF-8 text")
