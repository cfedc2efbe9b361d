package xlsx

import (
	"fmt"
	"math"

	"github.com/sheetstream/sheetstream/internal/deflate"
)

// SheetOptions set a sheet's layout. Everything here goes before the
// rows in the file, so it is fixed when the sheet is added.
type SheetOptions struct {
	State    SheetState
	TabColor Color
	// Active makes this the sheet Excel shows on opening, instead of the
	// first visible one. The sheet shown before must not have written its
	// head yet (its rows have not filled a first chunk).
	Active bool
	// FreezeRows and FreezeCols keep that many top rows and left columns
	// in view while scrolling.
	FreezeRows, FreezeCols int
	// AutoFit widens or narrows each column to the text of the first
	// AutoFitRows rows (100 when 0; the widths go before the rows, so at
	// most the rows of the sheet's first chunk, about half a megabyte of
	// XML, are measured). Columns set with SetColumn keep their settings.
	// Text is measured in Excel's default font, Calibri 11, scaled to the
	// cell's font size (and bold); numbers, dates and times as General
	// and the default date formats show them.
	AutoFit     bool
	AutoFitRows int
	// AutoFitMax caps a fitted column's width, in characters (0: 255,
	// Excel's widest).
	AutoFitMax float64
	// Print sets how the sheet prints (nil: Excel's defaults).
	Print *PrintSetup
	// Protect protects the sheet (see SheetProtection).
	Protect *SheetProtection
	// RowOutlineLevels is the deepest outline level the sheet's rows will
	// use (RowOptions.OutlineLevel), which Excel reads from before the
	// rows: a sheet whose first chunk (about half a megabyte of XML) has
	// its deepest group can leave it 0; a longer one must declare it, and
	// a deeper row is an error.
	RowOutlineLevels uint8
	// OutlineSummaryAbove and OutlineSummaryLeft put a group's summary
	// row above it and its summary column left of it, instead of below
	// and right.
	OutlineSummaryAbove, OutlineSummaryLeft bool
	// Dimension declares the range the sheet's cells will cover. The
	// <dimension> element comes before the rows, and a streamed sheet
	// cannot go back to fix it: a sheet that ends within its first chunk
	// (about half a megabyte of XML) gets its exact range anyway; a longer
	// one gets this range if set (and writing outside it is an error), or
	// no <dimension> at all, which Excel and other readers accept.
	Dimension Range
}

// ColumnOptions set the width, style, visibility and outline of columns.
type ColumnOptions struct {
	// Width in characters of the default font, as Excel's column-width
	// dialog shows it (0 leaves the default, about 8.43).
	Width  float64
	Style  StyleID
	Hidden bool
	// OutlineLevel groups the columns (1 to 7); see RowOptions.
	OutlineLevel uint8
	Collapsed    bool
}

// RowOptions set a row's height, style, visibility and outline.
type RowOptions struct {
	// Height in points (0 leaves the default, 15).
	Height float64
	Hidden bool
	// OutlineLevel groups the row (1 to 7, 0 for none): consecutive rows
	// of a level fold into the row after them (or before them, with
	// SheetOptions.OutlineSummaryAbove). A folded group's rows are Hidden,
	// and the summary row is Collapsed.
	OutlineLevel uint8
	Collapsed    bool
	// Style applies to the row's empty cells.
	Style  StyleID
	styled bool
}

// WithStyle returns o with a row style.
func (o RowOptions) WithStyle(id StyleID) RowOptions {
	o.Style = id
	o.styled = true
	return o
}

type column struct {
	first, last int
	opts        ColumnOptions
	fitted      bool // by AutoFit
}

