package csvsheet

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"slices"
	"strings"

	"github.com/sheetstream/sheetstream/internal/numtext"
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
	// decimal is Options.Decimal: with ',', number text with a decimal
	// comma is read through scratch, the row's fields in plain form.
	decimal byte
	scratch []byte
	// numbers follow each column's number texts: a column in which two
	// texts read as one number (1.10 and 1.1) is text.
	numbers []numberColumn
}

// numberColumn follows a column's number texts, in bounded memory: the
// guess's rows give the canonical forms of its numbers (hashed) or, where
// some were padded (1.10), every text; later rows check padded texts
// against those, and canonical ones against the padded texts met.
type numberColumn struct {
	texts  numtext.Texts
	window []uint64 // sorted hashes of the first rows' numbers' canonical forms
	asText bool     // two texts of one number: the column is text
	// uniform: every text so far is regular with decimals decimals (a
	// price column, 12.50): no two of them can be one number.
	uniform  bool
	decimals int
}

var numberSeed = maphash.MakeSeed()

// inWindow says whether the first rows had a number of canonical form c.
func (n *numberColumn) inWindow(c string) bool {
	_, found := slices.BinarySearch(n.window, maphash.String(numberSeed, c))
	return found
}

// note checks number text p against those met before, and notes it
// (every text with remember; else the padded ones); false when p is
// another text of a number met before.
func (n *numberColumn) note(p string, remember bool) bool {
	if n.uniform {
		if d, regular := numtext.Decimals(p); regular && d == n.decimals {
			return true
		}
		// Another number of decimals: one of the first rows' numbers
		// read as it is another text (they were all of n.decimals).
		n.uniform = false
		if n.inWindow(numtext.Canonical(p)) {
			return false
		}
	}
	padded := numtext.Padded(p)
	if !padded && !remember && !n.texts.HasPadded() {
		return true // the common case: nothing it could collide with
	}
	if padded {
		// The first rows held their numbers in canonical form only (else
		// texts has them): one of p's is another text.
		if c := numtext.Canonical(p); !n.texts.Has(c) && n.inWindow(c) {
			return false
		}
	}
	return n.texts.Add(p, remember)
}

// learn takes the first rows' texts of column i, a column of numbers.
func (t *columnTyper) learn(i int, rows [][]string) {
	n := &t.numbers[i]
	padded, first := false, true
	n.uniform = true
	for _, r := range rows {
		if i < len(r) && r[i] != "" && !nullMarker(r[i]) {
			t.newRow()
			p := t.plain(r[i])
			padded = padded || numtext.Padded(p)
			d, regular := numtext.Decimals(p)
			if first {
				n.decimals, first = d, false
			}
			n.uniform = n.uniform && regular && d == n.decimals
		}
	}
	for _, r := range rows {
		if i >= len(r) || r[i] == "" || nullMarker(r[i]) {
			continue
		}
		t.newRow()
		p := t.plain(r[i])
		if padded && !n.uniform {
			// Some texts are padded, with other decimals beside them:
			// every text, exactly.
			if !n.texts.Add(p, true) {
				n.asText = true
				return
			}
			continue
		}
		n.window = append(n.window, maphash.String(numberSeed, numtext.Canonical(p)))
	}
	slices.Sort(n.window)
	n.window = slices.Compact(n.window)
}

func newColumnTyper(opts Options, layouts []*dateLayout) *columnTyper {
	t := &columnTyper{noInfer: opts.NoInfer, layouts: layouts, fixed: len(opts.Kinds), kinds: slices.Clone(opts.Kinds), decimal: opts.Decimal}
	t.decided = opts.NoInfer
	return t
}

// isNumber says whether column i is typed as numbers.
func (t *columnTyper) isNumber(i int) bool {
	return !t.noInfer && i < len(t.kinds) && t.kinds[i] == KindNumber
}

// newRow starts a row: the plain forms of the last one are done with.
func (t *columnTyper) newRow() { t.scratch = t.scratch[:0] }

// newRecord starts a row of width fields. Its cells may view scratch
// (plain) until their batch is written, so scratch grows through a batch
// and starts anew with the next one (fresh): the batches in flight keep
// theirs.
func (t *columnTyper) newRecord(width int, fresh bool) {
	if fresh {
		t.scratch = nil
	}
	if width > 0 {
		t.grow(width - 1)
	}
}

