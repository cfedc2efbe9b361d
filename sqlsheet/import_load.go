package sqlsheet

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/sheetstream/sheetstream/xlsx"
)

// eachRow converts every data row into vals (one slot per table column)
// and calls fn; conversion errors name the cell.
func (imp *importer) eachRow(ctx context.Context, fn func(vals []any) error) error {
	vals := make([]any, len(imp.cols))
	sheet := imp.src.SheetName()
	return imp.walk(ctx, func(r tableRow, isHeader bool) (bool, error) {
		if isHeader {
			return false, nil
		}
		clear(vals)
		for i := range r.cells {
			c := &r.cells[i]
			j := -1
			if col := c.Col() - 1 - imp.colBase; col < len(imp.byCol) {
				j = imp.byCol[col]
			}
			if j < 0 {
				if c.Type() != xlsx.TypeEmpty && imp.opts.Mode == Append && len(imp.opts.Columns) == 0 {
					return false, &ImportError{Table: imp.opts.Table, Sheet: sheet, Row: r.num, Col: c.Col(),
						Err: fmt.Errorf("%w: the column has no header that names a column of %s", ErrBadCell, imp.opts.Table)}
				}
				continue
			}
			v, err := imp.value(c, imp.cols[j].Type)
			if err != nil {
				return false, &ImportError{Table: imp.opts.Table, Sheet: sheet, Row: r.num, Col: c.Col(), Column: imp.cols[j].Name, Err: err}
			}
			vals[j] = v
		}
		if err := fn(vals); err != nil {
			return false, err
		}
		imp.stats.Rows++
		if imp.opts.Progress != nil && imp.stats.Rows%progressEvery == 0 {
			imp.opts.Progress(imp.stats.Rows)
		}
		return false, nil
	})
}

