package sqlsheet

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// An export runs its queries through one session, whatever the engine,
// as River runs one client over its drivers: database/sql (MySQL,
// MariaDB, any driver), pgx's own connection (PostgreSQL) or SQLite's API
// (a SQLite file). ExportTo keeps the one loop above them.
type session interface {
	// query runs q, whose rows go to the sheet named sheet (for
	// messages). Errors name the sheet.
	query(ctx context.Context, q Query, sheet string) (result, error)
}

// result is a running query's rows.
type result interface {
	rowReader
	columns() []columnInfo
	// stop cancels the query, whose rows will not be read to the end.
	stop()
	// end closes the rows; it returns the export's err, explained as the
	// engine can (a SQLite statement timeout), or a failure to close.
	end(err error) error
}

// withSession runs fn with a session on db: in one read-only transaction
// when opts.ReadOnly, on PostgreSQL and MySQL.
func withSession(ctx context.Context, db *sql.DB, engine Engine, opts Options, fn func(session) error) error {
	if engine == EnginePostgres {
		return withPostgres(ctx, db, opts, fn)
	}
	if path, pragmas := sqliteFile(db); path != "" {
		return withSQLite(ctx, db, path, pragmas, opts, fn)
	}
	s := &sqlSession{on: db, dynamic: engine == EngineSQLite}
	if opts.ReadOnly && engine != EngineSQLite {
		tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := setTimeout(ctx, tx, engine, opts.StatementTimeout); err != nil {
			return err
		}
		s.on = tx
		if engine == EngineMySQL {
			s.kill = mysqlKiller(ctx, db, tx)
		}
	}
	return fn(s)
}

// querier is a database or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// sqlSession runs queries through database/sql. With kill, a query
// stopped early is killed on the server instead of cancelled through its
// context (see mysqlKiller).
type sqlSession struct {
	on      querier
	dynamic bool // SQLite: each value scanned as it is
	kill    func()
}

func (s *sqlSession) query(ctx context.Context, q Query, sheet string) (result, error) {
	qctx, cancel := context.WithCancel(ctx)
	rows, err := s.on.QueryContext(qctx, q.SQL, q.Args...)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("sheet %q: query: %w", sheet, err)
	}
	infos, err := sqlColumns(rows)
	if err != nil {
		rows.Close()
		cancel()
		return nil, fmt.Errorf("sheet %q: %w", sheet, err)
	}
	return &sqlResult{sqlRows: sqlRows{rows: rows, dynamic: s.dynamic}, infos: infos, ctx: ctx, cancel: cancel, kill: s.kill}, nil
}

type sqlResult struct {
	sqlRows
	infos  []columnInfo
	ctx    context.Context // the export's
	cancel context.CancelFunc
	kill   func()
}

func (r *sqlResult) columns() []columnInfo { return r.infos }

func (r *sqlResult) stop() {
	if r.kill != nil && r.ctx.Err() == nil { // a cancelled export cancels
		r.kill()
		return
	}
	r.cancel()
}

func (r *sqlResult) end(err error) error {
	r.rows.Close()
	r.cancel()
	return err
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
