package sqlsheet

// The columns of an import: the header, the types a pass over the data
// finds (or the existing table has), and their names in the table.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sheetstream/sheetstream/xlsx"
)

// columns names and types the table's columns: from the header and a
// pass over the data, or from the existing table.
func (imp *importer) columns(ctx context.Context) error {
	imp.colBase = max(imp.opts.Range.FirstCol, 1) - 1
	switch h := imp.opts.HeaderRow; {
	case imp.opts.NoHeader:
	case h == HeaderAuto:
		if err := imp.findHeader(ctx); err != nil {
			return err
		}
	case h < 0:
		return fmt.Errorf("header row %d", h)
	default:
		imp.headerRow = h
	}
	if err := imp.loadSchema(); err != nil {
		return err
	}
	if !imp.intoExisting() && !imp.speculate {
		var err error
		if imp.spool, err = newSpool(imp.opts.TempDir); err != nil {
			return err
		}
	}
	header, types, err := imp.scanColumns(ctx)
	if err != nil {
		return err
	}
	imp.spooled = imp.spool != nil
	if imp.guessed {
		imp.guess = slices.Clone(types)
	}
	if slices.Contains(header, "") || len(types) > len(header) {
		if err := imp.mergedHeader(ctx, &header); err != nil {
			return err
		}
	}
	keep, err := imp.pickColumns(header)
	if err != nil {
		return err
	}
	if keep != nil {
		for i := range header {
			if !keep[i] {
				header[i] = "" // not loaded: Append leaves it, Create skips it
			}
		}
	}
	if imp.intoExisting() {
		imp.leaveOutBinary(header)
		return imp.tableColumns(ctx, header)
	}
	return imp.newColumns(ctx, header, types, keep)
}

// scanColumns reads the header and, for a new table, widens each column's
// type over the data rows (all of them, spooling them for the load, or
// the first speculateRows when the types are a guess).
func (imp *importer) scanColumns(ctx context.Context) (header []string, types []ColumnType, err error) {
	types = []ColumnType{}
	dataRows := 0
	err = imp.walk(ctx, func(r tableRow, isHeader bool) (bool, error) {
		if isHeader {
			imp.stats.HeaderRow = r.num
			for _, c := range r.cells {
				for len(header) < c.Col()-1-imp.colBase {
					header = append(header, "")
				}
				name := strings.TrimSpace(c.String())
				if strings.IndexByte(name, 0) >= 0 {
					// No database takes it in a column name; cutting it
					// out would name a column what the sheet does not.
					return false, &ImportError{Table: imp.opts.Table, Sheet: imp.src.SheetName(), Row: r.num, Col: c.Col(),
						Err: errors.New("the header holds a NUL character, which a column name cannot (--header-row or --range can leave the row out)")}
				}
				header = append(header, name)
			}
			return false, nil
		}
		if imp.intoExisting() {
			return true, nil // types come from the table
		}
		if imp.speculate && dataRows == speculateRows {
			imp.guessed = true
			return true, nil
		}
		dataRows++
		for i := range r.cells {
			c := &r.cells[i]
			col := c.Col() - 1 - imp.colBase
			for len(types) <= col {
				types = append(types, columnEmpty)
			}
			types[col] = widen(types[col], imp.cellType(c))
			imp.sameNumber(c, col, true)
		}
		if imp.spool == nil {
			return false, nil
		}
		return false, imp.spool.add(r)
	})
	for col, text := range imp.asText {
		if text && col < len(types) {
			types[col] = ColumnText // two texts of one number
		}
	}
	return header, types, err
}

// leaveOutBinary drops, from an append or merge, the columns the export
// recorded as binary: they hold placeholders or encoded text, which
// loaded would replace the table's bytes.
func (imp *importer) leaveOutBinary(header []string) {
	binary := imp.binaryColumns()
	for i, h := range header {
		if binary[strings.ToLower(h)] {
			imp.stats.Binary = append(imp.stats.Binary, h)
			header[i] = ""
			if imp.leftOut == nil {
				imp.leftOut = map[int]bool{}
			}
			imp.leftOut[i] = true
		}
	}
}

