package xlsx

import (
	"strconv"
	"strings"
	"time"
	"unsafe"
)

type cellKind uint8

const (
	kindEmpty cellKind = iota
	kindBlank
	kindInt
	kindUint
	kindFloat
	kindFloat32
	kindDecimal
	kindString
	kindBool
	kindDateTime
	kindDate
	kindTimeOfDay
	kindDuration
	kindError
	kindRich
	kindFormula
)

// linkKind says whether a string cell carries a hyperlink, and of which sort.
type linkKind uint8

const (
	linkNone linkKind = iota
	linkExternal
	linkInternal
	// Formulas use the field for their array kinds.
	linkArray
	linkDynamic
)

// Cell is one typed value. Build cells with the constructors (Int, String,
// Time, Formula...) and write a row of them with Sheet.WriteRow. The zero
// Cell is an empty cell: nothing is written, but it takes its column.
//
// Cells are plain values: building and writing them does not allocate.
type Cell struct {
	s      string // text, formula, error code, link target
	s2     string // display text of a link; cached text of a formula
	runs   []RichRun
	t      time.Time
	num    float64
	i      int64
	style  StyleID
	kind   cellKind
	cached cellKind // the type of a formula's cached value
	link   linkKind
	styled bool
}

// StyleID names a style registered with Writer.AddStyle. The zero StyleID is
// Excel's default style.
type StyleID uint32

// WithStyle returns c with a style.
func (c Cell) WithStyle(id StyleID) Cell {
	c.style = id
	c.styled = true
	return c
}

// Style returns c's style and whether one was set.
func (c Cell) Style() (StyleID, bool) { return c.style, c.styled }

// IsEmpty reports whether c is the empty cell.
func (c Cell) IsEmpty() bool { return c.kind == kindEmpty }

// Int is an integer cell. Excel holds numbers as doubles: integers beyond
// ±2^53 lose precision when Excel reads them (write them as String to keep
// every digit).
func Int(v int64) Cell { return Cell{kind: kindInt, i: v} }

// Uint is an unsigned integer cell; see Int about precision.
func Uint(v uint64) Cell { return Cell{kind: kindUint, i: int64(v)} }

// Float is a number cell. NaN and infinities are rejected when written.
func Float(v float64) Cell { return Cell{kind: kindFloat, num: v} }

// Float32 is a number cell written with float32 precision, so that a
// float32 0.1 reads back as 0.1 rather than 0.10000000149011612.
func Float32(v float32) Cell { return Cell{kind: kindFloat32, num: float64(v)} }

// Decimal is a number cell given as decimal text, such as "-1234.50",
// written as it is: numbers that arrive as text (SQL DECIMAL, CSV fields)
// skip parsing and formatting. s must be an optional minus sign, digits
// and an optional fraction, with at most 15 significant digits (all a
// double keeps) and 64 characters; writing it fails with ErrDecimal
// otherwise. Trailing zeros of the fraction are left out of the file (a
// number format shows decimals).
func Decimal(s string) Cell { return Cell{kind: kindDecimal, s: s} }

// Number is a number cell of any Go integer or float kind.
func Number[T ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64](v T) Cell {
	var zero T
	// Tell the kinds apart by arithmetic, so named types (type ID int64)
	// work too.
	if T(1)/2 != 0 {
		if unsafe.Sizeof(zero) == 4 {
			return Float32(float32(v))
		}
		return Float(float64(v))
	}
	if zero-1 > 0 {
		return Uint(uint64(v))
	}
	return Int(int64(v))
}

// String is a text cell.
func String(s string) Cell { return Cell{kind: kindString, s: s} }

// Bytes is a text cell that reads b without copying it: b must not change
// until the row is written. It suits rows scanned into reused buffers.
func Bytes(b []byte) Cell {
	if len(b) == 0 {
		return Cell{kind: kindString}
	}
	return Cell{kind: kindString, s: unsafe.String(&b[0], len(b))}
}

// Bool is a TRUE/FALSE cell.
func Bool(v bool) Cell {
	c := Cell{kind: kindBool}
	if v {
		c.i = 1
	}
	return c
}

// Time is a date-and-time cell, shown as yyyy-mm-dd hh:mm:ss unless styled.
// Excel has no time zones: the wall clock is written, in t's own location
// or in Options.Location when that is set.
func Time(t time.Time) Cell { return Cell{kind: kindDateTime, t: t} }

// Date is a date cell: t's time of day is dropped. It is shown as
// yyyy-mm-dd unless styled.
func Date(t time.Time) Cell { return Cell{kind: kindDate, t: t} }

// TimeOfDay is a cell holding only t's clock time, shown as hh:mm:ss.
func TimeOfDay(t time.Time) Cell { return Cell{kind: kindTimeOfDay, t: t} }

// Duration is an elapsed time, shown as [h]:mm:ss.
func Duration(d time.Duration) Cell { return Cell{kind: kindDuration, i: int64(d)} }

// Blank is a cell with no value, useful to give an empty cell a style.
func Blank() Cell { return Cell{kind: kindBlank} }

// ErrorCode is one of Excel's error values.
type ErrorCode string

// Excel's error values.
const (
	ErrorNull  ErrorCode = "#NULL!"
	ErrorDiv0  ErrorCode = "#DIV/0!"
	ErrorValue ErrorCode = "#VALUE!"
	ErrorRef   ErrorCode = "#REF!"
	ErrorName  ErrorCode = "#NAME?"
	ErrorNum   ErrorCode = "#NUM!"
	ErrorNA    ErrorCode = "#N/A"
	// ErrorGettingData is shown while external data loads.
	ErrorGettingData ErrorCode = "#GETTING_DATA"
)

