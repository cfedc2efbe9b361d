package sqlsheet

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sheetstream/sheetstream/internal/numtext"
	"github.com/sheetstream/sheetstream/xlsx"
)

// ImportMode says what Import does with the target table.
type ImportMode uint8

const (
	// Create makes a new table; an existing one is an error.
	Create ImportMode = iota
	// Append adds rows to an existing table, matching the sheet's header
	// to its columns by name (ignoring case).
	Append
	// Replace swaps the table for a new one holding the sheet, only once
	// every row is in: a failed import leaves the old table as it was.
	Replace
	// Merge matches rows to an existing table's on Key: rows with a new
	// key are inserted, rows whose other values differ are updated, the
	// rest left alone. A key that repeats in the source is an error naming
	// both rows.
	Merge
)

// ImportOptions configure Import.
type ImportOptions struct {
	// Table is the target table; a dotted name is qualified (PostgreSQL's
	// schema.table, MySQL's database.table, SQLite's main.table), as
	// Query.Table is.
	Table string
	Mode  ImportMode
	// NoHeader takes the first row as data and names columns col1, col2...
	NoHeader bool
	// Range limits the import to a rectangle of the sheet; bounds left 0
	// are open (ParseTableRange reads "A4:F" and the like).
	Range xlsx.Range
	// HeaderRow is the header's row, 1-based within Range (0: the first
	// row that is not empty; HeaderAuto: found, and reported in
	// ImportStats.HeaderRow). Rows above it are skipped: titles, notes.
	HeaderRow int
	// StopAtEmpty ends the table at its first empty row: totals and notes
	// under it are left out.
	StopAtEmpty bool
	// Columns loads only the columns with these headers (ignoring case).
	Columns []string
	// Types overrides the inferred type of the named columns (by header,
	// ignoring case) when Import creates the table; a cell the type cannot
	// hold is an error as usual.
	Types map[string]ColumnType
	// AllText makes every new column text, as the sheet shows it.
	AllText bool
	// TempDir is where a new table's rows wait between the pass that
	// infers the types and the one that loads them (the system's
	// temporary directory when empty).
	TempDir string
	// Infer ignores the schema part an export wrote into the workbook
	// (the source's SQL types and primary key), inferring types from the
	// cells as for any other file.
	Infer bool
	// Key is the columns that identify a row, for Merge (by header,
	// ignoring case). Every row must have them. When empty, the schema
	// part's key (a file exported from a table), else the target table's
	// primary key.
	Key []string
	// DryRun reads and checks every row against the target (types,
	// keys) and fills ImportStats with what the import would do, then
	// rolls everything back: the database is left as it was. A row whose
	// unique key the table has already, or an earlier row has, is
	// refused as the real load would refuse it (ErrDuplicateKey); CHECK
	// and foreign key constraints are not judged.
	DryRun bool
	// MaxErrors, above 0, lets the import skip up to that many rows that
	// hold a cell their column cannot, or that the table refuses (a key
	// it has, a CHECK or foreign key constraint): the other rows are
	// loaded, and the skipped ones counted in ImportStats.Rejected and
	// written to Rejects. One more such row fails the import as it would
	// without MaxErrors. Into a PostgreSQL or MySQL table that can refuse
	// a row, the rows then load through a temporary stage table, so that
	// the ones refused can be told apart.
	MaxErrors int
	// Rejects, when set, receives the skipped rows as CSV: a header
	// (row, error, then the table's columns), then per row its number in
	// the source, the reason, and its cells as text.
	Rejects io.Writer
	// Progress, when set, is called with the rows loaded so far, every few
	// thousand rows and once at the end; the rows count only once the
	// transaction commits.
	Progress func(rows int64)
}

// ColumnType is the type Import gives a column, inferred from the cells.
type ColumnType uint8

const (
	ColumnText ColumnType = iota
	ColumnInteger
	ColumnFloat
	ColumnBoolean
	ColumnDate
	ColumnTimestamp
	ColumnTime
	// ColumnDecimal holds exact decimals (NUMERIC), loaded from the text
	// of the cell's number, or from text that spells one.
	ColumnDecimal
	// ColumnTimestampTZ holds instants: the sheet's wall clock read in
	// the time zone the schema part names (UTC without one).
	ColumnTimestampTZ
	columnEmpty // no value seen yet
)

