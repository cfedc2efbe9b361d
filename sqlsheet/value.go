package sqlsheet

import (
	"bytes"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/sheetstream/sheetstream/internal/isotime"
	"github.com/sheetstream/sheetstream/internal/numtext"
	"github.com/sheetstream/sheetstream/xlsx"
)

// maxExact is the largest integer a double holds exactly.
const maxExact = 1 << 53

// column is one result column: its kind, its scan destination (reused for
// every row) and its styles.
type column struct {
	name    string
	kind    kind
	dynamic bool // scanned into any: SQLite, or after a scan error
	style   xlsx.StyleID
	styleMS xlsx.StyleID // timestamps with fractional seconds
	styled  bool

	i   sql.NullInt64
	f   sql.NullFloat64
	b   sql.NullBool
	t   sql.NullTime
	raw sql.RawBytes
	v   any
	tag valueTag // how the value was read, when read from SQLite directly
	// cutFrom is the length of the value before cutValue cut it (0: whole).
	cutFrom int

	width int // widest value sampled, in characters
}

func (c *column) dest() any {
	if c.dynamic {
		return &c.v
	}
	switch c.kind {
	case kindInt:
		return &c.i
	case kindFloat:
		return &c.f
	case kindBool:
		return &c.b
	case kindDate, kindTimestamp, kindTimestampTZ:
		return &c.t
	case kindAny:
		return &c.v
	}
	return &c.raw
}

// valueTag is the storage class of a value read through SQLite's API
// (sqlitesource.go): its value is in i, f or raw.
type valueTag uint8

const (
	tagNone valueTag = iota // not read that way: see kind and dynamic
	tagNull
	tagInt
	tagFloat
	tagText
	tagBlob
)

// converter turns scanned values into cells, counting what it had to
// change.
type converter struct {
	opts  *Options
	loc   *time.Location
	warn  *Warnings
	clone bool // copy text out of the scan buffers (rows kept for sampling)
	// cutFrom is the full length of the value being converted when it
	// was cut (column.cutFrom): its text is truncated whatever remains.
	cutFrom int
}

// maxValueBytes is the most of a value an export keeps: any text a cell
// holds (32,767 UTF-16 units are at most 98,301 bytes of UTF-8), and more
// than the hex or base64 text of a binary value needs. A longer value is
// cut to it before it is copied or converted, so that a table of large
// values costs no more memory than one of values a cell can hold.
const maxValueBytes = 3*xlsx.MaxCellChars + 3

// cutBytes cuts b to at most maxValueBytes, on a UTF-8 boundary.
func cutBytes(b []byte) []byte {
	n := maxValueBytes
	for i := 0; i < 3 && b[n]&0xC0 == 0x80; i++ {
		n--
	}
	return b[:n]
}

// cutValue cuts the scanned value of c to maxValueBytes, remembering its
// length. It returns the bytes of the value the row now holds.
func (c *column) cutValue() int {
	c.cutFrom = 0
	n := len(c.raw)
	if n > maxValueBytes {
		c.cutFrom = n
		c.raw = cutBytes(c.raw)
		n = len(c.raw)
	}
	if c.v != nil { // a value scanned by its Go type
		n += c.cutAny()
	}
	return n
}

func (c *column) cutAny() int {
	switch v := c.v.(type) {
	case string:
		if len(v) > maxValueBytes {
			c.cutFrom = len(v)
			v = string(cutBytes([]byte(v[:maxValueBytes+1])))
			c.v = v
		}
		return len(v)
	case []byte:
		if len(v) > maxValueBytes {
			c.cutFrom = len(v)
			v = bytes.Clone(cutBytes(v))
			c.v = v
		}
		return len(v)
	}
	return 0
}

// The conversions store into the cell they are given: an xlsx.Cell is a
// large value, and returning one through each layer cost more than the
// conversion itself. put and null are small enough to be inlined.

