package arrowsheet

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sheetstream/sheetstream/internal/numtext"
	"github.com/sheetstream/sheetstream/xlsx"
)

// WriteOptions lay out the sheets a Writer writes (see
// xlsx.TableSheetsOptions).
type WriteOptions struct {
	// Sheet names the sheet ("Sheet1" when empty); rows past Excel's
	// limit continue on "Sheet1 (2)"...
	Sheet string
	// ExcelTable makes each sheet an Excel table instead of a header with
	// an autofilter.
	ExcelTable bool
	// FitRows is how many rows column widths are fitted to (100 when
	// zero; negative: none).
	FitRows int
	// RowsPerSheet caps a sheet's rows, header included (Excel's limit
	// when zero).
	RowsPerSheet int
	// NoFreeze leaves the header unfrozen.
	NoFreeze bool
}

// ErrType: a column of a type the package does not write (lists,
// structs, maps, unions).
var ErrType = errors.New("no cell holds a value of this type")

// Writer writes record batches of one schema to a table's sheets.
type Writer struct {
	table  *xlsx.TableSheets
	schema *arrow.Schema
	styles []xlsx.StyleID // each column's number format, 0 for none
	cells  []xlsx.Cell
	rows   int64
}

// NewWriter begins a table of schema's fields on w's next sheets. It
// does not close w.
//
// Errors: a field of a type no cell holds (ErrType, naming the field),
// an unusable sheet name, or w's sticky error.
func NewWriter(w *xlsx.Writer, schema *arrow.Schema, opts WriteOptions) (*Writer, error) {
	if opts.Sheet == "" {
		opts.Sheet = "Sheet1"
	}
	names := make([]string, schema.NumFields())
	styles := make([]xlsx.StyleID, schema.NumFields())
	for i, f := range schema.Fields() {
		names[i] = f.Name
		format, err := numFmt(f.Type)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", f.Name, err)
		}
		if format != "" {
			if styles[i], err = w.AddStyle(xlsx.Style{NumFmt: format}); err != nil {
				return nil, err
			}
		}
	}
	table, err := w.AddTableSheets(xlsx.TableSheetsOptions{Name: opts.Sheet, Header: names, RowsPerSheet: opts.RowsPerSheet,
		FitRows: opts.FitRows, ExcelTable: opts.ExcelTable, NoFreeze: opts.NoFreeze})
	if err != nil {
		return nil, err
	}
	return &Writer{table: table, schema: schema, styles: styles, cells: make([]xlsx.Cell, len(names))}, nil
}

// numFmt is the number format a type's cells get ("" for the cell's
// own), or ErrType.
func numFmt(t arrow.DataType) (string, error) {
	switch t := t.(type) {
	case *arrow.DictionaryType:
		return numFmt(t.ValueType)
	case arrow.DecimalType:
		if s := t.GetScale(); s > 0 && s <= 10 {
			return "0." + strings.Repeat("0", int(s)), nil
		}
		return "", nil
	}
	switch t.ID() {
	case arrow.NULL, arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16,
		arrow.UINT32, arrow.UINT64, arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64, arrow.STRING, arrow.LARGE_STRING,
		arrow.STRING_VIEW, arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW, arrow.FIXED_SIZE_BINARY,
		arrow.DATE32, arrow.DATE64, arrow.TIME32, arrow.TIME64, arrow.DURATION, arrow.TIMESTAMP:
		return "", nil
	}
	return "", fmt.Errorf("%w: %s", ErrType, t)
}

// Write writes a batch's rows. The batch's schema must be the Writer's.
//
// Errors: a schema other than the Writer's, a value no cell holds (text
// longer than 32,767 characters, as *xlsx.CellError), the writer's.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	if !rec.Schema().Equal(w.schema) {
		return fmt.Errorf("a batch of schema %s, not the writer's %s", rec.Schema(), w.schema)
	}
	for r := range int(rec.NumRows()) {
		for c := range w.cells {
			cellOf(&w.cells[c], rec.Column(c), r)
			if w.styles[c] != 0 && !w.cells[c].IsEmpty() {
				w.cells[c] = w.cells[c].WithStyle(w.styles[c])
			}
		}
		if err := w.table.WriteRow(w.cells); err != nil {
			return err
		}
		w.rows++
	}
	return nil
}

// Rows are the data rows written so far.
func (w *Writer) Rows() int64 { return w.rows }

// Sheets are the sheets the rows went to.
func (w *Writer) Sheets() []string { return w.table.Sheets() }

// Close ends the table (its last sheet's autofilter); it does not close
// the xlsx.Writer.
func (w *Writer) Close() error { return w.table.Close() }

