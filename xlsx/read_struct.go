package xlsx

import (
	"encoding"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/sheetstream/sheetstream/internal/isotime"
)

// StructReader decodes the rows of a sheet into values of the struct type
// T, matching columns to fields by header: a header names the field whose
// tag names it, else the field of that name, ignoring case, spaces,
// underscores and hyphens. Strings, byte slices and pointers it fills are
// allocated for each value; nothing else is.
type StructReader[T any] struct {
	rows  *Rows
	plan  *structPlan
	kinds []fieldKind // how each field is read: see readKind
	byCol []int       // the field of each column (0-based), -1 for none
	// text holds a cell's text for TextUnmarshalers and parsing.
	text []byte
}

// NewStructReader reads the header row (the first row rows returns,
// unless opts.NoHeader) and maps its columns to T's fields.
//
// Errors: the tag errors NewStructWriter returns; ErrStructTag for a field
// that can be written but not read (a Stringer without UnmarshalText that
// is not a string or number underneath); ErrMissingHeader for a sheet
// without rows; with opts.Strict, ErrUnknownColumn for a header that
// names no field and ErrMissingColumn for a field no header names
// (*FieldErrors naming them); ErrDuplicateColumn for two headers that
// name one field; and the rows' read errors.
func NewStructReader[T any](rows *Rows, opts StructOptions) (*StructReader[T], error) {
	plan, err := planOf(reflect.TypeFor[T]())
	if err != nil {
		return nil, err
	}
	r := &StructReader[T]{rows: rows, plan: plan, kinds: make([]fieldKind, len(plan.fields))}
	for i := range plan.fields {
		f := &plan.fields[i]
		k, ok := readKind(f)
		if !ok {
			return nil, &FieldError{Field: f.name, Header: f.header,
				Err: fmt.Errorf("%w: %v can be written as text but not read back (it has no UnmarshalText)", ErrStructTag, f.typ)}
		}
		r.kinds[i] = k
	}
	sheet := rows.Sheet().Name
	if opts.NoHeader {
		r.byCol = make([]int, len(plan.fields))
		for i := range r.byCol {
			r.byCol[i] = i
		}
		return r, nil
	}
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, err
		}
		return nil, &FieldError{Sheet: sheet, Err: ErrMissingHeader}
	}
	header := rows.Row()
	byTag, byName := map[string]int{}, map[string]int{}
	for i := range plan.fields {
		f := &plan.fields[i]
		if f.tagged {
			byTag[f.key] = i
		}
		byName[headerKey(f.name[strings.LastIndexByte(f.name, '.')+1:])] = i
	}
	found := make([]int, len(plan.fields)) // the column (1-based) of each field
	for i := range header.Cells {
		c := &header.Cells[i]
		text := c.String()
		key := headerKey(text)
		if key == "" {
			continue
		}
		j, ok := byTag[key]
		if !ok {
			j, ok = byName[key]
		}
		if !ok {
			if opts.Strict {
				return nil, &FieldError{Sheet: sheet, Row: header.Num, Col: c.Col(), Header: text, Err: ErrUnknownColumn}
			}
			continue
		}
		f := &plan.fields[j]
		if found[j] != 0 {
			return nil, &FieldError{Sheet: sheet, Row: header.Num, Col: c.Col(), Header: text, Field: f.name,
				Err: fmt.Errorf("%w: column %s names the field too", ErrDuplicateColumn, ColumnName(found[j]))}
		}
		found[j] = c.Col()
		for len(r.byCol) < c.Col() {
			r.byCol = append(r.byCol, -1)
		}
		r.byCol[c.Col()-1] = j
	}
	if opts.Strict {
		for j, col := range found {
			if col == 0 {
				f := &plan.fields[j]
				return nil, &FieldError{Sheet: sheet, Row: header.Num, Header: f.header, Field: f.name, Err: ErrMissingColumn}
			}
		}
	}
	return r, nil
}

// Errors of StructReader's column mapping.
var (
	ErrMissingHeader   = errors.New("the sheet has no header row")
	ErrUnknownColumn   = errors.New("the header names no field")
	ErrMissingColumn   = errors.New("no column's header names the field")
	ErrDuplicateColumn = errors.New("two columns name one field")
	ErrFieldValue      = errors.New("the cell's value does not fit the field")
)

// readKind is how field f is read: its own kind, or for a type that only
// formats itself (Stringer, or TextMarshaler without TextUnmarshaler),
// the kind underneath, if that is a string or number.
func readKind(f *plannedField) (fieldKind, bool) {
	if f.kind != fieldText && f.kind != fieldStringer {
		return f.kind, true
	}
	if reflect.PointerTo(f.typ).Implements(textUnmarshaler) {
		return fieldText, true
	}
	switch f.typ.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fieldInt, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return fieldUint, true
	case reflect.Float32:
		return fieldFloat32, true
	case reflect.Float64:
		return fieldFloat64, true
	case reflect.String:
		return fieldString, true
	case reflect.Bool:
		return fieldBool, true
	}
	return 0, false
}

