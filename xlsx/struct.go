package xlsx

import (
	"database/sql"
	"encoding"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// Struct mapping: StructWriter writes values of a struct type as rows, one
// column per field, and StructReader decodes rows into them. Both follow a
// field plan made once per type from its fields and their `xlsx` tags:
//
//	type Order struct {
//		ID       int64     `xlsx:"Order ID"`
//		Placed   time.Time `xlsx:"Placed,format=yyyy-mm-dd"`
//		Amount   float64   `xlsx:",width=12,format=#,##0.00"`
//		Note     *string   `xlsx:",omitempty"`
//		internal string    // unexported: left out
//		Secret   string    `xlsx:"-"`
//	}
//
// The tag's first part is the column's header (the field's name when
// empty). Options follow, separated by commas: omitempty writes a zero
// value as an empty cell; date writes a time as a date, without its time
// of day; width=N sets the column width in characters;
// style=NAME takes a style from StructOptions.Styles; decimal writes the
// field's text as a Decimal cell, or as text when a double cannot hold
// all its digits (types named Decimal, such as shopspring's, are decimals
// without it); format=CODE gives the column a
// number format, and since formats may hold commas it takes the rest of
// the tag, so it comes last.
//
// Field types: every int and uint kind, float32 and float64, string,
// []byte, bool, time.Time, time.Duration, Cell, the sql.Null* types,
// pointers to any of these (nil is an empty cell), and types implementing
// encoding.TextMarshaler or fmt.Stringer, written as text (read back
// through encoding.TextUnmarshaler). Embedded structs, and pointers to
// them, lend their fields to the row; other struct fields must be tagged
// "-". Unexported fields are left out.

// fieldKind is how a field is read and written.
type fieldKind uint8

const (
	fieldInt fieldKind = iota // any signed integer kind (size in plannedField.size)
	fieldUint
	fieldFloat32
	fieldFloat64
	fieldString
	fieldBytes
	fieldBool
	fieldTime
	fieldDuration
	fieldCell
	fieldText     // encoding.TextMarshaler (and TextUnmarshaler through its pointer)
	fieldStringer // fmt.Stringer without TextMarshaler: written as text only
)

// plannedField is one column of a struct type.
type plannedField struct {
	name   string // the Go path, such as "Order.Customer.Name", for errors
	header string
	key    string // header as matched on read: see headerKey
	tagged bool   // the header comes from the tag

	// embeds are the embedded struct pointers to follow, outermost first,
	// before offset.
	embeds []embeddedPointer
	offset uintptr
	// ptr: the field is a pointer (to pointee); nil is an empty cell.
	ptr     bool
	pointee reflect.Type
	// null: the field is a sql.Null* type: its value at inner, read and
	// written as the value's own kind, and an empty cell while the bool
	// at valid is false.
	null         bool
	inner, valid uintptr
	kind         fieldKind
	size         uintptr      // bytes of an integer kind
	typ          reflect.Type // the value's type (without pointer or Null*)

	omitEmpty bool
	decimal   bool
	date      bool // a time written as a date: its time of day dropped
	width     float64
	format    string
	style     string
}

// embeddedPointer is an embedded *S on the way to a field: where it is,
// and S.
type embeddedPointer struct {
	offset uintptr
	typ    reflect.Type
}

// structPlan is the field plan of a struct type.
type structPlan struct {
	typ    reflect.Type
	fields []plannedField
}

var structPlans sync.Map // reflect.Type -> *structPlan or error

// planOf returns the plan of struct type t, made once.
func planOf(t reflect.Type) (*structPlan, error) {
	if v, ok := structPlans.Load(t); ok {
		if err, bad := v.(error); bad {
			return nil, err
		}
		return v.(*structPlan), nil
	}
	p, err := makePlan(t)
	if err != nil {
		structPlans.Store(t, err)
		return nil, err
	}
	v, _ := structPlans.LoadOrStore(t, p)
	return v.(*structPlan), nil
}

// ErrStructTag reports a struct type that cannot be mapped to rows: a bad
// tag, a field type that has no cell, or two fields with one header. It
// comes in a *FieldError naming the field.
var ErrStructTag = errors.New("cannot map the field to a column")

func makePlan(t reflect.Type) (*structPlan, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%v is not a struct type: %w", t, ErrStructTag)
	}
	p := &structPlan{typ: t}
	if err := p.add(t, t.Name(), nil, 0, map[reflect.Type]bool{}); err != nil {
		return nil, err
	}
	seen := map[string]string{}
	for _, f := range p.fields {
		if other, dup := seen[f.key]; dup {
			return nil, &FieldError{Field: f.name, Header: f.header,
				Err: fmt.Errorf("%w: the header is %s's too (headers match ignoring case, spaces, _ and -)", ErrStructTag, other)}
		}
		seen[f.key] = f.name
	}
	if len(p.fields) == 0 {
		return nil, fmt.Errorf("%v has no exported fields to map: %w", t, ErrStructTag)
	}
	return p, nil
}