// newColumns names and types a new table's columns: names from the
// header (colN where it is empty, _2 for a name met again, fitted to the
// engine), types as scanned unless --type or --all-text says otherwise,
// then the schema part's types where the workbook has one.
func (imp *importer) newColumns(ctx context.Context, header []string, types []ColumnType, keep []bool) error {
	n := max(len(header), len(types))
	seen, overridden := map[string]bool{}, map[string]bool{}
	imp.checked = make([]bool, n)
	for i := range n {
		if keep != nil && (i >= len(keep) || !keep[i]) {
			imp.byCol = append(imp.byCol, -1)
			continue
		}
		imp.checked[i] = !imp.opts.AllText
		name := ""
		if i < len(header) {
			name = header[i]
		}
		if name == "" && (i >= len(types) || types[i] == columnEmpty) {
			// Neither a header nor a value: a blank column left of or
			// inside the table, such as column A of a table from B.
			imp.byCol = append(imp.byCol, -1)
			imp.checked[i] = true // a guess: a value later changes it
			continue
		}
		if name == "" {
			name = "col" + strconv.Itoa(i+1)
		}
		name = imp.engine.fitName(name, "")
		base := name
		for k := 2; seen[strings.ToLower(name)]; k++ {
			name = imp.engine.fitName(base, "_"+strconv.Itoa(k))
		}
		seen[strings.ToLower(name)] = true
		t := columnEmpty
		if i < len(types) {
			t = types[i]
		}
		if t == columnEmpty || imp.opts.AllText {
			t = ColumnText
		}
		if i < len(header) {
			for name, typ := range imp.opts.Types {
				if strings.EqualFold(strings.TrimSpace(name), header[i]) {
					t = typ
					overridden[strings.ToLower(strings.TrimSpace(name))] = true
					imp.checked[i] = false
				}
			}
		}
		imp.byCol = append(imp.byCol, len(imp.cols))
		imp.cols = append(imp.cols, ImportColumn{Name: name, Type: t})
	}
	if len(imp.cols) == 0 {
		if name := imp.src.SheetName(); name != "" {
			return fmt.Errorf("sheet %q is empty: no columns to import", name)
		}
		return errors.New("no columns to import: the text is empty")
	}
	for name := range imp.opts.Types {
		if !overridden[strings.ToLower(strings.TrimSpace(name))] {
			return fmt.Errorf("a type is given for column %q, which the header does not have", name)
		}
	}
	if most := maxTableColumns[imp.engine]; most > 0 && len(imp.cols) > most {
		return fmt.Errorf("the header has %d columns, and a %s table holds at most %d (--columns picks the ones to load)", len(imp.cols), imp.engine, most)
	}
	imp.created = true
	if err := imp.applySchema(ctx, header); err != nil {
		return err
	}
	for i := range imp.cols {
		if imp.cols[i].SQLType == "" {
			imp.cols[i].SQLType = imp.engine.sqlType(imp.cols[i].Type)
		}
	}
	imp.stats.Columns = imp.cols
	return nil
}

// mergedHeader names the empty header cells a merged range covers after
// the range's own name: a header "Sales" merged over two columns names
// both (the second becomes Sales_2), as a person reading it would. The
// merges follow the rows in the file, which is read again for them: the
// caller asks only when the header has a gap.
func (imp *importer) mergedHeader(ctx context.Context, header *[]string) error {
	src, ok := imp.src.(sheetSource)
	if !ok || imp.stats.HeaderRow == 0 {
		return nil
	}
	merges, err := src.mergedRanges(ctx)
	if err != nil {
		return err
	}
	for _, m := range merges {
		if m.FirstRow > imp.stats.HeaderRow || m.LastRow < imp.stats.HeaderRow {
			continue
		}
		first, last := m.FirstCol-1-imp.colBase, m.LastCol-1-imp.colBase
		if r := imp.opts.Range; r.LastCol > 0 {
			last = min(last, r.LastCol-1-imp.colBase)
		}
		if m.FirstRow != imp.stats.HeaderRow || first < 0 || first >= len(*header) || (*header)[first] == "" {
			continue // the name is above the header row, or outside the range
		}
		for c := first + 1; c <= last; c++ {
			if c == len(*header) {
				*header = append(*header, "")
			}
			if (*header)[c] == "" {
				(*header)[c] = (*header)[first]
			}
		}
	}
	return nil
}