func (t ColumnType) String() string {
	return [...]string{"text", "integer", "float", "boolean", "date", "timestamp", "time", "decimal", "timestamptz", "empty"}[t]
}

// ParseColumnType reads a ColumnType's name, as String writes it.
func ParseColumnType(name string) (ColumnType, error) {
	for t := ColumnText; t < columnEmpty; t++ {
		if strings.EqualFold(strings.TrimSpace(name), t.String()) {
			return t, nil
		}
	}
	return 0, fmt.Errorf("column type %q (text, integer, float, decimal, boolean, date, timestamp, timestamptz or time)", name)
}

// ImportColumn is one column of the table Import filled.
type ImportColumn struct {
	Name string
	// Type is how cells are converted for the column.
	Type ColumnType
	// SQLType is the type a new table's column was created with: the
	// schema part's, or the engine's for Type. Empty for an existing
	// table's columns.
	SQLType string
	zone    *time.Location // ColumnTimestampTZ's, from the schema part
	// unloaded: the sheet does not hold the column's values (binary
	// data, exported as placeholders or encoded text): a new table gets
	// the column, NULL in every row.
	unloaded bool
	// exportCut: the export cut some of the column's texts to what a
	// cell holds, and the table has (or had, replaced) the whole values.
	exportCut bool
	limit     columnLimit
	limited   bool // limit has something to check
	notNull   bool // an existing table's column that refuses NULL
}

// ImportStats says what Import did.
type ImportStats struct {
	Rows    int64
	Columns []ImportColumn
	// ErrorCells counts Excel error values (#N/A...), loaded as NULL.
	ErrorCells int64
	// HeaderRow is the sheet row the header was read from, 0 for none.
	HeaderRow int
	// Schema says the workbook's schema part typed the new table's
	// columns (those it names) and gave its primary key.
	Schema bool
	// Key is the primary key a new table was created with, from the
	// schema part.
	Key []string
	// MergeKey is the columns a merge matched rows on: ImportOptions.Key,
	// or the schema part's key, or the table's primary key.
	MergeKey []string
	// Rejected counts the rows skipped under MaxErrors.
	Rejected int64
	// Binary names the columns the schema part says hold binary data,
	// which an export writes as placeholders ("<binary 16 bytes>") or as
	// hex or base64 text, never as the bytes: a new table gets them NULL,
	// and an existing table's are left as they are, never overwritten.
	Binary []string
	// Inserted, Updated and Unchanged count what a merge did to the
	// table's rows (or a dry run would do); other modes insert every row.
	// Removed counts the rows a dry run of Replace would drop with the
	// old table (a real Replace leaves it 0: counting costs a full scan).
	Inserted, Updated, Unchanged, Removed int64
}

// ErrBadCell reports a cell whose value the target column cannot hold; it
// comes inside an *ImportError naming the sheet, cell and column.
var ErrBadCell = errors.New("value does not fit the column")

// ErrTableExists: Import's table exists and ImportOptions.Mode is Create
// (Append, Merge or Replace say what to do with it).
var ErrTableExists = errors.New("already exists")

// ErrNoKey: a Merge into a table without a primary key, and no
// ImportOptions.Key.
var ErrNoKey = errors.New("needs a key")

// ErrDuplicateKey reports a merge whose source holds a key twice, or a
// dry run's row whose unique key the table or an earlier row has; it
// comes inside an *ImportError naming the row (and the earlier one).
var ErrDuplicateKey = errors.New("duplicate key")

// ImportError says which cell of the sheet Import could not load, and
// into which column of the table. Errors of reading the workbook come as
// *xlsx.ReadError, and the database's own errors as they are, wrapped with
// the table's name.
type ImportError struct {
	Table  string
	Sheet  string // empty for a source that is not a sheet (delimited text)
	Row    int    // 1-based, in the sheet
	Col    int    // 1-based, in the sheet; 0 for an error of the whole row
	Column string // the table's column, if the cell has one
	Err    error
}

