package xlsx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"sync"

	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

// Hyperlink is a link on a cell or range: an external URL or a location
// inside the workbook.
type Hyperlink struct {
	Range    Range
	URL      string
	Location string
	Display  string
	Tooltip  string
}

// Rows reads one sheet's rows in order. One goroutine inflates the sheet
// and cuts its XML into chunks at row boundaries; ReadOptions.Workers
// goroutines parse chunks at the same time; Next hands the rows out in
// order. Memory is bounded by the chunks in flight (Workers+2) and the
// shared strings table.
type Rows struct {
	wb     *Workbook
	info   SheetInfo
	ctx    context.Context
	cancel context.CancelFunc
	rc     io.Closer

	order chan *chunk
	free  chan *chunk
	wg    sync.WaitGroup

	cur     *chunk
	next    int
	row     Row
	lastNum int
	base    int  // lastNum before the current chunk, for its relative rows
	copies  int  // copies of the current row still to hand out
	needEnd bool // the rows end at a chunk marked last, never at the stream's end
	err     error
	done    bool

	dim      Range
	hasDim   bool
	merges   []Range
	rawLinks []rawLink
	links    []Hyperlink
}

type rowSpan struct {
	num        int32 // 0: one after the previous row, and gap more
	start, end int32 // cells[start:end]; empty for a run of empty rows
	gap        int32 // rows skipped before this one, when num is 0
	repeat     int32 // copies of the row that follow it (.ods)
}

type rawLink struct {
	ref, rid, location, display, tooltip string
	url                                  string // when the format holds it in place of rid
	relRow, col                          int    // in place of ref, in relLinks
}

// A rowSource decodes the rows of a sheet stored as binary records (.xlsb,
// .xls): one goroutine fills chunks in order. Each call returns whole
// rows, and io.EOF with the last. (.ods tables are XML, parsed by workers
// as XML sheets are: see odsRows.)
type rowSource interface {
	fill(c *chunk) error
	Close() error
}

// fillChunkCells is about how many cells a rowSource puts in a chunk.
const fillChunkCells = 4096

// chunk is a piece of a sheet's XML and, once parsed, its rows. Chunks are
// reused: their buffers stop growing after the first few.
type chunk struct {
	xml    []byte
	first  bool
	ready  chan struct{}
	sc     xmlscan.Scanner
	rows   []rowSpan
	cells  []Value
	arena  []byte
	tmp    []byte
	merges []string
	links  []rawLink
	dim    string
	err    error
	// Merges and links at rows relative to the chunk's start (1 is the
	// first row after the previous chunk's last), from parsers that do not
	// know where their chunk starts.
	relMerges []Range
	relLinks  []rawLink
	last      bool // the sheet ends in this chunk, whatever follows it
}

// Rows starts reading the sheet at index (0-based, as Sheets lists it).
// Close the Rows when done; cancelling ctx stops the reading goroutines.
//
// Errors: ErrNoSheet for an index out of range; ErrMissingPart for a
// listed sheet without a part; ErrXLSB for a binary sheet listed by an
// XML workbook; errors reading the shared strings and styles the sheet
// needs, or the start of a .xls sheet. Errors in the sheet's content come
// from Rows.Err, each a *ReadError naming sheet, row and column.
func (wb *Workbook) Rows(ctx context.Context, index int) (*Rows, error) {
	if index < 0 || index >= len(wb.sheets) {
		return nil, &ReadError{File: wb.file, Err: fmt.Errorf("%w: index %d of %d", ErrNoSheet, index, len(wb.sheets))}
	}
	info := wb.sheets[index]
	if info.Part == "" {
		return nil, &ReadError{File: wb.file, Sheet: info.Name, Err: fmt.Errorf("%w: the workbook lists the sheet but no part holds it", ErrMissingPart)}
	}
	if wb.format == FormatXLSX && binaryPart(info.Part) {
		// An XML workbook over a binary sheet: read as XML it would be an
		// empty sheet, which must never pass for the sheet's content.
		return nil, &ReadError{File: wb.file, Part: info.Part, Sheet: info.Name, Err: ErrXLSB}
	}
	sst, err := wb.loadSST()
	if err != nil {
		return nil, err
	}
	styles, err := wb.loadStyles()
	if err != nil {
		return nil, err
	}
	p := &sheetParser{sheet: info.Name, part: info.Part, file: wb.file, sst: sst, styles: styles, date1904: wb.date1904, limits: wb.limits}
	nameSheet := func(err error) error {
		var re *ReadError
		if errors.As(err, &re) {
			re.Sheet = info.Name
		}
		return err
	}
	if wb.format == FormatODS {
		r, err := wb.odsRows(ctx, info, p)
		return r, nameSheet(err)
	}
	if wb.format != FormatXLSX {
		src, err := wb.openRowSource(p, index)
		if err != nil {
			return nil, nameSheet(err)
		}
		r := wb.newRows(ctx, info, src, 3)
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			r.decode(src)
		}()
		return r, nil
	}
	rc, _, err := wb.openPart(info.Part)
	if err != nil {
		return nil, nameSheet(err)
	}
	n := wb.opts.Workers + 2
	r := wb.newRows(ctx, info, rc, n)
	jobs := make(chan *chunk, n)
	for range wb.opts.Workers {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			for c := range jobs {
				p.parse(c)
				c.ready <- struct{}{}
			}
		}()
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		r.split(rc, jobs, p)
	}()
	return r, nil
}

