package xlsx

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strconv"
	"time"
	"unsafe"
)

// CellType is the type of a cell as read.
type CellType uint8

const (
	TypeEmpty  CellType = iota // no value: a formula without a cached result
	TypeNumber                 // a number shown as a number (or an elapsed time)
	TypeString                 // text: shared, inline, rich (flattened) or a formula's text result
	TypeBool
	TypeError // an error value such as #N/A
	TypeDate  // a number whose format shows a date or a time of day
)

func (t CellType) String() string {
	return [...]string{"empty", "number", "string", "bool", "error", "date"}[t]
}

// Value is one cell as read. Its byte slices refer into the reader's
// buffers and stay valid only until the next call to Rows.Next (a shared
// string's until the Workbook is closed: see SharedText); copy what must
// outlive that (String does).
type Value struct {
	col      int32
	typ      CellType
	class    fmtClass
	date1904 bool
	shared   bool // text is the workbook's shared string
	typed    bool // text is the source text of a typed value (SetSourceText)
	style    uint32
	num      float64
	text     []byte
	formula  []byte
}

// Col is the cell's 1-based column.
func (v *Value) Col() int { return int(v.col) }

// Type is the cell's type.
func (v *Value) Type() CellType { return v.typ }

// Style is the index of the cell's format in the workbook's cellXfs.
func (v *Value) Style() int { return int(v.style) }

// Float is the number of a number or date cell (a date's serial), and 1 or
// 0 for a boolean.
func (v *Value) Float() float64 { return v.num }

// Bool is a boolean cell's value.
func (v *Value) Bool() bool { return v.typ == TypeBool && v.num != 0 }

// Bytes is the text of a string cell, the code of an error cell, the
// number as the file writes it, or the text a value was typed from
// (SetSourceText), without copying.
func (v *Value) Bytes() []byte { return v.text }

// SetSourceText records the text a value was typed from, as delimited
// text gives it ("2024-01-15", "true", "1.50"), for Bytes to return: a
// reader that wants the text as it was written, such as a database's
// text column, then need not spell the value anew ("2024-01-15T00:00:00",
// "TRUE", "1.5"). The Value refers to text, without copying. String and
// error cells keep their own text.
func (v *Value) SetSourceText(text []byte) {
	if len(text) > 0 && v.typ != TypeString && v.typ != TypeError && v.typ != TypeEmpty {
		v.text, v.typed = text, true
	}
}

// SourceText is the text SetSourceText recorded, or nil: unlike Bytes,
// never a workbook's own spelling of a number ("4.9999999999999996E-2").
func (v *Value) SourceText() []byte {
	if v.typed {
		return v.text
	}
	return nil
}

// SharedText reports whether a string cell's text is one of the
// workbook's shared strings (the common form in .xlsx, .xlsb and .xls
// files), whose Bytes stay valid and unchanged until the Workbook is
// closed: a caller that keeps text past the next Rows.Next need not copy
// it.
func (v *Value) SharedText() bool { return v.shared }

// Formula is the cell's formula without the leading "=", if it has one.
// Cells that share a formula carry its text only in the first cell.
func (v *Value) Formula() []byte { return v.formula }

// TimeOfDay reports whether a date cell holds only a time of day: its
// format shows no date, or its serial is under one day.
func (v *Value) TimeOfDay() bool {
	return v.typ == TypeDate && (v.class == fmtTime || (v.num >= 0 && v.num < 1))
}

// DateOnly reports whether a date cell holds a day without a time of
// day: its format shows no clock, and its serial is a whole day (a date
// format over a serial with a fraction still has a time to tell).
func (v *Value) DateOnly() bool {
	return v.typ == TypeDate && v.class == fmtDate && v.num == math.Trunc(v.num)
}

// Elapsed reports whether a number cell's format shows an elapsed time
// such as [h]:mm:ss; Duration converts it.
func (v *Value) Elapsed() bool { return v.typ == TypeNumber && v.class == fmtDuration }

// Time is a date cell's wall-clock time, in UTC, rounded to the
// millisecond as Excel shows it. A time of day falls on 1899-12-30 (the
// 1900 system's day zero) or 1904-01-01.
func (v *Value) Time() time.Time { return v.timeRounded(time.Millisecond) }

