// Package parquetsheet moves sheets to Parquet files and back, a row
// group at a time, on github.com/parquet-go/parquet-go (chosen over
// arrow-go's Parquet for its weight: +2.8 MB and +1.5 MiB at start where
// arrow-go's pqarrow costs +34 MB and +15 MiB, bench/RESULTS.md P1).
//
// Reading (NewReader) makes each Parquet row a row of cells, by the
// column's logical type: strings, enums and JSON as text; signed and
// unsigned integers as numbers (past ±2^53 as text, every digit kept);
// floats and doubles (NaN and infinities as #NUM!); booleans; decimals as
// numbers (past 15 significant digits as text); dates; timestamps of any unit (INT96 too) as
// date-times; times of day; UUIDs as their text; other binary as base64.
// Nested columns (lists, maps, structs) are refused by name.
//
// Writing (Write) takes record batches, as arrowsheet's Reader makes
// them of a sheet, to a flat Parquet schema of optional columns in the
// sheet's order: int64, double, string, boolean, date, timestamp[us]
// and time[us] (not adjusted to UTC: a cell's wall clock), durations as
// int64 microseconds; Snappy-compressed, in row groups of RowGroupRows.
package parquetsheet

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/sheetstream/sheetstream/internal/numtext"
	"github.com/sheetstream/sheetstream/xlsx"
)

// ErrNested: a column of lists, maps or structs, which no cell holds.
var ErrNested = errors.New("a nested column (list, map or struct) has no cell")

// Reader reads a Parquet file's rows as cells, one row group at a time.
type Reader struct {
	file    *parquet.File
	names   []string
	columns []columnReader
	group   int
	rows    parquet.Rows
	buf     []parquet.Row
	at, n   int
	cells   []xlsx.Cell
	num     int64
	err     error
}

// columnReader turns a leaf column's value into a cell.
type columnReader func(v parquet.Value, dst *xlsx.Cell) error

// NewReader opens the Parquet file in r (size bytes): its footer and
// schema, no rows yet.
//
// Errors: not a Parquet file, or a nested column (ErrNested, naming it).
func NewReader(r io.ReaderAt, size int64) (pr *Reader, err error) {
	defer contain(&err)
	if err := checkFooter(r, size); err != nil {
		return nil, fmt.Errorf("not a Parquet file: %w", err)
	}
	f, err := parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("not a Parquet file: %w", err)
	}
	pr = &Reader{file: f, buf: make([]parquet.Row, 256)}
	for _, field := range f.Schema().Fields() {
		if !field.Leaf() || field.Repeated() {
			return nil, fmt.Errorf("column %q: %w", field.Name(), ErrNested)
		}
		read, err := readerOf(field.Type())
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", field.Name(), err)
		}
		pr.names = append(pr.names, field.Name())
		pr.columns = append(pr.columns, read)
	}
	pr.cells = make([]xlsx.Cell, len(pr.columns))
	return pr, nil
}

// Header are the columns' names.
func (r *Reader) Header() []string { return r.names }

// NumRows is the file's row count, from its footer.
func (r *Reader) NumRows() int64 { return r.file.NumRows() }

// ErrMalformed: the file's structure is broken in a way the Parquet
// library did not check (it panicked); the file is not read further.
var ErrMalformed = errors.New("a malformed Parquet file")

// contain turns a panic of the Parquet library over a hostile file into
// an error: a file must never bring its reader down.
func contain(err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%w (%v)", ErrMalformed, p)
	}
}

// Next reads the next row; false at the end or on an error (Err).
func (r *Reader) Next() (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			r.err, ok = fmt.Errorf("row %d: %w (%v)", r.num, ErrMalformed, p), false
		}
	}()
	for r.at >= r.n {
		if r.err != nil || !r.fill() {
			return false
		}
	}
	row := r.buf[r.at]
	r.at++
	r.num++
	for i := range r.cells {
		r.cells[i] = xlsx.Cell{}
	}
	for _, v := range row {
		c := v.Column()
		if v.IsNull() || c < 0 || c >= len(r.columns) {
			continue
		}
		if err := r.columns[c](v, &r.cells[c]); err != nil {
			r.err = fmt.Errorf("row %d, column %q: %w", r.num, r.names[c], err)
			return false
		}
	}
	return true
}

