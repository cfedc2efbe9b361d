package arrowsheet

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sheetstream/sheetstream/xlsx"
)

// ReadOptions control NewReader. The zero ReadOptions take the first row
// as the header and type each column from its first 1,000 values.
type ReadOptions struct {
	// SkipRows are rows left out above the header (or the data, with
	// NoHeader).
	SkipRows int
	// NoHeader names the columns A, B, C... and reads the first row as
	// data.
	NoHeader bool
	// SkipDataRows are rows left out under the header, before the data.
	SkipDataRows int
	// SampleRows is how many rows the columns' types are chosen from
	// (1,000 when zero).
	SampleRows int
	// Types fix columns' types by name, instead of the sample's choice:
	// one of the types of the package documentation.
	Types map[string]arrow.DataType
	// BatchRows is the rows of a record batch (65,536 when zero).
	BatchRows int
	// MaxRows stops after this many data rows (0: all).
	MaxRows int64
	// Allocator allocates the batches' memory (Go's heap when nil).
	Allocator memory.Allocator
}

// ErrMisfit: a cell that its column's type cannot hold. It comes as a
// *MisfitError in an *xlsx.CellError naming the cell.
var ErrMisfit = errors.New("does not fit its column")

// MisfitError is a cell its column's type cannot hold: errors.Is(err,
// ErrMisfit) holds, errors.As gives the column and a type that holds
// both the column's values and this one, for a caller that allows its
// columns to widen (see Widen).
type MisfitError struct {
	Column string         // the column's name
	Type   arrow.DataType // the column's type
	Wider  arrow.DataType // float64 for a fraction among whole numbers, timestamp for a date-time among dates, else string
	Cell   xlsx.CellType  // the cell's kind
	Text   string         // the cell's text
}

func (e *MisfitError) Error() string {
	return fmt.Sprintf("%s %q %v (%s)", e.Cell, e.Text, ErrMisfit, e.Type)
}

// Is makes errors.Is(err, ErrMisfit) hold.
func (e *MisfitError) Is(target error) bool { return target == ErrMisfit }

// Widen is types (ReadOptions.Types) with the column err's misfit names
// widened, when err is a *MisfitError, for reading the sheet again from
// its start: a stream cannot change a column's type once batches have
// gone out, so widening costs a read per widened column (two at most per
// column: int64 to float64 to string). types is not changed.
func Widen(err error, types map[string]arrow.DataType) (map[string]arrow.DataType, bool) {
	var m *MisfitError
	if !errors.As(err, &m) || arrow.TypeEqual(m.Type, m.Wider) {
		return types, false
	}
	wider := make(map[string]arrow.DataType, len(types)+1)
	for name, t := range types {
		wider[name] = t
	}
	wider[m.Column] = m.Wider
	return wider, true
}

// WidenedTypes reads a sheet to its end, again from its start after
// each misfit, and returns opts.Types with every column widened as far
// as its cells need: a Reader of the sheet with them holds every cell.
// open gives the sheet's rows from the start, its name (for messages)
// and a function that closes them. Its cost is a read of the sheet, and
// one more per widening; its memory a Reader's.
//
// Errors: open's, NewReader's, the sheet's own.
func WidenedTypes(open func() (rows *xlsx.Rows, sheet string, done func(), err error), opts ReadOptions) (map[string]arrow.DataType, error) {
	for {
		rows, sheet, done, err := open()
		if err != nil {
			return nil, err
		}
		r, err := NewReader(rows, sheet, opts)
		if err == nil {
			for r.Next() {
			}
			err = r.Err()
			r.Release()
		}
		done()
		if err == nil {
			return opts.Types, nil
		}
		wider, ok := Widen(err, opts.Types)
		if !ok {
			return nil, err
		}
		opts.Types = wider
	}
}

// Reader reads a sheet's rows as record batches: an array.RecordReader.
// Its batches are valid until the next call to Next.
type Reader struct {
	refs    atomic.Int64
	rows    *xlsx.Rows
	sheet   string
	opts    ReadOptions
	schema  *arrow.Schema
	builder *array.RecordBuilder
	kinds   []kind
	held    []heldRow // the sampled rows, before the first batch
	rec     arrow.RecordBatch
	read    int64
	err     error
	done    bool
	// last is the sheet row read last; a row after a gap is pending
	// while the gap's rows (empty in the sheet: all null) are made.
	last    int
	pending *heldRow
	lent    bool    // pending's values are the reader's (not held)
	lentRow heldRow // the sheet's current row, when pending
}