func (e *ImportError) Error() string {
	var msg string
	switch {
	case e.Sheet != "" && e.Col > 0:
		msg = fmt.Sprintf("import into %s: sheet %q, cell %s", e.Table, e.Sheet, xlsx.CellName(e.Row, e.Col))
	case e.Sheet != "":
		msg = fmt.Sprintf("import into %s: sheet %q, row %d", e.Table, e.Sheet, e.Row)
	case e.Col > 0:
		msg = fmt.Sprintf("import into %s: row %d, field %d", e.Table, e.Row, e.Col)
	default:
		msg = fmt.Sprintf("import into %s: row %d", e.Table, e.Row)
	}
	if e.Column != "" {
		msg += fmt.Sprintf(" (column %q)", e.Column)
	}
	return msg + ": " + e.Err.Error()
}

func (e *ImportError) Unwrap() error { return e.Err }

// Import loads one sheet of a workbook into a table: ImportFrom with
// SheetSource(wb, sheet).
func Import(ctx context.Context, db *sql.DB, wb *xlsx.Workbook, sheet int, opts ImportOptions) (ImportStats, error) {
	return ImportFrom(ctx, db, SheetSource(wb, sheet), opts)
}

// Source is the rows ImportFrom loads: a sheet of a workbook
// (SheetSource) or delimited text (csvsheet.NewTable).
type Source interface {
	// EachRow calls fn with every row, in order from the first, until the
	// rows end or fn returns an error, which EachRow returns. A row's
	// cells are valid only during the call. ImportFrom reads the rows
	// twice: for the column types, then to load them.
	EachRow(ctx context.Context, fn func(xlsx.Row) error) error
	// SheetName names the sheet in errors; empty for a source that is not
	// a sheet, whose errors then name row and field.
	SheetName() string
}

// SheetSource is the sheet of wb at index as a Source.
func SheetSource(wb *xlsx.Workbook, index int) Source { return sheetSource{wb, index} }

type sheetSource struct {
	wb    *xlsx.Workbook
	index int
}

func (s sheetSource) SheetName() string { return s.wb.Sheets()[s.index].Name }

// mergedRanges reads the sheet's merged ranges, which follow its rows:
// the whole sheet is read for them.
func (s sheetSource) mergedRanges(ctx context.Context) ([]xlsx.Range, error) {
	rows, err := s.wb.Rows(ctx, s.index)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.MergedCells(), rows.Err()
}

func (s sheetSource) EachRow(ctx context.Context, fn func(xlsx.Row) error) error {
	rows, err := s.wb.Rows(ctx, s.index)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows.Row()); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ImportFrom loads a table's rows into a database table, all or nothing:
// the rows go in one transaction (PostgreSQL's COPY through pgx, batched
// multi-row INSERTs for SQLite and MySQL), and a bad cell stops the
// import with an error naming sheet, row and column, leaving the database
// as it was. Column types are inferred from the cells (a first pass over
// the rows) or, with Append, taken from the table.
//
// Errors: *ImportError for a cell the column cannot hold; the source's
// own errors (*xlsx.ReadError, the CSV reader's, naming the line); the
// database's errors, wrapped with the table's name; errors for options
// that do not fit the rows (no header row found, a --columns or --type
// name the header lacks, an empty sheet).
func ImportFrom(ctx context.Context, db *sql.DB, src Source, opts ImportOptions) (ImportStats, error) {
	if opts.Table == "" {
		return ImportStats{}, errors.New("no table name")
	}
	engine := EngineOf(db)
	// A new table's types are first guessed from its first rows and
	// checked while the rows load, in one pass over the source; a row
	// that would have changed a type stops that load (rolled back), and
	// the import starts again with a pass for the types. Skipped rows are
	// written to Rejects as they come, so MaxErrors takes the sure way.
	imp := &importer{db: db, src: src, opts: opts, engine: engine, speculate: opts.MaxErrors == 0}
	err := imp.run(ctx)
	if errors.Is(err, errTypesChanged) {
		imp = &importer{db: db, src: src, opts: opts, engine: engine}
		err = imp.run(ctx)
	}
	imp.stats.Rejected = imp.rejected.Load()
	if err == nil && opts.Progress != nil {
		opts.Progress(imp.stats.Rows)
	}
	if err != nil && imp.stats.Columns == nil {
		return ImportStats{}, err
	}
	return imp.stats, err
}

// errTypesChanged stops a load whose guessed types a row contradicts.
var errTypesChanged = errors.New("a row changes the guessed column types")

