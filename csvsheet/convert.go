package csvsheet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Options control a conversion. The zero Options read CSV with a header
// row and infer types.
type Options struct {
	// Comma separates fields: ',' when zero, '\t' for TSV.
	Comma rune
	// Encoding names the text's character set as the WHATWG Encoding
	// Standard does ("windows-1252", "latin1", "utf-16le", "shift_jis"...);
	// empty means UTF-8. A byte-order mark, when present, wins.
	Encoding string
	// MaxRecordSize caps one record's text in bytes (64 MiB when zero):
	// the reader holds a record whole, so a quote left open early in a
	// large file would otherwise read the rest of the file into memory.
	// A longer record is an error wrapping ErrRecordTooLong.
	MaxRecordSize int
	// NoInfer keeps every field as text.
	NoInfer bool
	// DateFormats are strptime layouts (%d/%m/%Y, %b %d %Y,
	// %Y/%m/%d %H:%M) a field may be a date, date-time or time of day in,
	// tried in order before inference. Without them only ISO 8601 forms
	// are dates, and year-first ones with slashes (2012/01/31): day-first
	// and month-first are never guessed between.
	DateFormats []string
	// Kinds fix the columns' types, by position (columns past it are
	// guessed): a second pass after a RetypeError gives its Kinds here.
	Kinds []Kind
	// NoHeader treats the first row as data rather than a header.
	NoHeader bool
	// Ragged cuts records with more fields than the header to its width
	// (Stats.Cut counts them); without it such a record is an error
	// wrapping ErrWideRecord, naming its line. Records with fewer fields
	// are always taken, their missing fields empty.
	Ragged bool
	// LazyQuotes takes a quote inside an unquoted field as text, and a
	// quote in a quoted field not followed by the delimiter as text, for
	// files written without escaping. Unlike encoding/csv's LazyQuotes, a
	// quoted field must close on the line it opens: one that does not is
	// text to the next delimiter, its opening quote included, so a field
	// that merely starts with a quote never swallows the lines after it
	// (a real multi-line field then makes a row wider than the header,
	// an error naming its line, or short rows: never a silent merge).
	// It needs a one-byte delimiter.
	LazyQuotes bool
	// Quote is the quote character (an ASCII character; '"' when zero);
	// NoQuotes makes quotes ordinary characters, for text written
	// without any quoting (many TSV files). Both need a one-byte
	// delimiter.
	Quote    byte
	NoQuotes bool
	// Decimal is the decimal mark of number text: '.' (when zero) or ','.
	// With ',' the thousands are separated by '.' or a space ("1.234,56",
	// "1 234,56"), and a column reads as numbers only when every field of
	// it does, as always.
	Decimal byte
	// Strict fails on a field longer than a cell holds (32,767
	// characters), naming its cell; without it such text is cut to fit and
	// counted in Stats.Truncated, as sqlsheet's exports do.
	Strict bool
	// Sheet names the sheet ("Sheet1" when empty). Rows past Excel's limit
	// continue on "Sheet (2)", "Sheet (3)"... with the header repeated.
	Sheet string
	// RowsPerSheet caps the rows of one sheet, header included
	// (xlsx.MaxRows when zero); below Excel's limit it is mostly for tests.
	RowsPerSheet int
	// Progress, when set, is called with the count of data rows written,
	// every few thousand rows and at the end.
	Progress func(rows int64)
	// ExcelTable makes each sheet with a header an Excel table named
	// after it (see xlsx.TableName; Table1... when that cannot be a
	// table's name), in TableStyleMedium2 with filter buttons.
	ExcelTable bool
	// Charts are drawn beside the rows from the header's columns, on each
	// sheet (see xlsx.ColumnChart); a chart naming a column the header
	// lacks fails before the first row. They need a header.
	Charts []xlsx.ColumnChart
	// Pivots are computed over the rows, each on a sheet of its own after
	// them; with pivots the rows hold at most one sheet's.
	Pivots []xlsx.PivotTable
}