// heldRow is a sampled row, its values copied out of the reader's
// buffers.
type heldRow struct {
	num   int
	cells []xlsx.Value
	texts []string
}

// kind is what a column's cells become.
type kind uint8

const (
	kindString kind = iota
	kindInt
	kindFloat
	kindBool
	kindDate
	kindTime
	kindTimestamp
	kindDuration
)

// Timestamp is the type date-times read as: microseconds, without a
// time zone (a cell has none: its wall clock is what it says).
var Timestamp arrow.DataType = &arrow.TimestampType{Unit: arrow.Microsecond}

var kindTypes = [...]arrow.DataType{
	kindString:    arrow.BinaryTypes.String,
	kindInt:       arrow.PrimitiveTypes.Int64,
	kindFloat:     arrow.PrimitiveTypes.Float64,
	kindBool:      arrow.FixedWidthTypes.Boolean,
	kindDate:      arrow.FixedWidthTypes.Date32,
	kindTime:      arrow.FixedWidthTypes.Time64us,
	kindTimestamp: Timestamp,
	kindDuration:  arrow.FixedWidthTypes.Duration_us,
}

// kindOfType is the kind an arrow type of ReadOptions.Types reads as.
func kindOfType(t arrow.DataType) (kind, bool) {
	for k, kt := range kindTypes {
		if arrow.TypeEqual(kt, t) {
			return kind(k), true
		}
	}
	return 0, false
}

