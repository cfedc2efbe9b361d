package xlsx

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// sheetTable is a table being written: its range grows with the rows
// when it is open-ended, and its part is written when the sheet ends.
type sheetTable struct {
	Table
	id  int   // in the workbook, from 1; also its part's number
	ref Range // LastRow 0 until the sheet ends when open-ended
	// open: the range ends with the sheet's last row.
	open bool
	// names are the columns' names, filled in when the header row is
	// written.
	names      []string
	headerDone bool
	totalsDone bool
	formulas   bool // a column is calculated
	// sums accumulate each column's data rows for the totals row's
	// cached values; unknown marks a column with a formula whose value
	// the writer does not know (its total is then left uncached).
	sums    []pivotAcc
	unknown []bool
	// calc are the calculated columns' formulas compiled, for those the
	// writer evaluates (write_table_calc.go), once the columns are named.
	calc [][]calcOp
}

func (t *sheetTable) headerRow() int {
	if t.NoHeaderRow {
		return 0
	}
	return t.ref.FirstRow
}

// totalsRowAt is the totals row's number, 0 while unknown or none.
func (t *sheetTable) totalsRowAt() int {
	if !t.TotalsRow || t.open {
		return 0
	}
	return t.ref.LastRow
}

// AddTable makes the range r an Excel table (see Table). A range with
// LastRow 0 is open-ended: the table takes every row written up to the
// end of the sheet (at least one data row), and its totals row, if any,
// is written after them. With LastCol 0 the table is as wide as its
// Columns. Add a table before its header row is written: the header's
// cells then name the columns (a column's Name, when set, must match its
// cell), the empty ones get the names, and a name taken twice gets a
// number (Region, Region2), in the cells too. Header and totals rows
// that the sheet passes without writing (SkipRows, or the sheet's end)
// are written by the table. A table without a header row can be added
// any time before its rows end.
//
// Errors (in a *CellError, leaving the sheet and the Writer as they were):
// ErrTable for an invalid or duplicate name, a bad column or totals setting,
// or a range overlapping another table; ErrRange for an invalid range, or a
// header or totals row already written. Later, WriteRow fails with ErrTable
// for a header cell that is not text or a number or does not match its
// column's Name, and for a cell of the totals row where the table puts a label
// or a function.
func (s *Sheet) AddTable(r Range, t Table) error {
	if err := s.check(); err != nil {
		return err
	}
	// A table that cannot be added leaves the sheet and the Writer as
	// they were: these errors are not the Writer's.
	open := r.LastRow == 0
	if r.LastCol == 0 {
		r.LastCol = r.FirstCol + len(t.Columns) - 1
	}
	probe := r
	if open {
		probe.LastRow = MaxRows
	}
	if !probe.valid() {
		return s.refuse(0, 0, fmt.Errorf("%w: table range %v", ErrRange, r))
	}
	width := r.LastCol - r.FirstCol + 1
	if len(t.Columns) > width {
		return s.refuse(0, 0, fmt.Errorf("%w: %d columns for a range %d wide", ErrTable, len(t.Columns), width))
	}
	minRows := 1 // data
	if !t.NoHeaderRow {
		minRows++
	}
	if t.TotalsRow {
		minRows++
	}
	if !open && r.LastRow-r.FirstRow+1 < minRows {
		return s.refuse(0, 0, fmt.Errorf("%w: table range %v needs at least %d rows", ErrTable, r, minRows))
	}
	st := &sheetTable{Table: t, ref: r, open: open}
	st.Columns = append(make([]TableColumn, 0, width), t.Columns...)
	for len(st.Columns) < width {
		st.Columns = append(st.Columns, TableColumn{})
	}
	for i, c := range st.Columns {
		if err := checkTableColumn(c, t.TotalsRow); err != nil {
			return s.refuse(0, r.FirstCol+i, err)
		}
		st.formulas = st.formulas || c.Formula != ""
	}
	if !validAttrText(t.Style) || strings.ContainsAny(t.Style, `<>&"`) {
		return s.refuse(0, 0, fmt.Errorf("%w: table style %q", ErrTable, t.Style))
	}
	for _, o := range s.tables {
		other := o.ref
		if o.open {
			other.LastRow = MaxRows
		}
		if other.overlaps(probe) {
			return s.refuse(0, 0, fmt.Errorf("%w: table range %v overlaps table %s", ErrTable, r, o.Name))
		}
	}
	if !t.NoHeaderRow && s.row >= r.FirstRow {
		// Excel repairs a table whose header cells do not hold its
		// column names, which cells already written cannot be checked for.
		return s.refuse(r.FirstRow, 0, fmt.Errorf("%w: the table's header row %d is already written", ErrRange, r.FirstRow))
	}
	if t.NoHeaderRow {
		// The columns are named by Columns, or ColumnN.
		if err := st.nameColumns(nil); err != nil {
			return s.refuse(r.FirstRow, 0, err)
		}
		st.headerDone = true
	}
	if at := st.totalsRowAt(); at > 0 && s.row >= at {
		return s.refuse(at, 0, fmt.Errorf("%w: the table's totals row %d is already written", ErrRange, at))
	}
	if err := s.w.registerTable(st, s.name); err != nil {
		return s.refuse(0, 0, err)
	}
	s.tables = append(s.tables, st)
	return nil
}

