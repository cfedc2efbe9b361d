package sqlsheet

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
	// SampleRows is how many rows a workbook's column widths are fitted
	// to (SheetOptions.AutoFitRows: 100 when zero; negative: no fitting).
	SampleRows int
	// RowsPerSheet caps a workbook sheet's rows, header included
	// (xlsx.MaxRows when zero); below the limit it is mostly for tests.
	RowsPerSheet int
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
	// NoSchema leaves out a workbook's schema part: the custom XML part
	// recording each sheet's source columns and SQL types (and a table's
	// primary key), from which Import recreates them. Other destinations
	// have none.
	NoSchema bool
	// ExcelTable makes each sheet an Excel table (TableStyleMedium2, with
	// banded rows and filter buttons) instead of a header row with an
	// autofilter; Query.ExcelTable does it for one query's sheets. The
	// table is named after its sheet (letters, digits, '_' and '.' kept,
	// the rest '_'), or Table1, Table2... when that name cannot be one.
	ExcelTable bool
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
	// sheet the query fills (a workbook only: other destinations leave
	// them out). A chart naming a column the query does not have fails a
	// workbook's export before its first row.
	Charts []Chart
	// Pivots are computed over the query's rows, each on a sheet of its
	// own after the query's (a workbook only). A query with pivots holds
	// at most one sheet's rows: more fail with xlsx.ErrPivot.
	Pivots []xlsx.PivotTable
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
	Rows int64 // data rows, headers excluded
	// QueryRows are each query's data rows, in the queries' order.
	QueryRows []int64
	Sheets    []string
	Warnings  Warnings
	// Partial: a query stopped at Options.MaxBytes before its rows ended
	// or reached MaxRows.
	Partial bool
}

func (s *Stats) add(o Stats) {
	s.Rows += o.Rows
	s.QueryRows = append(s.QueryRows, o.Rows)
	s.Sheets = append(s.Sheets, o.Sheets...)
	s.Warnings.BigNumbers += o.Warnings.BigNumbers
	s.Warnings.Truncated += o.Warnings.Truncated
	s.Partial = s.Partial || o.Partial
	s.Warnings.DatesOutOfRange += o.Warnings.DatesOutOfRange
}

const progressEvery = 8192

// sampleBytes bounds the values a preview holds before writing its rows.
const sampleBytes = 4 << 20

// Export runs each query and writes its rows to a sheet of w, in order:
// ExportTo with w's sheets as the destination, each laid out as
// xlsx.TableSheets does, and the schema part. It does not close w.
// Cancelling ctx stops the running query.
//
// Rows are read the fastest way each database offers: PostgreSQL's
// through pgx's own rows on a connection taken from db; a SQLite file
// opened with Open through SQLite's API, on a read-only connection of
// Export's own that sees what is committed to the file (queries it cannot
// prepare there, such as those on temporary tables, and statements that
// write run on db as usual).
func Export(ctx context.Context, db *sql.DB, w *xlsx.Writer, queries []Query, opts Options) (Stats, error) {
	if w == nil {
		return Stats{}, errors.New("Export needs a writer (ExportTo takes any Destination)")
	}
	return ExportTo(ctx, db, Workbook(w), queries, opts)
}

// ExportTo runs each query and hands its rows to dst, in order, typed as
// the package documentation maps them. Cancelling ctx stops the running
// query.
func ExportTo(ctx context.Context, db *sql.DB, dst Destination, queries []Query, opts Options) (Stats, error) {
	engine := EngineOf(db)
	if _, ok := dst.(*workbook); ok && !opts.NoSchema {
		var err error
		if queries, err = withKeys(ctx, db, engine, queries); err != nil {
			return Stats{}, err
		}
	}
	var st Stats
	err := withSession(ctx, db, engine, opts, func(s session) error {
		for i, q := range queries {
			name := sheetFor(q, i)
			src, err := s.query(ctx, q, name)
			if err != nil {
				return err
			}
			job := forQuery(opts, q, engine, st.Rows)
			qs, err := exportFrom(ctx, src, src.columns(), dst, name, job)
			stopEarly(qs, err, opts, i == len(queries)-1, src.stop)
			err = src.end(err)
			st.add(qs)
			if err != nil {
				return err
			}
		}
		return nil
	})
	return st, err
}

// withKeys are queries with their tables' primary keys (and MySQL's
// column types), for the schema part.
func withKeys(ctx context.Context, db *sql.DB, engine Engine, queries []Query) ([]Query, error) {
	queries = slices.Clone(queries)
	for i, q := range queries {
		if q.Table == "" {
			continue
		}
		key, err := primaryKey(ctx, db, engine, q.Table)
		if err != nil {
			return nil, fmt.Errorf("sheet %q: %w", sheetFor(q, i), err)
		}
		queries[i].key = key
		if engine == EngineMySQL {
			if queries[i].types, err = mysqlColumnTypes(ctx, db, q.Table); err != nil {
				return nil, fmt.Errorf("sheet %q: %w", sheetFor(q, i), err)
			}
		}
	}
	return queries, nil
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

// queryJob is one query's part of an export: the options, its progress
// counted after the rows of the queries before, and what the schema part
// says of it.
type queryJob struct {
	opts   Options
	from   schemaFrom
	charts []Chart
	pivots []xlsx.PivotTable
}

func forQuery(opts Options, q Query, engine Engine, done int64) queryJob {
	opts.ExcelTable = opts.ExcelTable || q.ExcelTable
	if opts.Progress != nil {
		report := opts.Progress
		opts.Progress = func(n int64) { report(done + n) }
	}
	return queryJob{opts: opts, from: schemaFrom{engine: engine, table: q.Table, key: q.key, types: q.types}, charts: q.Charts, pivots: q.Pivots}
}

// ExportRows writes rows to a new sheet named sheet (and its numbered
// continuations). The caller closes rows.
func ExportRows(ctx context.Context, rows *sql.Rows, w *xlsx.Writer, sheet string, opts Options) (Stats, error) {
	infos, err := sqlColumns(rows)
	if err != nil {
		return Stats{}, fmt.Errorf("sheet %q: %w", sheet, err)
	}
	return exportFrom(ctx, &sqlRows{rows: rows}, infos, Workbook(w), sheet, queryJob{opts: opts})
}
