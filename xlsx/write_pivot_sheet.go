package xlsx

// A pivot table's sheet: its header rows, and a row each of its row
// items with the values computed.

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
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
	case 'e':
		return Error(ErrorCode(it.text))
	}
	return String("(blank)")
}

// acc is the accumulators of a group: the row fields fixed to
// rowItems (the first len(rowItems) of them) and the column fields to
// colItems; nil when no record has that combination.
func (p *pivot) acc(rowItems, colItems []int32) []pivotAcc {
	var g int32 // the grand total's
	for k, items := range [2][]int32{rowItems, colItems} {
		for _, it := range items {
			var ok bool
			if g, ok = p.children[pivotEdge(g, it, k == 1)]; !ok {
				return nil
			}
		}
	}
	return p.accs[int(g)*len(p.values) : int(g+1)*len(p.values)]
}

// pivotRow is one rendered row of row items, or column of column
// items: its items (a prefix of the fields), or the grand total.
type pivotRow struct {
	items []int32 // shared item indexes, outermost first
	pos   []int   // their positions in the fields' sorted items
	grand bool
	// subtotal: a group's total after its items (the tabular layout's
	// "North Total" row, an outer column field's total column).
	subtotal bool
}

// walkItems lists the combinations of the fields' items that occur,
// nested in the fields' orders: each item of the outer field, the items
// of the next under it, and so on. It follows the groups' tree (kids),
// so it costs the groups there are, not the items' every combination.
// An outer item comes before its group (head) and, with subtotals, its
// total after it (tail).
func (p *pivot) walkItems(fields []int, column, head bool, tail func(level int) bool) []pivotRow {
	// ranks[level][item] is the item's place in its field's order.
	ranks := make([][]int32, len(fields))
	for j, c := range fields {
		order := p.fields[c].order()
		ranks[j] = make([]int32, len(order))
		for at, i := range order {
			ranks[j][i] = int32(at)
		}
	}
	kids := p.kids(column)
	var out []pivotRow
	// The rows' items and positions are slices of two arenas, not an
	// allocation a row: a large pivot has a row a key.
	var itemArena []int32
	var posArena []int
	var walk func(group int32, prefix []int32, pos []int)
	walk = func(group int32, prefix []int32, pos []int) {
		level := len(prefix)
		list := kids[group]
		slices.SortFunc(list, func(a, b pivotKid) int { return cmp.Compare(ranks[level][a.item], ranks[level][b.item]) })
		for _, kid := range list {
			start := len(itemArena)
			itemArena = append(append(itemArena, prefix...), kid.item)
			items := itemArena[start:len(itemArena):len(itemArena)]
			start = len(posArena)
			posArena = append(append(posArena, pos...), int(ranks[level][kid.item]))
			ps := posArena[start:len(posArena):len(posArena)]
			inner := level+1 < len(fields)
			if head || !inner {
				out = append(out, pivotRow{items: items, pos: ps})
			}
			if inner {
				walk(kid.group, items, ps)
				if tail(level) {
					out = append(out, pivotRow{items: items, pos: ps, subtotal: true})
				}
			}
		}
	}
	if len(fields) > 0 {
		walk(0, nil, nil)
	}
	return out
}

// pivotKid is a group's child: its item, and its own group.
type pivotKid struct{ item, group int32 }

// kids lists each group's children along the row fields, or (column)
// along the column fields.
func (p *pivot) kids(column bool) map[int32][]pivotKid {
	kids := map[int32][]pivotKid{}
	for k, g := range p.children {
		if (k&(1<<31) != 0) == column {
			parent := int32(k >> 32)
			kids[parent] = append(kids[parent], pivotKid{item: int32(uint32(k) &^ (1 << 31)), group: g})
		}
	}
	return kids
}

// rows are the table's rows in order; an outer item's row carries its
// subtotals, except in the tabular layout, where each inner combination
// is a row and each group ends with a subtotal row.
func (p *pivot) rows() []pivotRow {
	tabular := p.def.Layout == PivotTabular
	tail := func(level int) bool { return tabular && p.subtotals(p.rowCols[level]) }
	out := p.walkItems(p.rowCols, false, !tabular, tail)
	if p.def.GrandTotals == PivotTotalsBoth || p.def.GrandTotals == PivotTotalsRow {
		out = append(out, pivotRow{grand: true})
	}
	return out
}