func checkTableColumn(c TableColumn, totals bool) error {
	if c.Name != "" {
		if err := checkColumnName(c.Name); err != nil {
			return err
		}
	}
	if int(c.Total) >= len(totalFunctions) {
		return fmt.Errorf("%w: unknown total function %d", ErrTable, c.Total)
	}
	if (c.Total != TotalNone || c.TotalLabel != "") && !totals {
		return fmt.Errorf("%w: a total for a table without TotalsRow", ErrTable)
	}
	if c.Total != TotalNone && c.TotalLabel != "" {
		return fmt.Errorf("%w: a column with both a total function and a label", ErrTable)
	}
	if (c.Total == TotalCustom) != (c.TotalFormula != "") {
		return fmt.Errorf("%w: TotalFormula goes with TotalCustom", ErrTable)
	}
	for _, text := range []string{c.TotalLabel, c.TotalFormula, c.Formula} {
		if !validAttrText(text) {
			return fmt.Errorf("%w: %q holds a character XML cannot carry", ErrTable, text)
		}
	}
	return nil
}

// registerTable gives a table its id and name, unique in the workbook:
// its own, its sheet's (NameFromSheet) when that can be one, or TableN.
func (w *Writer) registerTable(t *sheetTable, sheet string) error {
	w.lockShared()
	defer w.unlockShared()
	id := w.tableCount + 1
	if t.Name == "" && t.NameFromSheet {
		if name := TableName(sheet); w.tableNameFree(name) == nil {
			t.Name = name
		}
	}
	if t.Name == "" {
		t.Name = "Table" + strconv.Itoa(id)
	}
	if err := w.tableNameFree(t.Name); err != nil {
		return err
	}
	if w.tableNames == nil {
		w.tableNames = map[string]bool{}
	}
	w.tableNames[strings.ToLower(t.Name)] = true
	w.tableCount = id
	t.id = id
	return nil
}

// tableNameFree checks that a table may take name: valid, and no other
// table's or defined name's (ignoring case).
func (w *Writer) tableNameFree(name string) error {
	if err := checkTableName(name); err != nil {
		return err
	}
	if w.tableNames[strings.ToLower(name)] {
		return fmt.Errorf("%w: a table named %q already exists (names ignore case)", ErrTable, name)
	}
	for _, n := range w.names {
		if strings.EqualFold(n.Name, name) {
			return fmt.Errorf("%w: %q is already a defined name", ErrTable, name)
		}
	}
	return nil
}