// Sheet streams the rows of one worksheet. Get one from Writer.AddSheet
// or Writer.AddConcurrentSheet. A Sheet is for one goroutine at a time.
type Sheet struct {
	w      *Writer
	name   string
	index  int // 0-based position in the workbook
	opts   SheetOptions
	active bool

	sink    *sheetSink
	stream  *deflate.Stream
	buf     []byte
	scratch []byte
	// styles is how many styles this sheet knows exist; a higher id is
	// checked against the workbook's styles again (AddStyle may have run).
	styles int
	// sstRefs counts this sheet's shared-string cells.
	sstRefs uint64
	// sstSeen caches shared string indexes for a concurrent sheet.
	sstSeen map[string]uint32
	// plainDates caches the date styles of unstyled date cells for a
	// concurrent sheet, by cell kind.
	plainDates [4]StyleID

	headWritten bool
	finished    bool
	row         int // last row written, 0 before the first
	cols        []column
	merges      []Range
	links       []hyperlink
	autoFilter  Range
	tables      []*sheetTable
	validations []sheetValidation
	condFormats []sheetCondFormat
	rowBreaks   []int     // from AddPageBreak
	fitPx       []float64 // AutoFit: each column's widest text so far, in pixels
	protection  *sheetProtection
	rowOutline  uint8 // the deepest row outline level, as far as the head knows

	// Pictures and charts, and their drawing part's number (0: none yet).
	images  []sheetImage
	charts  []*sheetChart
	drawing int
	// pivots are the pivot tables over this sheet, fed its rows;
	// pivotTable, on a pivot's own sheet, is its table's number.
	pivots     []*pivot
	pivotTable int
	// chartRefs are the chart ranges on this sheet whose values are
	// cached as rows are written.
	chartRefs []*chartRef
	// chartSheet marks a chartsheet: no rows, one chart. part is the
	// sheet's number among its kind's parts (sheetN.xml).
	chartSheet bool
	part       int
	// sparklines are the sheet's sparkline groups.
	sparklines []*sheetSparklines
	// Notes, and the row heights their boxes and the pictures need.
	notes        []sheetNote
	noteAuthors  []string
	vmlIndex     int         // the sheet's number among those with notes, from 1
	heightDelta  int         // the rows' heights beyond the default, in pixels, so far
	lastCustom   customRow   // the last row written with a height of its own
	prevCustom   customRow   // the one before
	rowHeights   map[int]int // rows with a height of their own that boxes may cover
	heightsUntil int         // the last row rowHeights records
	// tableScratch holds a row the tables add cells to.
	tableScratch []Cell

	// The extent of the cells written so far, 1-based; minRow == 0 means
	// none yet.
	minRow, maxRow, minCol, maxCol int
}

// Name is the sheet's name.
func (s *Sheet) Name() string { return s.name }

// Index is the sheet's 0-based position in the workbook.
func (s *Sheet) Index() int { return s.index }

// LastRow is the number of the last row written, 0 if none.
func (s *Sheet) LastRow() int { return s.row }

// refuse is an error of a call that changed nothing: unlike fail's, it
// does not stop the Writer.
func (s *Sheet) refuse(row, col int, err error) error {
	return &CellError{Sheet: s.name, Row: row, Col: col, Err: err}
}

// streamRange is a range that may end with the sheet's last row written
// (given with LastRow 0), resolved when the sheet ends.
type streamRange struct {
	Range
	open bool
}

// streamRange checks a range that may end with the sheet.
func (s *Sheet) streamRange(r Range, what string) (streamRange, error) {
	probe := r
	if r.LastRow == 0 {
		probe.LastRow = MaxRows
	}
	if !probe.valid() {
		return streamRange{}, s.refuse(r.FirstRow, r.FirstCol, fmt.Errorf("%w: %s range %v", ErrRange, what, r))
	}
	return streamRange{r, r.LastRow == 0}, nil
}

// final is the range once the sheet ends: an open one to the last row
// written, and to its first row at least.
func (r streamRange) final(lastRow int) Range {
	if r.open {
		r.LastRow = max(lastRow, r.FirstRow)
	}
	return r.Range
}

func (s *Sheet) fail(row, col int, err error) error {
	return s.w.fail(&CellError{Sheet: s.name, Row: row, Col: col, Err: err})
}

func (s *Sheet) check() error {
	if err := s.w.loadErr(); err != nil {
		return err
	}
	if s.finished {
		return &CellError{Sheet: s.name, Err: ErrSheetDone}
	}
	return nil
}

// SetColumn sets the width, style or visibility of the 1-based columns
// first..last. Columns come before the rows in the file, so this must be
// called before the first row.
//
// Errors (in a *CellError): ErrHeadWritten after the first row; ErrRange
// for columns outside 1..16384 or overlapping columns set before;
// ErrWidth for a width outside 0..255; ErrStyle for an unknown style.
func (s *Sheet) SetColumn(first, last int, opts ColumnOptions) error {
	if err := s.check(); err != nil {
		return err
	}
	if s.row > 0 {
		return s.fail(0, first, ErrHeadWritten)
	}
	if first < 1 || last > MaxColumns || first > last {
		return s.fail(0, 0, fmt.Errorf("%w: columns %d..%d", ErrRange, first, last))
	}
	if opts.Width < 0 || opts.Width > 255 || math.IsNaN(opts.Width) {
		return s.fail(0, first, fmt.Errorf("%w: width %g outside 0..255", ErrWidth, opts.Width))
	}
	if opts.OutlineLevel > 7 {
		return s.fail(0, first, fmt.Errorf("%w: outline level %d outside 0..7", ErrRange, opts.OutlineLevel))
	}
	if !s.knownStyle(opts.Style) {
		return s.fail(0, first, fmt.Errorf("%w: %d", ErrStyle, opts.Style))
	}
	for _, c := range s.cols {
		if first <= c.last && c.first <= last {
			return s.fail(0, first, fmt.Errorf("%w: columns %d..%d overlap columns %d..%d set before",
				ErrRange, first, last, c.first, c.last))
		}
	}
	s.cols = append(s.cols, column{first: first, last: last, opts: opts})
	return nil
}