// PreciseTime is Time to the microsecond where the serial resolves one:
// for a date-time a program wrote with its microseconds (a database's
// timestamp, exported), which a double keeps exactly until mid-2079
// (serial 65,536); past that, to the millisecond, as Time. A value
// that was exact to the millisecond stays so: a double's error is well
// under a microsecond there.
func (v *Value) PreciseTime() time.Time {
	if math.Abs(v.num) < 1<<16 {
		return v.timeRounded(time.Microsecond)
	}
	return v.timeRounded(time.Millisecond)
}

func (v *Value) timeRounded(unit time.Duration) time.Time {
	if v.num >= 0 && v.num < 1 {
		base := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
		if v.date1904 {
			base = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
		}
		return base.Add(time.Duration(math.Round(v.num*float64(24*time.Hour/unit))) * unit)
	}
	return DateFromSerial(v.num, v.date1904).Round(unit)
}

// Duration is a number of days as a time.Duration, rounded to the
// millisecond.
func (v *Value) Duration() time.Duration { return dayFraction(v.num) }

func dayFraction(days float64) time.Duration {
	ms := math.Round(days * 86400e3)
	return time.Duration(ms) * time.Millisecond
}

// String is the value as text, copied: numbers in shortest round-trip
// form, dates as ISO 8601, booleans as TRUE and FALSE.
func (v *Value) String() string { return string(v.AppendText(nil)) }

// AppendText appends the value as text, as String formats it.
func (v *Value) AppendText(dst []byte) []byte {
	switch v.typ {
	case TypeNumber:
		// The file's own text is the shortest form when it is a plain
		// decimal of at most 15 significant digits: no other decimal that
		// short reads as the same double.
		if isShortDecimal(v.text) {
			return append(dst, v.text...)
		}
		return AppendNumberText(dst, v.num)
	case TypeString, TypeError:
		return append(dst, v.text...)
	case TypeBool:
		if v.num != 0 {
			return append(dst, "TRUE"...)
		}
		return append(dst, "FALSE"...)
	case TypeDate:
		return v.appendISO(dst)
	}
	return dst
}

// AppendDate appends a date cell's value as what it holds: a day alone as
// 2024-02-29, a time of day as 13:45:00, a date-time as 2024-02-29 and
// 13:45:00 joined by sep (' ' for CSV and people, 'T' for JSON), with
// milliseconds only when there are any. It is how sheetstream writes
// dates as text everywhere (cat, convert, import into a text column).
func (v *Value) AppendDate(dst []byte, sep byte) []byte {
	t := v.Time()
	switch {
	case v.DateOnly():
		return t.AppendFormat(dst, "2006-01-02")
	case !v.TimeOfDay():
		dst = t.AppendFormat(dst, "2006-01-02")
		dst = append(dst, sep)
	}
	dst = t.AppendFormat(dst, "15:04:05")
	if ms := t.Nanosecond() / 1e6; ms != 0 {
		dst = append(dst, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
	}
	return dst
}

// appendISO writes 2024-02-29T13:45:00 for dates and 13:45:00 for times
// of day, with milliseconds only when there are any.
func (v *Value) appendISO(dst []byte) []byte {
	t := v.Time()
	layout := "2006-01-02T15:04:05"
	if v.TimeOfDay() {
		layout = "15:04:05"
	}
	if t.Nanosecond() != 0 {
		layout += ".000"
	}
	return t.AppendFormat(dst, layout)
}

// AppendNumberText formats f as text for people and CSV files: the
// shortest form that reads back exactly, without an exponent between 1e-6
// and 1e21, as JSON and JavaScript print numbers. (The writer stores
// numbers in the file differently, as Excel does: in exponent form below
// 1e-5 and from 1e15, and float32 values at their own precision.)
func AppendNumberText(dst []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.AppendInt(dst, int64(f), 10)
	}
	abs := math.Abs(f)
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		// 1e-09 becomes 1e-9, as JSON writers and JavaScript print it.
		start := len(dst)
		dst = strconv.AppendFloat(dst, f, 'e', -1, 64)
		if e := bytes.IndexByte(dst[start:], 'e'); e >= 0 && e+3 < len(dst)-start && dst[start+e+2] == '0' {
			dst = append(dst[:start+e+2], dst[start+e+3:]...)
		}
		return dst
	}
	return strconv.AppendFloat(dst, f, 'f', -1, 64)
}