// nameColumns fills in the columns' names from the header cells (nil
// when the header is not written by this row): a given name must match
// its cell, an empty cell takes the given name or ColumnN, and a name a
// column before took gets a number, as Excel does. It returns the cells
// the header row must hold.
func (t *sheetTable) nameColumns(header []Cell) error {
	t.names = make([]string, len(t.Columns))
	taken := map[string]bool{}
	for i, c := range t.Columns {
		name := c.Name
		if header != nil {
			col := t.ref.FirstCol + i
			cell := Cell{}
			if col <= len(header) {
				cell = header[col-1]
			}
			text, ok := headerText(cell)
			if !ok {
				return fmt.Errorf("%w: %s is a table's header cell, which must hold text or a number", ErrTable, CellName(t.ref.FirstRow, col))
			}
			switch {
			case text != "" && name != "" && text != name:
				return fmt.Errorf("%w: header cell %s holds %q, not the column's name %q", ErrTable, CellName(t.ref.FirstRow, col), text, name)
			case text != "":
				name = text
			}
		}
		if name == "" {
			name = "Column" + strconv.Itoa(i+1)
		}
		if err := checkColumnName(name); err != nil {
			return err
		}
		base := name
		for n := 2; taken[strings.ToLower(name)]; n++ {
			name = base + strconv.Itoa(n)
		}
		taken[strings.ToLower(name)] = true
		t.names[i] = name
	}
	if t.formulas {
		t.calc = make([][]calcOp, len(t.Columns))
		for i, c := range t.Columns {
			if c.Formula != "" {
				t.calc[i], _ = compileCalc(c.Formula, t.names)
			}
		}
	}
	return nil
}

// headerText is the text a header cell shows.
func headerText(c Cell) (string, bool) {
	switch c.kind {
	case kindEmpty, kindBlank:
		return "", true
	case kindString:
		return c.s, true
	case kindInt:
		return strconv.FormatInt(c.i, 10), true
	case kindUint:
		return strconv.FormatUint(c.uint(), 10), true
	case kindFloat, kindFloat32:
		return string(AppendNumberText(nil, c.num)), true
	case kindDecimal:
		return c.s, true
	case kindBool:
		if c.boolDigit() == '1' {
			return "TRUE", true
		}
		return "FALSE", true
	}
	return "", false
}

// tableCells is the row to write as row number row: cells with what the
// tables put in it (header names, totals, calculated columns), or cells
// itself. The returned slice is the sheet's scratch, valid until the next
// row.
func (s *Sheet) tableCells(row int, cells []Cell, hidden bool) ([]Cell, error) {
	out := cells
	owned := false
	// own makes out the sheet's scratch copy of the row, at least width
	// cells wide, so that the caller's slice is left alone.
	own := func(width int) {
		if !owned {
			out = append(s.tableScratch[:0], cells...)
			owned = true
		}
		for len(out) < width {
			out = append(out, Cell{})
		}
		s.tableScratch = out
	}
	for _, t := range s.tables {
		if row < t.ref.FirstRow || !t.open && row > t.ref.LastRow {
			continue
		}
		switch {
		case row == t.headerRow() && !t.headerDone:
			if err := t.nameColumns(cells); err != nil {
				return nil, err
			}
			t.headerDone = true
			own(t.ref.LastCol)
			for i, name := range t.names {
				c := &out[t.ref.FirstCol+i-1]
				if text, _ := headerText(*c); text != name {
					*c = Cell{kind: kindString, s: name, style: c.style, styled: c.styled}
				}
			}
		case row == t.totalsRowAt():
			own(t.ref.LastCol)
			if err := t.fillTotals(out, row); err != nil {
				return nil, err
			}
		case t.formulas && row > t.headerRow():
			own(t.ref.LastCol)
			row := out[t.ref.FirstCol-1 : t.ref.FirstCol-1+len(t.Columns)]
			for i, c := range t.Columns {
				if cell := &row[i]; c.Formula != "" && cell.kind == kindEmpty {
					*cell = Cell{kind: kindFormula, s: t.expandFormula(c.Formula), style: cell.style, styled: cell.styled}
					if i < len(t.calc) && t.calc[i] != nil {
						if v, ok := s.w.evalCalc(t.calc[i], row); ok {
							*cell = cell.WithValue(v)
						}
					}
				}
			}
		}
		if t.TotalsRow && row > t.headerRow() && row != t.totalsRowAt() && !hidden {
			t.accumulate(s.w, out)
		}
	}
	return out, nil
}

