package sqlsheet

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/sheetstream/sheetstream/internal/isotime"
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

// cellType is the type a column needs for a cell, on the importer's
// engine: on PostgreSQL, text that is a timestamp with a UTC offset (as
// its own COPY and psql write a timestamptz: "2024-01-01 08:00:00+00")
// needs a timestamptz column; elsewhere, which keeps no offset, text.
func (imp *importer) cellType(c *xlsx.Value) ColumnType {
	t := cellType(c)
	if t == ColumnText && imp.engine == EnginePostgres && zonedTimestamp(c.Bytes()) {
		return ColumnTimestampTZ
	}
	return t
}

// zonedTimestamp says whether text is a timestamp with a UTC offset. It
// tries the layouts only on text shaped like one, as every text cell of
// a PostgreSQL import comes here.
func zonedTimestamp(b []byte) bool {
	if len(b) < len("2006-01-02 15:04:05Z") || b[4] != '-' || b[7] != '-' || (b[10] != ' ' && b[10] != 'T') || b[13] != ':' {
		return false
	}
	s := unsafe.String(unsafe.SliceData(b), len(b))
	for _, layout := range zonedLayouts {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
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

// value converts a cell for column col into dst: the one tagged value
// every loader reads, whatever the engine. Text converts to anything it
// spells (numbers, ISO dates, TRUE/FALSE); anything converts to text.
// Text is lent (the cell's bytes, or scratch's), valid until the next row.
// Each destination type has a step of its own below.
func (imp *importer) value(dst *value, c *xlsx.Value, col *ImportColumn, scratch *[]byte) error {
	*dst = value{}
	if col.unloaded {
		return nil
	}
	if col.exportCut && c.Type() == xlsx.TypeString && len(c.Bytes()) >= xlsx.MaxCellChars && utf16Len(c.Bytes()) >= xlsx.MaxCellChars {
		return fmt.Errorf("%w: the export cut this text to the %d characters a cell holds; loaded, it would cut the table's value", ErrBadCell, xlsx.MaxCellChars)
	}
	switch c.Type() {
	case xlsx.TypeEmpty:
		return nil
	case xlsx.TypeString:
		if len(c.Bytes()) == 0 {
			if imp.exported && col.Type == ColumnText {
				dst.setText(emptyText) // a database's '', exported
			}
			return nil // elsewhere an empty string shows as an empty cell
		}
	case xlsx.TypeError:
		imp.stats.ErrorCells++
		return nil
	}
	switch col.Type {
	case ColumnText:
		textValue(dst, c, scratch)
		return nil
	case ColumnInteger:
		return integerValue(dst, c)
	case ColumnFloat:
		return imp.floatValue(dst, c)
	case ColumnDecimal:
		return imp.decimalValue(dst, c, scratch)
	case ColumnBoolean:
		return booleanValue(dst, c)
	case ColumnDate, ColumnTimestamp, ColumnTime, ColumnTimestampTZ:
		return imp.timeValue(dst, c, col)
	}
	return badCell(c, col.Type)
}

// badCell is the error for a cell column type t cannot take.
func badCell(c *xlsx.Value, t ColumnType) error {
	return &BadCellError{Value: c.String(), Type: c.Type(), Into: t}
}

// BadCellError is ErrBadCell with its facts: the cell's value and type,
// and the type of the column it was to go into.
type BadCellError struct {
	Value string
	Type  xlsx.CellType
	Into  ColumnType
}

func (e *BadCellError) Error() string {
	return fmt.Sprintf("%s: %s %q into a column of type %s", ErrBadCell, e.Type, e.Value, e.Into)
}

func (e *BadCellError) Unwrap() error { return ErrBadCell }

// cellText is the cell's bytes as a string, without copying them.
func cellText(c *xlsx.Value) string {
	return unsafe.String(unsafe.SliceData(c.Bytes()), len(c.Bytes()))
}

// textValue: any cell into a text column, as it was written where that is
// known.
func textValue(dst *value, c *xlsx.Value, scratch *[]byte) {
	switch {
	case c.Type() == xlsx.TypeString:
		dst.setText(c.Bytes())
		dst.kept = c.SharedText()
	case len(c.SourceText()) > 0:
		// The text it was typed from (delimited text): a text column
		// keeps what was written.
		dst.setText(c.SourceText())
	case c.Elapsed():
		// An elapsed time ([h]:mm:ss, an exported interval) as one,
		// which an interval or TIME column reads, not its days.
		*scratch = appendElapsed((*scratch)[:0], c.Duration())
		dst.setText(*scratch)
	case c.Type() == xlsx.TypeDate:
		// As cat and convert write it: 2016-01-10 for a day alone.
		*scratch = c.AppendDate((*scratch)[:0], ' ')
		dst.setText(*scratch)
	default:
		*scratch = c.AppendText((*scratch)[:0])
		dst.setText(*scratch)
	}
}

// integerValue: a whole number, or text spelling one.
func integerValue(dst *value, c *xlsx.Value) error {
	if c.Type() == xlsx.TypeString {
		n, err := strconv.ParseInt(strings.TrimSpace(cellText(c)), 10, 64)
		if err != nil {
			return badCell(c, ColumnInteger)
		}
		dst.setInt(n)
		return nil
	}
	n, ok := wholeInt64(c.Float())
	if c.Type() != xlsx.TypeNumber || !ok {
		return badCell(c, ColumnInteger)
	}
	dst.setInt(n)
	return nil
}

// floatValue: a number, or text spelling one.
func (imp *importer) floatValue(dst *value, c *xlsx.Value) error {
	if c.Type() == xlsx.TypeString {
		f, err := strconv.ParseFloat(strings.TrimSpace(cellText(c)), 64)
		if err != nil {
			return badCell(c, ColumnFloat)
		}
		dst.setFloat(f)
		return nil
	}
	if c.Type() != xlsx.TypeNumber {
		return badCell(c, ColumnFloat)
	}
	dst.setFloat(c.Float())
	if imp.engine != EngineSQLite && isDecimalText(cellText(c)) {
		// The file's own text of the number: what a COPY or LOAD DATA
		// sends, the same double without formatting it again. SQLite
		// takes the double.
		dst.b = c.Bytes()
	}
	return nil
}

// decimalValue: a number as its shortest text, or decimal text as it is.
func (imp *importer) decimalValue(dst *value, c *xlsx.Value, scratch *[]byte) error {
	switch c.Type() {
	case xlsx.TypeNumber:
		*scratch = xlsx.AppendNumberText((*scratch)[:0], c.Float())
		dst.setText(*scratch)
		return nil
	case xlsx.TypeString:
		// Decimals too long for a double were written as text, and
		// PostgreSQL's NaN and infinities as it spells them.
		digits := bytes.TrimSpace(c.Bytes())
		if !isDecimalText(unsafe.String(unsafe.SliceData(digits), len(digits))) &&
			!(imp.engine == EnginePostgres && numericSpecial(digits)) {
			return badCell(c, ColumnDecimal)
		}
		dst.setText(digits)
		return nil
	}
	return badCell(c, ColumnDecimal)
}

// booleanValue: TRUE/FALSE, 0 or 1, or text strconv.ParseBool reads.
func booleanValue(dst *value, c *xlsx.Value) error {
	switch {
	case c.Type() == xlsx.TypeBool:
		dst.setBool(c.Bool())
		return nil
	case c.Type() == xlsx.TypeNumber && (c.Float() == 0 || c.Float() == 1):
		dst.setBool(c.Float() == 1)
		return nil
	case c.Type() == xlsx.TypeString:
		if b, err := strconv.ParseBool(strings.ToLower(strings.TrimSpace(cellText(c)))); err == nil {
			dst.setBool(b)
			return nil
		}
	}
	return badCell(c, ColumnBoolean)
}

// timeValue: a date cell, or ISO text, into a date, timestamp, time or
// timestamptz column.
func (imp *importer) timeValue(dst *value, c *xlsx.Value, col *ImportColumn) error {
	t := col.Type
	var tm time.Time
	zoned := false // the text gave the instant, with its offset
	switch c.Type() {
	case xlsx.TypeDate:
		tm = dateCellTime(c)
	case xlsx.TypeString:
		var err error
		s := strings.TrimSpace(cellText(c))
		for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02", "15:04:05.999999999"} {
			if tm, err = time.Parse(layout, s); err == nil {
				break
			}
		}
		if err != nil && t == ColumnTimestampTZ {
			// An instant as databases and ISO 8601 write them:
			// PostgreSQL's "2024-01-01 08:00:00+00", "…T08:00:00Z",
			// "…+05:30". Only a column with a time zone takes one: a
			// plain timestamp would drop the offset without a word.
			for _, layout := range zonedLayouts {
				if tm, err = time.Parse(layout, s); err == nil {
					zoned = true
					break
				}
			}
		}
		if err != nil && t == ColumnTime && imp.engine == EngineMySQL && mysqlTime(s) {
			// MySQL's TIME is an elapsed time, to ±838 hours, which
			// an export writes as text past a day: it goes as it is.
			dst.setText(bytes.TrimSpace(c.Bytes()))
			return nil
		}
		if err != nil {
			return badCell(c, t)
		}
	default:
		return badCell(c, t)
	}
	if t == ColumnTimestampTZ && !zoned {
		// The sheet shows the wall clock in the export's zone.
		zone := col.zone
		if zone == nil {
			zone = time.UTC
		}
		y, mo, d := tm.Date()
		h, mi, sec := tm.Clock()
		tm = time.Date(y, mo, d, h, mi, sec, tm.Nanosecond(), zone)
	}
	dst.setTime(tm)
	return nil
}

// dateCellTime is a date cell's time: a database's times exported keep
// their microseconds, and a serial day keeps milliseconds, so the text a
// delimited file's date was typed from, which keeps every digit it has,
// wins where there is one.
func dateCellTime(c *xlsx.Value) time.Time {
	tm := c.PreciseTime()
	if src := c.SourceText(); len(src) > 0 {
		switch full, kind := isotime.Parse(unsafe.String(unsafe.SliceData(src), len(src))); kind {
		case isotime.Date, isotime.DateTime:
			tm = full
		case isotime.Clock:
			y, mo, d := tm.Date()
			tm = time.Date(y, mo, d, full.Hour(), full.Minute(), full.Second(), full.Nanosecond(), tm.Location())
		}
	}
	return tm
}

// mysqlTime says whether s is a value of MySQL's TIME as the server
// writes it, [-]h:mm:ss[.ffffff] with up to 838 hours: the range it
// takes without clipping.
func mysqlTime(s string) bool {
	s = strings.TrimPrefix(s, "-")
	clock, frac, hasFrac := strings.Cut(s, ".")
	h, rest, ok := strings.Cut(clock, ":")
	if !ok || len(h) == 0 || len(h) > 3 || len(rest) != 5 || rest[2] != ':' || hasFrac && (len(frac) == 0 || len(frac) > 6) {
		return false
	}
	for _, part := range []string{h, rest[:2], rest[3:], frac} {
		for i := range len(part) {
			if part[i] < '0' || part[i] > '9' {
				return false
			}
		}
	}
	hours, _ := strconv.Atoi(h)
	return hours <= 838 && rest[:2] <= "59" && rest[3:] <= "59" &&
		(hours < 838 || rest == "59:59" && strings.Trim(frac, "0") == "" || rest < "59:59")
}

// numericSpecial says whether text is one of the values besides numbers
// a PostgreSQL numeric holds (infinities from version 14).
func numericSpecial(text []byte) bool {
	for _, special := range []string{"NaN", "Infinity", "-Infinity", "+Infinity", "inf", "-inf", "+inf"} {
		if strings.EqualFold(string(text), special) {
			return true
		}
	}
	return false
}

// appendElapsed writes an elapsed time as [-]h:mm:ss[.fff], hours past
// a day and all.
func appendElapsed(b []byte, d time.Duration) []byte {
	if d < 0 {
		b = append(b, '-')
		d = -d
	}
	b = strconv.AppendInt(b, int64(d/time.Hour), 10)
	b = append(b, ':', byte('0'+d/time.Minute%60/10), byte('0'+d/time.Minute%60%10),
		':', byte('0'+d/time.Second%60/10), byte('0'+d/time.Second%60%10))
	if ms := d % time.Second / time.Millisecond; ms > 0 {
		b = append(b, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
		for b[len(b)-1] == '0' {
			b = b[:len(b)-1]
		}
	}
	return b
}

// utf16Len is how many UTF-16 units text takes, as a cell counts them.
func utf16Len(text []byte) int {
	n := 0
	for _, r := range string(text) {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// emptyText is the text of an empty string: not nil, which reads as
// NULL in places.
var emptyText = []byte{}

// zonedLayouts are the timestamps with a UTC offset a timestamptz column
// reads from text.
var zonedLayouts = []string{
	"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999Z07", "2006-01-02T15:04:05.999999999Z07",
	"2006-01-02 15:04:05.999999999Z0700", "2006-01-02T15:04:05.999999999Z0700",
}

// arg is a converted value as database/sql takes it (text copied): SQLite
// keeps dates as ISO text, which the exporter reads back as dates; MySQL
// and SQLite keep no time zone, so an instant is its UTC wall clock.
// (PostgreSQL's COPY gets text: appendCopyValue.)
func (imp *importer) arg(v *value, t ColumnType) any {
	switch v.tag {
	case tagInt:
		return v.i
	case tagFloat:
		return v.f
	case tagBool:
		return v.i != 0
	case tagText:
		return string(v.b)
	case tagTime:
		if imp.engine == EngineSQLite {
			return string(appendSQLiteTime(nil, v.t, t))
		}
		if t == ColumnTimestampTZ {
			return v.t.UTC()
		}
		if t == ColumnTime {
			return v.t.Format("15:04:05.999999")
		}
		return v.t
	}
	return nil
}

// appendSQLiteTime writes a time as SQLite keeps it: ISO text, in UTC for
// instants.
func appendSQLiteTime(b []byte, tm time.Time, t ColumnType) []byte {
	switch t {
	case ColumnDate:
		return tm.AppendFormat(b, "2006-01-02")
	case ColumnTime:
		return tm.AppendFormat(b, "15:04:05.999999")
	case ColumnTimestampTZ:
		tm = tm.UTC()
	}
	return tm.AppendFormat(b, "2006-01-02 15:04:05.999999")
}

// isDecimalText reports whether s is a plain decimal number: a sign,
// digits with at most one point, and an optional exponent. It runs for
// every number cell loaded, so it looks at the bytes in place.
func isDecimalText(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits, point := 0, false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !point:
			point = true
		default:
			goto exponent
		}
	}
exponent:
	if digits == 0 {
		return false
	}
	if i == len(s) {
		return true
	}
	if s[i] != 'e' && s[i] != 'E' {
		return false
	}
	i++
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	n := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n++
	}
	return i == len(s) && n > 0 && n <= 4
}

// wholeInt64 converts a whole number within int64's range: -2^63 is, 2^63
// is not (a float64 comparison with 1<<63 must be strict on that side).
func wholeInt64(f float64) (int64, bool) {
	if f != math.Trunc(f) || f < -(1<<63) || f >= 1<<63 {
		return 0, false
	}
	return int64(f), true
}