func (e ErrorCode) valid() bool {
	switch e {
	case ErrorNull, ErrorDiv0, ErrorValue, ErrorRef, ErrorName, ErrorNum, ErrorNA, ErrorGettingData:
		return true
	}
	return false
}

// Error is a cell holding an Excel error value such as #N/A.
func Error(code ErrorCode) Cell { return Cell{kind: kindError, s: string(code)} }

// Formula is a formula cell; a leading "=" is optional. Excel computes it
// when the file is opened; readers that do not calculate see the cached
// value set with WithValue, or nothing.
func Formula(f string) Cell {
	if len(f) > 0 && f[0] == '=' {
		f = f[1:]
	}
	return Cell{kind: kindFormula, s: f}
}

// ArrayFormula is an array formula (what Excel enters with Ctrl+Shift+Enter)
// over ref, the range its result fills, whose top-left cell this must be (the
// zero Range: this cell alone); the other cells of the range are written with
// their cached values or left empty. Functions newer than Excel 2007 are
// written with Excel's prefix: _xlfn.STDEV.S(...).
func ArrayFormula(f string, ref Range) Cell {
	if strings.HasPrefix(f, "{=") && strings.HasSuffix(f, "}") {
		f = f[1 : len(f)-1] // as Excel shows one: {=SUM(A1:A3*B1:B3)}
	}
	if len(f) > 0 && f[0] == '=' {
		f = f[1:]
	}
	at := ""
	if ref != (Range{}) {
		at = ref.String()
	}
	return Cell{kind: kindFormula, s: at + "\x00" + f, link: linkArray}
}

// DynamicFormula is a dynamic array formula, as Excel 365 writes one:
// its result spills over the cells below and right of it when Excel
// calculates it (functions such as _xlfn.UNIQUE, _xlfn._xlws.SORT and
// _xlfn._xlws.FILTER need their prefixes). Written as a plain formula,
// Excel 365 would show it with an implicit intersection (@).
func DynamicFormula(f string) Cell {
	if len(f) > 0 && f[0] == '=' {
		f = f[1:]
	}
	return Cell{kind: kindFormula, s: f, link: linkDynamic}
}

// WithValue sets the cached result of a formula cell: a number, string,
// bool, error or time cell. It has no effect on other cells.
func (c Cell) WithValue(v Cell) Cell {
	if c.kind != kindFormula {
		return c
	}
	c.cached = v.kind
	c.num, c.i, c.t, c.s2 = v.num, v.i, v.t, v.s
	return c
}

// Link is a text cell that links to an external URL (http, https, mailto,
// file...). Unless styled, it gets Excel's Hyperlink style.
func Link(url, text string) Cell {
	if text == "" {
		text = url
	}
	return Cell{kind: kindString, s: url, s2: text, link: linkExternal}
}

// InternalLink links to a place in the workbook, such as "Sheet2!A1" or a
// defined name.
func InternalLink(location, text string) Cell {
	if text == "" {
		text = location
	}
	return Cell{kind: kindString, s: location, s2: text, link: linkInternal}
}

// RichRun is a piece of text with its own font. The zero Font leaves the
// run in the cell's font.
type RichRun struct {
	Text string
	Font Font
}

// Rich is a text cell made of runs with different fonts. The slice is read
// when the row is written.
func Rich(runs []RichRun) Cell { return Cell{kind: kindRich, runs: runs} }

// The fields s, s2 and i hold different things for different kinds; these
// accessors say which, so that the encoder never reads a bare c.s.

// text is the string a text-like cell displays.
func (c *Cell) text() string {
	if c.link != linkNone {
		return c.linkText()
	}
	return c.s
}

func (c *Cell) formula() string      { return c.s }            // kindFormula
func (c *Cell) decimal() string      { return c.s }            // kindDecimal
func (c *Cell) errorCode() ErrorCode { return ErrorCode(c.s) } // kindError
func (c *Cell) linkTarget() string   { return c.s }            // a link's URL or location
func (c *Cell) linkText() string     { return c.s2 }           // a link's display text

// cachedText is a formula's cached string, error code or decimal.
func (c *Cell) cachedText() string { return c.s2 }

func (c *Cell) uint() uint64            { return uint64(c.i) }
func (c *Cell) duration() time.Duration { return time.Duration(c.i) }
func (c *Cell) boolDigit() byte         { return byte('0' + c.i) }

// Value returns what the cell holds as a Go value: int64, uint64,
// float64, string (text, and the text of rich and link cells), bool,
// time.Time (dates and times of day), time.Duration, ErrorCode, or nil for
// empty and blank cells. A formula cell returns its cached value, or nil.
func (c Cell) Value() any {
	k := c.kind
	if k == kindFormula {
		// The cached value's text moves to where its own kind keeps it.
		k = c.cached
		c.s = c.cachedText()
	}
	switch k {
	case kindInt:
		return c.i
	case kindUint:
		return c.uint()
	case kindFloat, kindFloat32:
		return c.num
	case kindDecimal:
		v, _ := strconv.ParseFloat(c.decimal(), 64)
		return v
	case kindString:
		return c.text()
	case kindBool:
		return c.i != 0
	case kindDateTime, kindDate, kindTimeOfDay:
		return c.t
	case kindDuration:
		return c.duration()
	case kindError:
		return c.errorCode()
	case kindRich:
		var b strings.Builder
		for _, r := range c.runs {
			b.WriteString(r.Text)
		}
		return b.String()
	}
	return nil
}
