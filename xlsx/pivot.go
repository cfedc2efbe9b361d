package xlsx

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// PivotTable is a pivot table computed while its source sheet's rows are
// written: Writer.AddPivotTable declares it before the source's rows,
// the source streams as usual, and when the source sheet ends the pivot
// cache (its fields, and the items of the row, column and filter fields)
// and the pivot table, its cells filled in with the values computed, are
// written on a sheet of their own placed after the source. The cache
// holds no records (saveData="0") and asks to be refreshed on open
// (refreshOnLoad), so Excel rebuilds it from the source; viewers that do
// not refresh (previews, web viewers, readers of cells) show the values
// computed here.
//
// Memory is bounded by the distinct items of the row, column and filter
// fields and their combinations (MaxKeys), not by the rows.
type PivotTable struct {
	// Name is the pivot table's name ("PivotTable1", "PivotTable2"... by
	// default).
	Name string
	// Sheet is the sheet the pivot table goes on, added after the source
	// ("Pivot", "Pivot 2"... by default).
	Sheet string
	// Source names the source sheet: its first row is the header, every
	// later row written to it a record.
	Source string
	// Rows, Columns and Filters name header columns: the row fields
	// (outermost first, at least one), the column fields (outermost
	// first, none or more) and the filter (page) fields, shown as "(All)".
	// An outer row or column field's items get subtotals.
	Rows, Columns, Filters []string
	// FilterItems chooses the item a filter field shows, by the field's
	// name: rows whose value there is another (text compared ignoring
	// case, as Excel's items) are left out of the values; a filter not
	// named shows "(All)".
	FilterItems map[string]Cell
	// NoSubtotals names fields on the axes whose items show no totals
	// (Excel's "Do not show subtotals"): an outer item's row stays
	// empty, and no "North Total" row or column follows its group.
	NoSubtotals []string
	// Values are the data fields, at least one.
	Values []PivotValue
	// Layout is PivotCompact (the default: row fields in one column),
	// PivotOutline or PivotTabular (a column each).
	Layout PivotLayout
	// GrandTotals says which grand totals show: both (the default), none,
	// the Grand Total row at the bottom, or the Grand Total column at the
	// right (with a column field).
	GrandTotals PivotTotals
	// HideValuesRow leaves out the row naming "Values" above the values'
	// captions, with several values and no column field (Excel 2010's
	// option, off by default).
	HideValuesRow bool
	// Style is the pivot table style ("PivotStyleLight16" by default).
	Style string
	// Records saves the cache's records (Excel's "save source data with
	// file"): a record a source row, spooled to a temporary file (in
	// Options.TempDir, else the system's) while the rows stream and
	// copied into the package at the end, so memory stays bounded.
	// Without them the cache says saveData="0" and is rebuilt from the
	// source when the file opens.
	Records bool
	// MaxKeys bounds the pivot's distinct keys (DefaultPivotKeys when
	// 0): the combinations of its row and column fields' items (its
	// table's rows times its columns of items, before totals), and the
	// items of any one field. Past it the pivot fails with ErrPivotKeys
	// saying which, instead of growing without bound; memory stays
	// within a few hundred bytes a key.
	MaxKeys int
}

// PivotValue is one data field: a header column summarised by Func.
type PivotValue struct {
	Column string
	Func   PivotFunc
	// Name is the field's caption ("Sum of amount" by default).
	Name string
	// NumFormat formats its cells ("#,##0.00"; General by default).
	NumFormat string
}

// PivotFunc is how a data field summarises its values.
type PivotFunc uint8

// The summaries. Sum, Average, Min, Max, StdDev (sample) and Var (sample)
// take the numbers among the values; Count counts every value that is
// not empty (Excel's COUNTA), CountNums the numbers.
const (
	PivotSum PivotFunc = iota
	PivotCount
	PivotAverage
	PivotMax
	PivotMin
	PivotCountNums
	PivotStdDev
	PivotVar
)

var pivotFuncs = [...]struct{ xml, caption, word string }{
	PivotSum:       {"sum", "Sum", "sum"},
	PivotCount:     {"count", "Count", "count"},
	PivotAverage:   {"average", "Average", "average"},
	PivotMax:       {"max", "Max", "max"},
	PivotMin:       {"min", "Min", "min"},
	PivotCountNums: {"countNums", "Count", "countnums"},
	PivotStdDev:    {"stdDev", "StdDev", "stddev"},
	PivotVar:       {"var", "Var", "var"},
}

