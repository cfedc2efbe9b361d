package sqlsheet

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"modernc.org/sqlite"

	"github.com/sheetstream/sheetstream/internal/sqliteapi"
)

// SQLite exports read the database through SQLite's own API (package
// internal/sqliteapi) on a read-only connection of their own, instead of
// through database/sql, which boxes or copies every value and serializes
// each call on a mutex: 0.34 s for E1's million rows instead of 1.5 s.

// sqliteDriver is modernc's driver, remembering the database file that
// Open was given so that exports can open it again this way.
type sqliteDriver struct {
	drv      sqlite.Driver
	dsn      string
	path     string // "" when the database is not a plain file
	pragmas  string // run on each connection exports open
	readOnly bool   // opened by OpenReadOnly: imports must not write
}

func (d *sqliteDriver) Open(dsn string) (driver.Conn, error)         { return d.drv.Open(dsn) }
func (d *sqliteDriver) Connect(context.Context) (driver.Conn, error) { return d.drv.Open(d.dsn) }
func (d *sqliteDriver) Driver() driver.Driver                        { return d }

// sqliteFile is the database file behind db, if db was opened by Open,
// and the pragmas its connections run.
func sqliteFile(db *sql.DB) (path, pragmas string) {
	if d, ok := db.Driver().(*sqliteDriver); ok {
		return d.path, d.pragmas
	}
	return "", ""
}

// sqliteWritableFile is sqliteFile for imports: "" for a database opened
// read-only, which an import's own connection must not write behind its
// back.
func sqliteWritableFile(db *sql.DB) (path, pragmas string) {
	if d, ok := db.Driver().(*sqliteDriver); ok && !d.readOnly {
		return d.path, d.pragmas
	}
	return "", ""
}

// withSQLite runs fn with a session on a SQLite file: queries that only
// read go through a connection of the export's own; others (and any query
// if the file cannot be opened that way, or the query not prepared)
// through db. With opts.ReadOnly nothing goes through db: each query must
// be one read-only statement the export's own connection, restricted to
// reading (sqliteapi.Conn.DenyChanges), prepares, and runs for at most
// opts.StatementTimeout.
func withSQLite(ctx context.Context, db *sql.DB, path, pragmas string, opts Options, fn func(session) error) error {
	conn, err := sqliteapi.OpenReadOnly(path, pragmas) // without ReadOnly, on failure database/sql says why
	if conn != nil {
		defer conn.Close()
	}
	if opts.ReadOnly {
		if err == nil {
			err = conn.DenyChanges()
		}
		if err != nil {
			return fmt.Errorf("sqlite: %s: %w", path, err)
		}
	}
	return fn(&sqliteSession{conn: conn, db: &sqlSession{on: db, dynamic: true}, readOnly: opts.ReadOnly, timeout: opts.StatementTimeout})
}

type sqliteSession struct {
	conn     *sqliteapi.Conn // nil when the file could not be opened
	db       *sqlSession     // db's connections, for what conn cannot run
	readOnly bool
	timeout  time.Duration // with readOnly
}

func (s *sqliteSession) query(ctx context.Context, q Query, sheet string) (result, error) {
	cancel := context.CancelFunc(func() {})
	if s.readOnly && s.timeout > 0 {
		// SQLite has no timeout of its own: the statement is interrupted
		// when the context ends.
		ctx, cancel = context.WithTimeoutCause(ctx, s.timeout, ErrStatementTimeout)
	}
	if s.conn != nil {
		// Without ReadOnly, a query this connection cannot prepare may
		// still run on db's: temporary tables, attached databases and
		// functions registered with the driver live there. If not,
		// database/sql reports the error.
		rows, err := s.conn.Query(ctx, q.SQL, q.Args)
		if err == nil {
			return &sqliteResult{sqliteRows: sqliteRows{rows}, ctx: ctx, cancel: cancel, sheet: sheet, timeout: s.timeout}, nil
		}
		if s.readOnly {
			cancel()
			return nil, fmt.Errorf("sheet %q: %w", sheet, err)
		}
	}
	r, err := s.db.query(ctx, q, sheet)
	if err != nil {
		cancel()
		return nil, err
	}
	return &timedResult{r, cancel}, nil
}

// timedResult is a query of db's with the session's timeout.
type timedResult struct {
	result
	cancel context.CancelFunc
}

func (r *timedResult) end(err error) error {
	err = r.result.end(err)
	r.cancel()
	return err
}

type sqliteResult struct {
	sqliteRows
	ctx     context.Context
	cancel  context.CancelFunc
	sheet   string
	timeout time.Duration
}

func (r *sqliteResult) columns() []columnInfo { return sqliteColumns(r.rows) }

// stop leaves the rows: SQLite computes them as they are read.
func (r *sqliteResult) stop() {}

func (r *sqliteResult) end(err error) error {
	if cerr := r.rows.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("sheet %q: %w", r.sheet, cerr)
	}
	if err != nil && errors.Is(context.Cause(r.ctx), ErrStatementTimeout) {
		err = fmt.Errorf("sheet %q: %w (%s)", r.sheet, ErrStatementTimeout, r.timeout)
	}
	r.cancel()
	return err
}

// CheckReadOnly says why Export with Options.ReadOnly would refuse query
// on db before running it: for a SQLite file, SQL that is not one
// read-only statement (SELECT, WITH or VALUES) its restricted read-only
// connection prepares, or that does not prepare at all (a missing table,
// a syntax error). PostgreSQL and MySQL, whose queries run in read-only
// transactions, are not asked: nil.
func CheckReadOnly(db *sql.DB, query string) error {
	path, pragmas := sqliteFile(db)
	if path == "" {
		return nil
	}
	conn, err := sqliteapi.OpenReadOnly(path, pragmas)
	if err != nil {
		return fmt.Errorf("sqlite: %s: %w", path, err)
	}
	defer conn.Close()
	if err := conn.DenyChanges(); err != nil {
		return err
	}
	return conn.Check(query)
}

// sqliteColumns maps the columns' declared types, as database/sql's
// ColumnTypes would: a type the mapping does not know leaves each value to
// its own type.
func sqliteColumns(rows *sqliteapi.Rows) []columnInfo {
	cols := rows.Columns()
	infos := make([]columnInfo, len(cols))
	for i, c := range cols {
		k, ok := kindOfName(c.DeclType, true)
		if !ok {
			k = kindAny
		}
		infos[i] = columnInfo{name: c.Name, kind: k, sqlType: c.DeclType}
		if k == kindDecimal {
			infos[i].precision, infos[i].scale = typeSize(c.DeclType)
		}
	}
	return infos
}

// sqliteRows reads values by their storage class; text and blobs stay
// in SQLite's memory until the next row.
type sqliteRows struct{ rows *sqliteapi.Rows }

func (s sqliteRows) Next() bool { return s.rows.Next() }
func (s sqliteRows) Err() error { return s.rows.Err() }

func (s sqliteRows) scan(cols []*column) error {
	rows := s.rows
	for j, c := range cols {
		v := &c.val
		switch rows.Type(j) {
		case sqliteapi.Integer:
			v.setInt(rows.Int64(j))
		case sqliteapi.Float:
			v.setFloat(rows.Float64(j))
		case sqliteapi.Text:
			v.setText(rows.Text(j))
		case sqliteapi.Blob:
			v.setBytes(rows.Blob(j))
		default:
			v.tag = tagNull
		}
	}
	return nil
}