// MergeCells merges a range into one cell, shown with the top-left cell's
// value. Write the other cells of the range empty or with a style only.
//
// Errors (in a *CellError): ErrRange for an invalid range, a single
// cell, or a range overlapping one merged before.
func (s *Sheet) MergeCells(r Range) error {
	if err := s.check(); err != nil {
		return err
	}
	if !r.valid() || r.FirstRow == r.LastRow && r.FirstCol == r.LastCol {
		return s.fail(0, 0, fmt.Errorf("%w: merge %v needs at least two cells", ErrRange, r))
	}
	for _, m := range s.merges {
		if m.overlaps(r) {
			return s.fail(0, 0, fmt.Errorf("%w: merge %v overlaps %v", ErrRange, r, m))
		}
	}
	s.merges = append(s.merges, r)
	return nil
}

// SetAutoFilter puts filter buttons on the first row of r; it can be
// called any time before the sheet ends.
//
// Errors (in a *CellError): ErrRange for an invalid range.
func (s *Sheet) SetAutoFilter(r Range) error {
	if err := s.check(); err != nil {
		return err
	}
	if !r.valid() {
		return s.fail(0, 0, fmt.Errorf("%w: autofilter %v", ErrRange, r))
	}
	s.autoFilter = r
	return nil
}

// SkipRows leaves n empty rows before the next row written.
//
// Errors (in a *CellError): ErrTooManyRows past row 1,048,576.
func (s *Sheet) SkipRows(n int) error {
	if err := s.check(); err != nil {
		return err
	}
	if n < 0 || s.row+n >= MaxRows {
		return s.fail(s.row+n+1, 0, ErrTooManyRows)
	}
	target := s.row + n
	if len(s.tables) > 0 {
		if err := s.writeTableRows(target); err != nil {
			return err
		}
	}
	s.row = target
	return nil
}

// WriteRow writes cells as the next row, the first cell in column A. Empty
// cells (the zero Cell) take their column but write nothing.
//
// Errors, each in a *CellError naming the sheet, row and (for a cell)
// column: ErrTooManyRows, ErrTooManyColumns; for a cell ErrCellTooLong,
// ErrInvalidUTF8, ErrNonCharacter, ErrNotFinite, ErrDecimal,
// ErrDateRange, ErrErrorCode, ErrStyle, and ErrRange for a bad link
// target or a row outside SheetOptions.Dimension; ErrSheetDone once the
// sheet is closed; and errors of the underlying io.Writer. A cell error
// leaves the row unwritten; every error but one about a cell's value
// stops the Writer, and every later call returns it.
func (s *Sheet) WriteRow(cells []Cell) error {
	return s.writeRow(cells, nil)
}

// WriteRowWith writes a row with a height, style or visibility. It
// returns WriteRow's errors, and ErrWidth for a height outside 0..409 and
// ErrStyle for an unknown row style.
func (s *Sheet) WriteRowWith(cells []Cell, opts RowOptions) error {
	return s.writeRow(cells, &opts)
}

func (s *Sheet) writeRow(cells []Cell, opts *RowOptions) error {
	if err := s.check(); err != nil {
		return err
	}
	row := s.row + 1
	if row > MaxRows {
		return s.fail(row, 0, ErrTooManyRows)
	}
	if len(cells) > MaxColumns {
		return s.fail(row, 0, tooManyColumns(len(cells)))
	}
	if len(s.tables) > 0 {
		var err error
		if cells, err = s.tableCells(row, cells, opts != nil && opts.Hidden); err != nil {
			return s.fail(row, 0, err)
		}
	}
	start := len(s.buf)
	b, first, last, refs, err := s.encodeRow(s.buf, row, cells, opts)
	if err != nil {
		s.buf = s.buf[:start]
		return s.w.fail(err)
	}
	if d := s.opts.Dimension; d != (Range{}) && first > 0 &&
		(row < d.FirstRow || row > d.LastRow || first < d.FirstCol || last > d.LastCol) {
		s.buf = s.buf[:start]
		return s.fail(row, 0, fmt.Errorf("%w: row is outside the declared dimension %v", ErrRange, d))
	}
	if s.fitting() {
		s.measure(cells)
	}
	if len(s.chartRefs) > 0 {
		s.watchRow(row, cells)
	}
	if len(s.pivots) > 0 {
		if err := s.watchPivots(row, cells); err != nil {
			s.buf = s.buf[:start]
			return s.fail(row, 0, err)
		}
	}
	s.buf = b
	s.row = row
	s.sstRefs += uint64(refs)
	if opts != nil && (opts.Height != 0 || opts.Hidden) {
		s.recordRowHeight(row, opts)
	}
	if first == 0 && opts != nil {
		// Excel counts a row that only carries formatting as used, in A.
		first, last = 1, 1
	}
	if first > 0 {
		if s.minRow == 0 {
			s.minRow, s.minCol, s.maxCol = row, first, last
		}
		s.maxRow = row
		s.minCol = min(s.minCol, first)
		s.maxCol = max(s.maxCol, last)
	}
	if len(s.buf) >= s.w.pool.ChunkSize() {
		return s.flush()
	}
	return nil
}