// accumulate adds a data row's cells to the totals of the columns that
// have one. SUBTOTAL's codes of 100 and more leave hidden rows out, so
// the caller does.
func (t *sheetTable) accumulate(w *Writer, cells []Cell) {
	if t.sums == nil {
		t.sums, t.unknown = make([]pivotAcc, len(t.Columns)), make([]bool, len(t.Columns))
	}
	for i, c := range t.Columns {
		col := t.ref.FirstCol + i - 1
		if c.Total == TotalNone || c.Total == TotalCustom || col >= len(cells) {
			continue
		}
		cell := &cells[col]
		if cell.kind == kindFormula && cell.cached == kindEmpty {
			t.unknown[i] = true // a formula whose value is Excel's to compute
			continue
		}
		kind, num, _ := w.pivotValue(cell)
		if kind == 'm' {
			continue
		}
		t.sums[i].count++
		if kind == 'n' || kind == 'd' {
			t.sums[i].add(num, true) // the totals row may show a deviation
		}
	}
}

// totalFuncs are the summaries of the totals row's functions.
var totalFuncs = [...]PivotFunc{
	TotalSum: PivotSum, TotalAverage: PivotAverage, TotalCount: PivotCount, TotalCountNums: PivotCountNums,
	TotalMin: PivotMin, TotalMax: PivotMax, TotalStdDev: PivotStdDev, TotalVar: PivotVar,
}

// fillTotals puts the totals row's labels and SUBTOTAL formulas in the
// row's empty cells; a cell written with something else is an error.
func (t *sheetTable) fillTotals(out []Cell, row int) error {
	t.totalsDone = true
	for i, c := range t.Columns {
		col := t.ref.FirstCol + i
		cell := &out[col-1]
		var v Cell
		switch {
		case c.TotalLabel != "":
			v = String(c.TotalLabel)
		case c.Total == TotalCustom:
			v = Cell{kind: kindFormula, s: t.expandFormula(c.TotalFormula), cached: kindInt}
		case c.Total != TotalNone:
			v = Cell{kind: kindFormula, s: "SUBTOTAL(" + strconv.Itoa(totalFunctions[c.Total].code) + "," + structuredColumn(t.names[i]) + ")"}
			// Its value, as the rows went by: viewers that do not
			// recalculate show it. A column with formulas the writer
			// cannot evaluate leaves it to Excel.
			if t.unknown == nil || !t.unknown[i] {
				var acc pivotAcc
				if t.sums != nil {
					acc = t.sums[i]
				}
				v = v.WithValue(acc.cell(totalFuncs[c.Total]))
			}
		default:
			continue
		}
		if cell.kind != kindEmpty {
			return fmt.Errorf("%w: %s is in table %s's totals row", ErrTable, CellName(row, col), t.Name)
		}
		v.style, v.styled = cell.style, cell.styled
		*cell = v
	}
	return nil
}

// expandFormula writes the [@Column] shorthand the way Excel stores it:
// Table[[#This Row],[Column]] (and Table[@Column] as
// Table[[#This Row],[Column]]).
func (t *sheetTable) expandFormula(f string) string {
	if !strings.Contains(f, "[@") {
		return f
	}
	var b strings.Builder
	for {
		i := strings.Index(f, "[@")
		if i < 0 {
			b.WriteString(f)
			return b.String()
		}
		b.WriteString(f[:i])
		rest := f[i+2:]
		var item string
		if strings.HasPrefix(rest, "[") {
			end := strings.Index(rest, "]]")
			if end < 0 {
				b.WriteString(f[i:])
				return b.String()
			}
			item, f = rest[:end+1], rest[end+2:]
		} else {
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				b.WriteString(f[i:])
				return b.String()
			}
			item, f = "["+rest[:end]+"]", rest[end+1:]
		}
		if qualified := i > 0 && isNameByte(b.String()[b.Len()-1]); !qualified {
			b.WriteString(t.Name)
		}
		b.WriteString("[[#This Row]," + item + "]")
	}
}

// writeTableRows writes the header and totals rows of the tables that
// the rows up to row pass over without writing them.
func (s *Sheet) writeTableRows(upTo int) error {
	for {
		next := 0
		for _, t := range s.tables {
			if at := t.headerRow(); at > s.row && at <= upTo && !t.headerDone && (next == 0 || at < next) {
				next = at
			}
			if at := t.totalsRowAt(); at > s.row && at <= upTo && !t.totalsDone && (next == 0 || at < next) {
				next = at
			}
		}
		if next == 0 {
			return nil
		}
		s.row = next - 1
		if err := s.writeRow(nil, nil); err != nil {
			return err
		}
	}
}

