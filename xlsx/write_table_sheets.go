package xlsx

import (
	"fmt"
	"slices"
	"strings"
)

// TableSheetsOptions lay out the sheets of a TableSheets.
type TableSheetsOptions struct {
	// Name names the first sheet; rows past a sheet's limit continue on
	// "Name (2)", "Name (3)"... (see NumberedSheetName).
	Name string
	// Header is the table's header row, written bold at the top of each
	// sheet and frozen; nil for rows without one (nothing frozen, no
	// filter, no table and no charts).
	Header []string
	// RowsPerSheet caps a sheet's rows, header included (MaxRows when
	// zero or out of range).
	RowsPerSheet int
	// FitRows is how many rows column widths are fitted to (100 when
	// zero; negative: no fitting), at most 60 characters wide.
	FitRows int
	// ExcelTable makes each sheet an Excel table named after it (see
	// Table.NameFromSheet) in TableStyleMedium2, instead of a header
	// with an autofilter.
	ExcelTable bool
	// Charts are drawn on each sheet from the header's columns.
	Charts []ColumnChart
	// NoFreeze leaves the header unfrozen (it scrolls with the rows).
	NoFreeze bool
	// Pivots are computed over the table's rows, each on a sheet of its
	// own after the table's (their Source is the table's first sheet). A
	// table with pivots that continues past its first sheet fails with
	// ErrPivot: a pivot cache takes one sheet's range.
	Pivots []PivotTable
}

// TableSheets writes one table, a header and its rows, to a sheet and,
// past a sheet's rows, to numbered continuations laid out alike: the
// header bold and frozen, the columns fitted to their first rows, an
// autofilter or an Excel table, the charts. It is the layout every
// sheetstream export and conversion gives its rows.
//
// Sheets are added as the rows need them: the first at the first
// WriteRow, or at Close for a table without rows.
type TableSheets struct {
	w      *Writer
	opts   TableSheetsOptions
	header []Cell
	sheet  *Sheet
	sheets []string
	rows   []int64 // data rows of each sheet
}

// AddTableSheets begins a table on w's next sheets.
//
// Errors: a sheet name Excel refuses (CheckSheetName), a chart naming a
// column the header lacks or any chart with no header (ErrChart), or the
// writer's sticky error.
func (w *Writer) AddTableSheets(opts TableSheetsOptions) (*TableSheets, error) {
	if err := CheckSheetName(opts.Name); err != nil {
		return nil, err
	}
	if opts.RowsPerSheet <= 1 || opts.RowsPerSheet > MaxRows {
		opts.RowsPerSheet = MaxRows
	}
	if opts.FitRows == 0 {
		opts.FitRows = 100
	}
	t := &TableSheets{w: w, opts: opts}
	if opts.Header == nil {
		if len(opts.Charts) > 0 {
			return nil, fmt.Errorf("%w: charts name columns of the header, and there is none", ErrChart)
		}
		if len(opts.Pivots) > 0 {
			return nil, fmt.Errorf("%w: pivot tables name columns of the header, and there is none", ErrPivot)
		}
		return t, nil
	}
	for _, c := range opts.Charts {
		if _, err := c.Chart(opts.Name, opts.Header); err != nil {
			return nil, err
		}
	}
	for _, p := range opts.Pivots {
		for _, name := range append(append(append(append([]string{}, p.Rows...), p.Columns...), p.Filters...), pivotColumns(p.Values)...) {
			if !slices.Contains(opts.Header, name) {
				return nil, fmt.Errorf("%w %q: %w %q in the header of %q (there are %s)", ErrPivot, p.Name, ErrNoColumn, name, opts.Name, strings.Join(opts.Header, ", "))
			}
		}
		p.Source = opts.Name
		if err := w.AddPivotTable(p); err != nil {
			return nil, err
		}
	}
	bold, err := w.AddStyle(Style{Font: Font{Bold: true}})
	if err != nil {
		return nil, err
	}
	t.header = make([]Cell, len(opts.Header))
	for i, name := range opts.Header {
		t.header[i] = String(name).WithStyle(bold)
	}
	return t, nil
}

// WriteRow writes the table's next row, on a new sheet when the current
// one is full. Its errors are Sheet.WriteRow's and AddSheet's.
func (t *TableSheets) WriteRow(cells []Cell) error {
	if t.sheet == nil || t.sheet.LastRow() >= t.opts.RowsPerSheet {
		if err := t.newSheet(); err != nil {
			return err
		}
	}
	if err := t.sheet.WriteRow(cells); err != nil {
		return err
	}
	t.rows[len(t.rows)-1]++
	return nil
}

// Close ends the table: its last sheet gets its autofilter, and a table
// without rows its one sheet with the header alone. It does not close
// the writer.
func (t *TableSheets) Close() error {
	if t.sheet == nil {
		if err := t.newSheet(); err != nil {
			return err
		}
	}
	return t.endSheet()
}

// Sheets are the names of the sheets written so far.
func (t *TableSheets) Sheets() []string { return t.sheets }

// SheetRows are the data rows (header excluded) of each sheet written so
// far, in the order of Sheets.
func (t *TableSheets) SheetRows() []int64 { return t.rows }

// Position is the sheet and row the next row goes to: before the first
// sheet is added, the first sheet's row under the header.
func (t *TableSheets) Position() (sheet string, row int) {
	if t.sheet == nil {
		if t.header == nil {
			return t.opts.Name, 1
		}
		return t.opts.Name, 2
	}
	return t.sheet.Name(), t.sheet.LastRow() + 1
}

func (t *TableSheets) newSheet() error {
	if t.sheet != nil {
		if err := t.endSheet(); err != nil {
			return err
		}
	}
	if len(t.sheets) > 0 && len(t.opts.Pivots) > 0 {
		return fmt.Errorf("%w: the rows of %q go past its sheet's %d: a pivot table's cache takes one sheet's range, so a table with pivots holds at most %d rows", ErrPivot, t.opts.Name, t.opts.RowsPerSheet, t.opts.RowsPerSheet-1)
	}
	name := NumberedSheetName(t.opts.Name, len(t.sheets))
	so := SheetOptions{AutoFit: t.opts.FitRows > 0, AutoFitRows: t.opts.FitRows, AutoFitMax: 60}
	if t.header != nil && !t.opts.NoFreeze {
		so.FreezeRows = 1
	}
	sh, err := t.w.AddSheet(name, so)
	if err != nil {
		return err
	}
	t.sheet = sh
	t.sheets = append(t.sheets, name)
	t.rows = append(t.rows, 0)
	if t.header == nil {
		return nil
	}
	if err := sh.AddColumnCharts(t.opts.Charts, t.opts.Header); err != nil {
		return err
	}
	if t.opts.ExcelTable && len(t.header) > 0 {
		err := sh.AddTable(Range{FirstRow: 1, FirstCol: 1, LastCol: len(t.header)}, Table{NameFromSheet: true, Style: "TableStyleMedium2"})
		if err != nil {
			return err
		}
	}
	return sh.WriteRow(t.header)
}

// endSheet gives a finished sheet with a header its autofilter (an Excel
// table has its own).
func (t *TableSheets) endSheet() error {
	if len(t.header) == 0 || t.opts.ExcelTable {
		return nil
	}
	return t.sheet.SetAutoFilter(Range{FirstRow: 1, FirstCol: 1, LastRow: t.sheet.LastRow(), LastCol: len(t.header)})
}

// pivotColumns are the columns of a pivot's values.
func pivotColumns(values []PivotValue) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = v.Column
	}
	return out
}