// newRows makes a Rows with n chunks to fill.
func (wb *Workbook) newRows(ctx context.Context, info SheetInfo, rc io.Closer, n int) *Rows {
	r := &Rows{wb: wb, info: info, rc: rc}
	r.ctx, r.cancel = context.WithCancel(ctx)
	r.order = make(chan *chunk, n)
	r.free = make(chan *chunk, n)
	for range n {
		r.free <- &chunk{ready: make(chan struct{}, 1)}
	}
	return r
}

// reset empties a chunk for reuse.
func (c *chunk) reset() {
	c.rows, c.cells, c.arena = c.rows[:0], c.cells[:0], c.arena[:0]
	c.merges, c.links, c.dim, c.err = c.merges[:0], c.links[:0], "", nil
	c.relMerges, c.relLinks, c.last = c.relMerges[:0], c.relLinks[:0], false
}

// decode fills chunks from a rowSource and hands them out in order.
func (r *Rows) decode(src rowSource) {
	defer close(r.order)
	for {
		var c *chunk
		select {
		case c = <-r.free:
		case <-r.ctx.Done():
			return
		}
		c.reset()
		err := src.fill(c)
		if err != nil && err != io.EOF {
			c.err = err
		}
		c.ready <- struct{}{}
		r.order <- c
		if err != nil {
			return
		}
	}
}

// split inflates the sheet and hands out chunks cut before <row> tags (or
// the merge and hyperlink lists after the rows, which can be long).
func (r *Rows) split(rc io.Reader, jobs chan<- *chunk, p *sheetParser) {
	defer close(r.order)
	defer close(jobs)
	sp := xmlscan.NewSplitter(rc, r.wb.opts.ChunkSize, r.wb.limits.MaxRowSize, "row", "mergeCell", "hyperlink")
	first := true
	for {
		var c *chunk
		select {
		case c = <-r.free:
		case <-r.ctx.Done():
			return
		}
		xml, err := sp.Next(c.xml)
		c.xml = xml
		if err == io.EOF {
			r.free <- c
			return
		}
		if err != nil {
			if errors.Is(err, xmlscan.ErrPieceTooLarge) {
				err = fmt.Errorf("%w: a row over %d bytes of XML (Limits.MaxRowSize): %w", ErrLimit, r.wb.limits.MaxRowSize, err)
			}
			c.rows, c.cells, c.merges, c.links = c.rows[:0], c.cells[:0], c.merges[:0], c.links[:0]
			c.err = p.errorf(0, 0, err)
			c.ready <- struct{}{}
			r.order <- c
			return
		}
		c.first = first
		first = false
		jobs <- c
		r.order <- c
	}
}