// finishTables ends the tables with the sheet: the open-ended ones end
// at the last row written (with one data row at least), and the rows the
// tables still owe are written, in order.
func (s *Sheet) finishTables() error {
	last := 0
	for _, t := range s.tables {
		if t.open {
			lastData := max(s.row, t.ref.FirstRow)
			if !t.NoHeaderRow {
				lastData = max(lastData, t.ref.FirstRow+1)
			}
			t.ref.LastRow = lastData
			if t.TotalsRow {
				t.ref.LastRow++
			}
			t.open = false
		}
		last = max(last, t.ref.LastRow)
	}
	return s.writeTableRows(last)
}

// tableXML is a table's part.
func (t *sheetTable) xml() []byte {
	b := []byte(xmlHeader + `<table xmlns="` + nsMain + `"`)
	b = appendIntAttr(b, "id", t.id)
	b = append(b, ` name="`...)
	b = appendAttr(b, t.Name)
	b = append(b, `" displayName="`...)
	b = appendAttr(b, t.Name)
	b = append(b, `" ref="`...)
	b = t.ref.append(b, false)
	b = append(b, '"')
	if t.NoHeaderRow {
		b = append(b, ` headerRowCount="0"`...)
	}
	if t.TotalsRow {
		b = append(b, ` totalsRowCount="1"`...)
	} else {
		b = append(b, ` totalsRowShown="0"`...)
	}
	b = append(b, '>')
	if !t.NoHeaderRow && !t.NoAutoFilter {
		filter := t.ref
		if t.TotalsRow {
			filter.LastRow--
		}
		b = append(b, `<autoFilter ref="`...)
		b = filter.append(b, false)
		b = append(b, `"/>`...)
	}
	b = appendIntAttr(append(b, `<tableColumns`...), "count", len(t.Columns))
	b = append(b, '>')
	for i, c := range t.Columns {
		b = appendIntAttr(append(b, `<tableColumn`...), "id", i+1)
		b = append(b, ` name="`...)
		b = appendAttr(b, t.names[i])
		b = append(b, '"')
		if c.Total != TotalNone {
			b = append(b, ` totalsRowFunction="`...)
			b = append(b, totalFunctions[c.Total].name...)
			b = append(b, '"')
		}
		if c.TotalLabel != "" {
			b = append(b, ` totalsRowLabel="`...)
			b = appendAttr(b, c.TotalLabel)
			b = append(b, '"')
		}
		if c.Formula == "" && c.Total != TotalCustom {
			b = append(b, "/>"...)
			continue
		}
		b = append(b, '>')
		if c.Formula != "" {
			b = appendElem(b, "calculatedColumnFormula", t.expandFormula(c.Formula))
		}
		if c.Total == TotalCustom {
			b = appendElem(b, "totalsRowFormula", t.expandFormula(c.TotalFormula))
		}
		b = append(b, "</tableColumn>"...)
	}
	b = append(b, `</tableColumns><tableStyleInfo`...)
	switch t.Style {
	case TableStyleNone:
	case "":
		b = append(b, ` name="TableStyleMedium2"`...)
	default:
		b = append(b, ` name="`...)
		b = appendAttr(b, t.Style)
		b = append(b, '"')
	}
	flag := func(b []byte, name string, on bool) []byte {
		if on {
			return append(append(b, ' '), name+`="1"`...)
		}
		return append(append(b, ' '), name+`="0"`...)
	}
	b = flag(b, "showFirstColumn", t.FirstColumn)
	b = flag(b, "showLastColumn", t.LastColumn)
	b = flag(b, "showRowStripes", !t.NoBandedRows)
	b = flag(b, "showColumnStripes", t.BandedColumns)
	return append(b, `/></table>`...)
}

// tableParts lists the workbook's table parts, in id order.
func (w *Writer) tableParts() []string {
	var ids []int
	for _, s := range w.sheets {
		for _, t := range s.tables {
			ids = append(ids, t.id)
		}
	}
	slices.Sort(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = tablePartName(id)
	}
	return parts
}

func tablePartName(id int) string { return "xl/tables/table" + strconv.Itoa(id) + ".xml" }

// isNameByte reports whether c can end a table's name.
func isNameByte(c byte) bool {
	return c == '_' || c == '.' || c == '\\' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
