package sqlsheet

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/sheetstream/sheetstream/xlsx"
)

// BinaryMode says how binary values are written.
type BinaryMode uint8

const (
	// BinaryPlaceholder writes "<binary N bytes>".
	BinaryPlaceholder BinaryMode = iota
	// BinaryHex writes lowercase hexadecimal.
	BinaryHex
	// BinaryBase64 writes standard base64.
	BinaryBase64
)

// ErrStatementTimeout: a query of an export with Options.ReadOnly ran
// longer than Options.StatementTimeout and was stopped.
var ErrStatementTimeout = errors.New("the query ran past its statement timeout")

// Options control an export. The zero Options follow the mapping in the
// package documentation.
type Options struct {
	// Location is where TIMESTAMP WITH TIME ZONE values are converted
	// before their wall clock is written (UTC when nil).
	Location *time.Location
	// Null is written for NULL ("" leaves the cell empty).
	Null   string
	Binary BinaryMode
	// Strict fails on text longer than a cell holds instead of cutting it.
	Strict bool
	// ForceNumbers writes integers beyond ±2^53 and decimals of more than
	// 15 significant digits as numbers, accepting Excel's rounding.
	ForceNumbers bool
	// SampleRows is how many rows column widths are fitted to
	// (SheetOptions.AutoFitRows: 100 when zero; negative: no fitting).
	SampleRows int
	// RowsPerSheet caps a sheet's rows, header included (xlsx.MaxRows when
	// zero); below the limit it is mostly for tests.
	RowsPerSheet int
	// Rows, when set, receives each query's header and then its rows,
	// converted as for a sheet (a cell's style names its number format in
	// the writer), instead of the writer's sheets: for text such as CSV,
	// which has no sheets and no row limit, or a template's sheet
	// (TemplateRows). The writer then only lends its styles and is not
	// written to; Export's w may be nil, and Export lends its own. The
	// cells are valid during the call.
	Rows func(cells []xlsx.Cell) error
	// Progress, when set, is called with the rows exported so far (across
	// all queries), every few thousand rows and at the end of each query.
	Progress func(rows int64)
	// MaxRows stops each query after this many data rows (0: no limit),
	// for previews.
	MaxRows int64
	// MaxBytes, with a MaxRows of at most 10,000 (a preview, whose rows
	// are held before they are written), also stops each query once its
	// rows' values add up to this many bytes, each value counted at least
	// 16 (0: no limit); Stats.Partial then says the rows were cut short.
	// A preview of wide or long values costs no more than this.
	MaxBytes int64
	// ReadOnly runs the queries in one read-only transaction, for a
	// service that must never write: on PostgreSQL and MySQL in one
	// read-only transaction; on a SQLite file (opened with OpenReadOnly),
	// each query must be one read-only statement (SELECT, WITH or VALUES)
	// that the export's own read-only connection prepares, with every
	// change refused (see CheckReadOnly), never left to db's connections.
	ReadOnly bool
	// StatementTimeout, with ReadOnly, stops a statement that runs longer
	// (0: no limit but the server's): PostgreSQL and MySQL/MariaDB cancel
	// it themselves, SQLite's is interrupted (ErrStatementTimeout).
	StatementTimeout time.Duration
	// NoSchema leaves out the schema part: the custom XML part recording
	// each sheet's source columns and SQL types (and a table's primary
	// key), from which Import recreates them.
	NoSchema bool
	// ExcelTable makes each sheet an Excel table (TableStyleMedium2, with
	// banded rows and filter buttons) instead of a header row with an
	// autofilter; Query.ExcelTable does it for one query's sheets. The
	// table is named after its sheet (letters, digits, '_' and '.' kept,
	// the rest '_'), or Table1, Table2... when that name cannot be one.
	ExcelTable bool

	from   schemaFrom // the query being exported, for the schema part
	charts []Chart    // the query's charts
}