// Decode reads the next row into dst, which it zeroes first. At the end
// of the sheet it returns io.EOF.
//
// Errors: ErrFieldValue in a *FieldError naming sheet, cell, header and
// field for a cell the field cannot hold (text in a number field, a
// fraction or an out-of-range number in an integer field, a number in a
// time field that is not a date); a field's UnmarshalText error, wrapped
// the same way; and the rows' read errors.
func (r *StructReader[T]) Decode(dst *T) error {
	if !r.rows.Next() {
		if err := r.rows.Err(); err != nil {
			return err
		}
		return io.EOF
	}
	var zero T
	*dst = zero
	row := r.rows.Row()
	base := unsafe.Pointer(dst)
	for i := range row.Cells {
		v := &row.Cells[i]
		col := v.Col() - 1
		if col >= len(r.byCol) || r.byCol[col] < 0 || v.Type() == TypeEmpty {
			continue
		}
		j := r.byCol[col]
		f := &r.plan.fields[j]
		p := f.allocPointer(base)
		if f.ptr {
			np := reflect.New(f.pointee).UnsafePointer()
			*(*unsafe.Pointer)(p) = np
			p = np
		}
		if f.null {
			*(*bool)(unsafe.Add(p, f.valid)) = true
			p = unsafe.Add(p, f.inner)
		}
		if err := r.set(f, r.kinds[j], p, v); err != nil {
			return &FieldError{Sheet: r.rows.Sheet().Name, Row: row.Num, Col: v.Col(), Header: f.header, Field: f.name, Err: err}
		}
	}
	return nil
}

// All returns the rows left as values, with the error that ended them if
// any; the sequence stops after an error.
func (r *StructReader[T]) All() iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for {
			var v T
			err := r.Decode(&v)
			if err == io.EOF || !yield(v, err) || err != nil {
				return
			}
		}
	}
}

// allocPointer is fieldPointer for writing: nil embedded pointers on the
// way are allocated.
func (f *plannedField) allocPointer(base unsafe.Pointer) unsafe.Pointer {
	for _, e := range f.embeds {
		slot := (*unsafe.Pointer)(unsafe.Add(base, e.offset))
		if *slot == nil {
			*slot = reflect.New(e.typ).UnsafePointer()
		}
		base = *slot
	}
	return unsafe.Add(base, f.offset)
}

// set stores v into the field at p, read as kind k.
func (r *StructReader[T]) set(f *plannedField, k fieldKind, p unsafe.Pointer, v *Value) error {
	switch k {
	case fieldInt:
		n, err := r.integer(v, f.size*8, true)
		if err != nil {
			return err
		}
		storeInt(p, f.size, n)
	case fieldUint:
		n, err := r.integer(v, f.size*8, false)
		if err != nil {
			return err
		}
		storeUint(p, f.size, uint64(n))
	case fieldFloat32, fieldFloat64:
		x, err := r.float(v)
		if err != nil {
			return err
		}
		if k == fieldFloat32 {
			if math.Abs(x) > math.MaxFloat32 {
				return fmt.Errorf("%w: %g is beyond float32", ErrFieldValue, x)
			}
			*(*float32)(p) = float32(x)
		} else {
			*(*float64)(p) = x
		}
	case fieldString:
		if v.typ == TypeString {
			*(*string)(p) = string(v.text)
		} else {
			*(*string)(p) = string(v.AppendText(r.text[:0]))
		}
	case fieldBytes:
		*(*[]byte)(p) = v.AppendText(make([]byte, 0, len(v.text)))
	case fieldBool:
		b, err := r.boolean(v)
		if err != nil {
			return err
		}
		*(*bool)(p) = b
	case fieldTime:
		t, err := r.time(v)
		if err != nil {
			return err
		}
		*(*time.Time)(p) = t
	case fieldDuration:
		d, err := r.duration(v)
		if err != nil {
			return err
		}
		*(*time.Duration)(p) = d
	case fieldCell:
		*(*Cell)(p) = cellOf(v)
	case fieldText:
		r.text = v.AppendText(r.text[:0])
		return reflect.NewAt(f.typ, p).Interface().(encoding.TextUnmarshaler).UnmarshalText(r.text)
	}
	return nil
}