var (
	timeType        = reflect.TypeFor[time.Time]()
	durationType    = reflect.TypeFor[time.Duration]()
	cellType        = reflect.TypeFor[Cell]()
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	stringerType    = reflect.TypeFor[fmt.Stringer]()
	bytesType       = reflect.TypeFor[[]byte]()
	// nullTypes are database/sql's nullable types: a value, then Valid.
	nullTypes = map[reflect.Type]bool{
		reflect.TypeFor[sql.NullString](): true, reflect.TypeFor[sql.NullInt64](): true,
		reflect.TypeFor[sql.NullInt32](): true, reflect.TypeFor[sql.NullInt16](): true,
		reflect.TypeFor[sql.NullByte](): true, reflect.TypeFor[sql.NullFloat64](): true,
		reflect.TypeFor[sql.NullBool](): true, reflect.TypeFor[sql.NullTime](): true,
	}
)

// add plans the fields of struct type t found at offset base behind
// embeds; path names it in errors; active guards against embedding loops.
func (p *structPlan) add(t reflect.Type, path string, embeds []embeddedPointer, base uintptr, active map[reflect.Type]bool) error {
	if active[t] {
		return fmt.Errorf("%s: %v embeds itself: %w", path, t, ErrStructTag)
	}
	active[t] = true
	defer delete(active, t)
	for i := range t.NumField() {
		sf := t.Field(i)
		name := path + "." + sf.Name
		tag, hasTag := sf.Tag.Lookup("xlsx")
		if tag == "-" {
			continue
		}
		ft := sf.Type
		if sf.Anonymous && !hasTag {
			et := ft
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct && fieldKindOf(et) == nil {
				if ft.Kind() == reflect.Pointer {
					inner := append(append([]embeddedPointer(nil), embeds...), embeddedPointer{base + sf.Offset, et})
					if err := p.add(et, name, inner, 0, active); err != nil {
						return err
					}
				} else if err := p.add(et, name, embeds, base+sf.Offset, active); err != nil {
					return err
				}
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		f := plannedField{name: name, header: sf.Name, embeds: embeds, offset: base + sf.Offset}
		if err := parseFieldTag(tag, &f); err != nil {
			return &FieldError{Field: name, Err: err}
		}
		if ft.Kind() == reflect.Pointer && ft != bytesType {
			f.ptr, f.pointee = true, ft.Elem()
			ft = ft.Elem()
		}
		if nullTypes[ft] {
			f.null, f.inner, f.valid = true, ft.Field(0).Offset, ft.Field(1).Offset
			ft = ft.Field(0).Type
		}
		k := fieldKindOf(ft)
		if k == nil {
			return &FieldError{Field: name, Header: f.header, Err: fmt.Errorf("%w: type %v has no cell (tag it \"-\" to leave it out)", ErrStructTag, sf.Type)}
		}
		f.kind, f.typ, f.size = *k, ft, ft.Size()
		if f.typ.Name() == "Decimal" && (f.kind == fieldText || f.kind == fieldStringer) {
			f.decimal = true
		}
		if f.decimal && f.kind != fieldText && f.kind != fieldStringer && f.kind != fieldString {
			return &FieldError{Field: name, Header: f.header, Err: fmt.Errorf("%w: decimal needs a string or a type with decimal text", ErrStructTag)}
		}
		if f.date && f.kind != fieldTime {
			return &FieldError{Field: name, Header: f.header, Err: fmt.Errorf("%w: date needs a time.Time or sql.NullTime", ErrStructTag)}
		}
		f.key = headerKey(f.header)
		if f.key == "" {
			return &FieldError{Field: name, Header: f.header, Err: fmt.Errorf("%w: the header is blank", ErrStructTag)}
		}
		p.fields = append(p.fields, f)
	}
	return nil
}

// fieldKindOf is how values of type t go into cells, nil when they
// cannot.
func fieldKindOf(t reflect.Type) *fieldKind {
	k := func(k fieldKind) *fieldKind { return &k }
	switch t {
	case timeType:
		return k(fieldTime)
	case durationType:
		return k(fieldDuration)
	case cellType:
		return k(fieldCell)
	case bytesType:
		return k(fieldBytes)
	}
	if t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler) {
		return k(fieldText)
	}
	if t.Implements(stringerType) || reflect.PointerTo(t).Implements(stringerType) {
		return k(fieldStringer)
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return k(fieldInt)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return k(fieldUint)
	case reflect.Float32:
		return k(fieldFloat32)
	case reflect.Float64:
		return k(fieldFloat64)
	case reflect.String:
		return k(fieldString)
	case reflect.Bool:
		return k(fieldBool)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return k(fieldBytes)
		}
	}
	return nil
}

