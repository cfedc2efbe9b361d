package xlsx

import (
	"encoding"
	"errors"
	"fmt"
	"reflect"
	"time"
	"unsafe"

	"github.com/sheetstream/sheetstream/internal/numtext"
)

// StructWriter writes values of the struct type T to a sheet, one row
// each, after a header row naming the columns. See StructOptions and the
// package's struct mapping notes (struct.go) for the tags. Writing a row
// allocates nothing unless a field's type formats itself (TextMarshaler,
// Stringer).
type StructWriter[T any] struct {
	sheet  *Sheet
	plan   *structPlan
	styles []StyleID
	styled []bool
	cells  []Cell
	// value is where the row being written is copied, so that taking its
	// address does not move every value passed to Write to the heap.
	value T
}

// NewStructWriter plans T's columns, sets the widths its tags ask for and
// writes the header row (unless opts.NoHeader). Number formats in tags
// become styles of sheet's Writer.
//
// Errors: ErrStructTag (in a *FieldError naming the field) for a bad tag,
// a field type with no cell, two fields with one header, or a style name
// opts.Styles lacks; ErrStyle for a format Excel refuses; ErrHeadWritten
// when the tags set widths and the sheet already has rows; and
// WriteRow's errors for the header.
func NewStructWriter[T any](sheet *Sheet, opts StructOptions) (*StructWriter[T], error) {
	plan, err := planOf(reflect.TypeFor[T]())
	if err != nil {
		return nil, err
	}
	n := len(plan.fields)
	w := &StructWriter[T]{sheet: sheet, plan: plan, styles: make([]StyleID, n), styled: make([]bool, n), cells: make([]Cell, n)}
	for i := range plan.fields {
		f := &plan.fields[i]
		switch {
		case f.style != "" && f.format != "":
			return nil, &FieldError{Field: f.name, Header: f.header, Err: fmt.Errorf("%w: style and format both given; put the format in the style", ErrStructTag)}
		case f.style != "":
			id, ok := opts.Styles[f.style]
			if !ok {
				return nil, &FieldError{Field: f.name, Header: f.header, Err: fmt.Errorf("%w: style %q is not in StructOptions.Styles", ErrStructTag, f.style)}
			}
			w.styles[i], w.styled[i] = id, true
		case f.format != "":
			id, err := sheet.w.AddStyle(Style{NumFmt: f.format})
			if err != nil {
				return nil, &FieldError{Field: f.name, Header: f.header, Err: err}
			}
			w.styles[i], w.styled[i] = id, true
		}
		if f.width > 0 {
			if err := sheet.SetColumn(i+1, i+1, ColumnOptions{Width: f.width}); err != nil {
				return nil, err
			}
		}
	}
	if !opts.NoHeader {
		for i := range plan.fields {
			w.cells[i] = String(plan.fields[i].header)
			if opts.HeaderStyle != 0 {
				w.cells[i] = w.cells[i].WithStyle(opts.HeaderStyle)
			}
		}
		if err := sheet.WriteRow(w.cells); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// Sheet is the sheet w writes to.
func (w *StructWriter[T]) Sheet() *Sheet { return w.sheet }

// Write writes v as the next row. A nil pointer field, a zero time, an
// invalid sql.Null* value and, with omitempty, a zero value are empty
// cells.
//
// Errors: Sheet.WriteRow's, in a *FieldError that adds the header and
// field of the cell; and a field's MarshalText error.
func (w *StructWriter[T]) Write(v T) error {
	w.value = v
	err := w.fill(unsafe.Pointer(&w.value))
	var zero T
	w.value = zero // keep no references to v's memory
	if err != nil {
		return err
	}
	if err := w.sheet.WriteRow(w.cells); err != nil {
		var ce *CellError
		if errors.As(err, &ce) && ce.Col > 0 && ce.Col <= len(w.plan.fields) {
			f := &w.plan.fields[ce.Col-1]
			return &FieldError{Sheet: ce.Sheet, Row: ce.Row, Col: ce.Col, Header: f.header, Field: f.name, Err: ce.Err}
		}
		return err
	}
	return nil
}

// fill turns the value at base into w.cells.
func (w *StructWriter[T]) fill(base unsafe.Pointer) error {
	for i := range w.plan.fields {
		f := &w.plan.fields[i]
		c := &w.cells[i]
		p := f.fieldPointer(base)
		if p != nil && f.ptr {
			p = *(*unsafe.Pointer)(p)
		}
		if p != nil && f.null {
			if !*(*bool)(unsafe.Add(p, f.valid)) {
				p = nil
			} else {
				p = unsafe.Add(p, f.inner)
			}
		}
		if p == nil || f.omitEmpty && !f.null && f.isZero(p) {
			*c = Cell{}
			continue
		}
		if err := f.cell(c, p); err != nil {
			return &FieldError{Sheet: w.sheet.name, Row: w.sheet.row + 1, Col: i + 1, Header: f.header, Field: f.name, Err: err}
		}
		if w.styled[i] && c.kind != kindEmpty {
			c.style, c.styled = w.styles[i], true
		}
	}
	return nil
}

// cell stores the field at p into c; every kind assigns all of c.
func (f *plannedField) cell(c *Cell, p unsafe.Pointer) error {
	switch f.kind {
	case fieldInt:
		*c = Int(loadInt(p, f.size))
	case fieldUint:
		*c = Uint(loadUint(p, f.size))
	case fieldFloat32:
		*c = Float32(*(*float32)(p))
	case fieldFloat64:
		*c = Float(*(*float64)(p))
	case fieldString:
		if s := *(*string)(p); f.decimal {
			*c = decimalCell(s)
		} else {
			*c = String(s)
		}
	case fieldBytes:
		*c = Bytes(*(*[]byte)(p))
	case fieldBool:
		*c = Bool(*(*bool)(p))
	case fieldTime:
		if t := *(*time.Time)(p); !t.IsZero() {
			*c = f.timeCell(t)
		} else {
			*c = Cell{}
		}
	case fieldDuration:
		*c = Duration(*(*time.Duration)(p))
	case fieldCell:
		*c = *(*Cell)(p)
	case fieldText, fieldStringer:
		var s string
		if f.kind == fieldText {
			b, err := reflect.NewAt(f.typ, p).Interface().(encoding.TextMarshaler).MarshalText()
			if err != nil {
				return err
			}
			s = string(b)
		} else {
			s = reflect.NewAt(f.typ, p).Interface().(fmt.Stringer).String()
		}
		if f.decimal {
			*c = decimalCell(s)
		} else {
			*c = String(s)
		}
	}
	return nil
}

// decimalCell is a decimal's text as a number when a double holds every
// digit of it, and as text, which keeps them all, when not (more than 15
// significant digits, an exponent). An empty text is an empty cell.
func decimalCell(s string) Cell {
	if s == "" {
		return Cell{}
	}
	if _, _, ok := numtext.Plain(s); ok {
		return Decimal(s)
	}
	return String(s)
}

func (f *plannedField) timeCell(t time.Time) Cell {
	if f.date {
		return Date(t)
	}
	return Time(t)
}

// isZero reports whether the field at p holds its type's zero value.
func (f *plannedField) isZero(p unsafe.Pointer) bool {
	switch f.kind {
	case fieldInt:
		return loadInt(p, f.size) == 0
	case fieldUint:
		return loadUint(p, f.size) == 0
	case fieldFloat32:
		return *(*float32)(p) == 0
	case fieldFloat64:
		return *(*float64)(p) == 0
	case fieldString:
		return len(*(*string)(p)) == 0
	case fieldBytes:
		return len(*(*[]byte)(p)) == 0
	case fieldBool:
		return !*(*bool)(p)
	case fieldDuration:
		return *(*time.Duration)(p) == 0
	case fieldCell:
		return (*Cell)(p).IsEmpty()
	}
	return reflect.NewAt(f.typ, p).Elem().IsZero()
}

func loadInt(p unsafe.Pointer, size uintptr) int64 {
	switch size {
	case 1:
		return int64(*(*int8)(p))
	case 2:
		return int64(*(*int16)(p))
	case 4:
		return int64(*(*int32)(p))
	}
	return *(*int64)(p)
}

func loadUint(p unsafe.Pointer, size uintptr) uint64 {
	switch size {
	case 1:
		return uint64(*(*uint8)(p))
	case 2:
		return uint64(*(*uint16)(p))
	case 4:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}