// Query is one query and the sheet its rows go to.
type Query struct {
	SQL  string
	Args []any
	// Sheet names the sheet ("Sheet1", "Sheet2"... when empty).
	Sheet string
	// Table names the table the query reads whole, if it does: the
	// schema part then records the table and its primary key.
	Table string
	// ExcelTable makes this query's sheets Excel tables (see
	// Options.ExcelTable).
	ExcelTable bool
	// Charts are drawn beside the rows, from the query's columns, on each
	// sheet the query fills (an .xlsx only: with Options.Rows they are an
	// error). A chart naming a column the query does not have fails the
	// export before its first row.
	Charts []Chart
	key    []string
	types  map[string]string
}

// Warnings count values that could not be written as their type.
type Warnings struct {
	BigNumbers      int64 // integers and decimals written as text to keep every digit
	Truncated       int64 // texts cut to 32,767 characters
	DatesOutOfRange int64 // dates before 1900 or after 9999, written as text
}

// Total is the number of values the warnings count.
func (w Warnings) Total() int64 { return w.BigNumbers + w.Truncated + w.DatesOutOfRange }

// Stats describe a finished export.
type Stats struct {
	Rows     int64 // data rows, headers excluded
	Sheets   []string
	Warnings Warnings
	// Partial: a query stopped at Options.MaxBytes before its rows ended
	// or reached MaxRows.
	Partial bool
}

func (s *Stats) add(o Stats) {
	s.Rows += o.Rows
	s.Sheets = append(s.Sheets, o.Sheets...)
	s.Warnings.BigNumbers += o.Warnings.BigNumbers
	s.Warnings.Truncated += o.Warnings.Truncated
	s.Partial = s.Partial || o.Partial
	s.Warnings.DatesOutOfRange += o.Warnings.DatesOutOfRange
}

const progressEvery = 8192

// sampleBytes bounds the values a preview holds before writing its rows.
const sampleBytes = 4 << 20

// Export runs each query and writes its rows to a sheet of w, in order. It
// does not close w. Cancelling ctx stops the running query.
//
// Rows are read the fastest way each database offers: PostgreSQL's
// through pgx's own rows on a connection taken from db; a SQLite file
// opened with Open through SQLite's API, on a read-only connection of
// Export's own that sees what is committed to the file (queries it cannot
// prepare there, such as those on temporary tables, and statements that
// write run on db as usual).
func Export(ctx context.Context, db *sql.DB, w *xlsx.Writer, queries []Query, opts Options) (Stats, error) {
	if w == nil {
		if opts.Rows == nil {
			return Stats{}, errors.New("sqlsheet: Export needs a writer, or Options.Rows")
		}
		// Rows only borrow a writer's styles (the number formats their
		// cells name): one that writes nowhere.
		scratch, err := xlsx.NewWriter(io.Discard, xlsx.Options{Workers: 1})
		if err != nil {
			return Stats{}, err
		}
		defer scratch.Abort()
		w = scratch
	}
	engine := EngineOf(db)
	opts.from.engine = engine
	if !opts.NoSchema {
		queries = slices.Clone(queries)
		for i, q := range queries {
			if q.Table != "" {
				key, err := primaryKey(ctx, db, engine, q.Table)
				if err != nil {
					return Stats{}, fmt.Errorf("sheet %q: %w", sheetFor(q, i), err)
				}
				queries[i].key = key
				if engine == EngineMySQL {
					if queries[i].types, err = mysqlColumnTypes(ctx, db, q.Table); err != nil {
						return Stats{}, fmt.Errorf("sheet %q: %w", sheetFor(q, i), err)
					}
				}
			}
		}
	}
	if engine == EnginePostgres {
		return exportPostgres(ctx, db, w, queries, opts)
	}
	if path, pragmas := sqliteFile(db); path != "" {
		return exportSQLite(ctx, db, path, pragmas, w, queries, opts)
	}
	var on querier = db
	var kill func() // stops the running query on the server, if it can
	if opts.ReadOnly && engine != EngineSQLite {
		tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return Stats{}, err
		}
		defer tx.Rollback()
		if err := setTimeout(ctx, tx, engine, opts.StatementTimeout); err != nil {
			return Stats{}, err
		}
		on = tx
		if engine == EngineMySQL {
			kill = mysqlKiller(ctx, db, tx)
		}
	}
	var st Stats
	for i, q := range queries {
		qs, err := exportQuery(ctx, on, q, sheetFor(q, i), w, forQuery(opts, q, st.Rows), engine == EngineSQLite, i == len(queries)-1, kill)
		st.add(qs)
		if err != nil {
			return st, err
		}
	}
	return st, nil
}

