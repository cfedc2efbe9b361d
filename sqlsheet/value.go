package sqlsheet

import (
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

// column is one result column: its kind, the value of the current row
// and its styles.
type column struct {
	name    string
	kind    kind
	style   xlsx.StyleID
	styleMS xlsx.StyleID // timestamps with fractional seconds
	styled  bool

	val value // the current row's, filled by the source

	// cut counts the column's texts cut to what a cell holds, for the
	// schema part: an import must not take them for the values.
	cut int64
}

// value is one scanned value. Every source fills the same type — pgx's
// wire values, database/sql's scanned ones and SQLite's own — so that one
// switch (converter.cell) turns them all into cells.
type value struct {
	tag valueTag
	i   int64     // tagInt, tagUint (as the bits of a uint64), tagBool (0 or 1)
	f   float64   // tagFloat
	t   time.Time // tagTime
	// b is the bytes of tagText and tagBytes: lent by the source until
	// its next row, until the scanner copies them into its batch. An
	// import's tagFloat may carry the number's text from the file here.
	b []byte
	// cutFrom is the length of b before cut cut it (0: whole).
	cutFrom int
	// kept: b is the workbook's, valid to the end of the import (a shared
	// string), so that a batch need not copy it.
	kept bool
}

// valueTag says which field of a value holds it.
type valueTag uint8

const (
	tagNull  valueTag = iota
	tagInt            // an integer
	tagUint           // an unsigned integer beyond int64 (MySQL's BIGINT UNSIGNED)
	tagFloat          // a double
	tagBool           // a boolean
	tagTime           // a date or time
	tagText           // text, read by the column's kind: a decimal, date, interval... or text
	tagBytes          // bytes: a blob, or text of unknown encoding
)

func (v *value) setInt(i int64)      { v.tag, v.i = tagInt, i }
func (v *value) setFloat(f float64)  { v.tag, v.f = tagFloat, f }
func (v *value) setTime(t time.Time) { v.tag, v.t = tagTime, t }
func (v *value) setText(b []byte)    { v.tag, v.b = tagText, b }
func (v *value) setBytes(b []byte)   { v.tag, v.b = tagBytes, b }

func (v *value) setBool(b bool) {
	v.tag, v.i = tagBool, 0
	if b {
		v.i = 1
	}
}

// lent reports whether the value's bytes are the source's.
func (v *value) lent() bool { return v.tag == tagText || v.tag == tagBytes }

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
	current *column // whose value cell is converting
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

// cut cuts the value's bytes to maxValueBytes, remembering their length.
// It returns how many bytes of it the row now holds.
func (v *value) cut() int {
	v.cutFrom = 0
	if !v.lent() {
		return 0
	}
	if len(v.b) > maxValueBytes {
		v.cutFrom = len(v.b)
		v.b = cutBytes(v.b)
	}
	return len(v.b)
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

// textCell makes a text cell, truncating text longer than a cell holds
// (or failing under Strict).
func (cv *converter) textCell(dst *xlsx.Cell, s string) error {
	truncated := false
	if len(s) > xlsx.MaxCellChars || cv.cutFrom > 0 {
		if cut, _ := xlsx.TruncateText(s); len(cut) < len(s) || cv.cutFrom > 0 {
			if cv.opts.Strict {
				return xlsx.ErrCellTooLong
			}
			cv.warn.Truncated++
			if cv.current != nil {
				cv.current.cut++
			}
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
	if err := cv.textCell(dst, s); err != nil { // NaN, Infinity or more digits than a double keeps
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
			return cv.textCell(dst, t.Format("2006-01-02"))
		}
		return cv.textCell(dst, t.Format("2006-01-02T15:04:05.999999999"))
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
		return cv.textCell(dst, hex.EncodeToString(b))
	case BinaryBase64:
		return cv.textCell(dst, base64.StdEncoding.EncodeToString(b))
	}
	*dst = xlsx.String("<binary " + strconv.Itoa(size) + " bytes>")
	return nil
}

// cell converts c's value into dst: the one place where values of every
// source become cells. The column's declared kind decides what the value
// alone cannot say: SQLite keeps booleans as integers and dates as text,
// and drivers hand decimals, intervals and times over as text.
func (cv *converter) cell(dst *xlsx.Cell, c *column) error {
	cv.current = c
	v := &c.val
	cv.cutFrom = v.cutFrom
	switch v.tag {
	case tagInt:
		if c.kind == kindBool {
			*dst = xlsx.Bool(v.i != 0)
		} else {
			cv.int(dst, c, v.i)
		}
	case tagUint:
		cv.uint(dst, c, uint64(v.i))
	case tagFloat:
		cv.float(dst, c, v.f)
	case tagBool:
		*dst = xlsx.Bool(v.i != 0)
	case tagTime:
		return cv.time(dst, c, v.t)
	case tagText:
		return cv.text(dst, c, view(v.b))
	case tagBytes:
		return cv.bytes(dst, c, v.b)
	default:
		cv.null(dst)
	}
	return nil
}

// text converts text by the column's kind: an untyped value that is
// exactly an ISO date or date-time is one (SQLite keeps dates as text, and
// an expression such as MIN(day) has no declared type).
func (cv *converter) text(dst *xlsx.Cell, c *column, s string) error {
	switch c.kind {
	case kindText:
		return cv.textCell(dst, s)
	case kindAny:
		switch t, kind := isotime.Parse(s); kind {
		case isotime.Date:
			*dst = xlsx.Date(t)
			return nil
		case isotime.DateTime:
			*dst = xlsx.Time(t)
			return nil
		}
		return cv.textCell(dst, s)
	}
	return cv.parsed(dst, c, s)
}

// bytes converts bytes: as binary in a binary column or when they are not
// UTF-8, else as text (parsed by a typed column's kind, never taken for a
// date in an untyped one: a blob is not SQLite's way of keeping dates).
func (cv *converter) bytes(dst *xlsx.Cell, c *column, b []byte) error {
	switch {
	case c.kind == kindBinary || !utf8.Valid(b):
		return cv.binary(dst, b)
	case c.kind == kindText || c.kind == kindAny:
		return cv.textCell(dst, view(b))
	}
	return cv.parsed(dst, c, view(b))
}

// parsed converts text that holds a value of the column's kind: a
// decimal, an unsigned integer, a date, a time or an interval as drivers
// write them, or a binary value. Text that does not parse stays text.
func (cv *converter) parsed(dst *xlsx.Cell, c *column, raw string) error {
	if cv.cutFrom > 0 && c.kind != kindBinary {
		return cv.textCell(dst, raw) // no number or date is that long
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
	return cv.textCell(dst, raw)
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