// loadSQL inserts through database/sql in batches of multi-row INSERTs,
// in one transaction.
func (imp *importer) loadSQL(ctx context.Context) (err error) {
	target := imp.opts.Table
	// MySQL commits DDL at once, so a new table is filled under a
	// temporary name and renamed only when complete.
	staged := imp.engine == EngineMySQL && imp.created
	if staged {
		target = imp.opts.Table + "__sheetstream_import"
		imp.db.ExecContext(ctx, "DROP TABLE IF EXISTS "+imp.engine.quote(target))
		if imp.opts.Mode == Create {
			if exists, _ := imp.exists(ctx); exists {
				return fmt.Errorf("sqlsheet: table %s already exists (append or replace it)", imp.opts.Table)
			}
		}
		if _, err := imp.db.ExecContext(ctx, imp.createSQL(target)); err != nil {
			return fmt.Errorf("sqlsheet: create table %s: %w", imp.opts.Table, err)
		}
		defer func() {
			if err != nil {
				imp.db.ExecContext(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS "+imp.engine.quote(target))
			}
		}()
	}
	tx, err := imp.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	if imp.created && !staged {
		if imp.opts.Mode == Replace {
			if _, err := tx.ExecContext(ctx, "DROP TABLE IF EXISTS "+imp.engine.quote(target)); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, imp.createSQL(target)); err != nil {
			return fmt.Errorf("sqlsheet: create table %s: %w", imp.opts.Table, err)
		}
	}
	ncols := len(imp.cols)
	per := max(1, min(500, 30000/ncols))
	insert := func(n int) string {
		var b strings.Builder
		b.WriteString("INSERT INTO " + imp.engine.quote(target) + " (")
		for i, c := range imp.cols {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(imp.engine.quote(c.Name))
		}
		b.WriteString(") VALUES ")
		row := "(" + strings.TrimSuffix(strings.Repeat("?, ", ncols), ", ") + ")"
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(row)
		}
		return b.String()
	}
	full, err := tx.PrepareContext(ctx, insert(per))
	if err != nil {
		return err
	}
	defer full.Close()
	args := make([]any, 0, per*ncols)
	flush := func(stmt *sql.Stmt) error {
		if len(args) == 0 {
			return nil
		}
		if stmt == nil {
			if _, err := tx.ExecContext(ctx, insert(len(args)/ncols), args...); err != nil {
				return err
			}
		} else if _, err := stmt.ExecContext(ctx, args...); err != nil {
			return err
		}
		args = args[:0]
		return nil
	}
	err = imp.eachRow(ctx, func(vals []any) error {
		for j, v := range vals {
			args = append(args, imp.forDriver(v, imp.cols[j].Type))
		}
		if len(args) == per*ncols {
			if err := flush(full); err != nil {
				return fmt.Errorf("sqlsheet: insert into %s, rows up to %d: %w", imp.opts.Table, imp.stats.Rows+1, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := flush(nil); err != nil {
		return fmt.Errorf("sqlsheet: insert into %s: %w", imp.opts.Table, err)
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if staged {
		q := imp.engine.quote
		if imp.opts.Mode == Replace {
			old := imp.opts.Table + "__sheetstream_old"
			imp.db.ExecContext(ctx, "DROP TABLE IF EXISTS "+q(old))
			if exists, _ := imp.exists(ctx); exists {
				if _, err := imp.db.ExecContext(ctx, "RENAME TABLE "+q(imp.opts.Table)+" TO "+q(old)+", "+q(target)+" TO "+q(imp.opts.Table)); err != nil {
					return err
				}
				_, err := imp.db.ExecContext(ctx, "DROP TABLE "+q(old))
				return err
			}
		}
		if _, err := imp.db.ExecContext(ctx, "RENAME TABLE "+q(target)+" TO "+q(imp.opts.Table)); err != nil {
			return fmt.Errorf("sqlsheet: table %s: %w", imp.opts.Table, err)
		}
	}
	return nil
}

func (imp *importer) exists(ctx context.Context) (bool, error) {
	rows, err := imp.db.QueryContext(ctx, "SELECT * FROM "+imp.engine.quote(imp.opts.Table)+" WHERE 1=0")
	if err != nil {
		return false, nil
	}
	rows.Close()
	return true, nil
}

// loadPostgres streams the rows with COPY in one transaction, together
// with the DDL: PostgreSQL's DDL is transactional.
func (imp *importer) loadPostgres(ctx context.Context) error {
	conn, err := imp.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(driverConn any) error {
		pc := driverConn.(*stdlib.Conn).Conn()
		tx, err := pc.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(context.WithoutCancel(ctx))
		if imp.created {
			if imp.opts.Mode == Replace {
				if _, err := tx.Exec(ctx, "DROP TABLE IF EXISTS "+imp.engine.quote(imp.opts.Table)); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(ctx, imp.createSQL(imp.opts.Table)); err != nil {
				return fmt.Errorf("sqlsheet: create table %s: %w", imp.opts.Table, err)
			}
		}
		names := make([]string, len(imp.cols))
		for i, c := range imp.cols {
			names[i] = c.Name
		}
		src := &copySource{imp: imp, ctx: ctx}
		src.start()
		defer src.stop()
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{imp.opts.Table}, names, src); err != nil {
			if src.err != nil {
				return src.err
			}
			return fmt.Errorf("sqlsheet: copy into %s: %w", imp.opts.Table, err)
		}
		if src.err != nil {
			return src.err
		}
		return tx.Commit(ctx)
	})
}

// copySource feeds CopyFrom from eachRow running on its own goroutine.
type copySource struct {
	imp   *importer
	ctx   context.Context
	rows  chan []any
	next  chan struct{}
	done  chan struct{}
	cur   []any
	err   error
	alive bool
}

func (s *copySource) start() {
	s.rows = make(chan []any)
	s.next = make(chan struct{})
	s.done = make(chan struct{})
	s.alive = true
	go func() {
		defer close(s.rows)
		err := s.imp.eachRow(s.ctx, func(vals []any) error {
			for j, v := range vals {
				if t, ok := v.(time.Time); ok && s.imp.cols[j].Type == ColumnTime {
					us := int64(t.Hour())*3600e6 + int64(t.Minute())*60e6 + int64(t.Second())*1e6 + int64(t.Nanosecond()/1000)
					vals[j] = pgtype.Time{Microseconds: us, Valid: true}
				}
			}
			select {
			case s.rows <- vals:
			case <-s.done:
				return context.Canceled
			}
			select {
			case <-s.next:
			case <-s.done:
				return context.Canceled
			}
			return nil
		})
		if err != nil && !errors.Is(err, context.Canceled) || s.ctx.Err() != nil && err != nil {
			s.err = err
		}
	}()
}

func (s *copySource) stop() {
	if s.alive {
		close(s.done)
		for range s.rows {
		}
		s.alive = false
	}
}

func (s *copySource) Next() bool {
	if s.cur != nil {
		s.next <- struct{}{}
	}
	v, ok := <-s.rows
	s.cur = v
	return ok
}

func (s *copySource) Values() ([]any, error) { return s.cur, nil }

func (s *copySource) Err() error { return s.err }