// isShortDecimal reports whether b is a decimal in canonical form: an
// optional minus, an integer part without leading zeros (or a single
// zero), an optional fraction not ending in zero, at most 15 significant
// digits, not negative zero, and not under 1e-6 — a number AppendNumberText
// would write the same way.
func isShortDecimal(b []byte) bool {
	if len(b) == 0 || len(b) > 17 {
		return false
	}
	i := 0
	if b[0] == '-' {
		i = 1
		if len(b) == 1 {
			return false
		}
	}
	start := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	intDigits := i - start
	if intDigits == 0 || (intDigits > 1 && b[start] == '0') {
		return false
	}
	sig := intDigits
	if b[start] == '0' {
		sig = 0
	}
	if i == len(b) {
		return sig <= 15 && !(sig == 0 && start == 1)
	}
	if b[i] != '.' || i+1 == len(b) || b[len(b)-1] == '0' {
		return false
	}
	i++
	leading, zeros := sig == 0, 0
	for ; i < len(b); i++ {
		c := b[i]
		if c < '0' || c > '9' {
			return false
		}
		if leading && c == '0' {
			zeros++
			continue
		}
		leading = false
		sig++
	}
	// Under 1e-6 AppendNumberText uses an exponent.
	return sig <= 15 && zeros < 6
}

// Row is one row as read: its 1-based number and its non-empty cells in
// column order. Rows with no cells are not reported.
type Row struct {
	Num   int
	Cells []Value
}

// ValueOf is the Value a reader would give for cell c in column col
// (1-based). Sources of typed cells that are not worksheets, such as
// delimited text, hand their rows to code written for Rows through it.
// The Value refers to c's text without copying. A date outside Excel's
// calendar (before 1900) stays a date in ISO 8601 text; a formula gives
// its cached value.
func ValueOf(col int, c Cell) Value {
	var v Value
	v.SetCell(col, &c)
	return v
}

// SetCell sets v to ValueOf(col, *c) in place: a cell is a large value,
// and code that types many fields fills its rows' Values without copying
// one.
func (v *Value) SetCell(col int, c *Cell) {
	*v = Value{col: int32(col)}
	k := c.kind
	var text string // of a string, decimal or error: a formula's cached one
	switch {
	case k == kindFormula:
		v.formula = stringBytes(c.formula())
		k = c.cached
		text = c.cachedText()
	case k == kindString:
		text = c.text()
	default:
		text = c.s
	}
	switch k {
	case kindInt:
		v.typ, v.num = TypeNumber, float64(c.i)
	case kindUint:
		v.typ, v.num = TypeNumber, float64(c.uint())
	case kindFloat, kindFloat32:
		v.typ, v.num = TypeNumber, c.num
	case kindDecimal:
		v.typ, v.text = TypeNumber, stringBytes(text)
		if f, ok := parseNumber(v.text); ok { // strconv's double, sooner
			v.num = f
		} else {
			v.num, _ = strconv.ParseFloat(text, 64)
		}
	case kindString:
		v.typ, v.text = TypeString, stringBytes(text)
	case kindBool:
		v.typ, v.num = TypeBool, float64(c.i)
	case kindDateTime, kindDate:
		serial, ok := excelSerial(c.t, false)
		if !ok {
			v.typ, v.text = TypeString, []byte(c.t.Format("2006-01-02T15:04:05.999999999"))
			break
		}
		v.typ, v.class, v.num = TypeDate, fmtDateTime, serial
		if k == kindDate {
			serial = math.Floor(serial) // the day alone, as the writer stores it
			v.class, v.num = fmtDate, serial
		}
	case kindTimeOfDay:
		v.typ, v.class, v.num = TypeDate, fmtTime, timeFraction(c.t)
	case kindDuration:
		v.typ, v.class, v.num = TypeNumber, fmtDuration, c.duration().Hours()/24
	case kindError:
		v.typ, v.text = TypeError, stringBytes(text)
	case kindRich:
		for _, r := range c.runs {
			v.text = append(v.text, r.Text...)
		}
		v.typ = TypeString
	}
}

func stringBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// AppendBinary appends the value in a compact binary form, for code that
// keeps rows between passes over a sheet (a spool file) instead of
// reading the sheet again; UnmarshalBinary reads it back.
func (v *Value) AppendBinary(b []byte) ([]byte, error) {
	// The flags byte: the type (3 bits), the format's class (2 bits),
	// date1904, text, formula. A value with source text (typed) or of a
	// class past 3 marks its type typedMark and carries a byte more: the
	// type, the typed bit, the class's third bit.
	extended := v.typed || v.class > 3
	flags := byte(v.typ) | byte(v.class&3)<<3
	if extended {
		flags = byte(typedMark) | byte(v.class&3)<<3
	}
	if v.date1904 {
		flags |= 1 << 5
	}
	if len(v.text) > 0 {
		flags |= 1 << 6
	}
	if len(v.formula) > 0 {
		flags |= 1 << 7
	}
	b = append(b, flags)
	if extended {
		ext := byte(v.typ) | byte(v.class>>2)<<4
		if v.typed {
			ext |= 1 << 3
		}
		b = append(b, ext)
	}
	b = binary.AppendUvarint(b, uint64(v.col))
	b = binary.AppendUvarint(b, uint64(v.style))
	if v.typ != TypeEmpty && v.typ != TypeString && v.typ != TypeError {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v.num))
	}
	if len(v.text) > 0 {
		b = binary.AppendUvarint(b, uint64(len(v.text)))
		b = append(b, v.text...)
	}
	if len(v.formula) > 0 {
		b = binary.AppendUvarint(b, uint64(len(v.formula)))
		b = append(b, v.formula...)
	}
	return b, nil
}

// typedMark stands in AppendBinary's type bits for a value with source
// text (SetSourceText), or of a format class past 3, whose type follows
// in a byte of its own.
const typedMark CellType = 7

// errValueBinary reports bytes that AppendBinary did not write.
var errValueBinary = errors.New("malformed binary value")

// UnmarshalBinary sets v from data as AppendBinary wrote it. v's text and
// formula refer into data, without copying.
func (v *Value) UnmarshalBinary(data []byte) error {
	if len(data) == 0 {
		return errValueBinary
	}
	flags := data[0]
	data = data[1:]
	*v = Value{typ: CellType(flags & 7), class: fmtClass(flags >> 3 & 3), date1904: flags&(1<<5) != 0}
	if v.typ == typedMark {
		if len(data) == 0 || data[0]&0xE0 != 0 {
			return errValueBinary
		}
		ext := data[0]
		v.typ, v.typed = CellType(ext&7), ext&(1<<3) != 0
		v.class |= fmtClass(ext>>4&1) << 2
		if v.typed && (v.typ == TypeString || v.typ == TypeError || v.typ == TypeEmpty || flags&(1<<6) == 0) ||
			!v.typed && v.class <= 3 || v.class > fmtDateTime {
			return errValueBinary
		}
		data = data[1:]
	}
	col, n := binary.Uvarint(data)
	if n <= 0 || col < 1 || col > MaxColumns || v.typ > TypeDate {
		return errValueBinary
	}
	data = data[n:]
	style, n := binary.Uvarint(data)
	if n <= 0 || style > math.MaxUint32 {
		return errValueBinary
	}
	data = data[n:]
	v.col, v.style = int32(col), uint32(style)
	if v.typ != TypeEmpty && v.typ != TypeString && v.typ != TypeError {
		if len(data) < 8 {
			return errValueBinary
		}
		v.num = math.Float64frombits(binary.LittleEndian.Uint64(data))
		data = data[8:]
	}
	field := func(present bool) ([]byte, bool) {
		if !present {
			return nil, true
		}
		size, n := binary.Uvarint(data)
		// AppendBinary writes a field only when it holds something.
		if n <= 0 || size == 0 || size > uint64(len(data)-n) {
			return nil, false
		}
		f := data[n : n+int(size) : n+int(size)]
		data = data[n+int(size):]
		return f, true
	}
	var ok1, ok2 bool
	v.text, ok1 = field(flags&(1<<6) != 0)
	v.formula, ok2 = field(flags&(1<<7) != 0)
	if !ok1 || !ok2 || len(data) != 0 {
		return errValueBinary
	}
	return nil
}
