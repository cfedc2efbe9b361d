package xlsx

// Pivot tables: the source's rows aggregated as they are written
// (write_pivot_sheet.go renders the table, write_pivot_xml.go writes its
// parts).

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sheetstream/sheetstream/internal/numtext"
)

// pivot is a declared pivot table and what its source's rows made of it.
type pivot struct {
	def PivotTable
	w   *Writer
	id  int // its cache id and part numbers, from 1, given when written
	// table is the table definition part, once rendered; sourceRows the
	// source's rows, header included.
	table      []byte
	sourceRows int
	// spool, with PivotTable.Records, holds the cache's records.
	spool *pivotRecords
	// numFmtIDs are the values' number formats by id, for a template's
	// pivot (whose formats are the template's).
	numFmtIDs []int
	// noSubtotal marks the fields (by column) whose items show no
	// totals (PivotTable.NoSubtotals).
	noSubtotal []bool
	// styles are registered when the pivot is declared: its sheet may
	// be written as the Writer closes.
	styles struct {
		bold, date StyleID
		values     []StyleID
		indents    []StyleID // by level, 0 none
	}

	header  []string
	fields  []*pivotField // a cache field per source column
	rowCols []int         // the row fields' columns (0-based)
	colCols []int         // the column fields' columns
	filters []int
	// chosen is each filter's chosen item (FilterItems): its key as item
	// makes it and its index once a row has it (-1 before), by filter.
	chosen []pivotChoice
	values []int // each value's column
	// groups form a tree from the grand total's, group 0: a group with
	// one more row item, or (under the row items) one more column item,
	// is its parent's child, found in children by pivotEdge. A group's
	// accumulators are accs[g*len(values):], len(values) of them.
	children map[uint64]int32
	ngroups  int32
	accs     []pivotAcc
	keybuf   []byte
	itemIdx  []int32 // this row's item of each axis field: rows, then columns
	slot     []int   // each field's place in itemIdx, -1 for none
	// filterOf is each field's place in filters, -1 for none.
	filterOf []int
	// isValue marks the fields that are values; moments the values
	// summarised by a deviation or variance.
	isValue, moments []bool
	// kinds and nums are this row's values, a field each, read once.
	kinds   []byte
	nums    []float64
	errs    []string // this row's error codes
	records int
	keys    int // distinct combinations of every axis field's items, against MaxKeys
	lastCol int
}

// pivotChoice is the item a filter shows.
type pivotChoice struct {
	key  string // "" for (All)
	item int32
	cell Cell
}

// pivotField is one column of the source as the cache describes it:
// what kinds of values it holds and, for a field on an axis, its
// distinct items in order of first appearance.
type pivotField struct {
	name   string
	axis   bool
	items  []pivotItem
	index  map[string]int32
	sorted []int32 // the items in Excel's order, once asked

	hasString, hasNumber, hasBlank, hasDate, hasBool, hasError, nonInt, longText bool
	minNum, maxNum, minDate, maxDate                                             float64
}

// pivotItem is one distinct value of an axis field.
type pivotItem struct {
	kind byte // 's' text, 'n' number, 'd' date (num: its serial), 'b' boolean, 'e' error (text: its code), 'm' blank
	num  float64
	text string
}

// pivotAcc accumulates one value field over one group: counts, a
// Kahan-Neumaier compensated sum, extremes, and running moments
// (Welford) for deviations.
type pivotAcc struct {
	// err is the first error value summarised: every summary but the
	// counts shows it, as Excel's do.
	err         string
	count, nums int64
	sum, comp   float64
	min, max    float64
	mean, m2    float64
}

func (a *pivotAcc) add(v float64, moments bool) {
	a.nums++
	t := a.sum + v
	if math.Abs(a.sum) >= math.Abs(v) {
		a.comp += (a.sum - t) + v
	} else {
		a.comp += (v - t) + a.sum
	}
	a.sum = t
	if a.nums == 1 || v < a.min {
		a.min = v
	}
	if a.nums == 1 || v > a.max {
		a.max = v
	}
	if moments { // only deviations need them, and a division a value
		d := v - a.mean
		a.mean += d / float64(a.nums)
		a.m2 += d * (v - a.mean)
	}
}

