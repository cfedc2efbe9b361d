package sqlsheet

import (
	"context"
	"fmt"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Scanning and converting rows, and encoding them, are the two halves of
// an export's time, so after the sampled rows they run on two goroutines:
// a scanner reads rows and converts their values into batches of cells,
// and the caller's goroutine writes them. The xlsx.Writer is only ever
// used from the caller's goroutine.

// A batch holds at most batchRows rows and batchCells cells, and stops
// taking rows once its values hold batchBytes: with three batches in
// flight, an export's rows in memory stay bounded in bytes as well as in
// rows, however wide the table or long its values (each is cut to
// maxValueBytes first).
const (
	batchRows  = 256
	batchCells = 4096
	batchBytes = 1 << 20
)

// rowsPerBatch is how many rows of n columns a batch takes.
func rowsPerBatch(n int) int { return max(1, min(batchRows, batchCells/max(n, 1))) }

type batch struct {
	rows  int
	cells []xlsx.Cell
	// arena holds the bytes of the batch's values that the source lends
	// only until the next row; its cells' text points into it.
	arena []byte
	// err ends the batch after its rows: a read error, or, when errCol is
	// set, the value in that column (from 1) of the row after them.
	err    error
	errCol int
}

// scanner reads and converts up to limit rows (all, if limit <= 0) into
// batches until the result ends, an error occurs or stop is closed; it
// closes full when done.
func (e *exporter) scanner(rows rowReader, limit int64, full chan<- *batch, free <-chan *batch, stop <-chan struct{}) {
	defer close(full)
	n := len(e.cols)
	perBatch := rowsPerBatch(n)
	var scanned int64
	for {
		var b *batch
		select {
		case b = <-free:
		case <-stop:
			return
		}
		b.rows, b.arena, b.err, b.errCol = 0, b.arena[:0], nil, 0
		if cap(b.cells) < perBatch*n {
			b.cells = make([]xlsx.Cell, perBatch*n)
		}
		held := 0 // bytes of the batch's values
		short := false
	fill:
		for b.rows < perBatch {
			if held >= batchBytes {
				break
			}
			if limit > 0 && scanned == limit {
				break
			}
			if !rows.Next() {
				if err := rows.Err(); err != nil {
					b.err = err
				}
				short = true
				break
			}
			if err := rows.scan(e.cols); err != nil {
				b.err = err
				short = true
				break
			}
			row := b.cells[b.rows*n : (b.rows+1)*n]
			for j, c := range e.cols {
				v := &c.val
				held += v.cut()
				if v.lent() {
					// Cells made from the arena still point into its old
					// array when it grows, which keeps their bytes.
					start := len(b.arena)
					b.arena = append(b.arena, v.b...)
					v.b = b.arena[start:len(b.arena):len(b.arena)]
				}
				if err := e.cv.cell(&row[j], c); err != nil {
					b.err, b.errCol = err, j+1
					short = true
					break fill
				}
			}
			b.rows++
			scanned++
		}
		if limit > 0 && scanned == limit {
			short = true
		}
		select {
		case full <- b:
		case <-stop:
			return
		}
		if short { // the rows ended, failed or reached the limit
			return
		}
	}
}

// pipe exports the rows left after sampling through the scanner.
func (e *exporter) pipe(ctx context.Context, rows rowReader) error {
	full := make(chan *batch, 2)
	free := make(chan *batch, 3)
	for range 3 {
		free <- &batch{arena: make([]byte, 0, 64<<10)}
	}
	var limit int64
	if e.opts.MaxRows > 0 {
		limit = e.opts.MaxRows - e.st.Rows
	}
	stop := make(chan struct{})
	go e.scanner(rows, limit, full, free, stop)
	fail := func(err error) error {
		close(stop)
		for range full { // wait for the scanner to leave rows alone
		}
		return err
	}
	n := len(e.cols)
	for b := range full {
		for r := range b.rows {
			if err := e.write(b.cells[r*n : (r+1)*n]); err != nil {
				return fail(err)
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
			sheet, row := e.position()
			if b.errCol > 0 {
				return fail(&xlsx.CellError{Sheet: sheet, Row: row, Col: b.errCol, Err: b.err})
			}
			return fail(fmt.Errorf("sheet %q, row %d: %w", sheet, row, b.err))
		}
		free <- b
	}
	return nil
}
