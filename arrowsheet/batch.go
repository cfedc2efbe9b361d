package arrowsheet

import (
	"fmt"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Batcher turns rows of cells written to it (a database export's, or
// any program's) into record batches, typing the columns from the first
// SampleRows rows as Reader types a sheet's: the push side of Reader.
// Rows are held until the types are chosen, then batched.
type Batcher struct {
	r     *Reader
	names []string
	emit  func(arrow.RecordBatch) error
	n     int // rows in the builders
	row   []xlsx.Value
}

// NewBatcher makes batches of columns named names (the table's, for
// messages) and hands each to emit, which may keep it only by Retain.
// ReadOptions' SampleRows, Types, BatchRows and Allocator apply.
func NewBatcher(table string, names []string, opts ReadOptions, emit func(arrow.RecordBatch) error) *Batcher {
	return &Batcher{r: newReader(table, opts), names: names, emit: emit}
}

// Schema is the batches' schema, nil until the types are chosen.
func (b *Batcher) Schema() *arrow.Schema { return b.r.schema }

// Add takes the next row, a cell a column (valid during the call only).
//
// Errors: a cell that does not fit its column (an *xlsx.CellError
// wrapping ErrMisfit, its row counted from 2, under a header), text that
// is not UTF-8 (wrapping xlsx.ErrInvalidUTF8), emit's.
func (b *Batcher) Add(cells []xlsx.Cell) error {
	r := b.r
	if len(cells) > len(b.names) {
		return fmt.Errorf("%q: a row of %d values for %d columns", r.sheet, len(cells), len(b.names))
	}
	r.read++
	num := int(r.read) + 1
	b.row = b.row[:0]
	for i := range cells {
		if cells[i].IsEmpty() {
			continue
		}
		b.row = append(b.row, xlsx.Value{})
		v := &b.row[len(b.row)-1]
		v.SetCell(i+1, &cells[i])
		// An Arrow string is UTF-8, as a workbook's text is.
		if v.Type() == xlsx.TypeString && !utf8.Valid(v.Bytes()) {
			return &xlsx.CellError{Sheet: r.sheet, Row: num, Col: i + 1, Err: xlsx.ErrInvalidUTF8}
		}
	}
	if r.schema == nil {
		h := heldRow{num: num, cells: make([]xlsx.Value, len(b.row)), texts: make([]string, len(b.row))}
		for i := range b.row {
			h.cells[i] = b.row[i]
			h.texts[i] = b.row[i].String() // the cells' text is the caller's
		}
		r.held = append(r.held, h)
		if len(r.held) < r.opts.SampleRows {
			return nil
		}
		return b.start()
	}
	return b.append(num, b.row, nil)
}

// start chooses the types from the held rows and batches them.
func (b *Batcher) start() error {
	r := b.r
	if err := r.decide(b.names); err != nil {
		return err
	}
	held := r.held
	r.held = nil
	for _, h := range held {
		if err := b.append(h.num, h.cells, h.texts); err != nil {
			return err
		}
	}
	return nil
}

func (b *Batcher) append(num int, cells []xlsx.Value, texts []string) error {
	if err := b.r.appendRow(num, cells, texts); err != nil {
		return err
	}
	if b.n++; b.n >= b.r.opts.BatchRows {
		return b.flush()
	}
	return nil
}

func (b *Batcher) flush() error {
	if b.n == 0 {
		return nil
	}
	rec := b.r.builder.NewRecordBatch()
	defer rec.Release()
	b.n = 0
	return b.emit(rec)
}

// Close chooses the types if fewer rows than SampleRows came, and hands
// over the last batch.
func (b *Batcher) Close() error {
	if b.r.schema == nil {
		if err := b.start(); err != nil {
			return err
		}
	}
	err := b.flush()
	b.r.builder.Release()
	return err
}
