package xlsx

// Pivot tables: the source's rows aggregated as they are written, then
// the cache definition, the table definition and the rendered cells.

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
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
	colCol  int           // the column field's column, -1 for none
	filters []int
	values  []int // each value's column
	// groups maps a packed key (level, row items, column item) to its
	// accumulators' index in accs: len(values) of them.
	groups  map[string]int32
	accs    []pivotAcc
	keybuf  []byte
	itemIdx []int32 // this row's item of each axis field: rows, then the column
	slot    []int   // each field's place in itemIdx, -1 for none
	// kinds and nums are this row's values, a field each, read once.
	kinds   []byte
	nums    []float64
	records int
	keys    int // distinct items and groups, against MaxKeys
	lastCol int
}

// pivotField is one column of the source as the cache describes it:
// what kinds of values it holds and, for a field on an axis, its
// distinct items in order of first appearance.
type pivotField struct {
	name  string
	axis  bool
	items []pivotItem
	index map[string]int32

	hasString, hasNumber, hasBlank, hasDate, hasBool, nonInt, longText bool
	minNum, maxNum, minDate, maxDate                                   float64
}

// pivotItem is one distinct value of an axis field.
type pivotItem struct {
	kind byte // 's' text, 'n' number, 'd' date (num: its serial), 'b' boolean, 'm' blank
	num  float64
	text string
}

// pivotAcc accumulates one value field over one group: counts, a
// Kahan-Neumaier compensated sum, extremes, and running moments
// (Welford) for deviations.
type pivotAcc struct {
	count, nums int64
	sum, comp   float64
	min, max    float64
	mean, m2    float64
}

func (a *pivotAcc) add(v float64) {
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
	d := v - a.mean
	a.mean += d / float64(a.nums)
	a.m2 += d * (v - a.mean)
}

