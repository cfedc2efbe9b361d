package csvsheet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Column typing. A field alone cannot say what it is: "0E0" is a number
// in a column of measurements and an airport's code in a list of codes.
// Convert types columns instead: a guess from the first rows (a column is
// numbers if every field of it is one, and so on), checked as the rest
// stream; a later field that does not fit its column's type makes the
// conversion scan on to the end, collecting every column's type, and
// return a RetypeError for a second pass with those types.

// Kind is what a column holds.
type Kind uint8

const (
	KindEmpty  Kind = iota // nothing but empty fields (and null markers)
	KindNumber             // integers and decimals
	KindBool               // true and false
	KindDate               // dates and date-times
	KindTime               // times of day
	KindText               // anything else: every field as written
)

var kindNames = [...]string{"empty", "number", "bool", "date", "time", "text"}

var kindPlurals = [...]string{"empty fields", "numbers", "true/false values", "dates", "times of day", "text"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// guessRows is how many rows the first guess of the columns' types takes.
const guessRows = 5000

// ErrRetype: a row past the first guess contradicted a column's type.
var ErrRetype = errors.New("a column's type changes after the first rows")

// RetypeError is Convert's answer when a row past its guess contradicts
// a column's type: it scanned on to the end, and Kinds are the columns'
// types over every row. Convert again from the start with
// Options.Kinds = Kinds (into a new writer: the first one holds cells of
// the wrong type and must be discarded); this second pass cannot fail so.
type RetypeError struct {
	Line   int    // the first contradicting row's line
	Column string // its column's header (or its letter without a header)
	Field  string // the field
	Was    Kind   // the column's guessed type
	Kinds  []Kind

	record []string // the contradicting row, whose fields scanRest takes first
}

func (e *RetypeError) Error() string {
	return fmt.Sprintf("line %d: column %s holds %q, where its first rows held %s", e.Line, e.Column, e.Field, kindPlurals[e.Was])
}

func (e *RetypeError) Unwrap() error { return ErrRetype }

// nullMarker says whether a field is one of the words files write for a
// missing value. They are written as the text they are, but do not make
// a column of numbers or dates text.
func nullMarker(s string) bool {
	switch s {
	case "NA", "N/A", "n/a", "NULL", "null", "Null", "None", "none", "-", "--", "#N/A", "NaN", "nan":
		return true
	}
	return false
}

// merge is the kind of a column of kinds a and b.
func merge(a, b Kind) Kind {
	switch {
	case a == b || b == KindEmpty:
		return a
	case a == KindEmpty:
		return b
	}
	return KindText
}

// columnGuess follows one column's fields.
type columnGuess struct {
	kind Kind
	// A column whose numbers are all digits-E-digits ("0E0", "2E8",
	// with no point, no sign, no plain number beside them) is a column
	// of codes: those are text.
	plainNumbers, exponentCodes bool
}

func (g *columnGuess) add(k Kind, field string) {
	if k == KindText && nullMarker(field) {
		return
	}
	if k == KindNumber {
		if exponentCode(field) {
			g.exponentCodes = true
		} else {
			g.plainNumbers = true
		}
	}
	g.kind = merge(g.kind, k)
}

func (g *columnGuess) result() Kind {
	if g.kind == KindNumber && g.exponentCodes && !g.plainNumbers {
		return KindText
	}
	return g.kind
}

// exponentCode says whether s is digits, an E, digits: "0E0", "1e5".
func exponentCode(s string) bool {
	i := strings.IndexAny(s, "eE")
	if i <= 0 || i == len(s)-1 {
		return false
	}
	for j := range len(s) {
		if j != i && (s[j] < '0' || s[j] > '9') {
			return false
		}
	}
	return true
}

// typeIn types field as a cell of a column of kind k: inferred, if that
// is k's kind; as text in a column of text, or if it is a null marker.
// It returns false when the field does not fit k.
func typeIn(dst *xlsx.Cell, field string, k Kind, layouts []*dateLayout) bool {
	if field == "" {
		*dst = xlsx.Cell{}
		return true
	}
	if k == KindText {
		*dst = xlsx.String(field)
		return true
	}
	switch inferWith(dst, field, layouts) {
	case k:
		return true
	case KindText:
		return nullMarker(field)
	}
	return false
}

// columnTyper types a conversion's fields by column.
type columnTyper struct {
	noInfer bool
	layouts []*dateLayout // Options.DateFormats
	fixed   int           // columns whose kinds Options.Kinds fixed
	kinds   []Kind
	guesses []columnGuess // while guessing
	decided bool
}

func newColumnTyper(opts Options, layouts []*dateLayout) *columnTyper {
	t := &columnTyper{noInfer: opts.NoInfer, layouts: layouts, fixed: len(opts.Kinds), kinds: slices.Clone(opts.Kinds)}
	t.decided = opts.NoInfer
	return t
}

// guessing says whether rows are still held for the first guess.
func (t *columnTyper) guessing() bool { return !t.decided }

// observe adds a row's fields to the guesses (a column of text stays
// text: its fields need no typing).
func (t *columnTyper) observe(record []string) {
	if len(t.guesses) < len(record) {
		t.guesses = append(t.guesses, make([]columnGuess, len(record)-len(t.guesses))...)
	}
	var c xlsx.Cell
	for i, f := range record {
		if f != "" && t.guesses[i].kind != KindText {
			t.guesses[i].add(inferWith(&c, f, t.layouts), f)
		}
	}
}

// decide ends the guess: the columns Options.Kinds did not fix take the
// kinds their first rows had.
func (t *columnTyper) decide() {
	t.decided = true
	for i := range t.guesses {
		if i >= len(t.kinds) {
			t.kinds = append(t.kinds, t.guesses[i].result())
		}
	}
	t.guesses = nil
}

// typeField types column i's field f into dst; false: f contradicts the
// column's type.
func (t *columnTyper) typeField(dst *xlsx.Cell, i int, f string) bool {
	if t.noInfer {
		typeField(dst, f, true, nil)
		return true
	}
	if i >= len(t.kinds) {
		t.kinds = append(t.kinds, make([]Kind, i+1-len(t.kinds))...)
	}
	k := t.kinds[i]
	if k == KindEmpty && f != "" && !nullMarker(f) {
		// A column empty in the first rows takes the kind of its first
		// value (a code-like exponent, text).
		k = inferWith(dst, f, t.layouts)
		if k == KindNumber && exponentCode(f) {
			k = KindText
		}
		t.kinds[i] = k
	}
	if typeIn(dst, f, k, t.layouts) {
		return true
	}
	if i < t.fixed {
		// A type the caller fixed: the field keeps its text.
		*dst = xlsx.String(f)
		return true
	}
	return false
}

// contradiction is the RetypeError of column i's field in record, on
// line.
func (t *columnTyper) contradiction(i int, record []string, line int, names []string) *RetypeError {
	col := xlsx.ColumnName(i + 1)
	if i < len(names) && names[i] != "" {
		col = fmt.Sprintf("%q", names[i])
	}
	return &RetypeError{Line: line, Column: col, Field: record[i], Was: t.kinds[i], record: slices.Clone(record)}
}

// scanRest reads the rest of the input to find every column's type over
// every row, and returns e with them.
func (t *columnTyper) scanRest(ctx context.Context, cr *recordReader, e *RetypeError) error {
	// The guesses start from the kinds the rows so far fit.
	t.guesses = make([]columnGuess, len(t.kinds))
	for i, k := range t.kinds {
		t.guesses[i] = columnGuess{kind: k, plainNumbers: true}
	}
	t.observe(e.record) // the contradicting row first
	for n := 1; ; n++ {
		record, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("csv: %w", err)
		}
		t.observe(record)
		if n%progressEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	guesses := t.guesses
	e.record = nil
	e.Kinds = make([]Kind, len(guesses))
	for i := range guesses {
		e.Kinds[i] = guesses[i].result()
		if i < t.fixed {
			e.Kinds[i] = t.kinds[i]
		}
	}
	return e
}