// Next advances to the next row that has cells. It returns false at the
// end of the sheet or on an error; Err tells which.
func (r *Rows) Next() bool {
	for {
		if r.cur != nil {
			if r.copies > 0 {
				// A repeated row: the same cells, one row on.
				r.copies--
				r.lastNum++
				if r.lastNum > MaxRows {
					r.fail(&ReadError{File: r.wb.file, Part: r.info.Part, Sheet: r.info.Name, Row: r.lastNum, Err: fmt.Errorf("%w: row %d", ErrMalformed, r.lastNum)})
					return false
				}
				r.row.Num = r.lastNum
				return true
			}
			for r.next < len(r.cur.rows) {
				sp := r.cur.rows[r.next]
				r.next++
				num := int(sp.num)
				if num == 0 {
					num = r.lastNum + 1 + int(sp.gap)
				}
				r.lastNum = num
				if sp.start == sp.end {
					continue
				}
				if num > MaxRows {
					r.fail(&ReadError{File: r.wb.file, Part: r.info.Part, Sheet: r.info.Name, Row: num, Err: fmt.Errorf("%w: row %d", ErrMalformed, num)})
					return false
				}
				r.row = Row{Num: num, Cells: r.cur.cells[sp.start:sp.end:sp.end]}
				r.copies = int(sp.repeat)
				return true
			}
			c := r.cur
			r.cur = nil
			for _, m := range c.relMerges {
				m.FirstRow += r.base
				m.LastRow += r.base
				if m.FirstRow <= MaxRows {
					m.LastRow = min(m.LastRow, MaxRows)
					r.merges = append(r.merges, m)
				}
			}
			for _, l := range c.relLinks {
				if row := r.base + l.relRow; row <= MaxRows {
					l.ref = CellName(row, l.col)
					r.rawLinks = append(r.rawLinks, l)
				}
			}
			if re := (*ReadError)(nil); errors.As(c.err, &re) && re.Row < 0 {
				re.Row = r.base - re.Row // a row relative to the chunk
			}
			if c.dim != "" && !r.hasDim {
				r.dim, r.hasDim = parseDimension(c.dim)
			}
			for _, m := range c.merges {
				if rg, err := ParseRange(m); err == nil {
					r.merges = append(r.merges, rg)
				}
			}
			r.rawLinks = append(r.rawLinks, c.links...)
			err := c.err
			if limits := r.wb.limits; err == nil {
				over := ""
				switch {
				case len(r.merges) > limits.MaxMergedCells:
					over = fmt.Sprintf("more than %d merged ranges (Limits.MaxMergedCells)", limits.MaxMergedCells)
				case len(r.rawLinks) > limits.MaxHyperlinks:
					over = fmt.Sprintf("more than %d hyperlinks (Limits.MaxHyperlinks)", limits.MaxHyperlinks)
				}
				if over != "" {
					err = &ReadError{File: r.wb.file, Part: r.info.Part, Sheet: r.info.Name, Err: fmt.Errorf("%w: %s", ErrLimit, over)}
				}
			}
			last := c.last
			r.free <- c
			if err != nil {
				r.fail(err)
				return false
			}
			if last {
				r.done = true
				r.finish()
				r.cancel() // the rest of the stream holds other sheets
				return false
			}
		}
		if r.err != nil || r.done {
			return false
		}
		c, ok := <-r.order
		if !ok {
			if err := r.ctx.Err(); err != nil {
				r.fail(err)
				return false
			}
			if r.needEnd {
				r.fail(&ReadError{File: r.wb.file, Part: r.info.Part, Sheet: r.info.Name, Err: fmt.Errorf("%w: the sheet's end is missing", ErrMalformed)})
				return false
			}
			r.done = true
			r.finish()
			return false
		}
		<-c.ready
		r.cur, r.next, r.base = c, 0, r.lastNum
	}
}

func (r *Rows) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.cancel()
}

// finish resolves hyperlinks through the sheet's relationships.
func (r *Rows) finish() {
	if len(r.rawLinks) == 0 {
		return
	}
	var rels relationships
	if r.wb.format == FormatXLSX || r.wb.format == FormatXLSB {
		rels, _ = r.wb.readRels(r.info.Part)
	}
	for _, l := range r.rawLinks {
		rg, err := ParseRange(l.ref)
		if err != nil {
			if row, col, err := ParseCellName(l.ref); err == nil {
				rg = Range{row, col, row, col}
			} else {
				continue
			}
		}
		h := Hyperlink{Range: rg, URL: l.url, Location: l.location, Display: l.display, Tooltip: l.tooltip}
		if rel, ok := rels.byID(l.rid); ok {
			h.URL = rel.target
		}
		r.links = append(r.links, h)
	}
}

func parseDimension(ref string) (Range, bool) {
	if rg, err := ParseRange(ref); err == nil {
		return rg, true
	}
	if row, col, err := ParseCellName(ref); err == nil {
		return Range{row, col, row, col}, true
	}
	return Range{}, false
}

// Row is the current row. Its cells stay valid until the next Next.
func (r *Rows) Row() Row { return r.row }

// Err is the error that stopped Next, if any.
func (r *Rows) Err() error { return r.err }

// Sheet describes the sheet being read.
func (r *Rows) Sheet() SheetInfo { return r.info }

// Dimension is the used range the sheet declares, known once its first
// row is read; writers may omit it or get it wrong.
func (r *Rows) Dimension() (Range, bool) { return r.dim, r.hasDim }

// MergedCells lists the merged ranges; they follow the rows in the file,
// so the list is complete once Next has returned false.
func (r *Rows) MergedCells() []Range { return r.merges }

// Hyperlinks lists the sheet's links, complete once Next has returned
// false.
func (r *Rows) Hyperlinks() []Hyperlink { return r.links }

// All iterates over the rows; check Err afterwards.
func (r *Rows) All() iter.Seq[Row] {
	return func(yield func(Row) bool) {
		for r.Next() {
			if !yield(r.row) {
				return
			}
		}
	}
}

// Close stops reading and releases the sheet's goroutines and buffers.
func (r *Rows) Close() error {
	r.cancel()
	for c := range r.order {
		<-c.ready
	}
	r.wg.Wait()
	r.cur = nil
	return r.rc.Close()
}