// speculateRows is how many rows the types are guessed from.
var speculateRows = 10000

// run finds the columns and loads the rows.
func (imp *importer) run(ctx context.Context) error {
	defer func() {
		if imp.spool != nil {
			imp.spool.close()
		}
	}()
	if err := imp.columns(ctx); err != nil {
		imp.stats.Columns = nil
		return err
	}
	if err := imp.checkKey(ctx); err != nil {
		imp.stats.Columns = nil
		return err
	}
	if err := imp.setLimits(ctx); err != nil {
		return err
	}
	if imp.created && imp.opts.Mode == Create {
		if exists, _ := imp.exists(ctx); exists {
			return fmt.Errorf("table %s %w", imp.opts.Table, ErrTableExists)
		}
	}
	if imp.opts.MaxErrors > 0 && imp.opts.Mode != Merge && !imp.opts.DryRun {
		imp.refusable = imp.mayRefuse(ctx)
	}
	switch path, pragmas := sqliteWritableFile(imp.db); {
	case imp.engine == EnginePostgres:
		return imp.loadPostgres(ctx)
	case path != "" && imp.opts.Mode != Merge && !imp.opts.DryRun:
		imp.direct = true
		ok, err := imp.loadSQLite(ctx, path, pragmas)
		if !ok {
			imp.direct = false
			err = imp.loadSQL(ctx)
		}
		return err
	}
	return imp.loadSQL(ctx)
}

type importer struct {
	db     *sql.DB
	src    Source
	opts   ImportOptions
	engine Engine
	cols   []ImportColumn
	// byCol maps a column of the range (0-based from Range.FirstCol) to
	// its table column, -1 if none.
	byCol   []int
	colBase int // columns left of the range
	// headerRow is the header's row in the range (1-based), 0 for the
	// first row that is not empty, or none with NoHeader.
	headerRow int
	// exportedRows is the rows under a header at row 1 that the schema
	// part says the sheet holds: empty ones among them are rows of NULLs.
	exportedRows int
	// leftOut are the sheet's columns (0-based, in the range) that go
	// into no column of an existing table, whatever they hold.
	leftOut map[int]bool
	// schema is the sheet's schema part, if it has one (loadSchema).
	schema schemaSheet
	// exported: the sheet has a schema part (Infer aside), so it holds a
	// database's rows, in which an empty string cell is '' (NULL is no
	// cell), where a sheet from elsewhere's is an empty cell.
	exported   bool
	created    bool // the table is new (Create, Replace)
	anyNotNull bool // a column loaded is NOT NULL
	// target is the table the rows end in: the one named, or MySQL's new
	// table under its staging name.
	target string
	// rejected counts the rows rejected under MaxErrors, as they are
	// read or as SQLite's own loader (direct) finds the table refuses
	// them (refused: their Rejects records, written after the others).
	// refusable: the table may refuse rows the cell checks passed.
	rejected  atomic.Int64
	refused   [][]string
	direct    bool
	refusable bool
	// spool holds the rows the first pass read, for the second
	// (spooled: complete).
	spool   *spool
	spooled bool
	// speculate lets the types be guessed from the first rows (guessed:
	// they were); guess holds each column's inferred type so far (by
	// column of the range, columnEmpty for none), and checked says which
	// columns the load checks against it: those whose type was inferred,
	// and blank ones left out, which must stay blank.
	speculate, guessed bool
	guess              []ColumnType
	checked            []bool
	stats              ImportStats
	// numbers follow each column's number texts (from CSV): a column in
	// which two texts read as one number (1.10 and 1.1) is text.
	numbers []numtext.Texts
	asText  []bool
}

// sameNumber says whether c, a number read from text in column col, is
// another text of a number the column had before (remember: note every
// text, as the scan does; else only those with trailing zeros).
func (imp *importer) sameNumber(c *xlsx.Value, col int, remember bool) bool {
	src := c.SourceText()
	if len(src) == 0 || c.Type() != xlsx.TypeNumber {
		return false
	}
	for len(imp.numbers) <= col {
		imp.numbers = append(imp.numbers, numtext.Texts{})
		imp.asText = append(imp.asText, false)
	}
	if imp.numbers[col].Add(view(src), remember) {
		return false
	}
	imp.asText[col] = true
	return true
}