// querier is a database or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// setTimeout sets a MySQL or MariaDB statement timeout for the session.
func setTimeout(ctx context.Context, tx *sql.Tx, engine Engine, timeout time.Duration) error {
	if timeout <= 0 || engine != EngineMySQL {
		return nil
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("SET SESSION max_statement_time = %g", timeout.Seconds())); err != nil {
		// MariaDB's name failed: MySQL's, for SELECTs, in milliseconds.
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("SET SESSION max_execution_time = %d", timeout.Milliseconds())); err != nil {
			return err
		}
	}
	return nil
}

// exportQuery runs one query through database/sql.
// With kill, a query stopped early is killed on the server instead of
// cancelled through its context (see mysqlKiller).
func exportQuery(ctx context.Context, db querier, q Query, sheet string, w *xlsx.Writer, opts Options, dynamic, last bool, kill func()) (Stats, error) {
	qctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rows, err := db.QueryContext(qctx, q.SQL, q.Args...)
	if err != nil {
		return Stats{}, fmt.Errorf("sheet %q: query: %w", sheet, err)
	}
	st, err := exportRows(ctx, rows, w, sheet, opts, dynamic)
	stop := cancel
	if kill != nil && ctx.Err() == nil {
		stop = kill
	}
	stopEarly(st, err, opts, last, stop)
	rows.Close()
	return st, err
}

// mysqlKiller returns what stops tx's running query on a MySQL or MariaDB
// server: KILL QUERY from another connection. Cancelling the context
// races with closing the rows in go-sql-driver/mysql: when the close
// comes first it stops watching the context and reads the whole rest of
// the result. Killed, the query ends with an error at once and the close
// reads only what was on its way. Nil if tx's connection id is unknown.
func mysqlKiller(ctx context.Context, db *sql.DB, tx *sql.Tx) func() {
	var id int64
	if err := tx.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		return nil
	}
	return func() {
		kctx, done := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer done()
		db.ExecContext(kctx, fmt.Sprintf("KILL QUERY %d", id))
	}
}

// stopEarly cancels a query whose rows the export will not read to the
// end: it failed, or it has the MaxRows it wanted. Closing its rows
// instead would read the rest (PostgreSQL and MySQL send the whole result
// and their drivers drain it), which for a preview of a large table is
// the work of the whole query. A query with more after it in the same
// transaction is drained all the same: a cancelled statement aborts a
// PostgreSQL transaction, and MySQL's driver drops the connection.
func stopEarly(st Stats, err error, opts Options, last bool, cancel func()) {
	if err != nil || last && (opts.MaxRows > 0 && st.Rows >= opts.MaxRows || st.Partial) {
		cancel()
	}
}

// sheetFor names query i's sheet.
func sheetFor(q Query, i int) string {
	if q.Sheet == "" {
		return fmt.Sprintf("Sheet%d", i+1)
	}
	return q.Sheet
}

// forQuery is opts for query q: its progress counted after done rows of
// the queries before, and q's table for the schema part.
func forQuery(opts Options, q Query, done int64) Options {
	opts.from.table, opts.from.key, opts.from.types = q.Table, q.key, q.types
	opts.ExcelTable = opts.ExcelTable || q.ExcelTable
	opts.charts = q.Charts
	if opts.Progress != nil {
		report := opts.Progress
		opts.Progress = func(n int64) { report(done + n) }
	}
	return opts
}

// ExportRows writes rows to a new sheet named sheet (and its numbered
// continuations). The caller closes rows.
func ExportRows(ctx context.Context, rows *sql.Rows, w *xlsx.Writer, sheet string, opts Options) (Stats, error) {
	return exportRows(ctx, rows, w, sheet, opts, false)
}

