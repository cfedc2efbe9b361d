package parquetsheet

import (
	"fmt"
	"io"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/parquet-go/parquet-go"
)

// RowGroupRows is the rows of a row group Write makes: what it holds in
// memory before writing them out.
const RowGroupRows = 16384

// orderedGroup is a group whose columns keep the order they are given in
// (parquet.Group sorts them by name): a sheet's columns, left to right.
type orderedGroup struct {
	parquet.Group
	order []string
}

func (g orderedGroup) Fields() []parquet.Field {
	byName := map[string]parquet.Field{}
	for _, f := range g.Group.Fields() {
		byName[f.Name()] = f
	}
	fields := make([]parquet.Field, len(g.order))
	for i, name := range g.order {
		fields[i] = byName[name]
	}
	return fields
}

// nodeOf is the Parquet column an Arrow field of arrowsheet's types
// becomes.
func nodeOf(t arrow.DataType) (parquet.Node, error) {
	switch t.ID() {
	case arrow.INT64, arrow.DURATION:
		return parquet.Int(64), nil
	case arrow.FLOAT64:
		return parquet.Leaf(parquet.DoubleType), nil
	case arrow.STRING:
		return parquet.String(), nil
	case arrow.BOOL:
		return parquet.Leaf(parquet.BooleanType), nil
	case arrow.DATE32:
		return parquet.Date(), nil
	case arrow.TIMESTAMP:
		return parquet.TimestampAdjusted(parquet.Microsecond, false), nil
	case arrow.TIME64:
		return parquet.TimeAdjusted(parquet.Microsecond, false), nil
	}
	return nil, fmt.Errorf("an Arrow column of type %s has no Parquet column here", t)
}

// Writer writes record batches of arrowsheet's types to a Parquet file,
// a row group at a time.
type Writer struct {
	pw   *parquet.GenericWriter[any]
	buf  []parquet.Row
	vals []parquet.Value // the buffered rows' values, one array for all
	rows int64
}

// NewWriter begins a Parquet file of schema's columns, in their order.
//
// Errors: a column of a type other than arrowsheet's, a duplicate name.
func NewWriter(w io.Writer, schema *arrow.Schema) (*Writer, error) {
	group := parquet.Group{}
	var order []string
	for _, f := range schema.Fields() {
		node, err := nodeOf(f.Type)
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", f.Name, err)
		}
		if _, taken := group[f.Name]; taken {
			return nil, fmt.Errorf("column %q: a second column of that name", f.Name)
		}
		group[f.Name] = parquet.Optional(node)
		order = append(order, f.Name)
	}
	ps := parquet.NewSchema("sheet", orderedGroup{group, order})
	pw := parquet.NewGenericWriter[any](w, ps, parquet.Compression(&parquet.Snappy), parquet.MaxRowsPerRowGroup(RowGroupRows))
	const rows = 1024
	return &Writer{pw: pw, buf: make([]parquet.Row, 0, rows), vals: make([]parquet.Value, 0, rows*len(order))}, nil
}

// Write writes a batch's rows, handed to the library 1,024 at a time in
// one reused array of values (no allocation a row). The values refer to
// the batch's buffers, which the library copies from: none is held past
// the call.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	cols := int(rec.NumCols())
	for i := range int(rec.NumRows()) {
		start := len(w.vals)
		for c := range cols {
			w.vals = append(w.vals, valueOf(rec.Column(c), i).Level(0, definition(rec.Column(c), i), c))
		}
		w.buf = append(w.buf, w.vals[start:len(w.vals):len(w.vals)])
		if len(w.buf) == cap(w.buf) {
			if err := w.flush(); err != nil {
				return err
			}
		}
	}
	return w.flush()
}

func (w *Writer) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	if _, err := w.pw.WriteRows(w.buf); err != nil {
		return err
	}
	w.rows += int64(len(w.buf))
	w.buf, w.vals = w.buf[:0], w.vals[:0]
	return nil
}

// Rows are the rows written so far.
func (w *Writer) Rows() int64 { return w.rows + int64(len(w.buf)) }

// Close writes what is held and the footer.
func (w *Writer) Close() error {
	if err := w.flush(); err != nil {
		return err
	}
	return w.pw.Close()
}

// Write writes r's record batches (arrowsheet's types) to w as a Parquet
// file and returns the rows written. Its memory is a row group's.
//
// Errors: NewWriter's, r's and w's.
func Write(w io.Writer, r array.RecordReader) (int64, error) {
	pw, err := NewWriter(w, r.Schema())
	if err != nil {
		return 0, err
	}
	for r.Next() {
		if err := pw.Write(r.RecordBatch()); err != nil {
			return pw.Rows(), err
		}
	}
	if err := r.Err(); err != nil {
		return pw.Rows(), err
	}
	return pw.Rows(), pw.Close()
}

// empty is an empty text: a value, not a null.
var empty = []byte{}

// definition is a value's definition level in an optional column: 0 for
// a null, 1 for a value.
func definition(a arrow.Array, i int) int {
	if a.IsNull(i) {
		return 0
	}
	return 1
}

// valueOf is row i of a as a Parquet value.
func valueOf(a arrow.Array, i int) parquet.Value {
	if a.IsNull(i) {
		return parquet.NullValue()
	}
	switch a := a.(type) {
	case *array.Int64:
		return parquet.Int64Value(a.Value(i))
	case *array.Duration:
		unit := a.DataType().(*arrow.DurationType).Unit.Multiplier()
		return parquet.Int64Value(int64(time.Duration(a.Value(i)) * unit / time.Microsecond))
	case *array.Float64:
		return parquet.DoubleValue(a.Value(i))
	case *array.String:
		// The batch's own bytes, not a copy: the library copies them.
		v := a.Value(i)
		if v == "" {
			return parquet.ByteArrayValue(empty)
		}
		return parquet.ByteArrayValue(unsafe.Slice(unsafe.StringData(v), len(v)))
	case *array.Boolean:
		return parquet.BooleanValue(a.Value(i))
	case *array.Date32:
		return parquet.Int32Value(int32(a.Value(i)))
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit.Multiplier()
		return parquet.Int64Value(int64(time.Duration(a.Value(i)) * unit / time.Microsecond))
	case *array.Time64:
		unit := a.DataType().(*arrow.Time64Type).Unit.Multiplier()
		return parquet.Int64Value(int64(time.Duration(a.Value(i)) * unit / time.Microsecond))
	}
	return parquet.NullValue() // nodeOf refused the type
}