// maxExact is the largest integer a double holds exactly: larger ones
// are written as text, which keeps every digit (as sqlsheet does).
const maxExact = 1 << 53

// cellOf stores row i of arr in dst.
func cellOf(dst *xlsx.Cell, arr arrow.Array, i int) {
	if arr.IsNull(i) {
		*dst = xlsx.Cell{}
		return
	}
	switch a := arr.(type) {
	case *array.Dictionary:
		cellOf(dst, a.Dictionary(), a.GetValueIndex(i))
	case *array.Boolean:
		*dst = xlsx.Bool(a.Value(i))
	case *array.Int8:
		*dst = xlsx.Int(int64(a.Value(i)))
	case *array.Int16:
		*dst = xlsx.Int(int64(a.Value(i)))
	case *array.Int32:
		*dst = xlsx.Int(int64(a.Value(i)))
	case *array.Int64:
		intCell(dst, a.Value(i))
	case *array.Uint8:
		*dst = xlsx.Int(int64(a.Value(i)))
	case *array.Uint16:
		*dst = xlsx.Int(int64(a.Value(i)))
	case *array.Uint32:
		*dst = xlsx.Int(int64(a.Value(i)))
	case *array.Uint64:
		if v := a.Value(i); v > maxExact {
			*dst = xlsx.String(strconv.FormatUint(v, 10))
		} else {
			*dst = xlsx.Uint(v)
		}
	case *array.Float16:
		floatCell(dst, float64(a.Value(i).Float32()))
	case *array.Float32:
		floatCell(dst, float64(a.Value(i)))
	case *array.Float64:
		floatCell(dst, a.Value(i))
	case *array.String:
		*dst = xlsx.String(a.Value(i))
	case *array.LargeString:
		*dst = xlsx.String(a.Value(i))
	case *array.StringView:
		*dst = xlsx.String(a.Value(i))
	case *array.Binary:
		*dst = xlsx.String(base64.StdEncoding.EncodeToString(a.Value(i)))
	case *array.LargeBinary:
		*dst = xlsx.String(base64.StdEncoding.EncodeToString(a.Value(i)))
	case *array.BinaryView:
		*dst = xlsx.String(base64.StdEncoding.EncodeToString(a.Value(i)))
	case *array.FixedSizeBinary:
		*dst = xlsx.String(base64.StdEncoding.EncodeToString(a.Value(i)))
	case *array.Date32:
		*dst = xlsx.Date(a.Value(i).ToTime())
	case *array.Date64:
		*dst = xlsx.Date(a.Value(i).ToTime())
	case *array.Timestamp:
		timestampCell(dst, a, i)
	case *array.Time32:
		*dst = xlsx.TimeOfDay(a.Value(i).ToTime(a.DataType().(*arrow.Time32Type).Unit))
	case *array.Time64:
		*dst = xlsx.TimeOfDay(a.Value(i).ToTime(a.DataType().(*arrow.Time64Type).Unit))
	case *array.Duration:
		unit := a.DataType().(*arrow.DurationType).Unit.Multiplier()
		*dst = xlsx.Duration(time.Duration(a.Value(i)) * unit)
	case *array.Decimal32, *array.Decimal64, *array.Decimal128, *array.Decimal256:
		if text := a.ValueStr(i); plainDecimal(text) {
			*dst = xlsx.Decimal(text)
		} else {
			*dst = xlsx.String(text) // past 15 significant digits: every digit kept
		}
	default: // a type NewWriter refused
		*dst = xlsx.Cell{}
	}
}

// plainDecimal says whether a double holds the decimal text exactly.
func plainDecimal(text string) bool {
	_, _, ok := numtext.Plain(text)
	return ok
}

func intCell(dst *xlsx.Cell, v int64) {
	if v > maxExact || v < -maxExact {
		*dst = xlsx.String(strconv.FormatInt(v, 10))
		return
	}
	*dst = xlsx.Int(v)
}

// floatCell writes NaN and the infinities, which no number cell holds,
// as Excel's #NUM! error.
func floatCell(dst *xlsx.Cell, f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		*dst = xlsx.Error(xlsx.ErrorNum)
		return
	}
	*dst = xlsx.Float(f)
}

// timestampCell writes a timestamp's wall clock: in its type's time zone
// when it has one (a cell has none), else as it is (UTC).
func timestampCell(dst *xlsx.Cell, a *array.Timestamp, i int) {
	typ := a.DataType().(*arrow.TimestampType)
	t := a.Value(i).ToTime(typ.Unit)
	if typ.TimeZone != "" {
		if loc, err := typ.GetZone(); err == nil && loc != nil {
			t = t.In(loc)
		}
	}
	*dst = xlsx.Time(t)
}
