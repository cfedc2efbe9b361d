package sqlsheet

import (
	"fmt"

	"github.com/sheetstream/sheetstream/xlsx"
)

// A Destination is where an export's rows go, one query's table after
// another, the way net/http's handlers write to one ResponseWriter
// whatever the client is: a workbook's sheets (Workbook, Export's), text
// through a CellWriter (Lines), a template's sheet (TemplateSheet), or a
// caller's own (a preview, Arrow). ExportTo calls Begin once a query's
// columns are known and before any of its rows are read, WriteRow for
// each row, and End after the last; the methods of one Destination are
// called from one goroutine.
type Destination interface {
	// AddStyle returns the style the export gives cells of a number
	// format (decimal places, dates, times); a destination without
	// styles returns 0. Cells keep their type whatever the style.
	AddStyle(style xlsx.Style) (xlsx.StyleID, error)
	// Begin starts a query's table. An error (a header a template's
	// table refuses) stops the export before its rows are read.
	Begin(t *Table) error
	// WriteRow writes the table's next row, one cell a column; the cells
	// are valid during the call only.
	WriteRow(cells []xlsx.Cell) error
	// End ends the table after its last row.
	End() error
}

// Table describes a query's rows to a Destination.
type Table struct {
	// Name is the sheet the query names (Query.Sheet, or SheetN).
	Name    string
	Columns []Column
	// ExcelTable asks for an Excel table (Options.ExcelTable,
	// Query.ExcelTable).
	ExcelTable bool
	// Charts are the query's; destinations that cannot draw (text, a
	// template's sheet, a preview) leave them out.
	Charts []Chart
	// Pivots are the query's pivot tables (a workbook's only).
	Pivots []xlsx.PivotTable
	// RowsPerSheet and FitRows are Options.RowsPerSheet and
	// Options.SampleRows, for destinations with sheets.
	RowsPerSheet, FitRows int
}

// Column is a result column as the database describes it.
type Column struct {
	Name string
	// DatabaseType is the type as the engine names it (numeric(12,2),
	// TEXT, bigint), "" when unknown.
	DatabaseType string
	// Precision and Scale are a DECIMAL or NUMERIC column's digits and
	// decimal places, 0 when unknown.
	Precision, Scale int64
}

// names are the table's column names.
func (t *Table) names() []string {
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	return names
}

// Workbook is the Destination of Export: each table on sheets of w laid
// out by xlsx.TableSheets (rolling over to numbered sheets, the header
// bold and frozen, columns fitted, an autofilter or an Excel table, the
// charts) and, unless Options.NoSchema, the schema part. The caller
// closes w.
func Workbook(w *xlsx.Writer) Destination { return &workbook{w: w} }

type workbook struct {
	w     *xlsx.Writer
	table *xlsx.TableSheets
}

func (d *workbook) AddStyle(s xlsx.Style) (xlsx.StyleID, error) { return d.w.AddStyle(s) }

func (d *workbook) Begin(t *Table) error {
	var err error
	d.table, err = d.w.AddTableSheets(xlsx.TableSheetsOptions{
		Name: t.Name, Header: t.names(), RowsPerSheet: t.RowsPerSheet, FitRows: t.FitRows,
		ExcelTable: t.ExcelTable, Charts: t.Charts, Pivots: t.Pivots,
	})
	if err != nil {
		return fmt.Errorf("sheet %q: %w", t.Name, err)
	}
	return nil
}

func (d *workbook) WriteRow(cells []xlsx.Cell) error { return d.table.WriteRow(cells) }
func (d *workbook) End() error                       { return d.table.Close() }

// CellWriter writes rows of cells as text: csvsheet.RowWriter, for CSV,
// TSV and JSON lines.
type CellWriter interface {
	WriteCells(cells []xlsx.Cell) error
}

// Lines is a Destination writing each table's header (its column names)
// and rows through w, without styles or charts, and no row limit. The
// caller flushes w.
func Lines(w CellWriter) Destination { return &lines{w: w} }

type lines struct {
	w      CellWriter
	header []xlsx.Cell
}

func (d *lines) AddStyle(xlsx.Style) (xlsx.StyleID, error) { return 0, nil }
func (d *lines) WriteRow(cells []xlsx.Cell) error          { return d.w.WriteCells(cells) }
func (d *lines) End() error                                { return nil }

func (d *lines) Begin(t *Table) error {
	d.header = d.header[:0]
	for _, c := range t.Columns {
		d.header = append(d.header, xlsx.String(c.Name))
	}
	return d.w.WriteCells(d.header)
}

// TemplateSheet is a Destination filling sheet of a template: a table's
// header opens the sheet with TemplateWriter.Fill, which checks it
// against the sheet's table before any row is read, and each row is the
// sheet's next. The template's column styles replace number formats.
// One TemplateSheet takes one query.
func TemplateSheet(tw *xlsx.TemplateWriter, sheet string) Destination {
	return &templateSheet{tw: tw, sheet: sheet}
}

type templateSheet struct {
	tw    *xlsx.TemplateWriter
	sheet string
	ts    *xlsx.TemplateSheet
}

func (d *templateSheet) AddStyle(xlsx.Style) (xlsx.StyleID, error) { return 0, nil }
func (d *templateSheet) WriteRow(cells []xlsx.Cell) error          { return d.ts.WriteRow(cells) }
func (d *templateSheet) End() error                                { return nil }

func (d *templateSheet) Begin(t *Table) error {
	if d.ts != nil {
		return fmt.Errorf("template sheet %q: filled by one query only", d.sheet)
	}
	var err error
	d.ts, err = d.tw.Fill(d.sheet, t.names())
	return err
}