// Stats describe a finished conversion.
type Stats struct {
	Rows   int64 // data rows, header excluded
	Sheets []string
	Cut    int // records cut to the header's width (Options.Ragged)
	// Truncated counts texts cut to 32,767 characters (without
	// Options.Strict).
	Truncated int64
}

const progressEvery = 8192

// ErrEmpty: the text has no record at all, not even a header; Convert
// writes no sheet for it.
var ErrEmpty = errors.New("the text is empty: no header and no rows")

// RowSink is where ConvertTo writes the typed rows: a workbook's sheets
// (Convert's), or any table of them (a Parquet or Arrow file). ConvertTo
// writes the rows from a goroutine of its own while it types the next
// ones; it never calls two methods at once.
type RowSink interface {
	// Begin starts the table with the header's names (nil: text without
	// a header).
	Begin(header []string) error
	// WriteRow writes the next row; the cells are valid during the call.
	WriteRow(cells []xlsx.Cell) error
	// AddStyle returns a style showing a number format (numbers written
	// padded or grouped keep their look); 0 for a sink without styles.
	AddStyle(style xlsx.Style) (xlsx.StyleID, error)
	// End ends the table.
	End() error
}

// sheetSink is Convert's RowSink: the sheets export makes, columns fitted
// to their first 100 rows, the header bold and frozen, an autofilter or
// a table, the charts, continued on numbered sheets past Excel's limit.
type sheetSink struct {
	w      *xlsx.Writer
	opts   *Options
	base   string
	sheets *xlsx.TableSheets
}

func (s *sheetSink) Begin(header []string) error {
	var err error
	s.sheets, err = s.w.AddTableSheets(xlsx.TableSheetsOptions{Name: s.base, Header: header, RowsPerSheet: s.opts.RowsPerSheet,
		ExcelTable: s.opts.ExcelTable, Charts: s.opts.Charts, Pivots: s.opts.Pivots})
	return err
}

func (s *sheetSink) WriteRow(cells []xlsx.Cell) error             { return s.sheets.WriteRow(cells) }
func (s *sheetSink) AddStyle(st xlsx.Style) (xlsx.StyleID, error) { return s.w.AddStyle(st) }
func (s *sheetSink) End() error                                   { return s.sheets.Close() }

// Convert reads delimited text from r and writes it into w as one sheet,
// or several when it has more rows than a sheet holds. It does not close w.
// Errors name the line of the input.
func Convert(ctx context.Context, r io.Reader, w *xlsx.Writer, opts Options) (Stats, error) {
	base := opts.Sheet
	if base == "" {
		base = "Sheet1"
	}
	if err := xlsx.CheckSheetName(base); err != nil {
		return Stats{}, err
	}
	if len(opts.Charts) > 0 && opts.NoHeader {
		return Stats{}, fmt.Errorf("charts name columns of the header, and there is none (NoHeader)")
	}
	sink := &sheetSink{w: w, opts: &opts, base: base}
	st, err := ConvertTo(ctx, r, sink, opts)
	if sink.sheets != nil {
		st.Sheets = sink.sheets.Sheets()
	}
	return st, err
}

// ConvertTo reads delimited text from r, types its columns as Convert
// does, and writes the rows to sink (Begin, the rows, End). Options'
// Sheet, RowsPerSheet, ExcelTable and Charts are Convert's sink's.
func ConvertTo(ctx context.Context, r io.Reader, sink RowSink, opts Options) (Stats, error) {
	var st Stats
	cr, err := newReader(r, opts)
	if err != nil {
		return st, err
	}
	layouts, err := compileLayouts(opts.DateFormats)
	if err != nil {
		return st, err
	}
	typer := newColumnTyper(opts, layouts)
	mark := byte('.')
	if opts.Decimal == ',' {
		mark = ','
	}
	c := &conversion{ctx: ctx, opts: &opts, st: &st, typer: typer, sink: sink}
	c.pipe = newRowPipe(sink, &opts, &st)
	c.look = cellLook{styles: numberStyles{add: c.pipe.AddStyle}, mark: mark, strict: opts.Strict}
	err = c.convert(cr)
	// The rows typed before a failure are written, as they were before
	// it was met: an error of theirs came first, and is the one to tell.
	// (After close, st is the pipe's no more.)
	if perr := c.pipe.close(); perr != nil {
		err = perr
	}
	return st, err
}