// flush hands the buffered XML to the compressor, preceded the first time
// by the sheet's head.
func (s *Sheet) flush() error {
	var err error
	if !s.headWritten {
		chunk := s.w.pool.Buffer()
		chunk = s.appendHead(chunk, false)
		chunk = append(chunk, s.buf...)
		s.buf = s.buf[:0]
		var spare []byte
		if spare, err = s.stream.Submit(chunk); err == nil {
			s.w.pool.Release(spare)
		}
	} else {
		s.buf, err = s.stream.Submit(s.buf)
	}
	if err != nil {
		return s.w.fail(&CellError{Sheet: s.name, Err: err})
	}
	return nil
}

// columnWidth converts a width in characters to what Excel stores: the
// pixel width the column gets with Calibri 11 (7 pixels a digit plus 5 of
// padding), back in characters, truncated to 1/256 (ECMA-376 18.3.1.13).
func columnWidth(chars float64) float64 {
	var px float64
	if chars < 1 {
		px = math.Floor(chars*12 + 0.5)
	} else {
		px = math.Floor(chars*7+0.5) + 5
	}
	return math.Floor(px/7*256) / 256
}

// Close finishes the sheet: it writes what is left of it and lets the
// next sheet have its turn in the file. Closing it again does nothing.
// Writer.Close closes sheets still open; a concurrent sheet should be
// closed by the goroutine that writes it.
//
// Errors: those of the underlying io.Writer, and the Writer's first error.
func (s *Sheet) Close() error {
	if s.finished {
		return s.w.loadErr()
	}
	if len(s.tables) > 0 && s.w.loadErr() == nil {
		// The tables' last rows are written before the sheet ends; an
		// error here stops the Writer, and the sheet is released below.
		_ = s.finishTables()
	}
	s.finished = true
	if err := s.w.loadErr(); err != nil {
		s.stream.Abort()
		s.w.pool.Release(s.buf)
		s.buf = nil
		return err
	}
	var b []byte
	if !s.headWritten {
		b = s.appendHead(s.w.pool.Buffer(), true)
		b = append(b, s.buf...)
		s.w.pool.Release(s.buf)
	} else {
		b = s.buf
	}
	s.buf = nil
	b = s.appendTail(b)
	crc, size, err := s.stream.Close(b)
	if err != nil {
		return s.w.fail(&CellError{Sheet: s.name, Err: err})
	}
	if err := s.w.finishSink(s.sink, crc, size, s.parts()); err != nil {
		return err
	}
	if len(s.pivots) > 0 {
		// The pivot tables over this sheet are complete: each gets its
		// sheet, next in the workbook.
		return s.finishPivots()
	}
	return nil
}

// dateStyle is styleSheet.dateStyle, under the shared lock for
// concurrent sheets, which remember the answers for unstyled cells.
func (s *Sheet) dateStyle(id StyleID, k cellKind) StyleID {
	w := s.w
	if !w.concurrent {
		return w.styles.dateStyle(id, k)
	}
	slot := int(k - kindDateTime)
	if id == 0 && s.plainDates[slot] != 0 {
		return s.plainDates[slot]
	}
	w.shared.Lock()
	v := w.styles.dateStyle(id, k)
	w.shared.Unlock()
	if id == 0 {
		s.plainDates[slot] = v
	}
	return v
}

// knownStyle reports whether id is a registered style.
func (s *Sheet) knownStyle(id StyleID) bool {
	if int(id) < s.styles {
		return true
	}
	s.w.lockShared()
	s.styles = len(s.w.styles.xfs)
	s.w.unlockShared()
	return int(id) < s.styles
}

// tooManyColumns says how many columns a row had past Excel's limit; a
// function of its own, out of WriteRow's hot path.
//
//go:noinline
func tooManyColumns(n int) error {
	return fmt.Errorf("%w: the row has %d", ErrTooManyColumns, n)
}