// integer reads a whole number of bits bits: a number cell that is whole
// and in range, or text that parses as one.
func (r *StructReader[T]) integer(v *Value, bits uintptr, signed bool) (int64, error) {
	switch v.typ {
	case TypeNumber:
		// The file's digits, when they are an integer: exact beyond 2^53,
		// where the double is not.
		if signed {
			if n, err := strconv.ParseInt(bstr(v.text), 10, int(bits)); err == nil {
				return n, nil
			}
		} else if n, err := strconv.ParseUint(bstr(v.text), 10, int(bits)); err == nil {
			return int64(n), nil
		}
		f := v.num
		lo, hi := -math.Ldexp(1, int(bits)-1), math.Ldexp(1, int(bits)-1)
		if !signed {
			lo, hi = 0, math.Ldexp(1, int(bits))
		}
		if f != math.Trunc(f) || f < lo || f >= hi {
			return 0, fmt.Errorf("%w: %s is not a whole number that fits %s", ErrFieldValue, v.AppendText(r.text[:0]), intName(bits, signed))
		}
		if !signed && f >= 1<<63 {
			return int64(uint64(f)), nil
		}
		return int64(f), nil
	case TypeString:
		s := strings.TrimSpace(bstr(v.text))
		if signed {
			if n, err := strconv.ParseInt(s, 10, int(bits)); err == nil {
				return n, nil
			}
		} else if n, err := strconv.ParseUint(s, 10, int(bits)); err == nil {
			return int64(n), nil
		}
	}
	return 0, r.mismatch(v, intName(bits, signed))
}

func intName(bits uintptr, signed bool) string {
	if signed {
		return "int" + strconv.Itoa(int(bits))
	}
	return "uint" + strconv.Itoa(int(bits))
}

func (r *StructReader[T]) float(v *Value) (float64, error) {
	switch v.typ {
	case TypeNumber:
		return v.num, nil
	case TypeString:
		if x, err := strconv.ParseFloat(strings.TrimSpace(bstr(v.text)), 64); err == nil {
			return x, nil
		}
	}
	return 0, r.mismatch(v, "a number")
}

func (r *StructReader[T]) boolean(v *Value) (bool, error) {
	switch v.typ {
	case TypeBool:
		return v.Bool(), nil
	case TypeNumber:
		if v.num == 0 || v.num == 1 {
			return v.num == 1, nil
		}
	case TypeString:
		if b, err := strconv.ParseBool(strings.TrimSpace(bstr(v.text))); err == nil {
			return b, nil
		}
	}
	return false, r.mismatch(v, "a boolean")
}

// time reads a date cell, or ISO 8601 text. A plain number is not taken
// for a date: nothing in the file says it is one.
func (r *StructReader[T]) time(v *Value) (time.Time, error) {
	switch v.typ {
	case TypeDate:
		return v.Time(), nil
	case TypeString:
		if t, kind := isotime.Parse(strings.TrimSpace(bstr(v.text))); kind == isotime.Date || kind == isotime.DateTime {
			return t, nil
		}
	}
	return time.Time{}, r.mismatch(v, "a date")
}

// duration reads a number of days (as an elapsed-time cell holds it), a
// time of day, or text such as "1h30m".
func (r *StructReader[T]) duration(v *Value) (time.Duration, error) {
	switch v.typ {
	case TypeNumber, TypeDate:
		if v.typ == TypeNumber || v.TimeOfDay() {
			return v.Duration(), nil
		}
	case TypeString:
		if d, err := time.ParseDuration(strings.TrimSpace(bstr(v.text))); err == nil {
			return d, nil
		}
	}
	return 0, r.mismatch(v, "a duration")
}

func (r *StructReader[T]) mismatch(v *Value, want string) error {
	text := v.AppendText(r.text[:0])
	if len(text) > 40 {
		text = append(text[:37:37], "..."...)
	}
	return fmt.Errorf("%w: %s %q is not %s", ErrFieldValue, v.typ, text, want)
}

// cellOf is the Cell that writes what v holds.
func cellOf(v *Value) Cell {
	switch v.typ {
	case TypeNumber:
		if v.Elapsed() {
			return Duration(v.Duration())
		}
		return Float(v.num)
	case TypeString:
		return String(string(v.text))
	case TypeBool:
		return Bool(v.Bool())
	case TypeError:
		return Error(ErrorCode(v.text))
	case TypeDate:
		if v.TimeOfDay() {
			return TimeOfDay(v.Time())
		}
		return Time(v.Time())
	}
	return Cell{}
}

func storeInt(p unsafe.Pointer, size uintptr, n int64) {
	switch size {
	case 1:
		*(*int8)(p) = int8(n)
	case 2:
		*(*int16)(p) = int16(n)
	case 4:
		*(*int32)(p) = int32(n)
	default:
		*(*int64)(p) = n
	}
}

func storeUint(p unsafe.Pointer, size uintptr, n uint64) {
	switch size {
	case 1:
		*(*uint8)(p) = uint8(n)
	case 2:
		*(*uint16)(p) = uint16(n)
	case 4:
		*(*uint32)(p) = uint32(n)
	default:
		*(*uint64)(p) = n
	}
}
