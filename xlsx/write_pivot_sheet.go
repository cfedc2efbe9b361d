package xlsx

// A pivot table's sheet: its header rows, and a row each of its row
// items with the values computed.

import (
	"encoding/binary"
	"fmt"
	"slices"
)

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

// pivotPlan is a pivot table's layout on its sheet, which its cells and
// its definition both follow.
type pivotPlan struct {
	rows     []pivotRow
	colOrder []int32 // the column field's items in order
	colGrand bool    // the Grand Total column shows
	lead     int     // the columns of the row labels
	// top is the table's first row (under the filters), headerRows its
	// header's rows, last its last row, width its columns.
	top, headerRows, last, width int
}

// plan lays the table out: its rows, its columns, where it starts.
func (p *pivot) plan() *pivotPlan {
	orders := make([][]int32, len(p.rowCols))
	for j, c := range p.rowCols {
		orders[j] = p.fields[c].order()
	}
	pl := &pivotPlan{rows: p.rows(orders), lead: p.labelColumns(), top: max(3, len(p.filters)+2)}
	if p.colCol >= 0 {
		pl.colOrder = p.fields[p.colCol].order()
		pl.colGrand = p.def.GrandTotals == PivotTotalsBoth || p.def.GrandTotals == PivotTotalsColumn
	}
	return pl
}

// writeSheet renders the pivot table on its own sheet and makes its
// table definition.
func (p *pivot) writeSheet() error {
	if len(p.header) == 0 {
		return fmt.Errorf("%w %q: its source %q has no header row", ErrPivot, p.def.Name, p.def.Source)
	}
	s, err := p.w.addSheet(p.def.Sheet, SheetOptions{AutoFit: true})
	if err != nil {
		return err
	}
	s.pivotTable = p.id
	pl := p.plan()
	// Filters: a row each, then a blank row; the table below.
	for _, f := range p.filters {
		if err := s.WriteRow([]Cell{String(p.fields[f].name).WithStyle(p.styles.bold), String("(All)")}); err != nil {
			return err
		}
	}
	for s.row < pl.top-1 {
		if err := s.WriteRow(nil); err != nil {
			return err
		}
	}
	if pl.headerRows, err = p.writeHeader(s, pl); err != nil {
		return err
	}
	pl.width = pl.lead + len(p.values)
	var prev []int // the previous row's item positions
	for _, r := range pl.rows {
		cells := p.rowCells(pl, r, prev)
		if !r.grand && !r.subtotal {
			prev = r.pos
		}
		pl.width = max(pl.width, len(cells))
		if err := s.WriteRow(cells); err != nil {
			return err
		}
	}
	pl.last = s.row
	p.table = p.definition(pl)
	return s.Close()
}

// writeHeader writes the table's header rows and returns how many. The
// compact layout says "Row Labels" and "Column Labels"; the others name
// the fields, a column each.
func (p *pivot) writeHeader(s *Sheet, pl *pivotPlan) (int, error) {
	bold, nv := p.styles.bold, len(p.values)
	caption := func(v int) Cell { return String(p.def.Values[v].Name).WithStyle(bold) }
	rowHeads := func() []Cell {
		if p.def.Layout == PivotCompact {
			return []Cell{String("Row Labels").WithStyle(bold)}
		}
		var h []Cell
		for _, c := range p.rowCols {
			h = append(h, String(p.fields[c].name).WithStyle(bold))
		}
		return h
	}
	if p.colCol < 0 {
		h := rowHeads()
		for v := range nv {
			h = append(h, caption(v))
		}
		return 1, s.WriteRow(h)
	}
	first := make([]Cell, pl.lead)
	if nv == 1 {
		first[0] = caption(0)
	}
	colHead := String("Column Labels").WithStyle(bold)
	if p.def.Layout != PivotCompact {
		colHead = String(p.fields[p.colCol].name).WithStyle(bold)
	}
	if err := s.WriteRow(append(first, colHead)); err != nil {
		return 0, err
	}
	second := rowHeads()
	if nv > 1 {
		second = make([]Cell, pl.lead)
	}
	f := p.fields[p.colCol]
	for _, i := range pl.colOrder {
		second = append(second, p.itemCell(f, i, p.styles.date))
		second = append(second, make([]Cell, nv-1)...)
	}
	if pl.colGrand {
		for v := range nv {
			if nv == 1 {
				second = append(second, String("Grand Total").WithStyle(bold))
			} else {
				second = append(second, String("Total "+p.def.Values[v].Name).WithStyle(bold))
			}
		}
	}
	if err := s.WriteRow(second); err != nil {
		return 0, err
	}
	if nv == 1 {
		return 2, nil
	}
	third := rowHeads()
	for range pl.colOrder {
		for v := range nv {
			third = append(third, caption(v))
		}
	}
	return 3, s.WriteRow(third)
}

// rowCells are a row's cells: its labels as the layout places them (in
// the tabular layout, from the first that differs from the previous
// row's, prev), then the values of each column.
func (p *pivot) rowCells(pl *pivotPlan, r pivotRow, prev []int) []Cell {
	bold, dateStyle := p.styles.bold, p.styles.date
	cells := make([]Cell, pl.lead)
	level := len(r.items) - 1
	label := func(l int) Cell {
		c := p.itemCell(p.fields[p.rowCols[l]], r.items[l], dateStyle)
		if p.def.Layout == PivotCompact && l > 0 && c.kind != kindFloat {
			c = c.WithStyle(p.styles.indents[min(l, len(p.styles.indents)-1)])
		}
		if l < len(p.rowCols)-1 {
			c = c.WithStyle(bold)
		}
		return c
	}
	switch {
	case r.grand:
		cells[0] = String("Grand Total").WithStyle(bold)
	case r.subtotal:
		it := p.fields[p.rowCols[level]].items[r.items[level]]
		text, _ := headerText(p.itemCell(p.fields[p.rowCols[level]], r.items[level], dateStyle))
		if it.kind == 'd' {
			text = DateFromSerial(it.num, p.w.opts.Date1904).Format("2006-01-02")
		}
		cells[level] = String(text + " Total").WithStyle(bold)
	case p.def.Layout == PivotCompact:
		cells[0] = label(level)
	case p.def.Layout == PivotOutline:
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
	if p.colCol < 0 {
		return p.valueCells(p.acc(r.items, -1), cells)
	}
	for _, c := range pl.colOrder {
		cells = p.valueCells(p.acc(r.items, c), cells)
	}
	if pl.colGrand {
		cells = p.valueCells(p.acc(r.items, -1), cells)
	}
	return cells
}

// valueCells appends a group's value cells (empty ones for a group no
// record has).
func (p *pivot) valueCells(accs []pivotAcc, out []Cell) []Cell {
	for v, def := range p.def.Values {
		if accs == nil {
			out = append(out, Cell{})
			continue
		}
		c := accs[v].cell(def.Func)
		if st := p.styles.values[v]; st != 0 {
			c = c.WithStyle(st)
		}
		out = append(out, c)
	}
	return out
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