func exportRows(ctx context.Context, rows *sql.Rows, w *xlsx.Writer, sheet string, opts Options, dynamic bool) (Stats, error) {
	infos, err := sqlColumns(rows)
	if err != nil {
		return Stats{}, fmt.Errorf("sheet %q: %w", sheet, err)
	}
	return exportFrom(ctx, &sqlRows{rows: rows, dynamic: dynamic}, infos, w, sheet, opts)
}

func exportFrom(ctx context.Context, src rowReader, infos []columnInfo, w *xlsx.Writer, sheet string, opts Options) (Stats, error) {
	e, err := newExporter(infos, w, sheet, &opts)
	if err != nil {
		return Stats{}, err
	}
	err = e.run(ctx, src)
	if opts.Progress != nil {
		opts.Progress(e.st.Rows)
	}
	if err == nil && !opts.NoSchema {
		zone := "UTC"
		if opts.Location != nil {
			zone = opts.Location.String()
		}
		cuts := make([]int64, len(e.cols))
		for i, c := range e.cols {
			cuts[i] = c.cut
		}
		err = addSchema(w, infos, cuts, e.st.Sheets, e.sheetRows, opts.from, zone)
	}
	return e.st, err
}

type exporter struct {
	w       *xlsx.Writer
	base    string
	opts    *Options
	cols    []*column
	header  []xlsx.Cell
	sheet   *xlsx.Sheet
	perPage int
	// sheetRows counts each sheet's data rows, for the schema part.
	sheetRows []int64
	st        Stats
	cv        converter
}