// columns are the table's columns of values, before each is repeated
// for every value field: the column fields' combinations with a total
// after each outer item's group, then the grand total; one column of
// everything without column fields.
func (p *pivot) columns() (cols []pivotRow, grand bool) {
	if len(p.colCols) == 0 {
		return []pivotRow{{}}, false
	}
	tail := func(level int) bool { return p.subtotals(p.colCols[level]) }
	cols = p.walkItems(p.colCols, true, false, tail)
	if p.def.GrandTotals == PivotTotalsBoth || p.def.GrandTotals == PivotTotalsColumn {
		cols = append(cols, pivotRow{grand: true})
		grand = true
	}
	return cols, grand
}

// subtotals tells whether an outer field's items show their totals (a
// template's pivot may turn them off a field at a time).
func (p *pivot) subtotals(field int) bool {
	return field >= len(p.noSubtotal) || !p.noSubtotal[field]
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
	rows []pivotRow
	// cols are the columns of values (each repeated for every value
	// field), colGrand whether the Grand Total column shows.
	cols     []pivotRow
	colGrand bool
	lead     int // the columns of the row labels
	// top and left are the table's first row (under the filters) and
	// column; headerRows its header's rows, last its last row, width its
	// columns.
	top, left, headerRows, last, width int
}

// plan lays the table out: its rows, its columns, where it starts (its
// first row and column).
func (p *pivot) plan(top, left int) *pivotPlan {
	// A filter's chosen item that no row had is an item all the same.
	for k, f := range p.filters {
		if ch := &p.chosen[k]; ch.key != "" && ch.item < 0 {
			kind, num, text := p.w.pivotValue(&ch.cell)
			if i, err := p.item(p.fields[f], kind, num, text); err == nil {
				ch.item = i
			}
		}
	}
	pl := &pivotPlan{rows: p.rows(), lead: p.labelColumns(), top: top, left: left}
	pl.cols, pl.colGrand = p.columns()
	return pl
}

// writeSheet renders the pivot table on its own sheet and makes its
// table definition.
func (p *pivot) writeSheet() error {
	if len(p.header) == 0 {
		return fmt.Errorf("%w %q: its source %q has no header row", ErrPivot, p.def.Name, p.def.Source)
	}
	// A pivot prints landscape, a page wide, as its columns belong together.
	s, err := p.w.addSheet(p.def.Sheet, SheetOptions{AutoFit: true, Print: &PrintSetup{Landscape: true, FitWide: 1}})
	if err != nil {
		return err
	}
	s.pivotTable = p.id
	pl := p.plan(max(3, len(p.filters)+2), 1)
	if err := p.render(pl, s.WriteRow); err != nil {
		return err
	}
	p.table = p.definition(pl)
	return s.Close()
}

// render hands the pivot's cells to emit a row at a time, from the
// sheet's first row: the filters' rows (a blank row under them), the
// header's, then the table's rows (rendered as they go, so that a large
// pivot is never held whole); it completes the plan's extent.
func (p *pivot) render(pl *pivotPlan, emit func([]Cell) error) error {
	lines := make([][]Cell, pl.top-1)
	// Filters: a row each, then a blank row; the table below.
	for k, f := range p.filters {
		shown := String("(All)")
		if ch := p.chosen[k]; ch.item >= 0 {
			shown = p.itemCell(p.fields[f], ch.item, p.styles.date)
		}
		lines[pl.top-2-len(p.filters)+k] = []Cell{String(p.fields[f].name).WithStyle(p.styles.bold), shown}
	}
	header := p.headerRows(pl)
	pl.headerRows = len(header)
	pl.last = pl.top - 1 + len(header)
	for _, cells := range append(lines, header...) {
		if err := emit(cells); err != nil {
			return err
		}
	}
	pl.width = pl.lead + len(p.values)
	var prev []int   // the previous row's item positions
	var cells []Cell // a row's, reused: emit takes them before the next
	for _, r := range pl.rows {
		cells = p.rowCells(pl, r, prev, cells[:0])
		if !r.grand && !r.subtotal {
			prev = r.pos
		}
		pl.width = max(pl.width, len(cells))
		if err := emit(cells); err != nil {
			return err
		}
		pl.last++
	}
	return nil
}