// cell is the summary f of the accumulated values, as Excel shows it:
// #DIV/0! for an average or deviation of too few numbers.
func (a *pivotAcc) cell(f PivotFunc) Cell {
	if a.err != "" && f != PivotCount && f != PivotCountNums {
		return Error(ErrorCode(a.err))
	}
	switch f {
	case PivotSum:
		return Float(a.sum + a.comp)
	case PivotCount:
		return Int(a.count)
	case PivotCountNums:
		return Int(a.nums)
	case PivotAverage:
		if a.nums == 0 {
			return Error(ErrorDiv0)
		}
		return Float((a.sum + a.comp) / float64(a.nums))
	case PivotMax:
		return Float(a.max) // 0 with no numbers, as Excel shows
	case PivotMin:
		return Float(a.min)
	case PivotStdDev, PivotVar:
		if a.nums < 2 {
			return Error(ErrorDiv0)
		}
		v := a.m2 / float64(a.nums-1)
		if f == PivotStdDev {
			v = math.Sqrt(v)
		}
		return Float(v)
	}
	return Cell{}
}

// pivotValue is a cell's value as a pivot sees it.
func (w *Writer) pivotValue(c *Cell) (kind byte, num float64, text string) {
	k := c.kind
	text = c.s
	if k == kindFormula {
		k, text = c.cached, c.cachedText()
	}
	switch k {
	case kindInt:
		return 'n', float64(c.i), ""
	case kindUint:
		return 'n', float64(c.uint()), ""
	case kindFloat, kindFloat32:
		return 'n', c.num, ""
	case kindDecimal:
		if v, ok := parseNumber(stringBytes(text)); ok {
			return 'n', v, ""
		}
		return 's', 0, text
	case kindBool:
		return 'b', float64(c.i), ""
	case kindDate, kindDateTime:
		if v, err := w.timeValue(k, c); err == nil {
			return 'd', v, ""
		}
	case kindTimeOfDay, kindDuration:
		if v, err := w.timeValue(k, c); err == nil {
			return 'n', v, ""
		}
	case kindString:
		return 's', 0, text
	case kindRich:
		var b strings.Builder
		for _, r := range c.runs {
			b.WriteString(r.Text)
		}
		return 's', 0, b.String()
	case kindError:
		return 'e', 0, text
	}
	return 'm', 0, ""
}

// addStyles registers the styles the pivot's sheet uses.
func (p *pivot) addStyles() error {
	w := p.w
	var err error
	if p.styles.bold, err = w.AddStyle(Style{Font: Font{Bold: true}}); err != nil {
		return err
	}
	if p.styles.date, err = w.AddStyle(Style{NumFmt: "yyyy-mm-dd"}); err != nil {
		return err
	}
	p.styles.values = make([]StyleID, len(p.def.Values))
	for i, v := range p.def.Values {
		if v.NumFormat != "" {
			if p.styles.values[i], err = w.AddStyle(Style{NumFmt: v.NumFormat}); err != nil {
				return err
			}
		}
	}
	p.styles.indents = []StyleID{0}
	for level := 1; level < len(p.def.Rows); level++ {
		id, err := w.AddStyle(Style{Alignment: Alignment{Indent: uint8(min(level, 15))}})
		if err != nil {
			return err
		}
		p.styles.indents = append(p.styles.indents, id)
	}
	return nil
}