func (f PivotFunc) String() string {
	if int(f) < len(pivotFuncs) {
		return pivotFuncs[f].word
	}
	return "PivotFunc(" + strconv.Itoa(int(f)) + ")"
}

// ParsePivotFunc reads a summary's name: sum, count, average, max, min,
// countnums, stddev, var (any case).
func ParsePivotFunc(s string) (PivotFunc, bool) {
	for i, f := range pivotFuncs {
		if strings.EqualFold(s, f.word) {
			return PivotFunc(i), true
		}
	}
	return 0, false
}

// PivotLayout is how the row fields are laid out.
type PivotLayout uint8

// The layouts.
const (
	PivotCompact PivotLayout = iota // every row field in one column, inner items indented
	PivotOutline                    // a column a row field, each item on a row of its own with its subtotals
	PivotTabular                    // a column a row field, inner items on their outer item's row, subtotals below
)

// PivotTotals says which grand totals a pivot table shows.
type PivotTotals uint8

// The grand totals.
const (
	PivotTotalsBoth   PivotTotals = iota
	PivotTotalsNone               // neither
	PivotTotalsRow                // the Grand Total row at the bottom only
	PivotTotalsColumn             // the Grand Total column at the right only
)

// maxPivotAxis bounds the row fields and the column fields: a group's
// key counts them in a byte, and no reader shows more.
const maxPivotAxis = 64

// DefaultPivotKeys is PivotTable.MaxKeys when it is 0.
const DefaultPivotKeys = 100000

// ErrPivot: a pivot table that cannot be written as declared (a column
// its source's header lacks, a field used twice).
var ErrPivot = errors.New("pivot table")

// ErrPivotKeys: a pivot table has more distinct keys (combinations of
// its row and column fields' items, or items of a field) than its
// MaxKeys.
var ErrPivotKeys = errors.New("too many distinct keys for a pivot table")

// AddPivotTable declares a pivot table over the sheet named p.Source,
// before its first row (the source may be added later). Its sheet is
// written when the source ends.
//
// Errors: ErrPivot for a declaration that cannot be written (no source,
// rows or values, more than 64 row or column fields, a field twice on the axes, a
// source that already has rows, a pivot sheet name already used), ErrSheetName for a sheet name Excel
// refuses; later, the source's rows fail with ErrNoColumn for a column
// its header lacks and ErrPivotKeys past MaxKeys.
func (w *Writer) AddPivotTable(p PivotTable) error {
	if err := w.loadErr(); err != nil {
		return err
	}
	if w.closed {
		return ErrClosed
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w %q: %s", ErrPivot, p.Name, fmt.Sprintf(format, args...))
	}
	w.pivotCount++
	if p.Name == "" {
		p.Name = "PivotTable" + strconv.Itoa(w.pivotCount)
	}
	switch {
	case p.Source == "":
		return bad("no source sheet")
	case len(p.Rows) == 0:
		return bad("no row field")
	case len(p.Rows) > maxPivotAxis || len(p.Columns) > maxPivotAxis:
		return bad("%d row and %d column fields: %d each at most", len(p.Rows), len(p.Columns), maxPivotAxis)
	case len(p.Values) == 0:
		return bad("no value field")
	case p.Layout > PivotTabular:
		return bad("layout %d", p.Layout)
	case p.GrandTotals > PivotTotalsColumn:
		return bad("GrandTotals %d", p.GrandTotals)
	}
	seen := map[string]bool{}
	for _, f := range append(append(append([]string{}, p.Rows...), p.Columns...), p.Filters...) {
		if seen[f] {
			return bad("the field %q is on the axes twice", f)
		}
		seen[f] = true
	}
	p.Values = append([]PivotValue(nil), p.Values...)
	for f := range p.FilterItems {
		if !slices.Contains(p.Filters, f) {
			return bad("FilterItems names %q, no filter field", f)
		}
	}
	for _, f := range p.NoSubtotals {
		if !slices.Contains(p.Rows, f) && !slices.Contains(p.Columns, f) && !slices.Contains(p.Filters, f) {
			return bad("NoSubtotals names %q, no row, column or filter field", f)
		}
	}
	for i, v := range p.Values {
		if v.Column == "" || int(v.Func) >= len(pivotFuncs) {
			return bad("value %d: a column and one of the summaries", i+1)
		}
		if v.Name == "" {
			p.Values[i].Name = pivotFuncs[v.Func].caption + " of " + v.Column
		}
	}
	if p.Style == "" {
		p.Style = "PivotStyleLight16"
	}
	if p.MaxKeys <= 0 {
		p.MaxKeys = DefaultPivotKeys
	}
	taken := func(name string) bool {
		if w.sheetIndex(name) >= 0 {
			return true
		}
		// Pivots declared whose sheets are not written yet: waiting for
		// their source, or for its end.
		declared := slices.Clone(w.pivots)
		for _, list := range w.pivotWatch {
			declared = append(declared, list...)
		}
		for _, sh := range w.sheets {
			declared = append(declared, sh.pivots...)
		}
		return slices.ContainsFunc(declared, func(q *pivot) bool { return strings.EqualFold(q.def.Sheet, name) })
	}
	if p.Sheet == "" {
		p.Sheet = "Pivot"
		for n := 2; taken(p.Sheet); n++ {
			p.Sheet = "Pivot " + strconv.Itoa(n)
		}
	} else if taken(p.Sheet) {
		return bad("its sheet %q is already used", p.Sheet)
	}
	if err := CheckSheetName(p.Sheet); err != nil {
		return err
	}
	pv := &pivot{def: p, w: w}
	if err := pv.addStyles(); err != nil {
		return err
	}
	if p.Records {
		var err error
		if pv.spool, err = newPivotRecords(w.opts.TempDir); err != nil {
			return err
		}
	}
	if i := w.sheetIndex(p.Source); i >= 0 {
		s := w.sheets[i]
		if s.row > 0 || s.finished {
			return bad("declare it before the source sheet %q has rows", p.Source)
		}
		s.pivots = append(s.pivots, pv)
		return nil
	}
	if w.pivotWatch == nil {
		w.pivotWatch = map[string][]*pivot{}
	}
	key := strings.ToLower(p.Source)
	w.pivotWatch[key] = append(w.pivotWatch[key], pv)
	return nil
}

