package sqlsheet

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Scanning rows and encoding them are the two halves of an export's time
// (with SQLite, rows.Next alone is 40%), so after the sampled rows they run
// on two goroutines: a scanner copies raw values into batches, and the
// caller's goroutine converts, encodes and writes them. The xlsx.Writer is
// only ever used from the caller's goroutine.

const batchRows = 256

// scanned is one value as scanned, detached from the scan destinations.
type scanned struct {
	i       sql.NullInt64
	f       sql.NullFloat64
	b       sql.NullBool
	t       sql.NullTime
	raw     []byte // into the batch's arena; nil for NULL
	v       any
	dynamic bool
}

type batch struct {
	rows  int
	vals  []scanned
	arena []byte
	err   error
}

// scanner reads rows into batches until the result ends, an error occurs
// or stop is closed; it closes full when done.
func (e *exporter) scanner(rows source, full chan<- *batch, free <-chan *batch, stop <-chan struct{}) {
	defer close(full)
	n := len(e.cols)
	for {
		var b *batch
		select {
		case b = <-free:
		case <-stop:
			return
		}
		b.rows, b.arena, b.err = 0, b.arena[:0], nil
		if cap(b.vals) < batchRows*n {
			b.vals = make([]scanned, batchRows*n)
		}
		b.vals = b.vals[:batchRows*n]
		more := true
		for b.rows < batchRows {
			if !rows.Next() {
				more = false
				if err := rows.Err(); err != nil {
					b.err = err
				}
				break
			}
			if err := rows.scan(e.cols); err != nil {
				b.err = err
				more = false
				break
			}
			row := b.vals[b.rows*n : (b.rows+1)*n]
			for j, c := range e.cols {
				s := &row[j]
				s.dynamic = c.dynamic
				s.raw = nil
				switch d := c.dest().(type) {
				case *sql.NullInt64:
					s.i = *d
				case *sql.NullFloat64:
					s.f = *d
				case *sql.NullBool:
					s.b = *d
				case *sql.NullTime:
					s.t = *d
				case *any:
					s.v = *d
				case *sql.RawBytes:
					if *d != nil {
						start := len(b.arena)
						b.arena = append(b.arena, *d...)
						s.raw = b.arena[start:len(b.arena):len(b.arena)]
					}
				}
			}
			b.rows++
		}
		// Values sliced before the arena grew still point into its old
		// array, which keeps their bytes: nothing to fix up.
		select {
		case full <- b:
		case <-stop:
			return
		}
		if !more {
			return
		}
	}
}

// load puts a scanned value back into the consumer's column.
func load(c *column, s *scanned) {
	c.dynamic = s.dynamic
	c.i, c.f, c.b, c.t, c.v = s.i, s.f, s.b, s.t, s.v
	c.raw = s.raw
}

// pipe exports the rows left after sampling through the scanner.
func (e *exporter) pipe(ctx context.Context, rows source) error {
	full := make(chan *batch, 2)
	free := make(chan *batch, 3)
	for range 3 {
		// A non-nil arena, so that an empty value stays non-NULL.
		free <- &batch{arena: make([]byte, 0, 64<<10)}
	}
	// Consumer-side copies of the columns, taken before the scanner starts:
	// it keeps using the originals as scan destinations.
	cols := make([]*column, len(e.cols))
	for j, c := range e.cols {
		cc := *c
		cols[j] = &cc
	}
	stop := make(chan struct{})
	go e.scanner(rows, full, free, stop)
	fail := func(err error) error {
		close(stop)
		for range full { // wait for the scanner to leave rows alone
		}
		return err
	}
	n := len(cols)
	for b := range full {
		for r := range b.rows {
			row := b.vals[r*n : (r+1)*n]
			for j, c := range cols {
				load(c, &row[j])
				if err := e.cv.cell(&e.cells[j], c); err != nil {
					return fail(&xlsx.CellError{Sheet: e.sheetName(), Row: e.sheet.LastRow() + 1, Col: j + 1, Err: err})
				}
			}
			if err := e.write(e.cells); err != nil {
				return fail(err)
			}
			if e.opts.MaxRows > 0 && e.st.Rows >= e.opts.MaxRows {
				return fail(nil)
			}
			if e.st.Rows%progressEvery == 0 {
				if err := ctx.Err(); err != nil {
					return fail(err)
				}
				if e.opts.Progress != nil {
					e.opts.Progress(e.st.Rows)
				}
			}
		}
		if b.err != nil {
			return fail(fmt.Errorf("sheet %q, row %d: %w", e.sheetName(), e.sheet.LastRow()+1, b.err))
		}
		free <- b
	}
	return nil
}