// headerRows are the table's header rows. The
// compact layout says "Row Labels" and "Column Labels"; the others name
// the fields, a column each. With column fields: a row naming them, a
// row of each field's items (an outer item over its first column, its
// total's label on its own row), then the values' captions when there
// are several.
func (p *pivot) headerRows(pl *pivotPlan) [][]Cell {
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
	if len(p.colCols) == 0 {
		h := rowHeads()
		for v := range nv {
			h = append(h, caption(v))
		}
		if nv == 1 || p.def.HideValuesRow {
			return [][]Cell{h}
		}
		// Several values go across as a field of their own, "Values",
		// named in a row above their captions, as Excel shows them.
		return [][]Cell{append(make([]Cell, pl.lead), String("Values").WithStyle(bold)), h}
	}
	first := make([]Cell, pl.lead)
	if nv == 1 {
		first[0] = caption(0)
	}
	if p.def.Layout == PivotCompact {
		first = append(first, String("Column Labels").WithStyle(bold))
	} else {
		for _, c := range p.colCols {
			first = append(first, String(p.fields[c].name).WithStyle(bold))
		}
		if nv > 1 {
			first = append(first, String("Values").WithStyle(bold))
		}
	}
	out := [][]Cell{first}
	for level := range p.colCols {
		row := make([]Cell, pl.lead)
		if level == len(p.colCols)-1 && nv == 1 {
			row = rowHeads()
		}
		out = append(out, append(row, p.columnLabels(pl, level)...))
	}
	if nv == 1 {
		return out
	}
	last := rowHeads()
	for _, c := range pl.cols {
		for v := range nv {
			if c.grand || c.subtotal {
				last = append(last, Cell{})
			} else {
				last = append(last, caption(v))
			}
		}
	}
	return append(out, last)
}

// columnLabels are the labels of one column field's header row, a cell
// each column of values: an item over the first column of its group, a
// total's label on its field's row, "Grand Total" on the first.
func (p *pivot) columnLabels(pl *pivotPlan, level int) []Cell {
	bold, nv := p.styles.bold, len(p.values)
	var out []Cell
	var prev []int
	for _, c := range pl.cols {
		for v := range nv {
			var cell Cell
			switch {
			case c.grand && level == 0:
				cell = String("Grand Total").WithStyle(bold)
				if nv > 1 {
					cell = String("Total " + p.def.Values[v].Name).WithStyle(bold)
				}
			case c.subtotal && level == len(c.items)-1:
				text := p.totalLabel(p.fields[p.colCols[level]], c.items[level])
				if nv > 1 {
					text = strings.TrimSuffix(text, " Total") + " " + p.def.Values[v].Name
				}
				cell = String(text).WithStyle(bold)
			case !c.grand && !c.subtotal && v == 0 && (len(prev) <= level || !slices.Equal(prev[:level+1], c.pos[:level+1])):
				cell = p.itemCell(p.fields[p.colCols[level]], c.items[level], p.styles.date)
			}
			out = append(out, cell)
		}
		if !c.grand {
			prev = c.pos
		}
	}
	return out
}

// totalLabel is an item's total's label: "North Total".
func (p *pivot) totalLabel(f *pivotField, i int32) string {
	it := f.items[i]
	text, _ := headerText(p.itemCell(f, i, p.styles.date))
	if it.kind == 'd' {
		text = DateFromSerial(it.num, p.w.opts.Date1904).Format("2006-01-02")
	}
	return text + " Total"
}

// rowCells appends to cells a row's cells: its labels as the layout
// places them (in the tabular layout, from the first that differs from
// the previous row's, prev), then the values of each column.
func (p *pivot) rowCells(pl *pivotPlan, r pivotRow, prev []int, cells []Cell) []Cell {
	bold, dateStyle := p.styles.bold, p.styles.date
	cells = append(cells, make([]Cell, pl.lead)...)
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
		cells[level] = String(p.totalLabel(p.fields[p.rowCols[level]], r.items[level])).WithStyle(bold)
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
	outer := !r.grand && len(r.items) < len(p.rowCols)
	for _, c := range pl.cols {
		if outer && !r.subtotal && !p.subtotals(p.rowCols[level]) {
			cells = append(cells, make([]Cell, len(p.values))...) // no subtotals
			continue
		}
		cells = p.valueCells(p.acc(r.items, c.items), cells)
	}
	return cells
}

// valueCells appends a group's value cells (empty ones for a group no
// record has).
func (p *pivot) valueCells(accs []pivotAcc, out []Cell) []Cell {
	for v, def := range p.def.Values {
		if accs == nil || accs[v].count == 0 {
			// No record, or no value in the group: Excel leaves it empty
			// (a table's SUBTOTAL over nothing is 0 all the same).
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
