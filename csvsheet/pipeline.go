package csvsheet

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/sheetstream/sheetstream/xlsx"
)

// A conversion reads and types a row on one core and encodes it on
// another: rowPipe hands typed rows, a batch at a time, to a goroutine
// that writes them to the sink. Reading and typing a CSV row costs about
// as much as encoding it (bench/RESULTS.md, C3), so on one goroutine the
// two took turns while the writer's deflate workers waited for chunks.

// batchRows is the rows of a batch: large enough that handing one over
// costs nothing per row, small enough that the batches in flight (three:
// one filled, one queued, one written) stay under a megabyte for ten
// columns.
const batchRows = 256

// rowBatch is typed rows on their way to the sink.
type rowBatch struct {
	cells []xlsx.Cell // the rows' cells, one after another
	ends  []int       // each row's end in cells
	lines []int       // each row's line in the input
}

// rowsEnd is where the batch's committed rows end in cells.
func (b *rowBatch) rowsEnd() int {
	if len(b.ends) == 0 {
		return 0
	}
	return b.ends[len(b.ends)-1]
}

func (b *rowBatch) reset() {
	clear(b.cells[:cap(b.cells)]) // no strings kept alive past their rows
	b.cells, b.ends, b.lines = b.cells[:0], b.ends[:0], b.lines[:0]
}

// rowPipe writes the rows given to it to sink on its own goroutine, in
// order. Its errors carry their row's line, as a conversion's do; the
// first one stops it, and the rows after it are not written.
type rowPipe struct {
	sink  RowSink
	opts  *Options
	st    *Stats
	mu    sync.Mutex // the sink: rows written by the pipe, styles added by typing
	full  chan *rowBatch
	free  chan *rowBatch
	done  chan error
	cur   *rowBatch
	stop  chan struct{} // closed when the pipe fails: the typing ends
	ended bool
	err   error // the pipe's, once ended
}

func newRowPipe(sink RowSink, opts *Options, st *Stats) *rowPipe {
	p := &rowPipe{sink: sink, opts: opts, st: st,
		full: make(chan *rowBatch, 1), free: make(chan *rowBatch, 3), done: make(chan error, 1), stop: make(chan struct{})}
	for range 3 {
		p.free <- &rowBatch{}
	}
	p.cur = <-p.free
	go p.run()
	return p
}

// AddStyle adds a style to the sink between the pipe's batches.
func (p *rowPipe) AddStyle(style xlsx.Style) (xlsx.StyleID, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sink.AddStyle(style)
}

// row is room for a row of n cells at the end of the batch being filled,
// which typing fills in place (a cell is about a hundred bytes: a copy
// of each was a tenth of a conversion's CPU). Until commit, the row is
// not the batch's: a row that fails to type is left out.
func (p *rowPipe) row(n int) []xlsx.Cell {
	b := p.cur
	if b.cells == nil { // a new batch: room for its rows at once
		b.cells = make([]xlsx.Cell, 0, batchRows*n)
		b.ends, b.lines = make([]int, 0, batchRows), make([]int, 0, batchRows)
	}
	start := b.rowsEnd()
	b.cells = slices.Grow(b.cells[:start], n)[:start+n]
	return b.cells[start:]
}

// commit queues the row row gave, typed from line. It returns the pipe's
// error once the pipe has failed (the row is then not written).
func (p *rowPipe) commit(line int) error {
	b := p.cur
	b.ends = append(b.ends, len(b.cells))
	b.lines = append(b.lines, line)
	if len(b.ends) < batchRows {
		return nil
	}
	return p.send()
}

// fresh says whether the row being typed starts a batch: what typing
// keeps in buffers of its own for a row's cells must then be new.
func (p *rowPipe) fresh() bool { return len(p.cur.ends) == 0 }

func (p *rowPipe) send() error {
	b := p.cur
	p.cur = nil // the pipe's now, or dropped
	select {
	case p.full <- b:
	case <-p.stop:
		return p.close()
	}
	select {
	case p.cur = <-p.free:
		return nil
	case <-p.stop:
		return p.close()
	}
}

// close writes what is queued and waits for the pipe: its first error,
// or nil when every row was written.
func (p *rowPipe) close() error {
	if !p.ended {
		p.ended = true
		if p.cur != nil && len(p.cur.ends) > 0 {
			select {
			case p.full <- p.cur:
			case <-p.stop:
			}
		}
		close(p.full)
		p.err = <-p.done
	}
	return p.err
}

func (p *rowPipe) run() {
	var err error
	for b := range p.full {
		if err == nil {
			p.mu.Lock()
			err = p.write(b)
			p.mu.Unlock()
			if err != nil {
				close(p.stop)
			}
		}
		b.reset()
		p.free <- b
	}
	p.done <- err
}

// write writes a batch's rows, counting them, with progress.
func (p *rowPipe) write(b *rowBatch) error {
	start := 0
	for r, end := range b.ends {
		if err := p.sink.WriteRow(b.cells[start:end]); err != nil {
			return rowError(err, b.lines[r], p.opts)
		}
		start = end
		p.st.Rows++
		if p.st.Rows%progressEvery == 0 && p.opts.Progress != nil {
			p.opts.Progress(p.st.Rows)
		}
	}
	return nil
}

// rowError is the error of writing the row typed from line.
func rowError(err error, line int, opts *Options) error {
	var cell *xlsx.CellError
	if errors.Is(err, xlsx.ErrInvalidUTF8) && opts.Encoding == "" && errors.As(err, &cell) {
		// The text is in another character set: say so, as a CSV's
		// problem, not a cell's (a row's cells are its fields).
		return fmt.Errorf("line %d, field %d: %w", line, cell.Col, ErrNotUTF8)
	}
	return fmt.Errorf("line %d: %w", line, err)
}