// NewReader reads the header and the sampled rows of rows, the sheet
// named sheet (for messages), and chooses the schema. The caller closes
// rows after the Reader.
//
// Errors: rows' own, a type in ReadOptions.Types the package does not
// read into, or a sheet with neither header nor rows.
func NewReader(rows *xlsx.Rows, sheet string, opts ReadOptions) (*Reader, error) {
	r := newReader(sheet, opts)
	r.rows, opts = rows, r.opts
	var header []string
	for skipped := 0; skipped < opts.SkipRows && rows.Next(); skipped++ {
	}
	if !opts.NoHeader {
		if !rows.Next() {
			if err := rows.Err(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("sheet %q: no header row", sheet)
		}
		r.last = rows.Row().Num
		for _, v := range rows.Row().Cells {
			for len(header) < v.Col()-1 {
				header = append(header, "")
			}
			header = append(header, v.String())
		}
	}
	for skipped := 0; skipped < opts.SkipDataRows && rows.Next(); skipped++ {
		r.last = rows.Row().Num
	}
	width := len(header)
	for len(r.held) < opts.SampleRows && (opts.MaxRows <= 0 || int64(len(r.held)) < opts.MaxRows) && rows.Next() {
		row := rows.Row()
		h := heldRow{num: row.Num, cells: make([]xlsx.Value, len(row.Cells)), texts: make([]string, len(row.Cells))}
		for i := range row.Cells {
			h.cells[i] = row.Cells[i]
			h.texts[i] = row.Cells[i].String() // the value's bytes are the reader's
			width = max(width, row.Cells[i].Col())
		}
		r.held = append(r.held, h)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if width == 0 && opts.NoHeader {
		return nil, fmt.Errorf("sheet %q: no rows", sheet)
	}
	if err := r.decide(columnNames(header, width)); err != nil {
		return nil, err
	}
	return r, nil
}

// decide chooses the columns' types from the held rows (or
// ReadOptions.Types) and makes the schema and builders.
func (r *Reader) decide(names []string) error {
	fields := make([]arrow.Field, len(names))
	r.kinds = make([]kind, len(names))
	for c := range names {
		k := r.sampleKind(c + 1)
		if t, ok := r.opts.Types[names[c]]; ok {
			fixed, known := kindOfType(t)
			if !known {
				return fmt.Errorf("sheet %q, column %q: arrowsheet reads no column as %s", r.sheet, names[c], t)
			}
			k = fixed
		}
		r.kinds[c] = k
		fields[c] = arrow.Field{Name: names[c], Type: kindTypes[k], Nullable: true}
	}
	r.schema = arrow.NewSchema(fields, nil)
	r.builder = array.NewRecordBuilder(r.opts.Allocator, r.schema)
	return nil
}

// newReader is a Reader of the table named sheet, ReadOptions' defaults
// filled in, reading nothing yet.
func newReader(sheet string, opts ReadOptions) *Reader {
	if opts.SampleRows <= 0 {
		opts.SampleRows = 1000
	}
	if opts.BatchRows <= 0 {
		opts.BatchRows = 65536
	}
	if opts.Allocator == nil {
		opts.Allocator = memory.DefaultAllocator
	}
	r := &Reader{sheet: sheet, opts: opts}
	r.refs.Store(1)
	return r
}

// columnNames are the header's texts, a column's letter where it has
// none, and a suffix (_2, _3...) for a name already taken.
func columnNames(header []string, width int) []string {
	names := make([]string, width)
	seen := map[string]bool{}
	for i := range width {
		name := ""
		if i < len(header) {
			name = header[i]
		}
		if name == "" {
			name = xlsx.ColumnName(i + 1)
		}
		base := name
		for n := 2; seen[name]; n++ {
			name = base + "_" + strconv.Itoa(n)
		}
		seen[name] = true
		names[i] = name
	}
	return names
}

// sampleKind chooses column col's kind from the sampled rows.
func (r *Reader) sampleKind(col int) kind {
	var numbers, whole, texts, bools, dates, dateOnly, times, elapsed, seen int
	for _, h := range r.held {
		for i := range h.cells {
			v := &h.cells[i]
			if v.Col() != col {
				continue
			}
			switch v.Type() {
			case xlsx.TypeNumber:
				seen++
				if v.Elapsed() {
					elapsed++
					continue
				}
				numbers++
				if f := v.Float(); f == math.Trunc(f) && math.Abs(f) < 1<<63 {
					whole++
				}
			case xlsx.TypeString:
				seen++
				texts++
			case xlsx.TypeBool:
				seen++
				bools++
			case xlsx.TypeDate:
				seen++
				dates++
				if v.DateOnly() {
					dateOnly++
				} else if v.TimeOfDay() {
					times++
				}
			}
		}
	}
	switch {
	case seen == 0 || texts > 0:
		return kindString
	case numbers == seen && whole == seen:
		return kindInt
	case numbers == seen:
		return kindFloat
	case bools == seen:
		return kindBool
	case elapsed == seen:
		return kindDuration
	case dates == seen && dateOnly == seen:
		return kindDate
	case dates == seen && times == seen:
		return kindTime
	case dates == seen:
		return kindTimestamp
	}
	return kindString // mixed kinds: each cell's text
}

// Schema is the batches' schema.
func (r *Reader) Schema() *arrow.Schema { return r.schema }

// Next makes the next batch; false at the end or on an error (Err).
func (r *Reader) Next() bool {
	if r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
	if r.done || r.err != nil {
		return false
	}
	n := 0
	for n < r.opts.BatchRows {
		if r.opts.MaxRows > 0 && r.read >= r.opts.MaxRows {
			r.done = true
			break
		}
		if r.pending == nil && !r.nextRow() {
			break
		}
		h := r.pending
		if h.num > r.last+1 && r.last > 0 {
			// A row the sheet leaves empty between rows: all null.
			for i := range r.kinds {
				r.builder.Field(i).AppendNull()
			}
			r.last++
		} else {
			var texts []string
			if !r.lent {
				texts = h.texts
			}
			if r.err = r.appendRow(h.num, h.cells, texts); r.err != nil {
				r.builder.Release() // what the batch had is dropped with it
				r.builder = array.NewRecordBuilder(r.opts.Allocator, r.schema)
				return false
			}
			r.last, r.pending = h.num, nil
		}
		n++
		r.read++
	}
	if r.err != nil || n == 0 {
		return false
	}
	r.rec = r.builder.NewRecordBatch()
	return true
}

// nextRow makes the next row pending: a held one, or the sheet's next;
// false at the end (or on the sheet's error, in r.err).
func (r *Reader) nextRow() bool {
	if len(r.held) > 0 {
		r.pending, r.lent = &r.held[0], false
		r.held = r.held[1:]
		return true
	}
	if !r.rows.Next() {
		r.err, r.done = r.rows.Err(), true
		return false
	}
	row := r.rows.Row()
	r.lentRow = heldRow{num: row.Num, cells: row.Cells}
	r.pending, r.lent = &r.lentRow, true
	return true
}

// appendRow appends a row's cells (texts: their texts, when the row was
// held: its values' bytes are then gone) to the builders, a null for each
// cell the row lacks.
func (r *Reader) appendRow(num int, cells []xlsx.Value, texts []string) error {
	next := 1 // the next column to fill
	for i := range cells {
		v := &cells[i]
		col := v.Col()
		if col > len(r.kinds) {
			return &xlsx.CellError{Sheet: r.sheet, Row: num, Col: col, Err: fmt.Errorf("a value right of the table's %d columns", len(r.kinds))}
		}
		for ; next < col; next++ {
			r.builder.Field(next - 1).AppendNull()
		}
		var text *string
		if texts != nil {
			text = &texts[i]
		}
		if err := r.appendValue(col-1, v, text); err != nil {
			return &xlsx.CellError{Sheet: r.sheet, Row: num, Col: col, Err: err}
		}
		next = col + 1
	}
	for ; next <= len(r.kinds); next++ {
		r.builder.Field(next - 1).AppendNull()
	}
	return nil
}

// appendValue appends v to column c's builder; held is v's text when its
// row was held (v's own bytes are then gone).
func (r *Reader) appendValue(c int, v *xlsx.Value, held *string) error {
	b := r.builder.Field(c)
	t := v.Type()
	if t == xlsx.TypeEmpty || t == xlsx.TypeError {
		b.AppendNull()
		return nil
	}
	k := r.kinds[c]
	misfit := func() error {
		e := &MisfitError{Column: r.schema.Field(c).Name, Type: kindTypes[k], Wider: kindTypes[kindString], Cell: t}
		if held != nil {
			e.Text = *held
		} else {
			e.Text = v.String()
		}
		switch {
		case k == kindInt && t == xlsx.TypeNumber && !v.Elapsed():
			e.Wider = kindTypes[kindFloat]
		case k == kindDate && t == xlsx.TypeDate && !v.TimeOfDay():
			e.Wider = kindTypes[kindTimestamp]
		}
		return e
	}
	switch k {
	case kindString:
		switch {
		case held != nil:
			b.(*array.StringBuilder).Append(*held)
		case t == xlsx.TypeString:
			b.(*array.StringBuilder).BinaryBuilder.Append(v.Bytes())
		default:
			b.(*array.StringBuilder).Append(v.String())
		}
	case kindInt:
		f := v.Float()
		if t != xlsx.TypeNumber || v.Elapsed() || f != math.Trunc(f) || math.Abs(f) >= 1<<63 {
			return misfit()
		}
		b.(*array.Int64Builder).Append(int64(f))
	case kindFloat:
		if t != xlsx.TypeNumber || v.Elapsed() {
			return misfit()
		}
		b.(*array.Float64Builder).Append(v.Float())
	case kindBool:
		if t != xlsx.TypeBool {
			return misfit()
		}
		b.(*array.BooleanBuilder).Append(v.Bool())
	case kindDuration:
		if !v.Elapsed() {
			return misfit()
		}
		b.(*array.DurationBuilder).Append(arrow.Duration(v.Duration() / time.Microsecond))
	case kindDate:
		if t != xlsx.TypeDate || !v.DateOnly() { // a time of day would be lost
			return misfit()
		}
		b.(*array.Date32Builder).Append(arrow.Date32FromTime(v.Time()))
	case kindTime:
		if t != xlsx.TypeDate || !v.TimeOfDay() {
			return misfit()
		}
		tm := v.PreciseTime()
		since := time.Duration(tm.Hour())*time.Hour + time.Duration(tm.Minute())*time.Minute + time.Duration(tm.Second())*time.Second + time.Duration(tm.Nanosecond())
		b.(*array.Time64Builder).Append(arrow.Time64(since / time.Microsecond))
	case kindTimestamp:
		if t != xlsx.TypeDate {
			return misfit()
		}
		b.(*array.TimestampBuilder).Append(arrow.Timestamp(v.PreciseTime().UnixMicro()))
	}
	return nil
}

// RecordBatch is the current batch, valid until the next Next.
func (r *Reader) RecordBatch() arrow.RecordBatch { return r.rec }

// Record is RecordBatch.
//
// Deprecated: as array.RecordReader's.
func (r *Reader) Record() arrow.RecordBatch { return r.rec }

// Err is the error that stopped Next, if any.
func (r *Reader) Err() error { return r.err }

// Retain adds a reference.
func (r *Reader) Retain() { r.refs.Add(1) }

// Release drops a reference; the last releases the batch and builders.
func (r *Reader) Release() {
	if r.refs.Add(-1) == 0 {
		if r.rec != nil {
			r.rec.Release()
			r.rec = nil
		}
		r.builder.Release()
	}
}

var _ array.RecordReader = (*Reader)(nil)
