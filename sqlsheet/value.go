package sqlsheet

import (
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

// converter turns scanned values into cells, counting what it had to
// change.
type converter struct {
	opts  *Options
	loc   *time.Location
	warn  *Warnings
	clone bool // copy text out of the scan buffers (rows kept for sampling)
}

func (cv *converter) styled(c *column, cell xlsx.Cell) xlsx.Cell {
	if c.styled {
		return cell.WithStyle(c.style)
	}
	return cell
}

func (cv *converter) null() xlsx.Cell {
	if cv.opts.Null != "" {
		return xlsx.String(cv.opts.Null)
	}
	return xlsx.Cell{}
}

// text makes a text cell, truncating text longer than a cell holds (or
// failing under Strict).
func (cv *converter) text(s string) (xlsx.Cell, error) {
	if len(s) > xlsx.MaxCellChars {
		if cut := truncateUTF16(s, xlsx.MaxCellChars); len(cut) < len(s) {
			if cv.opts.Strict {
				return xlsx.Cell{}, xlsx.ErrCellTooLong
			}
			cv.warn.Truncated++
			s = cut
		}
	}
	if cv.clone {
		s = strings.Clone(s)
	}
	return xlsx.String(s), nil
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

func (cv *converter) int(v int64) xlsx.Cell {
	if (v > maxExact || v < -maxExact) && !cv.opts.ForceNumbers {
		cv.warn.BigNumbers++
		return xlsx.String(strconv.FormatInt(v, 10))
	}
	return xlsx.Int(v)
}

func (cv *converter) uint(v uint64) xlsx.Cell {
	if v > maxExact && !cv.opts.ForceNumbers {
		cv.warn.BigNumbers++
		return xlsx.String(strconv.FormatUint(v, 10))
	}
	return xlsx.Uint(v)
}

func (cv *converter) float(v float64) xlsx.Cell {
	switch {
	case math.IsNaN(v):
		return xlsx.String("NaN")
	case math.IsInf(v, 1):
		return xlsx.String("Infinity")
	case math.IsInf(v, -1):
		return xlsx.String("-Infinity")
	}
	return xlsx.Float(v)
}

// decimal writes a DECIMAL/NUMERIC text as a number when a double holds
// every digit, and as text otherwise (counted in the warnings), unless
// ForceNumbers asks for a number anyway.
func (cv *converter) decimal(s string) (xlsx.Cell, error) {
	n, res := numtext.Parse(s)
	switch res {
	case numtext.OK:
		if n.IsInt {
			return cv.int(n.Int), nil
		}
		return xlsx.Float(n.Float), nil
	case numtext.TooPrecise:
		if cv.opts.ForceNumbers {
			if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) {
				return xlsx.Float(f), nil
			}
		}
		cv.warn.BigNumbers++
	}
	return cv.text(s) // NaN, Infinity or more digits than a double keeps
}

func (cv *converter) time(c *column, t time.Time) (xlsx.Cell, error) {
	if c.kind == kindTimestampTZ {
		t = t.In(cv.loc)
	}
	if y := t.Year(); y < 1900 || y > 9999 {
		cv.warn.DatesOutOfRange++
		if c.kind == kindDate {
			return cv.text(t.Format("2006-01-02"))
		}
		return cv.text(t.Format("2006-01-02T15:04:05.999999999"))
	}
	var cell xlsx.Cell
	switch c.kind {
	case kindDate:
		cell = xlsx.Date(t)
	case kindTime:
		cell = xlsx.TimeOfDay(t)
	default:
		cell = xlsx.Time(t)
		if t.Nanosecond() != 0 {
			return cell.WithStyle(c.styleMS), nil
		}
	}
	return cv.styled(c, cell), nil
}

func (cv *converter) binary(b []byte) (xlsx.Cell, error) {
	switch cv.opts.Binary {
	case BinaryHex:
		return cv.text(hex.EncodeToString(b))
	case BinaryBase64:
		return cv.text(base64.StdEncoding.EncodeToString(b))
	}
	return xlsx.String("<binary " + strconv.Itoa(len(b)) + " bytes>"), nil
}

// cell converts c's scanned value.
func (cv *converter) cell(c *column) (xlsx.Cell, error) {
	if c.dynamic || c.kind == kindAny {
		return cv.dynamicCell(c, c.v)
	}
	switch c.kind {
	case kindInt:
		if !c.i.Valid {
			return cv.null(), nil
		}
		return cv.styled(c, cv.int(c.i.Int64)), nil
	case kindFloat:
		if !c.f.Valid {
			return cv.null(), nil
		}
		return cv.styled(c, cv.float(c.f.Float64)), nil
	case kindBool:
		if !c.b.Valid {
			return cv.null(), nil
		}
		return xlsx.Bool(c.b.Bool), nil
	case kindDate, kindTimestamp, kindTimestampTZ:
		if !c.t.Valid {
			return cv.null(), nil
		}
		return cv.time(c, c.t.Time)
	}
	if c.raw == nil {
		return cv.null(), nil
	}
	return cv.rawCell(c, view(c.raw))
}

// rawCell converts a value scanned as text by the column's kind.
func (cv *converter) rawCell(c *column, raw string) (xlsx.Cell, error) {
	switch c.kind {
	case kindDecimal:
		cell, err := cv.decimal(raw)
		return cv.styled(c, cell), err
	case kindUint:
		if v, err := strconv.ParseUint(raw, 10, 64); err == nil {
			return cv.styled(c, cv.uint(v)), nil
		}
	case kindTime:
		if t, kind := isotime.Parse(raw); kind == isotime.Clock {
			return cv.styled(c, xlsx.TimeOfDay(t)), nil
		}
	case kindInterval:
		if d, ok := parseInterval(raw); ok {
			return cv.styled(c, xlsx.Duration(d)), nil
		}
	case kindBinary:
		return cv.binary(unsafe.Slice(unsafe.StringData(raw), len(raw)))
	case kindDate, kindTimestamp, kindTimestampTZ:
		if t, ok := parseTimestamp(raw); ok {
			return cv.time(c, t)
		}
	}
	return cv.text(raw)
}

// dynamicCell converts a value by its Go type, guided by the column's
// declared kind where the type alone is ambiguous (SQLite stores booleans
// as integers and dates as text).
func (cv *converter) dynamicCell(c *column, v any) (xlsx.Cell, error) {
	switch x := v.(type) {
	case nil:
		return cv.null(), nil
	case int64:
		if c.kind == kindBool {
			return xlsx.Bool(x != 0), nil
		}
		return cv.styled(c, cv.int(x)), nil
	case float64:
		return cv.styled(c, cv.float(x)), nil
	case bool:
		return xlsx.Bool(x), nil
	case time.Time:
		return cv.time(c, x)
	case string:
		if c.kind != kindText && c.kind != kindAny {
			return cv.rawCell(c, x)
		}
		if c.kind == kindAny {
			// An untyped value (a SQLite expression such as MIN(day))
			// that is exactly an ISO date or date-time is one: SQLite
			// keeps dates as text.
			switch t, kind := isotime.Parse(x); kind {
			case isotime.Date:
				return xlsx.Date(t), nil
			case isotime.DateTime:
				return xlsx.Time(t), nil
			}
		}
		return cv.text(x)
	case []byte:
		if c.kind == kindBinary || !utf8.Valid(x) {
			return cv.binary(x)
		}
		if c.kind != kindText && c.kind != kindAny {
			return cv.rawCell(c, view(x))
		}
		return cv.text(view(x))
	}
	return cv.text(strings.TrimSpace(strconvAny(v)))
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
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05.999999999",
		"2006-01-02T15:04:05.999999999", "2006-01-02"} {
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