// fill reads the next rows, from the next row group when one ends.
func (r *Reader) fill() bool {
	for {
		if r.rows == nil {
			groups := r.file.RowGroups()
			if r.group >= len(groups) {
				return false
			}
			r.rows = groups[r.group].Rows()
			r.group++
		}
		n, err := r.rows.ReadRows(r.buf)
		r.at, r.n = 0, n
		if n > 0 {
			if err != nil && err != io.EOF {
				r.err = err
			}
			return true
		}
		if err != nil && err != io.EOF {
			r.err = err
			return false
		}
		r.rows.Close()
		r.rows = nil
	}
}

// Cells are the current row's cells, valid until the next Next.
func (r *Reader) Cells() []xlsx.Cell { return r.cells }

// Err is the error that stopped Next, if any.
func (r *Reader) Err() error { return r.err }

// Close releases the current row group.
func (r *Reader) Close() error {
	if r.rows != nil {
		return r.rows.Close()
	}
	return nil
}

// maxExact is the largest integer a double holds exactly.
const maxExact = 1 << 53

func intCell(dst *xlsx.Cell, v int64) {
	if v > maxExact || v < -maxExact {
		*dst = xlsx.String(strconv.FormatInt(v, 10))
		return
	}
	*dst = xlsx.Int(v)
}

// decimalCell writes a decimal a double holds exactly as a number, a
// longer one as text, which keeps every digit (as sqlsheet does).
func decimalCell(dst *xlsx.Cell, text string) {
	if _, _, ok := numtext.Plain(text); ok {
		*dst = xlsx.Decimal(text)
		return
	}
	*dst = xlsx.String(text)
}

func floatCell(dst *xlsx.Cell, f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		*dst = xlsx.Error(xlsx.ErrorNum)
		return
	}
	*dst = xlsx.Float(f)
}

