package sqlsheet

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sheetstream/sheetstream/xlsx"
)

func columnTypeOf(k kind) ColumnType {
	switch k {
	case kindInt:
		return ColumnInteger
	case kindUint:
		return ColumnDecimal // past int64: the digits, for the server to check
	case kindFloat:
		return ColumnFloat
	case kindDecimal:
		return ColumnDecimal
	case kindTimestampTZ:
		return ColumnTimestampTZ
	case kindBool:
		return ColumnBoolean
	case kindDate:
		return ColumnDate
	case kindTimestamp:
		return ColumnTimestamp
	case kindTime:
		return ColumnTime
	}
	return ColumnText
}

// cellType is the narrowest column type that holds the cell.
func cellType(c *xlsx.Value) ColumnType {
	switch c.Type() {
	case xlsx.TypeNumber:
		f := c.Float()
		if f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
			return ColumnInteger
		}
		return ColumnFloat
	case xlsx.TypeBool:
		return ColumnBoolean
	case xlsx.TypeDate:
		if c.Float() < 1 && c.TimeOfDay() {
			return ColumnTime
		}
		if c.Float() == math.Trunc(c.Float()) {
			return ColumnDate
		}
		return ColumnTimestamp
	case xlsx.TypeString:
		return ColumnText
	}
	return columnEmpty // empty and error cells say nothing
}

// widen is the narrowest type holding values of both types.
func widen(a, b ColumnType) ColumnType {
	switch {
	case a == b || b == columnEmpty:
		return a
	case a == columnEmpty:
		return b
	case (a == ColumnInteger && b == ColumnFloat) || (a == ColumnFloat && b == ColumnInteger):
		return ColumnFloat
	case (a == ColumnDate && b == ColumnTimestamp) || (a == ColumnTimestamp && b == ColumnDate):
		return ColumnTimestamp
	}
	return ColumnText
}

// value converts a cell for a column of type t. Text converts to
// anything it spells (numbers, ISO dates, TRUE/FALSE); anything converts
// to text.
func (imp *importer) value(c *xlsx.Value, col *ImportColumn) (any, error) {
	t := col.Type
	switch c.Type() {
	case xlsx.TypeEmpty:
		return nil, nil
	case xlsx.TypeString:
		if len(c.Bytes()) == 0 {
			return nil, nil // an empty string shows as an empty cell
		}
	case xlsx.TypeError:
		imp.stats.ErrorCells++
		return nil, nil
	}
	bad := func() (any, error) {
		return nil, fmt.Errorf("%w: %s %q into a column of type %s", ErrBadCell, c.Type(), c.String(), t)
	}
	switch t {
	case ColumnText:
		return c.String(), nil
	case ColumnInteger:
		f := c.Float()
		if c.Type() == xlsx.TypeString {
			n, err := strconv.ParseInt(strings.TrimSpace(string(c.Bytes())), 10, 64)
			if err != nil {
				return bad()
			}
			return n, nil
		}
		n, ok := wholeInt64(f)
		if c.Type() != xlsx.TypeNumber || !ok {
			return bad()
		}
		return n, nil
	case ColumnFloat:
		if c.Type() == xlsx.TypeString {
			f, err := strconv.ParseFloat(strings.TrimSpace(string(c.Bytes())), 64)
			if err != nil {
				return bad()
			}
			return f, nil
		}
		if c.Type() != xlsx.TypeNumber {
			return bad()
		}
		return c.Float(), nil
	case ColumnBoolean:
		switch {
		case c.Type() == xlsx.TypeBool:
			return c.Bool(), nil
		case c.Type() == xlsx.TypeNumber && (c.Float() == 0 || c.Float() == 1):
			return c.Float() == 1, nil
		case c.Type() == xlsx.TypeString:
			if b, err := strconv.ParseBool(strings.ToLower(strings.TrimSpace(string(c.Bytes())))); err == nil {
				return b, nil
			}
		}
		return bad()
	case ColumnDecimal:
		switch c.Type() {
		case xlsx.TypeNumber:
			return string(xlsx.AppendNumberText(nil, c.Float())), nil
		case xlsx.TypeString:
			// Decimals too long for a double were written as text.
			s := strings.TrimSpace(string(c.Bytes()))
			if !isDecimalText(s) {
				return bad()
			}
			return s, nil
		}
		return bad()
	case ColumnDate, ColumnTimestamp, ColumnTime, ColumnTimestampTZ:
		var tm time.Time
		switch c.Type() {
		case xlsx.TypeDate:
			tm = c.Time()
		case xlsx.TypeString:
			var err error
			s := strings.TrimSpace(string(c.Bytes()))
			for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02", "15:04:05.999999999"} {
				if tm, err = time.Parse(layout, s); err == nil {
					break
				}
			}
			if err != nil {
				return bad()
			}
		default:
			return bad()
		}
		if t == ColumnTimestampTZ {
			// The sheet shows the wall clock in the export's zone.
			zone := col.zone
			if zone == nil {
				zone = time.UTC
			}
			y, mo, d := tm.Date()
			h, mi, sec := tm.Clock()
			tm = time.Date(y, mo, d, h, mi, sec, tm.Nanosecond(), zone)
		}
		return tm, nil
	}
	return bad()
}

// isDecimalText reports whether s is a plain decimal number: a sign,
// digits with at most one point, and an optional exponent.
func isDecimalText(s string) bool {
	mantissa, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	mantissa = strings.TrimLeft(mantissa, "+-")
	whole, frac, _ := strings.Cut(mantissa, ".")
	digits := func(d string) bool {
		for i := 0; i < len(d); i++ {
			if d[i] < '0' || d[i] > '9' {
				return false
			}
		}
		return true
	}
	if whole+frac == "" || !digits(whole) || !digits(frac) || len(s)-len(mantissa) > 1 {
		return false
	}
	if hasExp {
		exp = strings.TrimLeft(exp, "+-")
		return exp != "" && digits(exp) && len(exp) <= 4
	}
	return true
}

// forDriver adapts a converted value to what database/sql drivers store
// well: SQLite keeps dates as ISO text, which the exporter reads back as
// dates.
func (imp *importer) forDriver(v any, t ColumnType) any {
	tm, ok := v.(time.Time)
	if !ok {
		return v
	}
	if t == ColumnTimestampTZ {
		if imp.engine == EnginePostgres {
			return tm
		}
		tm = tm.UTC() // MySQL and SQLite keep no zone: the UTC wall clock
	}
	if imp.engine == EngineSQLite {
		switch t {
		case ColumnDate:
			return tm.Format("2006-01-02")
		case ColumnTime:
			return tm.Format("15:04:05.999")
		}
		return tm.Format("2006-01-02 15:04:05.999")
	}
	if t == ColumnTime {
		return tm.Format("15:04:05.999")
	}
	return tm
}

// wholeInt64 converts a whole number within int64's range: -2^63 is, 2^63
// is not (a float64 comparison with 1<<63 must be strict on that side).
func wholeInt64(f float64) (int64, bool) {
	if f != math.Trunc(f) || f < -(1<<63) || f >= 1<<63 {
		return 0, false
	}
	return int64(f), true
}