// convert is ConvertTo's loop: cr's records typed and handed to the pipe.
func (c *conversion) convert(cr *recordReader) error {
	typer, writeRow := c.typer, c.writeRow
	var guess [][]string // the first rows, held while the columns' types are guessed
	var guessLines []int // and their lines
	flushGuess := func() error {
		typer.decide(guess)
		for i, rec := range guess {
			if err := writeRow(rec, guessLines[i]); err != nil {
				return err
			}
		}
		guess, guessLines = nil, nil
		return nil
	}
	for first := true; ; first = false {
		record, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if first && !c.opts.NoHeader {
			// encoding/csv makes new strings for every record, even with
			// ReuseRecord: keeping them is safe.
			c.names = slices.Clone(record)
			if err := c.begin(c.names); err != nil {
				return fmt.Errorf("line 1: %w", err) // a chart naming no column of it
			}
			continue
		}
		line, _ := cr.FieldPos(0)
		if typer.guessing() {
			typer.observe(record, false)
			guess, guessLines = append(guess, slices.Clone(record)), append(guessLines, line)
			if len(guess) < guessRows {
				continue
			}
			err = flushGuess()
		} else {
			err = writeRow(record, line)
		}
		if err != nil {
			// (errors.As only here: its target escapes to the heap.)
			var retype *RetypeError
			if errors.As(err, &retype) {
				return typer.scanRest(c.ctx, cr, retype)
			}
			return err
		}
	}
	if typer.guessing() {
		if err := flushGuess(); err != nil {
			return err
		}
	}
	if err := c.pipe.close(); err != nil {
		return err
	}
	if !c.begun && c.st.Rows == 0 {
		return ErrEmpty
	}
	if err := c.sink.End(); err != nil {
		return err
	}
	if c.opts.Progress != nil {
		c.opts.Progress(c.st.Rows)
	}
	c.st.Cut = cr.Cut
	return nil
}

// conversion is one Convert's state for writing rows.
type conversion struct {
	ctx   context.Context
	opts  *Options
	st    *Stats
	typer *columnTyper
	look  cellLook
	sink  RowSink
	begun bool
	names []string // the header's texts, for messages
	pipe  *rowPipe // where typed rows go: the sink, on a goroutine of its own
	typed int64    // rows typed, for the context's checks
}

func (c *conversion) begin(header []string) error {
	c.begun = true
	c.pipe.mu.Lock() // (no row is written before Begin: the lock says so to the race detector)
	defer c.pipe.mu.Unlock()
	return c.sink.Begin(header)
}

// writeRow types record, from line, and writes it.
func (c *conversion) writeRow(record []string, line int) error {
	if !c.begun {
		if err := c.begin(nil); err != nil {
			return err
		}
	}
	typer := c.typer
	typer.newRecord(len(record), c.pipe.fresh())
	cells := c.pipe.row(len(record))
	for i, f := range record {
		if !typer.typeField(&cells[i], i, f) {
			return typer.contradiction(i, record, line, c.names)
		}
		// Rare: a number written with trailing zeros or grouped
		// thousands, text longer than a cell holds (the test inlined,
		// the work in look).
		if f != "" && (f[len(f)-1] == '0' || c.look.mark == ',' || len(f) > xlsx.MaxCellChars) {
			cut, err := c.look.apply(&cells[i], f, typer.isNumber(i))
			if err != nil {
				return err
			}
			if cut {
				c.st.Truncated++
			}
		}
	}
	if err := c.pipe.commit(line); err != nil {
		return err
	}
	c.typed++
	if c.typed%progressEvery == 0 {
		return c.ctx.Err()
	}
	return nil
}