// ParsePivot reads a pivot table's short form,
// ROWS:COLUMNS:FUNC(COLUMN)[,FUNC(COLUMN)...]: ROWS and COLUMNS are
// header names joined with "+" (COLUMNS may be empty: one column field at
// most), FUNC one of ParsePivotFunc's names. "city+year::sum(amount),
// average(amount)" is a pivot by city and year of the amount's sum and
// average. Its Source and Sheet are the caller's to set.
//
// Errors: ErrPivot naming what does not parse.
func ParsePivot(s string) (PivotTable, error) {
	bad := func(format string, args ...any) (PivotTable, error) {
		return PivotTable{}, fmt.Errorf("%w %q: %s (want ROWS:COLUMNS:FUNC(COLUMN)[,FUNC(COLUMN)...], such as city::sum(amount) or region+city:year:sum(amount),average(amount))", ErrPivot, s, fmt.Sprintf(format, args...))
	}
	parts := strings.SplitN(s, ":", 3)
	if len(parts) != 3 {
		return bad("three parts separated by ':'")
	}
	var p PivotTable
	split := func(list string) []string {
		var out []string
		for _, name := range strings.Split(list, "+") {
			if name = strings.TrimSpace(name); name != "" {
				out = append(out, name)
			}
		}
		return out
	}
	p.Rows, p.Columns = split(parts[0]), split(parts[1])
	if len(p.Rows) == 0 {
		return bad("no row field")
	}
	for _, v := range strings.Split(parts[2], ",") {
		v = strings.TrimSpace(v)
		open := strings.IndexByte(v, '(')
		if open <= 0 || !strings.HasSuffix(v, ")") {
			return bad("value %q is not FUNC(COLUMN)", v)
		}
		f, ok := ParsePivotFunc(strings.TrimSpace(v[:open]))
		if !ok {
			return bad("%q is not sum, count, average, min, max, countnums, stddev or var", v[:open])
		}
		col := strings.TrimSpace(v[open+1 : len(v)-1])
		if col == "" {
			return bad("value %q names no column", v)
		}
		p.Values = append(p.Values, PivotValue{Column: col, Func: f})
	}
	return p, nil
}

// String is the pivot's short form (see ParsePivot), its filters left
// out.
func (p PivotTable) String() string {
	var values []string
	for _, v := range p.Values {
		values = append(values, v.Func.String()+"("+v.Column+")")
	}
	return strings.Join(p.Rows, "+") + ":" + strings.Join(p.Columns, "+") + ":" + strings.Join(values, ",")
}