// start reads the source's header row: every column a cache field, the
// declared ones found by name.
func (p *pivot) start(sheet string, cells []Cell) error {
	for _, c := range cells {
		text, _ := headerText(c) // as an Excel table names its columns
		p.header = append(p.header, text)
	}
	for len(p.header) > 0 && p.header[len(p.header)-1] == "" {
		p.header = p.header[:len(p.header)-1]
	}
	find := func(name string) (int, error) {
		for i, h := range p.header {
			if h == name {
				return i, nil
			}
		}
		return 0, fmt.Errorf("%w %q: %w %q in the header of %q (there are %s)", ErrPivot, p.def.Name, ErrNoColumn, name, sheet, strings.Join(p.header, ", "))
	}
	p.fields = make([]*pivotField, len(p.header))
	taken := map[string]bool{}
	for i, h := range p.header {
		if h == "" {
			return fmt.Errorf("%w %q: column %s of %q has no header (a pivot's fields are named)", ErrPivot, p.def.Name, ColumnName(i+1), sheet)
		}
		// A cache's fields have names of their own, as Excel makes them:
		// a repeated header gets a number ("amount2"); the declared
		// fields name the first.
		name := h
		for n := 2; taken[strings.ToLower(name)]; n++ {
			name = h + strconv.Itoa(n)
		}
		taken[strings.ToLower(name)] = true
		p.fields[i] = &pivotField{name: name}
	}
	axis := func(name string) (int, error) {
		i, err := find(name)
		if err == nil {
			p.fields[i].axis = true
			p.fields[i].index = map[string]int32{}
		}
		return i, err
	}
	for _, name := range p.def.Rows {
		i, err := axis(name)
		if err != nil {
			return err
		}
		p.rowCols = append(p.rowCols, i)
	}
	for _, name := range p.def.Columns {
		i, err := axis(name)
		if err != nil {
			return err
		}
		p.colCols = append(p.colCols, i)
	}
	for _, name := range p.def.Filters {
		i, err := axis(name)
		if err != nil {
			return err
		}
		p.filters = append(p.filters, i)
		ch := pivotChoice{item: -1}
		if c, ok := p.def.FilterItems[name]; ok {
			kind, num, text := p.w.pivotValue(&c)
			ch.key, ch.cell = string(p.itemKey(kind, num, text)), c
		}
		p.chosen = append(p.chosen, ch)
	}
	for _, v := range p.def.Values {
		i, err := find(v.Column)
		if err != nil {
			return err
		}
		p.values = append(p.values, i)
	}
	p.isValue = make([]bool, len(p.fields))
	for _, v := range p.values {
		p.isValue[v] = true
	}
	for _, v := range p.def.Values {
		p.moments = append(p.moments, v.Func == PivotStdDev || v.Func == PivotVar)
	}
	p.filterOf = make([]int, len(p.fields))
	for i := range p.filterOf {
		p.filterOf[i] = slices.Index(p.filters, i)
	}
	p.noSubtotal = make([]bool, len(p.fields))
	for _, name := range p.def.NoSubtotals {
		i, err := find(name)
		if err != nil {
			return err
		}
		p.noSubtotal[i] = true
	}
	p.children = map[uint64]int32{}
	p.ngroups = 1
	p.accs = make([]pivotAcc, len(p.values)) // the grand total's
	p.itemIdx = make([]int32, len(p.rowCols)+len(p.colCols))
	p.slot = make([]int, len(p.fields))
	for i := range p.slot {
		p.slot[i] = -1
	}
	for j, c := range p.rowCols {
		p.slot[c] = j
	}
	for j, c := range p.colCols {
		p.slot[c] = len(p.rowCols) + j
	}
	p.kinds, p.nums, p.errs = make([]byte, len(p.fields)), make([]float64, len(p.fields)), make([]string, len(p.fields))
	p.lastCol = len(p.header)
	return nil
}

// add takes one record: the fields' kinds, the axis fields' items, and
// every group the record belongs to (each prefix of its row items with
// each prefix of its column items).
func (p *pivot) add(cells []Cell) error {
	p.records++
	left := false // out of the values, by a filter's chosen item
	rec := p.spool
	if rec != nil {
		rec.buf = append(rec.buf, "<r>"...)
	}
	for i, f := range p.fields {
		if !f.axis && rec == nil && i < len(cells) && p.noteCommon(i, f, &cells[i]) {
			continue
		}
		var kind byte = 'm'
		var num float64
		var text string
		if i < len(cells) {
			kind, num, text = p.w.pivotValue(&cells[i])
		}
		p.kinds[i], p.nums[i] = kind, num
		if kind == 'e' {
			p.errs[i] = text // one of a few constants
		}
		f.note(kind, num, text)
		if !f.axis && rec != nil {
			rec.buf = p.appendValue(rec.buf, kind, num, text)
		}
		if f.axis {
			idx, err := p.item(f, kind, num, text)
			if err != nil {
				return err
			}
			if k := p.filterOf[i]; k >= 0 && p.chosen[k].key != "" {
				if p.chosen[k].item < 0 && string(p.keybuf) == p.chosen[k].key {
					p.chosen[k].item = idx
				}
				if idx != p.chosen[k].item {
					left = true // not the filter's item
				}
			}
			if rec != nil {
				rec.buf = appendIntAttr(append(rec.buf, "<x"...), "v", int(idx))
				rec.buf = append(rec.buf, "/>"...)
			}
			if slot := p.slot[i]; slot >= 0 {
				p.itemIdx[slot] = idx
			}
		}
	}
	if rec != nil {
		rec.buf = append(rec.buf, "</r>"...)
		if err := rec.flush(false); err != nil {
			return err
		}
	}
	if left {
		return nil
	}
	nr, nc := len(p.rowCols), len(p.colCols)
	var rowGroup int32 // the grand total's
	for level := 0; level <= nr; level++ {
		if level > 0 {
			var err error
			if rowGroup, err = p.child(rowGroup, p.itemIdx[level-1], false, level == nr && nc == 0); err != nil {
				return err
			}
		}
		g := rowGroup
		p.accumulate(g)
		for c := 1; c <= nc; c++ {
			var err error
			if g, err = p.child(g, p.itemIdx[nr+c-1], true, level == nr && c == nc); err != nil {
				return err
			}
			p.accumulate(g)
		}
	}
	return nil
}