// put stores cell in dst with the column's number format.
func (c *column) put(dst *xlsx.Cell, cell xlsx.Cell) {
	if c.styled {
		*dst = cell.WithStyle(c.style)
	} else {
		*dst = cell
	}
}

func (cv *converter) null(dst *xlsx.Cell) {
	if cv.opts.Null != "" {
		*dst = xlsx.String(cv.opts.Null)
	} else {
		*dst = xlsx.Cell{}
	}
}

// text makes a text cell, truncating text longer than a cell holds (or
// failing under Strict).
func (cv *converter) text(dst *xlsx.Cell, s string) error {
	truncated := false
	if len(s) > xlsx.MaxCellChars || cv.cutFrom > 0 {
		if cut := truncateUTF16(s, xlsx.MaxCellChars); len(cut) < len(s) || cv.cutFrom > 0 {
			if cv.opts.Strict {
				return xlsx.ErrCellTooLong
			}
			cv.warn.Truncated++
			s, truncated = cut, true
		}
	}
	if cv.clone || truncated {
		// A truncated text is copied too, so that the cell does not keep
		// a long value alive.
		s = strings.Clone(s)
	}
	*dst = xlsx.String(s)
	return nil
}

// view reads b as a string without copying. The string is only valid while
// b is: until the next scan, or until its batch is reused, which both come
// after the row is written; cv.text copies it when rows are kept.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// truncateUTF16 cuts s to at most n UTF-16 code units, on a rune boundary.
func truncateUTF16(s string, n int) string {
	units := 0
	for i, r := range s {
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

func (cv *converter) int(dst *xlsx.Cell, c *column, v int64) {
	if (v > maxExact || v < -maxExact) && !cv.opts.ForceNumbers {
		cv.warn.BigNumbers++
		c.put(dst, xlsx.String(strconv.FormatInt(v, 10)))
		return
	}
	c.put(dst, xlsx.Int(v))
}

func (cv *converter) uint(dst *xlsx.Cell, c *column, v uint64) {
	if v > maxExact && !cv.opts.ForceNumbers {
		cv.warn.BigNumbers++
		c.put(dst, xlsx.String(strconv.FormatUint(v, 10)))
		return
	}
	c.put(dst, xlsx.Uint(v))
}

func (cv *converter) float(dst *xlsx.Cell, c *column, v float64) {
	switch {
	case math.IsNaN(v):
		*dst = xlsx.String("NaN")
	case math.IsInf(v, 1):
		*dst = xlsx.String("Infinity")
	case math.IsInf(v, -1):
		*dst = xlsx.String("-Infinity")
	default:
		c.put(dst, xlsx.Float(v))
	}
}

// decimal writes a DECIMAL/NUMERIC text as a number when a double holds
// every digit, and as text otherwise (counted in the warnings), unless
// ForceNumbers asks for a number anyway. Plain decimals, the usual case,
// go into the file as they came.
func (cv *converter) decimal(dst *xlsx.Cell, c *column, s string) error {
	if _, _, ok := numtext.Plain(s); ok {
		if cv.clone {
			s = strings.Clone(s)
		}
		c.put(dst, xlsx.Decimal(s))
		return nil
	}
	n, res := numtext.Parse(s)
	switch res {
	case numtext.OK:
		if n.IsInt {
			cv.int(dst, c, n.Int)
		} else {
			c.put(dst, xlsx.Float(n.Float))
		}
		return nil
	case numtext.TooPrecise:
		if cv.opts.ForceNumbers {
			if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) {
				c.put(dst, xlsx.Float(f))
				return nil
			}
		}
		cv.warn.BigNumbers++
	}
	if err := cv.text(dst, s); err != nil { // NaN, Infinity or more digits than a double keeps
		return err
	}
	c.put(dst, *dst)
	return nil
}

func (cv *converter) time(dst *xlsx.Cell, c *column, t time.Time) error {
	if c.kind == kindTimestampTZ {
		t = t.In(cv.loc)
	}
	if y := t.Year(); y < 1900 || y > 9999 {
		cv.warn.DatesOutOfRange++
		if c.kind == kindDate {
			return cv.text(dst, t.Format("2006-01-02"))
		}
		return cv.text(dst, t.Format("2006-01-02T15:04:05.999999999"))
	}
	switch c.kind {
	case kindDate:
		c.put(dst, xlsx.Date(t))
	case kindTime:
		c.put(dst, xlsx.TimeOfDay(t))
	default:
		if t.Nanosecond() != 0 {
			*dst = xlsx.Time(t).WithStyle(c.styleMS)
		} else {
			c.put(dst, xlsx.Time(t))
		}
	}
	return nil
}

func (cv *converter) binary(dst *xlsx.Cell, b []byte) error {
	size := len(b)
	if cv.cutFrom > 0 {
		size = cv.cutFrom
	}
	switch cv.opts.Binary {
	case BinaryHex:
		return cv.text(dst, hex.EncodeToString(b))
	case BinaryBase64:
		return cv.text(dst, base64.StdEncoding.EncodeToString(b))
	}
	*dst = xlsx.String("<binary " + strconv.Itoa(size) + " bytes>")
	return nil
}

// cell converts c's scanned value into dst.
func (cv *converter) cell(dst *xlsx.Cell, c *column) error {
	cv.cutFrom = c.cutFrom
	if c.tag != tagNone {
		return cv.taggedCell(dst, c)
	}
	if c.dynamic || c.kind == kindAny {
		return cv.dynamicCell(dst, c, c.v)
	}
	switch c.kind {
	case kindInt:
		if !c.i.Valid {
			cv.null(dst)
			return nil
		}
		cv.int(dst, c, c.i.Int64)
		return nil
	case kindFloat:
		if !c.f.Valid {
			cv.null(dst)
			return nil
		}
		cv.float(dst, c, c.f.Float64)
		return nil
	case kindBool:
		if !c.b.Valid {
			cv.null(dst)
			return nil
		}
		*dst = xlsx.Bool(c.b.Bool)
		return nil
	case kindDate, kindTimestamp, kindTimestampTZ:
		if !c.t.Valid {
			cv.null(dst)
			return nil
		}
		return cv.time(dst, c, c.t.Time)
	}
	if c.raw == nil {
		cv.null(dst)
		return nil
	}
	return cv.rawCell(dst, c, view(c.raw))
}

// rawCell converts a value scanned as text by the column's kind.
func (cv *converter) rawCell(dst *xlsx.Cell, c *column, raw string) error {
	if cv.cutFrom > 0 && c.kind != kindBinary {
		return cv.text(dst, raw) // no number or date is that long
	}
	switch c.kind {
	case kindDecimal:
		return cv.decimal(dst, c, raw)
	case kindUint:
		if v, err := strconv.ParseUint(raw, 10, 64); err == nil {
			cv.uint(dst, c, v)
			return nil
		}
	case kindTime:
		if t, kind := isotime.Parse(raw); kind == isotime.Clock {
			c.put(dst, xlsx.TimeOfDay(t))
			return nil
		}
	case kindInterval:
		if d, ok := parseInterval(raw); ok {
			c.put(dst, xlsx.Duration(d))
			return nil
		}
	case kindBinary:
		return cv.binary(dst, unsafe.Slice(unsafe.StringData(raw), len(raw)))
	case kindDate, kindTimestamp, kindTimestampTZ:
		if t, ok := parseTimestamp(raw); ok {
			return cv.time(dst, c, t)
		}
	}
	return cv.text(dst, raw)
}

// dynamicCell converts a value by its Go type, guided by the column's
// declared kind where the type alone is ambiguous (SQLite stores booleans
// as integers and dates as text).
func (cv *converter) dynamicCell(dst *xlsx.Cell, c *column, v any) error {
	switch x := v.(type) {
	case nil:
		cv.null(dst)
		return nil
	case int64:
		cv.looseInt(dst, c, x)
		return nil
	case float64:
		cv.float(dst, c, x)
		return nil
	case bool:
		*dst = xlsx.Bool(x)
		return nil
	case time.Time:
		return cv.time(dst, c, x)
	case string:
		return cv.looseText(dst, c, x)
	case []byte:
		return cv.looseBytes(dst, c, x)
	}
	return cv.text(dst, strings.TrimSpace(strconvAny(v)))
}

// taggedCell converts a value read from SQLite directly, as dynamicCell
// does the same value read through database/sql.
func (cv *converter) taggedCell(dst *xlsx.Cell, c *column) error {
	switch c.tag {
	case tagInt:
		cv.looseInt(dst, c, c.i.Int64)
	case tagFloat:
		cv.float(dst, c, c.f.Float64)
	case tagText:
		return cv.looseText(dst, c, view(c.raw))
	case tagBlob:
		return cv.looseBytes(dst, c, c.raw)
	default:
		cv.null(dst)
	}
	return nil
}

// The loose conversions take a value of whatever type it came as.

func (cv *converter) looseInt(dst *xlsx.Cell, c *column, v int64) {
	if c.kind == kindBool {
		*dst = xlsx.Bool(v != 0)
	} else {
		cv.int(dst, c, v)
	}
}

func (cv *converter) looseText(dst *xlsx.Cell, c *column, s string) error {
	if c.kind != kindText && c.kind != kindAny {
		return cv.rawCell(dst, c, s)
	}
	if c.kind == kindAny {
		// An untyped value (a SQLite expression such as MIN(day)) that
		// is exactly an ISO date or date-time is one: SQLite keeps dates
		// as text.
		switch t, kind := isotime.Parse(s); kind {
		case isotime.Date:
			*dst = xlsx.Date(t)
			return nil
		case isotime.DateTime:
			*dst = xlsx.Time(t)
			return nil
		}
	}
	return cv.text(dst, s)
}

func (cv *converter) looseBytes(dst *xlsx.Cell, c *column, b []byte) error {
	if c.kind == kindBinary || !utf8.Valid(b) {
		return cv.binary(dst, b)
	}
	if c.kind != kindText && c.kind != kindAny {
		return cv.rawCell(dst, c, view(b))
	}
	return cv.text(dst, view(b))
}

func strconvAny(v any) string {
	switch x := v.(type) {
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	}
	return ""
}

// parseTimestamp reads the text forms drivers use for dates and times.
func parseTimestamp(s string) (time.Time, bool) {
	if t, kind := isotime.Parse(s); kind == isotime.Date || kind == isotime.DateTime {
		return t, true // the common forms, without time.Parse
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05.999999999",
		"2006-01-02T15:04:05.999999999", "2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// parseInterval reads PostgreSQL's default interval output ("3 days
// 04:05:06.5", "-1 days +02:00:00", "00:00:01"). Months and years have no
// fixed length, so intervals with them stay text.
func parseInterval(s string) (time.Duration, bool) {
	var d time.Duration
	fields := strings.Fields(s)
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if strings.Contains(f, ":") {
			neg := strings.HasPrefix(f, "-")
			f = strings.TrimLeft(f, "+-")
			parts := strings.Split(f, ":")
			if len(parts) != 3 {
				return 0, false
			}
			h, err1 := strconv.Atoi(parts[0])
			m, err2 := strconv.Atoi(parts[1])
			sec, err3 := strconv.ParseFloat(parts[2], 64)
			if err1 != nil || err2 != nil || err3 != nil {
				return 0, false
			}
			x := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(math.Round(sec*1e9))
			if neg {
				x = -x
			}
			d += x
			continue
		}
		if i+1 >= len(fields) {
			return 0, false
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			return 0, false
		}
		switch strings.TrimSuffix(fields[i+1], "s") {
		case "day":
			d += time.Duration(n) * 24 * time.Hour
		default:
			return 0, false // mon, year: no fixed length
		}
		i++
	}
	return d, len(fields) > 0
}