// contradicts says whether a cell of a row loaded under guessed types
// would have changed them: its column's type would widen, or a column
// left out as blank, or one right of every column seen, has a value.
func (imp *importer) contradicts(c *xlsx.Value) bool {
	col := c.Col() - 1 - imp.colBase
	if col < len(imp.checked) && imp.byCol[col] >= 0 {
		if !imp.checked[col] {
			return false
		}
		guess := columnEmpty
		if col < len(imp.guess) {
			guess = imp.guess[col]
		}
		// What every cell of a kind leaves as it is, without typing the
		// cell (every cell of a new table comes here): text takes
		// anything, a float any number.
		if guess == ColumnText {
			return false
		}
		if guess == ColumnFloat && c.Type() == xlsx.TypeNumber {
			return imp.sameNumber(c, col, false)
		}
		t := imp.cellType(c)
		return t != columnEmpty && widen(guess, t) != guess || imp.sameNumber(c, col, false)
	}
	if imp.cellType(c) == columnEmpty {
		return false
	}
	if col >= len(imp.checked) {
		return len(imp.opts.Columns) == 0 // columns picked by name leave the rest out
	}
	return imp.checked[col] // a column left out as blank
}

// intoExisting says whether the rows go into a table as it is.
func (imp *importer) intoExisting() bool { return imp.opts.Mode == Append || imp.opts.Mode == Merge }

// tableColumns matches the header to an existing table's columns.
func (imp *importer) tableColumns(ctx context.Context, header []string) error {
	rows, err := imp.db.QueryContext(ctx, "SELECT * FROM "+imp.engine.quoteTable(imp.opts.Table)+" WHERE 1=0")
	if err != nil {
		return fmt.Errorf("table %s: %w", imp.opts.Table, err)
	}
	cts, err := rows.ColumnTypes()
	rows.Close()
	if err != nil {
		return err
	}
	index := map[string]int{}
	for i, ct := range cts {
		index[strings.ToLower(ct.Name())] = i
		imp.cols = append(imp.cols, ImportColumn{Name: ct.Name(), Type: columnTypeOf(kindOfColumn(ct, imp.engine == EngineSQLite))})
	}
	if imp.opts.NoHeader {
		// Without a header, sheet columns fill table columns in order.
		imp.byCol = make([]int, len(cts))
		for i := range imp.byCol {
			imp.byCol[i] = i
		}
		imp.stats.Columns = imp.cols
		return nil
	}
	// Only the columns the header names are loaded, so the table's
	// defaults (a serial id, say) fill the others.
	all := imp.cols
	imp.cols = nil
	used := map[int]bool{}
	seen := map[string]int{} // fitted header names, lower case
	imp.byCol = make([]int, len(header))
	for i, h := range header {
		j, ok := index[strings.ToLower(h)]
		if (!ok || used[j]) && h != "" {
			// The name a new table would have given the column: cut to
			// the engine's limit, numbered when the header has it again.
			fitted := strings.ToLower(imp.engine.fitName(h, ""))
			seen[fitted]++
			if k := seen[fitted]; k > 1 {
				fitted = strings.ToLower(imp.engine.fitName(h, "_"+strconv.Itoa(k)))
			}
			if alt, found := index[fitted]; found && !used[alt] {
				j, ok = alt, true
			}
		} else if h != "" {
			seen[strings.ToLower(imp.engine.fitName(h, ""))]++
		}
		if !ok {
			if h == "" {
				imp.byCol[i] = -1
				continue
			}
			return fmt.Errorf("table %s has no column %q (column %s of the sheet)", imp.opts.Table, h, xlsx.ColumnName(i+1))
		}
		if used[j] {
			return fmt.Errorf("the sheet names column %q of %s twice", all[j].Name, imp.opts.Table)
		}
		used[j] = true
		imp.byCol[i] = len(imp.cols)
		imp.cols = append(imp.cols, all[j])
	}
	if len(imp.cols) == 0 {
		return fmt.Errorf("the sheet's header names no column of %s", imp.opts.Table)
	}
	imp.stats.Columns = imp.cols
	return nil
}

// maxTableColumns are the engines' limits on a table's columns
// (SQLITE_MAX_COLUMN's default, PostgreSQL's MaxHeapAttributeNumber,
// InnoDB's), checked before any DDL so the message names both counts.
var maxTableColumns = map[Engine]int{EngineSQLite: 2000, EnginePostgres: 1600, EngineMySQL: 1017}