// cell is the summary f of the accumulated values, as Excel shows it:
// #DIV/0! for an average or deviation of too few numbers.
func (a *pivotAcc) cell(f PivotFunc) Cell {
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
		if v, err := strconv.ParseFloat(text, 64); err == nil {
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
		return 's', 0, text
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
func (p *pivot) start(s *Sheet, cells []Cell) error {
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
		return 0, fmt.Errorf("%w %q: %w %q in the header of %q (there are %s)", ErrPivot, p.def.Name, ErrNoColumn, name, s.name, strings.Join(p.header, ", "))
	}
	p.fields = make([]*pivotField, len(p.header))
	taken := map[string]bool{}
	for i, h := range p.header {
		if h == "" {
			return fmt.Errorf("%w %q: column %s of %q has no header (a pivot's fields are named)", ErrPivot, p.def.Name, ColumnName(i+1), s.name)
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
	p.colCol = -1
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
		p.colCol = i
	}
	for _, name := range p.def.Filters {
		i, err := axis(name)
		if err != nil {
			return err
		}
		p.filters = append(p.filters, i)
	}
	for _, v := range p.def.Values {
		i, err := find(v.Column)
		if err != nil {
			return err
		}
		p.values = append(p.values, i)
	}
	p.groups = map[string]int32{}
	p.itemIdx = make([]int32, len(p.rowCols)+1)
	p.slot = make([]int, len(p.fields))
	for i := range p.slot {
		p.slot[i] = -1
	}
	for j, c := range p.rowCols {
		p.slot[c] = j
	}
	if p.colCol >= 0 {
		p.slot[p.colCol] = len(p.rowCols)
	}
	p.kinds, p.nums = make([]byte, len(p.fields)), make([]float64, len(p.fields))
	p.lastCol = len(p.header)
	return nil
}

// add takes one record: the fields' kinds, the axis fields' items, and
// every group the record belongs to (each prefix of its row items, with
// and without its column item).
func (p *pivot) add(cells []Cell) error {
	p.records++
	rec := p.spool
	if rec != nil {
		rec.buf = append(rec.buf, "<r>"...)
	}
	for i, f := range p.fields {
		var kind byte = 'm'
		var num float64
		var text string
		if i < len(cells) {
			kind, num, text = p.w.pivotValue(&cells[i])
		}
		p.kinds[i], p.nums[i] = kind, num
		f.note(kind, num, text)
		if !f.axis && rec != nil {
			rec.buf = p.appendValue(rec.buf, kind, num, text)
		}
		if f.axis {
			idx, err := p.item(f, kind, num, text)
			if err != nil {
				return err
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
	cols := 1
	if p.colCol >= 0 {
		cols = 2
	}
	for level := 0; level <= len(p.rowCols); level++ {
		for c := range cols {
			b := append(p.keybuf[:0], byte(level), byte(c))
			for j := range level {
				b = binary.LittleEndian.AppendUint32(b, uint32(p.itemIdx[j]))
			}
			if c == 1 {
				b = binary.LittleEndian.AppendUint32(b, uint32(p.itemIdx[len(p.rowCols)]))
			}
			p.keybuf = b
			g, ok := p.groups[string(b)]
			if !ok {
				if err := p.grow("its combinations of items"); err != nil {
					return err
				}
				g = int32(len(p.accs))
				p.groups[string(b)] = g
				p.accs = append(p.accs, make([]pivotAcc, len(p.values))...)
			}
			accs := p.accs[g : int(g)+len(p.values)]
			for v, col := range p.values {
				switch p.kinds[col] {
				case 'm':
					continue
				case 'n', 'd':
					accs[v].add(p.nums[col])
				}
				accs[v].count++
			}
		}
	}
	return nil
}

// grow counts one more key, failing past MaxKeys.
func (p *pivot) grow(what string) error {
	p.keys++
	if p.keys > p.def.MaxKeys {
		return fmt.Errorf("%w %q: %w: more than %d distinct items and combinations (%s)", ErrPivot, p.def.Name, ErrPivotKeys, p.def.MaxKeys, what)
	}
	return nil
}

// item is the index of a value among an axis field's items, a new one
// added at its first appearance.
func (p *pivot) item(f *pivotField, kind byte, num float64, text string) (int32, error) {
	b := append(p.keybuf[:0], kind)
	if kind == 's' {
		// Excel's pivot items ignore case: "Oslo" and "OSLO" are one item,
		// shown as it first came.
		b = appendFolded(b, text)
	} else {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(num))
	}
	p.keybuf = b
	if i, ok := f.index[string(b)]; ok {
		return i, nil
	}
	if err := p.grow("the items of " + strconv.Quote(f.name)); err != nil {
		return 0, err
	}
	i := int32(len(f.items))
	f.index[string(b)] = i
	f.items = append(f.items, pivotItem{kind: kind, num: num, text: strings.Clone(text)})
	return i, nil
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
	case 'n':
		if !f.hasNumber || num < f.minNum {
			f.minNum = num
		}
		if !f.hasNumber || num > f.maxNum {
			f.maxNum = num
		}
		f.hasNumber = true
		if num != math.Trunc(num) {
			f.nonInt = true
		}
	case 'd':
		if !f.hasDate || num < f.minDate {
			f.minDate = num
		}
		if !f.hasDate || num > f.maxDate {
			f.maxDate = num
		}
		f.hasDate = true
	}
}

// order is the field's items in Excel's order: numbers and dates by
// value, then text (ignoring case), then FALSE and TRUE, then the blank.
func (f *pivotField) order() []int32 {
	rank := map[byte]int{'n': 0, 'd': 0, 's': 1, 'b': 2, 'm': 3}
	out := make([]int32, len(f.items))
	for i := range out {
		out[i] = int32(i)
	}
	slices.SortStableFunc(out, func(a, b int32) int {
		x, y := &f.items[a], &f.items[b]
		if c := cmp.Compare(rank[x.kind], rank[y.kind]); c != 0 {
			return c
		}
		if x.kind == 's' {
			if c := strings.Compare(strings.ToLower(x.text), strings.ToLower(y.text)); c != 0 {
				return c
			}
			return strings.Compare(x.text, y.text)
		}
		return cmp.Compare(x.num, y.num)
	})
	return out
}

// watchPivots hands a row of the source to its pivots: the first is the
// header.
func (s *Sheet) watchPivots(row int, cells []Cell) error {
	for _, p := range s.pivots {
		var err error
		if p.header == nil && row == 1 {
			err = p.start(s, cells)
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

// itemCell is an item's label cell.
func (p *pivot) itemCell(f *pivotField, i int32, dateStyle StyleID) Cell {
	it := f.items[i]
	switch it.kind {
	case 's':
		return String(it.text)
	case 'n':
		return Float(it.num)
	case 'd':
		return Float(it.num).WithStyle(dateStyle)
	case 'b':
		return Bool(it.num != 0)
	}
	return String("(blank)")
}

// acc is the accumulators of a group: level row fields fixed to items
// (the first level of them), and the column item or, with c < 0, every
// column.
func (p *pivot) acc(items []int32, c int32) []pivotAcc {
	b := []byte{byte(len(items)), 0}
	if c >= 0 {
		b[1] = 1
	}
	for _, i := range items {
		b = binary.LittleEndian.AppendUint32(b, uint32(i))
	}
	if c >= 0 {
		b = binary.LittleEndian.AppendUint32(b, uint32(c))
	}
	g, ok := p.groups[string(b)]
	if !ok {
		return nil
	}
	return p.accs[g : int(g)+len(p.values)]
}

// pivotRow is one rendered row of row items: its items (a prefix of the
// row fields), or the grand total.
type pivotRow struct {
	items []int32 // shared item indexes, outermost first
	pos   []int   // their positions in the fields' sorted items
	grand bool
	// subtotal: the tabular layout's row under a group ("North Total").
	subtotal bool
}

// rows are the table's rows in order: each item of the outer field, the
// items of the next field under it (that occur with it), and so on; an
// outer item's row carries its subtotals, except in the tabular layout,
// where each inner combination is a row and each group ends with a
// subtotal row.
func (p *pivot) rows(orders [][]int32) []pivotRow {
	var out []pivotRow
	tabular := p.def.Layout == PivotTabular
	var walk func(prefix []int32, pos []int)
	walk = func(prefix []int32, pos []int) {
		level := len(prefix)
		for at, i := range orders[level] {
			items := append(slices.Clone(prefix), i)
			if p.acc(items, -1) == nil {
				continue // no record has this combination
			}
			ps := append(slices.Clone(pos), at)
			inner := level+1 < len(p.rowCols)
			if !tabular || !inner {
				out = append(out, pivotRow{items: items, pos: ps})
			}
			if inner {
				walk(items, ps)
				if tabular {
					out = append(out, pivotRow{items: items, pos: ps, subtotal: true})
				}
			}
		}
	}
	walk(nil, nil)
	if p.def.GrandTotals == PivotTotalsBoth || p.def.GrandTotals == PivotTotalsRow {
		out = append(out, pivotRow{grand: true})
	}
	return out
}

// labelColumns is how many columns the row labels take: one in the
// compact layout, one a row field in the others.
func (p *pivot) labelColumns() int {
	if p.def.Layout == PivotCompact {
		return 1
	}
	return len(p.rowCols)
}

// writeSheet renders the pivot table on its own sheet and makes its
// table definition.
func (p *pivot) writeSheet() error {
	w := p.w
	if len(p.header) == 0 {
		return fmt.Errorf("%w %q: its source %q has no header row", ErrPivot, p.def.Name, p.def.Source)
	}
	s, err := w.addSheet(p.def.Sheet, SheetOptions{AutoFit: true})
	if err != nil {
		return err
	}
	s.pivotTable = p.id
	bold, dateStyle, valueStyles := p.styles.bold, p.styles.date, p.styles.values
	indent := func(level int) (StyleID, error) { return p.styles.indents[min(level, len(p.styles.indents)-1)], nil }
	orders := make([][]int32, len(p.rowCols))
	for j, c := range p.rowCols {
		orders[j] = p.fields[c].order()
	}
	var colOrder []int32
	if p.colCol >= 0 {
		colOrder = p.fields[p.colCol].order()
	}
	rows := p.rows(orders)
	nv := len(p.values)
	colGrand := p.colCol >= 0 && (p.def.GrandTotals == PivotTotalsBoth || p.def.GrandTotals == PivotTotalsColumn)
	// Filters: a row each, then a blank row; the table below.
	for _, f := range p.filters {
		if err := s.WriteRow([]Cell{String(p.fields[f].name).WithStyle(bold), String("(All)")}); err != nil {
			return err
		}
	}
	top := max(3, len(p.filters)+2)
	for s.row < top-1 {
		if err := s.WriteRow(nil); err != nil {
			return err
		}
	}
	// The header rows. The compact layout says "Row Labels" and "Column
	// Labels"; the others name the fields, a column each.
	headerRows := 1
	lead := p.labelColumns()
	caption := func(v int) Cell { return String(p.def.Values[v].Name).WithStyle(bold) }
	rowHeads := func() []Cell {
		if lead == 1 && p.def.Layout == PivotCompact {
			return []Cell{String("Row Labels").WithStyle(bold)}
		}
		var h []Cell
		for _, c := range p.rowCols {
			h = append(h, String(p.fields[c].name).WithStyle(bold))
		}
		return h
	}
	blanks := func(n int) []Cell { return make([]Cell, n) }
	switch {
	case p.colCol < 0:
		h := rowHeads()
		for v := range nv {
			h = append(h, caption(v))
		}
		if err := s.WriteRow(h); err != nil {
			return err
		}
	default:
		first := blanks(lead)
		if nv == 1 {
			first[0] = caption(0)
		}
		colHead := String("Column Labels").WithStyle(bold)
		if p.def.Layout != PivotCompact {
			colHead = String(p.fields[p.colCol].name).WithStyle(bold)
		}
		first = append(first, colHead)
		if err := s.WriteRow(first); err != nil {
			return err
		}
		second := rowHeads()
		if nv > 1 {
			second = blanks(lead)
		}
		f := p.fields[p.colCol]
		for _, i := range colOrder {
			second = append(second, p.itemCell(f, i, dateStyle))
			for range nv - 1 {
				second = append(second, Cell{})
			}
		}
		if colGrand {
			for v := range nv {
				if nv == 1 {
					second = append(second, String("Grand Total").WithStyle(bold))
				} else {
					second = append(second, String("Total "+p.def.Values[v].Name).WithStyle(bold))
				}
			}
		}
		if err := s.WriteRow(second); err != nil {
			return err
		}
		headerRows = 2
		if nv > 1 {
			third := rowHeads()
			for range colOrder {
				for v := range nv {
					third = append(third, caption(v))
				}
			}
			if err := s.WriteRow(third); err != nil {
				return err
			}
			headerRows = 3
		}
	}
	// The data rows.
	values := func(accs []pivotAcc, out []Cell) []Cell {
		for v := range nv {
			if accs == nil {
				out = append(out, Cell{})
				continue
			}
			c := accs[v].cell(p.def.Values[v].Func)
			if valueStyles[v] != 0 {
				c = c.WithStyle(valueStyles[v])
			}
			out = append(out, c)
		}
		return out
	}
	width := 1
	var prev []int // the previous row's item positions
	for _, r := range rows {
		cells := blanks(lead)
		switch {
		case r.grand:
			cells[0] = String("Grand Total").WithStyle(bold)
		case r.subtotal:
			level := len(r.items) - 1
			it := p.fields[p.rowCols[level]].items[r.items[level]]
			text, _ := headerText(p.itemCell(p.fields[p.rowCols[level]], r.items[level], dateStyle))
			if it.kind == 'd' {
				text = DateFromSerial(it.num, p.w.opts.Date1904).Format("2006-01-02")
			}
			cells[level] = String(text + " Total").WithStyle(bold)
		default:
			level := len(r.items) - 1
			label := func(l int) Cell {
				c := p.itemCell(p.fields[p.rowCols[l]], r.items[l], dateStyle)
				if l < len(p.rowCols)-1 {
					c = c.WithStyle(bold)
				}
				return c
			}
			switch p.def.Layout {
			case PivotCompact:
				c := p.itemCell(p.fields[p.rowCols[level]], r.items[level], dateStyle)
				if st, _ := indent(level); st != 0 && c.kind != kindFloat {
					c = c.WithStyle(st)
				}
				if level < len(p.rowCols)-1 {
					c = c.WithStyle(bold)
				}
				cells[0] = c
			case PivotOutline:
				cells[level] = label(level)
			default: // tabular: the labels from the first that changed
				same := 0
				for same < len(r.pos) && same < len(prev) && prev[same] == r.pos[same] {
					same++
				}
				for l := same; l <= level; l++ {
					cells[l] = label(l)
				}
			}
			prev = r.pos
		}
		items := r.items
		if p.colCol < 0 {
			cells = values(p.acc(items, -1), cells)
		} else {
			for _, c := range colOrder {
				cells = values(p.acc(items, c), cells)
			}
			if colGrand {
				cells = values(p.acc(items, -1), cells)
			}
		}
		width = max(width, len(cells))
		if err := s.WriteRow(cells); err != nil {
			return err
		}
	}
	last := s.row
	if width <= lead {
		width = lead + nv
	}
	p.table = p.definition(top, headerRows, last, width, rows, colOrder, colGrand)
	return s.Close()
}

// definition is the pivot table's part: its location, fields, rendered
// row and column items and data fields.
func (p *pivot) definition(top, headerRows, last, width int, rows []pivotRow, colOrder []int32, colGrand bool) []byte {
	nv := len(p.values)
	b := []byte(xmlHeader)
	b = append(b, `<pivotTableDefinition xmlns="`+nsMain+`" name="`...)
	b = appendItemAttr(b, p.def.Name)
	b = append(b, '"')
	b = appendIntAttr(b, "cacheId", p.id)
	b = append(b, ` applyNumberFormats="0" applyBorderFormats="0" applyFontFormats="0" applyPatternFormats="0" applyAlignmentFormats="0" applyWidthHeightFormats="1" dataCaption="Values" updatedVersion="3" minRefreshableVersion="3" useAutoFormatting="1" itemPrintTitles="1" createdVersion="3" indent="0"`...)
	switch p.def.Layout {
	case PivotCompact:
		b = append(b, ` outline="1" outlineData="1"`...)
	case PivotOutline:
		b = append(b, ` compact="0" compactData="0" outline="1" outlineData="1"`...)
	default:
		b = append(b, ` compact="0" compactData="0"`...)
	}
	b = append(b, ` multipleFieldFilters="0"`...)
	bottom := p.def.GrandTotals == PivotTotalsBoth || p.def.GrandTotals == PivotTotalsRow
	if !colGrand && p.colCol >= 0 {
		b = append(b, ` rowGrandTotals="0"`...)
	}
	if !bottom {
		b = append(b, ` colGrandTotals="0"`...)
	}
	b = append(b, `><location ref="`...)
	b = append(b, (Range{FirstRow: top, FirstCol: 1, LastRow: last, LastCol: width}).String()...)
	b = append(b, '"')
	switch {
	case p.colCol < 0 && nv == 1:
		b = append(b, ` firstHeaderRow="1" firstDataRow="1"`...)
	case p.colCol < 0:
		b = append(b, ` firstHeaderRow="0" firstDataRow="1"`...)
	default:
		b = append(b, ` firstHeaderRow="1"`...)
		b = appendIntAttr(b, "firstDataRow", headerRows)
	}
	b = appendIntAttr(b, "firstDataCol", p.labelColumns())
	if len(p.filters) > 0 {
		b = appendIntAttr(b, "rowPageCount", len(p.filters))
		b = append(b, ` colPageCount="1"`...)
	}
	b = append(b, "/>"...)
	b = appendIntAttr(append(b, "<pivotFields"...), "count", len(p.fields))
	b = append(b, '>')
	isValue := map[int]bool{}
	for _, c := range p.values {
		isValue[c] = true
	}
	for i, f := range p.fields {
		b = append(b, "<pivotField"...)
		switch {
		case slices.Contains(p.rowCols, i):
			b = append(b, ` axis="axisRow"`...)
		case i == p.colCol:
			b = append(b, ` axis="axisCol"`...)
		case slices.Contains(p.filters, i):
			b = append(b, ` axis="axisPage"`...)
		}
		if isValue[i] {
			b = append(b, ` dataField="1"`...)
		}
		if f.hasDate && !f.hasNumber && !f.hasString {
			b = append(b, ` numFmtId="14"`...)
		}
		switch p.def.Layout {
		case PivotOutline:
			b = append(b, ` compact="0"`...)
		case PivotTabular:
			b = append(b, ` compact="0" outline="0"`...)
		}
		b = append(b, ` showAll="0"`...)
		if !f.axis {
			b = append(b, "/>"...)
			continue
		}
		b = appendIntAttr(append(b, "><items"...), "count", len(f.items)+1)
		b = append(b, '>')
		for _, x := range f.order() {
			b = appendIntAttr(append(b, "<item"...), "x", int(x))
			b = append(b, "/>"...)
		}
		b = append(b, `<item t="default"/></items></pivotField>`...)
	}
	b = append(b, "</pivotFields>"...)
	b = appendIntAttr(append(b, "<rowFields"...), "count", len(p.rowCols))
	b = append(b, '>')
	for _, c := range p.rowCols {
		b = appendIntAttr(append(b, "<field"...), "x", c)
		b = append(b, "/>"...)
	}
	b = append(b, "</rowFields>"...)
	b = appendIntAttr(append(b, "<rowItems"...), "count", len(rows))
	b = append(b, '>')
	var prev []int
	for _, r := range rows {
		if r.grand {
			b = append(b, `<i t="grand"><x/></i>`...)
			continue
		}
		same := 0
		for same < len(r.pos)-1 && same < len(prev) && prev[same] == r.pos[same] {
			same++
		}
		b = append(b, "<i"...)
		if r.subtotal {
			b = append(b, ` t="default"`...)
		}
		if same > 0 {
			b = appendIntAttr(b, "r", same)
		}
		b = append(b, '>')
		for _, pos := range r.pos[same:] {
			b = appendX(b, pos)
		}
		b = append(b, "</i>"...)
		prev = r.pos
	}
	b = append(b, "</rowItems>"...)
	// Columns: the column field's items (each with every value), or the
	// values alone, or nothing.
	colFields := []int{}
	if p.colCol >= 0 {
		colFields = append(colFields, p.colCol)
	}
	if nv > 1 {
		colFields = append(colFields, -2)
	}
	if len(colFields) > 0 {
		b = appendIntAttr(append(b, "<colFields"...), "count", len(colFields))
		b = append(b, '>')
		for _, c := range colFields {
			b = appendIntAttr(append(b, "<field"...), "x", c)
			b = append(b, "/>"...)
		}
		b = append(b, "</colFields>"...)
	}
	var cols []byte
	n := 0
	item := func(grand bool, pos, v int) {
		n++
		cols = append(cols, "<i"...)
		if grand {
			cols = append(cols, ` t="grand"`...)
		}
		if p.colCol >= 0 && !grand && nv > 1 && v > 0 {
			cols = appendIntAttr(cols, "r", 1)
		}
		if v > 0 {
			cols = appendIntAttr(cols, "i", v)
		}
		cols = append(cols, '>')
		switch {
		case grand:
			cols = append(cols, "<x/>"...)
		case p.colCol >= 0 && nv > 1 && v > 0:
			cols = appendX(cols, v)
		case p.colCol >= 0 && nv > 1:
			cols = appendX(appendX(cols, pos), 0)
		case p.colCol >= 0:
			cols = appendX(cols, pos)
		default:
			cols = appendX(cols, v)
		}
		cols = append(cols, "</i>"...)
	}
	switch {
	case p.colCol >= 0:
		for pos := range colOrder {
			for v := range nv {
				item(false, pos, v)
			}
		}
		if colGrand {
			for v := range nv {
				item(true, 0, v)
			}
		}
	case nv > 1:
		for v := range nv {
			item(false, 0, v)
		}
	default:
		n, cols = 1, []byte("<i/>")
	}
	b = appendIntAttr(append(b, "<colItems"...), "count", n)
	b = append(b, '>')
	b = append(b, cols...)
	b = append(b, "</colItems>"...)
	if len(p.filters) > 0 {
		b = appendIntAttr(append(b, "<pageFields"...), "count", len(p.filters))
		b = append(b, '>')
		for _, f := range p.filters {
			b = appendIntAttr(append(b, "<pageField"...), "fld", f)
			b = append(b, ` hier="-1"/>`...)
		}
		b = append(b, "</pageFields>"...)
	}
	b = appendIntAttr(append(b, "<dataFields"...), "count", nv)
	b = append(b, '>')
	for v, def := range p.def.Values {
		b = append(b, `<dataField name="`...)
		b = appendItemAttr(b, def.Name)
		b = append(b, '"')
		b = appendIntAttr(b, "fld", p.values[v])
		if def.Func != PivotSum {
			b = append(b, ` subtotal="`+pivotFuncs[def.Func].xml+`"`...)
		}
		b = append(b, ` baseField="0" baseItem="0"`...)
		if def.NumFormat != "" {
			p.w.lockShared()
			id := p.w.styles.numFmtID(def.NumFormat)
			p.w.unlockShared()
			b = appendIntAttr(b, "numFmtId", id)
		}
		b = append(b, "/>"...)
	}
	b = append(b, "</dataFields>"...)
	b = append(b, `<pivotTableStyleInfo name="`...)
	b = appendAttr(b, p.def.Style)
	b = append(b, `" showRowHeaders="1" showColHeaders="1" showRowStripes="0" showColStripes="0" showLastColumn="1"/></pivotTableDefinition>`...)
	return b
}

// appendValue is a value as a cache writes it: <n>, <s>, <b>, <d> or
// <m/> for a blank.
func (p *pivot) appendValue(b []byte, kind byte, num float64, text string) []byte {
	switch kind {
	case 's':
		b = append(b, `<s v="`...)
		b = appendItemAttr(b, text)
		return append(b, `"/>`...)
	case 'n':
		b = append(b, `<n v="`...)
		b = strconv.AppendFloat(b, num, 'g', -1, 64)
		return append(b, `"/>`...)
	case 'd':
		b = append(b, `<d v="`...)
		b = append(b, DateFromSerial(num, p.w.opts.Date1904).Format("2006-01-02T15:04:05")...)
		return append(b, `"/>`...)
	case 'b':
		b = append(b, `<b v="`...)
		b = strconv.AppendInt(b, int64(num), 10)
		return append(b, `"/>`...)
	}
	return append(b, "<m/>"...)
}

// pivotRecords spools a cache's records to a temporary file.
type pivotRecords struct {
	f   *os.File
	buf []byte
}

func newPivotRecords(dir string) (*pivotRecords, error) {
	f, err := os.CreateTemp(dir, "sheetstream-pivot-*")
	if err != nil {
		return nil, fmt.Errorf("%w: spooling its records: %w", ErrPivot, err)
	}
	return &pivotRecords{f: f, buf: make([]byte, 0, 64<<10)}, nil
}

// flush writes the buffered records out when they fill the buffer (or
// always, with all).
func (r *pivotRecords) flush(all bool) error {
	if len(r.buf) < 60<<10 && !all {
		return nil
	}
	_, err := r.f.Write(r.buf)
	r.buf = r.buf[:0]
	return err
}

// discard removes the spool.
func (r *pivotRecords) discard() {
	if r != nil && r.f != nil {
		r.f.Close()
		os.Remove(r.f.Name())
		r.f = nil
	}
}

// appendItemAttr escapes a text (an item, a field's name) for an
// attribute as Excel writes one: control characters as _xHHHH_ (XML has
// no way to carry them), a literal "_xHHHH_" with its underscore
// escaped so that readers do not decode it, the rest as appendAttr.
func appendItemAttr(b []byte, s string) []byte {
	var t []byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r':
			t = appendXEscape(t, uint16(c))
		case c == '_' && isXEscape(s[i:]):
			t = append(t, "_x005F_"...)
		default:
			t = append(t, c)
		}
	}
	return appendAttr(b, string(t))
}

func appendX(b []byte, v int) []byte {
	if v == 0 {
		return append(b, "<x/>"...)
	}
	b = appendIntAttr(append(b, "<x"...), "v", v)
	return append(b, "/>"...)
}

// cacheDefinition is the pivot cache's part: the source range, and every
// field with the kinds of its values and, on an axis, its items.
func (p *pivot) cacheDefinition(sourceRows int) []byte {
	b := []byte(xmlHeader)
	b = append(b, `<pivotCacheDefinition xmlns="`+nsMain+`" xmlns:r="`+nsRelations+`"`...)
	if p.spool != nil {
		b = append(b, ` r:id="rId1"`...)
	} else {
		b = append(b, ` saveData="0"`...)
	}
	b = append(b, ` refreshOnLoad="1" refreshedBy="sheetstream"`...)
	now, _ := excelSerial(time.Now().UTC(), false)
	b = appendFloatAttr(b, "refreshedDate", math.Round(now*1e6)/1e6)
	b = append(b, ` createdVersion="3" refreshedVersion="3" minRefreshableVersion="3"`...)
	b = appendIntAttr(b, "recordCount", p.records)
	b = append(b, `><cacheSource type="worksheet"><worksheetSource ref="`...)
	b = append(b, (Range{FirstRow: 1, FirstCol: 1, LastRow: max(sourceRows, 1), LastCol: max(p.lastCol, 1)}).String()...)
	b = append(b, `" sheet="`...)
	b = appendAttr(b, p.def.Source)
	b = append(b, `"/></cacheSource>`...)
	b = appendIntAttr(append(b, "<cacheFields"...), "count", len(p.fields))
	b = append(b, '>')
	for _, f := range p.fields {
		b = append(b, `<cacheField name="`...)
		b = appendItemAttr(b, f.name)
		b = append(b, '"')
		if f.hasDate && !f.hasNumber && !f.hasString {
			b = append(b, ` numFmtId="14"`...)
		} else {
			b = append(b, ` numFmtId="0"`...)
		}
		b = append(b, "><sharedItems"...)
		b = f.sharedAttrs(b, p.w.opts.Date1904)
		if !f.axis {
			b = append(b, "/></cacheField>"...)
			continue
		}
		b = appendIntAttr(b, "count", len(f.items))
		b = append(b, '>')
		for _, it := range f.items {
			switch it.kind {
			case 's':
				b = append(b, `<s v="`...)
				b = appendItemAttr(b, it.text)
				b = append(b, `"/>`...)
			case 'n':
				b = append(b, `<n v="`...)
				b = strconv.AppendFloat(b, it.num, 'g', -1, 64)
				b = append(b, `"/>`...)
			case 'd':
				b = append(b, `<d v="`...)
				b = append(b, DateFromSerial(it.num, p.w.opts.Date1904).Format("2006-01-02T15:04:05")...)
				b = append(b, `"/>`...)
			case 'b':
				b = append(b, `<b v="`...)
				b = strconv.AppendInt(b, int64(it.num), 10)
				b = append(b, `"/>`...)
			default:
				b = append(b, "<m/>"...)
			}
		}
		b = append(b, "</sharedItems></cacheField>"...)
	}
	return append(b, "</cacheFields></pivotCacheDefinition>"...)
}

// sharedAttrs describes the kinds of a field's values, as Excel writes
// them on sharedItems (its defaults say text and no numbers).
func (f *pivotField) sharedAttrs(b []byte, date1904 bool) []byte {
	other := f.hasBool
	if !f.hasString && !f.hasBlank && !other {
		b = append(b, ` containsSemiMixedTypes="0"`...)
	}
	if f.hasDate && !f.hasNumber && !f.hasString && !other {
		b = append(b, ` containsNonDate="0"`...)
	}
	if f.hasDate {
		b = append(b, ` containsDate="1"`...)
	}
	if !f.hasString && !f.hasBool {
		// Excel counts booleans with the text here: a field of TRUE and
		// FALSE has no attributes at all.
		b = append(b, ` containsString="0"`...)
	}
	if f.hasBlank {
		b = append(b, ` containsBlank="1"`...)
	}
	kinds := 0
	for _, k := range []bool{f.hasString, f.hasNumber || f.hasDate, f.hasBool} {
		if k {
			kinds++
		}
	}
	if kinds > 1 {
		b = append(b, ` containsMixedTypes="1"`...)
	}
	if f.hasNumber && !f.hasDate {
		b = append(b, ` containsNumber="1"`...)
		if !f.nonInt {
			b = append(b, ` containsInteger="1"`...)
		}
		b = strconv.AppendFloat(append(b, ` minValue="`...), f.minNum, 'g', -1, 64)
		b = strconv.AppendFloat(append(b, `" maxValue="`...), f.maxNum, 'g', -1, 64)
		b = append(b, '"')
	}
	if f.hasDate && !f.hasNumber {
		b = append(b, ` minDate="`...)
		b = append(b, DateFromSerial(f.minDate, date1904).Format("2006-01-02T15:04:05")...)
		b = append(b, `" maxDate="`...)
		// Excel's maxDate is the day after the last one.
		b = append(b, DateFromSerial(math.Floor(f.maxDate)+1, date1904).Format("2006-01-02T15:04:05")...)
		b = append(b, '"')
	}
	if f.longText {
		b = append(b, ` longText="1"`...)
	}
	return b
}

// finishPivots writes the pivot tables of a source sheet that ended:
// each on its own sheet, after the source.
func (s *Sheet) finishPivots() error {
	w := s.w
	for _, p := range s.pivots {
		w.pivots = append(w.pivots, p)
		p.id = len(w.pivots)
		p.sourceRows = s.row
		if err := p.writeSheet(); err != nil {
			return w.fail(err)
		}
	}
	s.pivots = nil
	return nil
}

// pivotParts are the pivot tables' and caches' parts.
func (w *Writer) pivotParts() []packagePart {
	var parts []packagePart
	for _, p := range w.pivots {
		n := strconv.Itoa(p.id)
		rels := relsHeader + `<Relationship Id="rId1" Type="` + relTypes + `pivotCacheDefinition" Target="../pivotCache/pivotCacheDefinition` + n + `.xml"/></Relationships>`
		parts = append(parts,
			packagePart{"xl/pivotTables/pivotTable" + n + ".xml", p.table},
			packagePart{"xl/pivotTables/_rels/pivotTable" + n + ".xml.rels", []byte(rels)},
			packagePart{"xl/pivotCache/pivotCacheDefinition" + n + ".xml", p.cacheDefinition(p.sourceRows)})
		if p.spool != nil {
			parts = append(parts, packagePart{"xl/pivotCache/_rels/pivotCacheDefinition" + n + ".xml.rels",
				[]byte(relsHeader + `<Relationship Id="rId1" Type="` + relTypes + `pivotCacheRecords" Target="pivotCacheRecords` + n + `.xml"/></Relationships>`)})
		}
	}
	return parts
}

// writePivotRecords streams each pivot's spooled records into the
// package, and removes the spools.
func (w *Writer) writePivotRecords() error {
	for _, p := range w.pivots {
		r := p.spool
		if r == nil {
			continue
		}
		name := "xl/pivotCache/pivotCacheRecords" + strconv.Itoa(p.id) + ".xml"
		err := func() error {
			defer r.discard()
			if err := r.flush(true); err != nil {
				return err
			}
			if _, err := r.f.Seek(0, io.SeekStart); err != nil {
				return err
			}
			entry, err := w.zip.Create(name)
			if err != nil {
				return err
			}
			stream := w.pool.NewStream(entry)
			b := append(w.pool.Buffer(), xmlHeader+`<pivotCacheRecords xmlns="`+nsMain+`" xmlns:r="`+nsRelations+`"`...)
			b = appendIntAttr(b, "count", p.records)
			b = append(b, '>')
			chunk := make([]byte, 64<<10)
			for {
				n, readErr := r.f.Read(chunk)
				b = append(b, chunk[:n]...)
				if len(b) >= w.pool.ChunkSize() {
					var err error
					if b, err = stream.Submit(b); err != nil {
						stream.Abort()
						return err
					}
					b = b[:0]
				}
				if readErr == io.EOF {
					break
				}
				if readErr != nil {
					stream.Abort()
					return readErr
				}
			}
			b = append(b, "</pivotCacheRecords>"...)
			crc, size, err := stream.Close(b)
			if err == nil {
				err = entry.Close(crc, size)
			}
			return err
		}()
		if err != nil {
			return w.fail(partError(name, err))
		}
	}
	return nil
}

// discardPivotRecords removes the spools of a writer that did not finish.
func (w *Writer) discardPivotRecords() {
	for _, p := range w.pivots {
		p.spool.discard()
	}
	for _, s := range w.sheets {
		for _, p := range s.pivots {
			p.spool.discard()
		}
	}
	for _, list := range w.pivotWatch {
		for _, p := range list {
			p.spool.discard()
		}
	}
}