// pivotEdge is the key of a group's child: the parent group, the item,
// and whether it is a column item.
func pivotEdge(parent, item int32, column bool) uint64 {
	k := uint64(parent)<<32 | uint64(uint32(item))
	if column {
		k |= 1 << 31
	}
	return k
}

// child is the group under parent with one more item, made at its first
// record; a leaf (every row and column field fixed) counts as a key.
func (p *pivot) child(parent, item int32, column, leaf bool) (int32, error) {
	k := pivotEdge(parent, item, column)
	if g, ok := p.children[k]; ok {
		return g, nil
	}
	if leaf {
		if p.keys++; p.keys > p.def.MaxKeys {
			return 0, p.tooMany("combinations of the row and column fields' items")
		}
	}
	g := p.ngroups
	p.ngroups++
	p.children[k] = g
	p.accs = append(p.accs, make([]pivotAcc, len(p.values))...)
	return g, nil
}

// accumulate adds this record's values to a group's accumulators.
func (p *pivot) accumulate(g int32) {
	accs := p.accs[int(g)*len(p.values) : int(g+1)*len(p.values)]
	for v, col := range p.values {
		switch p.kinds[col] {
		case 'm':
			continue
		case 'n', 'd':
			accs[v].add(p.nums[col], p.moments[v])
		case 'e':
			if accs[v].err == "" {
				accs[v].err = p.errs[col]
			}
		}
		accs[v].count++
	}
}

// tooMany is the error of a pivot past MaxKeys, saying what went past.
func (p *pivot) tooMany(what string) error {
	return fmt.Errorf("%w %q: %w: more than %d distinct %s", ErrPivot, p.def.Name, ErrPivotKeys, p.def.MaxKeys, what)
}

// item is the index of a value among an axis field's items, a new one
// added at its first appearance.
func (p *pivot) item(f *pivotField, kind byte, num float64, text string) (int32, error) {
	b := p.itemKey(kind, num, text)
	if i, ok := f.index[string(b)]; ok {
		return i, nil
	}
	if len(f.items) >= p.def.MaxKeys {
		return 0, p.tooMany("items of " + strconv.Quote(f.name))
	}
	i := int32(len(f.items))
	f.index[string(b)] = i
	f.items = append(f.items, pivotItem{kind: kind, num: num, text: strings.Clone(text)})
	return i, nil
}

// itemKey is an item's key among its field's items, in p.keybuf: its
// kind and value. Excel's pivot items ignore case: "Oslo" and "OSLO" are
// one item, shown as it first came.
func (p *pivot) itemKey(kind byte, num float64, text string) []byte {
	b := append(p.keybuf[:0], kind)
	if kind == 's' || kind == 'e' {
		b = appendFolded(b, text)
	} else {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(num))
	}
	p.keybuf = b
	return b
}

// appendFolded appends text in lower case, allocating nothing.
func appendFolded(b []byte, text string) []byte {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		b = utf8.AppendRune(b, unicode.ToLower(r))
		i += n
	}
	return b
}

// noteCommon is add's work for a cell of a field on no axis, when no
// records are kept, for the kinds most cells are (numbers and text): its
// kind and number kept and the field's description updated, without
// pivotValue's general path; false for the other kinds.
func (p *pivot) noteCommon(i int, f *pivotField, c *Cell) bool {
	var v float64
	switch c.kind {
	case kindString:
		p.kinds[i] = 's'
		f.note('s', 0, c.s)
		return true
	case kindInt:
		v = float64(c.i)
	case kindFloat:
		v = c.num
	case kindDecimal:
		if len(c.s) > 15 && !p.isValue[i] && f.hasNumber {
			// A long decimal of a field only described: when it lies
			// surely inside the extremes so far, its exact value is not
			// needed (strconv would cost more than the rest of the row).
			if a, frac, ok := approxDecimal(c.s); ok {
				margin := 1e-14 * math.Abs(a)
				if a-margin > f.minNum && a+margin < f.maxNum {
					p.kinds[i] = 'n'
					f.nonInt = f.nonInt || frac
					return true
				}
			}
		}
		// A database's or a CSV's exact decimal, read as the reader reads
		// a cell's number.
		var ok bool
		if v, ok = parseNumber(stringBytes(c.s)); !ok {
			return false
		}
	default:
		return false
	}
	p.kinds[i], p.nums[i] = 'n', v
	f.note('n', v, "")
	return true
}