// newExporter prepares a sheet for rows.
func newExporter(infos []columnInfo, w *xlsx.Writer, base string, opts *Options) (*exporter, error) {
	if err := xlsx.CheckSheetName(base); err != nil {
		return nil, err
	}
	loc := opts.Location
	if loc == nil {
		loc = time.UTC
	}
	e := &exporter{w: w, base: base, opts: opts, perPage: opts.RowsPerSheet}
	if e.perPage <= 1 || e.perPage > xlsx.MaxRows {
		e.perPage = xlsx.MaxRows
	}
	e.cv = converter{opts: opts, loc: loc, warn: &e.st.Warnings}
	bold, err := w.AddStyle(xlsx.Style{Font: xlsx.Font{Bold: true}})
	if err != nil {
		return nil, err
	}
	for _, info := range infos {
		c := &column{name: info.name, kind: info.kind}
		if f := c.kind.numFmt(info.scale); f != "" {
			if c.style, err = w.AddStyle(xlsx.Style{NumFmt: f}); err != nil {
				return nil, err
			}
			c.styled = true
			if c.styleMS, err = w.AddStyle(xlsx.Style{NumFmt: f + ".000"}); err != nil {
				return nil, err
			}
		}
		e.cols = append(e.cols, c)
		e.header = append(e.header, xlsx.String(c.name).WithStyle(bold))
	}
	if len(opts.charts) > 0 {
		if opts.Rows != nil {
			return nil, fmt.Errorf("sheet %q: charts need an .xlsx output", base)
		}
		if err := e.checkCharts(); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// row converts the scanned row, which will be row number rowNum.
func (e *exporter) row(cells []xlsx.Cell, rowNum int) error {
	for i, c := range e.cols {
		if err := e.cv.cell(&cells[i], c); err != nil {
			return &xlsx.CellError{Sheet: e.sheetName(), Row: rowNum, Col: i + 1, Err: err}
		}
	}
	return nil
}

func (e *exporter) sheetName() string {
	if e.sheet != nil {
		return e.sheet.Name()
	}
	return e.base
}

func (e *exporter) run(ctx context.Context, rows rowReader) error {
	// Column widths are fitted by the sheet (SheetOptions.AutoFit) to
	// the rows it writes first; only a preview holds its rows, all of
	// them, so that its query is not read further.
	n := 0
	limited := e.opts.MaxRows > 0 && e.opts.MaxRows <= 10000
	if limited {
		n = int(e.opts.MaxRows)
	}
	var sample [][]xlsx.Cell
	e.cv.clone = true
	held, ended := 0, false // the sample is bounded in bytes too
	var cost int64          // what MaxBytes counts
	capped := func() bool { return limited && e.opts.MaxBytes > 0 && cost >= e.opts.MaxBytes }
	for len(sample) < n && held < sampleBytes && !capped() {
		if !rows.Next() {
			ended = true
			break
		}
		if err := rows.scan(e.cols); err != nil {
			return fmt.Errorf("sheet %q, row %d: %w", e.base, len(sample)+2, err)
		}
		for _, c := range e.cols {
			b := c.val.cut()
			held += b
			cost += int64(max(b, 16))
		}
		cells := make([]xlsx.Cell, len(e.cols))
		if err := e.row(cells, len(sample)+2); err != nil {
			return err
		}
		sample = append(sample, cells)
	}
	e.cv.clone = false
	e.st.Partial = !ended && len(sample) < n && capped()
	for _, cells := range sample {
		if err := e.write(cells); err != nil {
			return err
		}
	}
	if !ended && !e.st.Partial && !(limited && int64(len(sample)) >= e.opts.MaxRows) {
		if err := e.pipe(ctx, rows); err != nil {
			return err
		}
	} else if err := rows.Err(); err != nil {
		return fmt.Errorf("sheet %q: %w", e.sheetName(), err)
	}
	if e.sheet == nil {
		if err := e.newSheet(); err != nil {
			return err
		}
	}
	return e.endSheet()
}

// textHeader hands Options.Rows the header, once.
func (e *exporter) textHeader() error {
	if len(e.st.Sheets) > 0 {
		return nil
	}
	e.st.Sheets = append(e.st.Sheets, e.base)
	return e.opts.Rows(e.header)
}

func (e *exporter) newSheet() error {
	if e.opts.Rows != nil {
		return e.textHeader()
	}
	if e.sheet != nil {
		if err := e.endSheet(); err != nil {
			return err
		}
	}
	name := xlsx.NumberedSheetName(e.base, len(e.st.Sheets))
	fit := e.opts.SampleRows
	if fit == 0 {
		fit = 100
	}
	sh, err := e.w.AddSheet(name, xlsx.SheetOptions{FreezeRows: 1, AutoFit: fit > 0, AutoFitRows: fit, AutoFitMax: 60})
	if err != nil {
		return err
	}
	e.sheet = sh
	e.st.Sheets = append(e.st.Sheets, name)
	e.sheetRows = append(e.sheetRows, 0)
	if err := sh.AddColumnCharts(e.opts.charts, e.columnNames()); err != nil {
		return err
	}
	if e.opts.ExcelTable && len(e.cols) > 0 {
		err := sh.AddTable(xlsx.Range{FirstRow: 1, FirstCol: 1, LastCol: len(e.cols)}, xlsx.Table{NameFromSheet: true, Style: "TableStyleMedium2"})
		if err != nil {
			return err
		}
	}
	return sh.WriteRow(e.header)
}

func (e *exporter) endSheet() error {
	if len(e.cols) == 0 || e.opts.ExcelTable || e.opts.Rows != nil {
		return nil
	}
	return e.sheet.SetAutoFilter(xlsx.Range{FirstRow: 1, FirstCol: 1, LastRow: e.sheet.LastRow(), LastCol: len(e.cols)})
}

func (e *exporter) write(cells []xlsx.Cell) error {
	if e.opts.Rows != nil {
		if err := e.textHeader(); err != nil {
			return err
		}
		e.st.Rows++
		return e.opts.Rows(cells)
	}
	if e.sheet == nil || e.sheet.LastRow() >= e.perPage {
		if err := e.newSheet(); err != nil {
			return err
		}
	}
	if err := e.sheet.WriteRow(cells); err != nil {
		return err
	}
	e.st.Rows++
	e.sheetRows[len(e.sheetRows)-1]++
	return nil
}