// parseFieldTag reads an `xlsx` tag into f: "Header,opt,opt=value,...".
func parseFieldTag(tag string, f *plannedField) error {
	head, opts, _ := strings.Cut(tag, ",")
	if head != "" {
		f.header, f.tagged = head, true
	}
	for opts != "" {
		var opt string
		if strings.HasPrefix(opts, "format=") {
			opt, opts = opts, ""
		} else {
			opt, opts, _ = strings.Cut(opts, ",")
		}
		key, value, hasValue := strings.Cut(opt, "=")
		switch {
		case key == "omitempty" && !hasValue:
			f.omitEmpty = true
		case key == "decimal" && !hasValue:
			f.decimal = true
		case key == "date" && !hasValue:
			f.date = true
		case key == "width" && hasValue:
			w, err := strconv.ParseFloat(value, 64)
			if err != nil || !(w > 0 && w <= 255) {
				return fmt.Errorf("%w: width %q is not a number of characters in 0..255", ErrStructTag, value)
			}
			f.width = w
		case key == "format" && hasValue && value != "":
			f.format = value
		case key == "style" && hasValue && value != "":
			f.style = value
		default:
			return fmt.Errorf("%w: unknown tag option %q (omitempty, decimal, date, width=N, style=NAME, format=CODE)", ErrStructTag, opt)
		}
	}
	return nil
}

// headerKey is what headers are matched by: lower case, without spaces,
// underscores and hyphens, so that "Order ID", "order_id" and "OrderID"
// meet.
func headerKey(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch r {
		case ' ', '\t', '\n', '\r', '_', '-', '\u00a0':
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// fieldPointer returns where field f of the struct at base lives, or nil
// when an embedded pointer on its way is nil.
func (f *plannedField) fieldPointer(base unsafe.Pointer) unsafe.Pointer {
	for _, e := range f.embeds {
		base = *(*unsafe.Pointer)(unsafe.Add(base, e.offset))
		if base == nil {
			return nil
		}
	}
	return unsafe.Add(base, f.offset)
}

// StructOptions configure a StructWriter or StructReader.
type StructOptions struct {
	// Styles names the styles that fields' style=NAME options use.
	Styles map[string]StyleID
	// HeaderStyle styles the header row StructWriter writes.
	HeaderStyle StyleID
	// NoHeader leaves the header row out: the writer writes none, and
	// the reader maps columns by the fields' order (A is the first).
	NoHeader bool
	// Strict makes the reader refuse a sheet with a column whose header
	// names no field, or without a column for a field.
	Strict bool
}