// readerOf is how a leaf column of type t becomes cells.
func readerOf(t parquet.Type) (columnReader, error) {
	kind := t.Kind()
	lt := t.LogicalType()
	var logical any
	if lt != nil {
		logical = lt.Value
	}
	switch l := logical.(type) {
	case *format.StringType, *format.EnumType, *format.JsonType:
		return func(v parquet.Value, dst *xlsx.Cell) error {
			*dst = xlsx.String(string(v.ByteArray()))
			return nil
		}, nil
	case *format.DateType:
		return func(v parquet.Value, dst *xlsx.Cell) error {
			*dst = xlsx.Date(time.Unix(int64(v.Int32())*86400, 0).UTC())
			return nil
		}, nil
	case *format.TimestampType:
		unit := l.Unit.Value.Duration()
		return func(v parquet.Value, dst *xlsx.Cell) error {
			*dst = xlsx.Time(unixTime(v.Int64(), unit))
			return nil
		}, nil
	case *format.TimeType:
		unit := l.Unit.Value.Duration()
		return func(v parquet.Value, dst *xlsx.Cell) error {
			n := v.Int64()
			if kind == parquet.Int32 {
				n = int64(v.Int32())
			}
			*dst = xlsx.TimeOfDay(time.Unix(0, 0).UTC().Add(time.Duration(n) * unit))
			return nil
		}, nil
	case *format.DecimalType:
		scale := int(l.Scale)
		return func(v parquet.Value, dst *xlsx.Cell) error {
			var n big.Int
			switch kind {
			case parquet.Int32:
				n.SetInt64(int64(v.Int32()))
			case parquet.Int64:
				n.SetInt64(v.Int64())
			default:
				twosComplement(&n, v.ByteArray())
			}
			decimalCell(dst, decimalText(&n, scale))
			return nil
		}, nil
	case *format.IntType:
		if !l.IsSigned && l.BitWidth == 64 {
			return func(v parquet.Value, dst *xlsx.Cell) error {
				if u := uint64(v.Int64()); u > maxExact {
					*dst = xlsx.String(strconv.FormatUint(u, 10))
				} else {
					*dst = xlsx.Uint(u)
				}
				return nil
			}, nil
		}
		if !l.IsSigned && l.BitWidth == 32 {
			return func(v parquet.Value, dst *xlsx.Cell) error {
				*dst = xlsx.Int(int64(uint32(v.Int32())))
				return nil
			}, nil
		}
	case *format.UUIDType:
		return func(v parquet.Value, dst *xlsx.Cell) error {
			b := v.ByteArray()
			if len(b) != 16 {
				return fmt.Errorf("a UUID of %d bytes", len(b))
			}
			*dst = xlsx.String(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]))
			return nil
		}, nil
	case *format.Float16Type:
		return func(v parquet.Value, dst *xlsx.Cell) error {
			b := v.ByteArray()
			if len(b) != 2 {
				return fmt.Errorf("a float16 of %d bytes", len(b))
			}
			floatCell(dst, float64(float16(binary.LittleEndian.Uint16(b))))
			return nil
		}, nil
	case nil:
	default:
		if lt != nil && !isPlainLogical(logical) {
			return nil, fmt.Errorf("the Parquet type %s is not read", lt)
		}
	}
	switch kind {
	case parquet.Boolean:
		return func(v parquet.Value, dst *xlsx.Cell) error { *dst = xlsx.Bool(v.Boolean()); return nil }, nil
	case parquet.Int32:
		return func(v parquet.Value, dst *xlsx.Cell) error { *dst = xlsx.Int(int64(v.Int32())); return nil }, nil
	case parquet.Int64:
		return func(v parquet.Value, dst *xlsx.Cell) error { intCell(dst, v.Int64()); return nil }, nil
	case parquet.Float:
		return func(v parquet.Value, dst *xlsx.Cell) error { floatCell(dst, float64(v.Float())); return nil }, nil
	case parquet.Double:
		return func(v parquet.Value, dst *xlsx.Cell) error { floatCell(dst, v.Double()); return nil }, nil
	case parquet.Int96:
		// Spark's and Impala's old timestamps: nanoseconds of the day,
		// then the Julian day.
		return func(v parquet.Value, dst *xlsx.Cell) error {
			i := v.Int96()
			nanos := int64(i[1])<<32 | int64(i[0])
			day := int64(i[2]) - 2440588 // the Julian day of 1970-01-01
			*dst = xlsx.Time(time.Unix(day*86400, nanos).UTC())
			return nil
		}, nil
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return func(v parquet.Value, dst *xlsx.Cell) error {
			*dst = xlsx.String(base64.StdEncoding.EncodeToString(v.ByteArray()))
			return nil
		}, nil
	}
	return nil, fmt.Errorf("the Parquet type %s is not read", t)
}

// isPlainLogical says whether a logical type leaves the physical one as
// it is (signed integers of any width).
func isPlainLogical(l any) bool {
	_, ok := l.(*format.IntType)
	return ok
}

// unixTime is n units since 1970.
func unixTime(n int64, unit time.Duration) time.Time {
	switch unit {
	case time.Nanosecond:
		return time.Unix(0, n).UTC()
	case time.Microsecond:
		return time.UnixMicro(n).UTC()
	}
	return time.UnixMilli(n).UTC()
}

// twosComplement sets n to the big-endian two's complement integer b.
func twosComplement(n *big.Int, b []byte) {
	n.SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(len(b)*8)))
	}
}

// decimalText writes n scaled down by scale places.
func decimalText(n *big.Int, scale int) string {
	s := n.String()
	if scale <= 0 {
		return s + strings.Repeat("0", -scale)
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if len(s) <= scale {
		s = strings.Repeat("0", scale-len(s)+1) + s
	}
	s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	if neg {
		s = "-" + s
	}
	return s
}

// float16 is IEEE 754 half precision's value.
func float16(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp == 0:
		if frac == 0 {
			return math.Float32frombits(sign)
		}
		f := float32(frac) / 1024 * float32(math.Pow(2, -14))
		if sign != 0 {
			return -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}