// approxDecimal reads a plain decimal of up to 19 significant digits
// ("-0.14285714285714285") to within a few units in the last place, and
// whether it has a fraction that is not zeros; false for other text.
func approxDecimal(s string) (v float64, frac, ok bool) {
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	var m uint64
	digits, point, k, seen := 0, false, 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.' && !point:
			point = true
		case '0' <= c && c <= '9':
			seen = true
			if digits > 0 || c != '0' {
				digits++
			}
			if digits > 19 {
				return 0, false, false
			}
			m = m*10 + uint64(c-'0')
			if point {
				k++
				frac = frac || c != '0'
			}
		default:
			return 0, false, false
		}
	}
	if !seen || k >= len(numtext.ExactPow10) {
		return 0, false, false
	}
	v = float64(m) / numtext.ExactPow10[k]
	if neg {
		v = -v
	}
	return v, frac, true
}

// note records a value's kind in the field's description.
func (f *pivotField) note(kind byte, num float64, text string) {
	switch kind {
	case 'm':
		f.hasBlank = true
	case 's':
		f.hasString = true
		if len(text) > 255 {
			f.longText = true
		}
	case 'b':
		f.hasBool = true
	case 'e':
		f.hasError = true
	case 'n':
		widen(&f.minNum, &f.maxNum, f.hasNumber, num)
		f.hasNumber = true
		if num != math.Trunc(num) {
			f.nonInt = true
		}
	case 'd':
		widen(&f.minDate, &f.maxDate, f.hasDate, num)
		f.hasDate = true
	}
}

// widen takes v into the extremes lo and hi, which it sets when none
// was seen yet.
func widen(lo, hi *float64, seen bool, v float64) {
	if !seen || v < *lo {
		*lo = v
	}
	if !seen || v > *hi {
		*hi = v
	}
}

// customLists are Excel's built-in custom lists, which its pivot tables
// sort by: the days and months, short and long.
var customLists = func() map[string]int {
	m := map[string]int{}
	for l, list := range [][]string{
		{"sun", "mon", "tue", "wed", "thu", "fri", "sat"},
		{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"},
		{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"},
		{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"},
	} {
		for i, name := range list {
			if _, ok := m[name]; !ok {
				m[name] = l*100 + i
			}
		}
	}
	return m
}()

// order is the field's items in Excel's order: numbers and dates by
// value, then text (the days' and months' names in their order first,
// as Excel's custom lists sort them, then the rest ignoring case), then
// FALSE and TRUE, then errors, then the blank.
func (f *pivotField) order() []int32 {
	if len(f.sorted) == len(f.items) {
		return f.sorted // no item came since
	}
	rank := func(kind byte) int {
		switch kind {
		case 'n', 'd':
			return 0
		case 's':
			return 1
		case 'b':
			return 2
		case 'e':
			return 3
		}
		return 4
	}
	out := make([]int32, len(f.items))
	for i := range out {
		out[i] = int32(i)
	}
	listed := func(it *pivotItem) (int, bool) {
		if it.kind != 's' || len(it.text) > 9 {
			return 0, false
		}
		n, ok := customLists[strings.ToLower(it.text)]
		return n, ok
	}
	slices.SortStableFunc(out, func(a, b int32) int {
		x, y := &f.items[a], &f.items[b]
		if c := cmp.Compare(rank(x.kind), rank(y.kind)); c != 0 {
			return c
		}
		lx, okx := listed(x)
		ly, oky := listed(y)
		switch {
		case okx && oky:
			return cmp.Compare(lx, ly)
		case okx != oky:
			if okx {
				return -1
			}
			return 1
		}
		if x.kind == 's' || x.kind == 'e' {
			if c := strings.Compare(strings.ToLower(x.text), strings.ToLower(y.text)); c != 0 {
				return c
			}
			return strings.Compare(x.text, y.text)
		}
		return cmp.Compare(x.num, y.num)
	})
	f.sorted = out
	return out
}

// watchPivots hands a row of the source to its pivots: the first is the
// header.
func (s *Sheet) watchPivots(row int, cells []Cell) error {
	for _, p := range s.pivots {
		var err error
		if p.header == nil && row == 1 {
			err = p.start(s.name, cells)
			if err == nil && len(p.header) == 0 {
				err = fmt.Errorf("%w %q: the source %q has an empty header row", ErrPivot, p.def.Name, s.name)
			}
		} else if p.header != nil {
			err = p.add(cells)
		} else {
			err = fmt.Errorf("%w %q: the source %q's first row is row %d, not a header in row 1", ErrPivot, p.def.Name, s.name, row)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