// plain is field f as inference reads it: with a decimal comma, number
// text in plain form ("1.234,5" is "1234.5"), valid until newRow.
func (t *columnTyper) plain(f string) string {
	if t.decimal != ',' || f == "" {
		return f // inlined: the common case costs a comparison
	}
	return t.plainComma(f)
}

func (t *columnTyper) plainComma(f string) string {
	n := len(t.scratch)
	out, ok := commaNumber(f, t.scratch)
	if !ok {
		return f
	}
	t.scratch = out
	return bytesView(out[n:])
}

// infer is inferWith of field f read through plain (p).
func (t *columnTyper) infer(dst *xlsx.Cell, f, p string) Kind {
	if t.decimal == ',' {
		return inferComma(dst, f, p, t.layouts)
	}
	return inferWith(dst, p, t.layouts)
}

// typeIn is typeIn for the typer's fields: f as plain reads it (p).
func (t *columnTyper) typeIn(dst *xlsx.Cell, f, p string, k Kind) bool {
	if t.decimal != ',' {
		return typeIn(dst, p, k, t.layouts)
	}
	return t.typeInComma(dst, f, p, k)
}

func (t *columnTyper) typeInComma(dst *xlsx.Cell, f, p string, k Kind) bool {
	if k == KindText || f == "" {
		return typeIn(dst, p, k, t.layouts)
	}
	switch t.infer(dst, f, p) {
	case k:
		return true
	case KindText:
		return nullMarker(f)
	}
	return false
}

// grow makes room for column i.
func (t *columnTyper) grow(i int) {
	if i >= len(t.numbers) {
		t.numbers = append(t.numbers, make([]numberColumn, i+1-len(t.numbers))...)
	}
}

// guessing says whether rows are still held for the first guess.
func (t *columnTyper) guessing() bool { return !t.decided }

// observe adds a row's fields to the guesses (a column of text stays
// text: its fields need no typing).
//
// With remember (the scan after a contradiction) it also notes every
// number text, to find two of one number.
func (t *columnTyper) observe(record []string, remember bool) {
	if len(t.guesses) < len(record) {
		t.guesses = append(t.guesses, make([]columnGuess, len(record)-len(t.guesses))...)
	}
	t.grow(len(record) - 1)
	t.newRow()
	var c xlsx.Cell
	for i, f := range record {
		if f != "" && t.guesses[i].kind != KindText && !t.numbers[i].asText {
			p := t.plain(f)
			k := t.infer(&c, f, p)
			if k == KindNumber && remember && !t.numbers[i].note(p, true) {
				t.numbers[i].asText = true // two texts of one number
			}
			t.guesses[i].add(k, f)
		}
	}
}

// decide ends the guess: the columns Options.Kinds did not fix take the
// kinds their first rows had (rows), numbers only where no two texts of
// them are one number.
func (t *columnTyper) decide(rows [][]string) {
	t.decided = true
	for i := range t.guesses {
		if i >= len(t.kinds) {
			k := t.guesses[i].result()
			if k == KindNumber {
				t.grow(i)
				if t.learn(i, rows); t.numbers[i].asText {
					k = KindText
				}
			}
			t.kinds = append(t.kinds, k)
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
	p := f
	if k != KindText {
		p = t.plain(f)
	}
	if k == KindEmpty && f != "" && !nullMarker(f) {
		// A column empty in the first rows takes the kind of its first
		// value (a code-like exponent, text).
		k = t.infer(dst, f, p)
		if k == KindNumber && exponentCode(f) {
			k = KindText
			p = f
		}
		t.kinds[i] = k
	}
	if t.typeIn(dst, f, p, k) {
		if k == KindNumber && i >= t.fixed && p != "" && !nullMarker(f) && !t.numbers[i].note(p, false) {
			t.numbers[i].asText = true // another text of a number met before
			return false
		}
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
	t.observe(e.record, true) // the contradicting row first
	for n := 1; ; n++ {
		record, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		t.observe(record, true)
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
		if i < len(t.numbers) && t.numbers[i].asText {
			e.Kinds[i] = KindText
		}
		if i < t.fixed {
			e.Kinds[i] = t.kinds[i]
		}
	}
	return e
}
