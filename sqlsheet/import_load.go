package sqlsheet

import (
	"context"
	"database/sql"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/stdlib"

	"github.com/sheetstream/sheetstream/xlsx"
)

// eachRow converts every data row into vals (one slot per table column)
// and calls fn; conversion errors name the cell. Under MaxErrors a row
// with such an error is rejected instead, until there are too many.
func (imp *importer) eachRow(ctx context.Context, fn func(num int, vals []value) error) error {
	return imp.eachRowInto(ctx, nil, fn)
}

// eachRowInto is eachRow converting each row into the slots slot gives
// (one per table column), when slot is not nil: a loader that keeps rows
// converts them where it keeps them instead of copying them there.
func (imp *importer) eachRowInto(ctx context.Context, slot func() []value, fn func(num int, vals []value) error) error {
	vals := make([]value, len(imp.cols))
	scratch := make([][]byte, len(imp.cols))
	sheet := imp.src.SheetName()
	rejects, err := imp.rejectsWriter()
	if err != nil {
		return err
	}
	err = imp.walk(ctx, func(r tableRow, isHeader bool) (bool, error) {
		if isHeader {
			return false, nil
		}
		if slot != nil {
			vals = slot()
		}
		// vals[:filled] are this row's, converted or cleared: a row with
		// every column in order is written once, not cleared first.
		filled := 0
		var bad *ImportError
		for i := range r.cells {
			c := &r.cells[i]
			if imp.guessed && imp.contradicts(c) {
				return false, errTypesChanged
			}
			j := -1
			if col := c.Col() - 1 - imp.colBase; col < len(imp.byCol) {
				j = imp.byCol[col]
			}
			if j < 0 {
				if c.Type() != xlsx.TypeEmpty && imp.intoExisting() && len(imp.opts.Columns) == 0 && !imp.leftOut[c.Col()-1-imp.colBase] {
					bad = &ImportError{Table: imp.opts.Table, Sheet: sheet, Row: r.num, Col: c.Col(),
						Err: fmt.Errorf("%w: the column has no header that names a column of %s", ErrBadCell, imp.opts.Table)}
					break
				}
				continue
			}
			if j >= filled {
				clear(vals[filled:j])
				filled = j + 1
			}
			err := imp.value(&vals[j], c, &imp.cols[j], &scratch[j])
			if err == nil && imp.cols[j].limited {
				err = imp.cols[j].limit.check(&vals[j])
			}
			if err != nil {
				bad = &ImportError{Table: imp.opts.Table, Sheet: sheet, Row: r.num, Col: c.Col(), Column: imp.cols[j].Name, Err: err}
				break
			}
		}
		clear(vals[filled:])
		if bad == nil && (imp.opts.Mode == Merge || imp.anyNotNull) {
			bad = imp.missingValue(vals, sheet, r.num)
		}
		if bad != nil {
			if !imp.takeReject() {
				if imp.opts.MaxErrors > 0 {
					return false, fmt.Errorf("more than %d rejected rows: %w", imp.opts.MaxErrors, bad)
				}
				return false, bad
			}
			return false, imp.reject(rejects, r, bad)
		}
		if err := fn(r.num, vals); err != nil {
			return false, err
		}
		imp.stats.Rows++
		if imp.opts.Progress != nil && imp.stats.Rows%progressEvery == 0 {
			imp.opts.Progress(imp.stats.Rows)
		}
		return false, nil
	})
	if err == nil {
		err = flushRejects(rejects)
	}
	return err
}

// missingValue names the first column a row leaves empty that must have
// a value: a merge's key, or a NOT NULL column of the table.
func (imp *importer) missingValue(vals []value, sheet string, num int) *ImportError {
	for j, v := range vals {
		if v.tag != tagNull {
			continue
		}
		why := "a key column is empty"
		switch {
		case imp.opts.Mode == Merge && imp.isKey(imp.cols[j].Name):
		case imp.cols[j].notNull:
			why = "empty, and the column is NOT NULL"
		default:
			continue
		}
		col := 0
		for i, k := range imp.byCol {
			if k == j {
				col = imp.colBase + i + 1
			}
		}
		return &ImportError{Table: imp.opts.Table, Sheet: sheet, Row: num, Col: col, Column: imp.cols[j].Name,
			Err: fmt.Errorf("%w: %s", ErrBadCell, why)}
	}
	return nil
}

// rejectsWriter starts the Rejects CSV with its header, or is nil.
func (imp *importer) rejectsWriter() (*csv.Writer, error) {
	if imp.opts.Rejects == nil {
		return nil, nil
	}
	w := csv.NewWriter(imp.opts.Rejects)
	header := []string{"row", "error"}
	for _, c := range imp.cols {
		header = append(header, c.Name)
	}
	return w, w.Write(header)
}

// reject writes a skipped row to the Rejects CSV: the cells of the
// table's columns as text, whatever their type.
func (imp *importer) reject(w *csv.Writer, r tableRow, why *ImportError) error {
	if w == nil {
		return nil
	}
	record := make([]string, 2+len(imp.cols))
	where := why.Column
	if where == "" {
		where = xlsx.ColumnName(why.Col)
	}
	record[0], record[1] = strconv.Itoa(r.num), fmt.Sprintf("column %s: %v", where, why.Err)
	for i := range r.cells {
		c := &r.cells[i]
		if col := c.Col() - 1 - imp.colBase; col < len(imp.byCol) && imp.byCol[col] >= 0 {
			record[2+imp.byCol[col]] = c.String()
		}
	}
	if err := w.Write(record); err != nil {
		return fmt.Errorf("writing rejected rows: %w", err)
	}
	return nil
}

// loadSQL inserts through database/sql in batches of multi-row INSERTs,
// in one transaction.
func (imp *importer) loadSQL(ctx context.Context) (err error) {
	q := imp.engine.quoteTable
	target := imp.opts.Table
	// MySQL commits DDL at once, so a new table is filled under a
	// temporary name and renamed only when complete.
	renamed := imp.engine == EngineMySQL && imp.created && !imp.opts.DryRun
	if renamed {
		target = imp.opts.Table + "__sheetstream_import"
		imp.db.ExecContext(ctx, "DROP TABLE IF EXISTS "+q(target))
		if _, err := imp.db.ExecContext(ctx, imp.createTable(target)); err != nil {
			return fmt.Errorf("create table %s: %w", imp.opts.Table, err)
		}
		defer func() {
			if err != nil {
				imp.db.ExecContext(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS "+q(target))
			}
		}()
	}
	tx, err := imp.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil || imp.opts.DryRun {
			tx.Rollback()
		}
	}()
	into, columns, err := imp.prepare(ctx, sqlTxn{tx}, target, renamed)
	if err != nil {
		return err
	}
	names := imp.quoteAll(columns)
	if imp.engine == EngineMySQL && localInfile(ctx, tx) {
		err = imp.loadData(ctx, tx, into, names)
	} else {
		err = imp.insertRows(ctx, tx, into, names)
	}
	if err != nil {
		return err
	}
	if commit, err := imp.finish(ctx, sqlTxn{tx}); err != nil || !commit {
		return err // a dry run: rolled back
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if renamed {
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
			return fmt.Errorf("table %s: %w", imp.opts.Table, err)
		}
	}
	return nil
}

// insertRows inserts the rows in batches of multi-row INSERTs.
func (imp *importer) insertRows(ctx context.Context, tx *sql.Tx, target, names string) error {
	q := imp.engine.quoteTable
	ncols := len(imp.cols)
	if imp.staged() {
		ncols++
	}
	per := max(1, min(500, 30000/ncols))
	insert := func(n int) string {
		var b strings.Builder
		b.WriteString("INSERT INTO " + q(target) + " (" + names + ") VALUES ")
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
	err = imp.eachRow(ctx, func(num int, vals []value) error {
		for j := range vals {
			args = append(args, imp.arg(&vals[j], imp.cols[j].Type))
		}
		if imp.staged() {
			args = append(args, int64(num))
		}
		if len(args) == per*ncols {
			if err := flush(full); err != nil {
				return fmt.Errorf("insert into %s, rows up to %d: %w", imp.opts.Table, imp.stats.Rows+1, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := flush(nil); err != nil {
		return fmt.Errorf("insert into %s: %w", imp.opts.Table, err)
	}
	return nil
}

func (imp *importer) exists(ctx context.Context) (bool, error) {
	rows, err := imp.db.QueryContext(ctx, "SELECT * FROM "+imp.engine.quoteTable(imp.opts.Table)+" WHERE 1=0")
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
		target, names, err := imp.prepare(ctx, pgTxn{tx}, imp.opts.Table, false)
		if err != nil {
			return err
		}
		if err := imp.copyText(ctx, pc.PgConn(), target, names); err != nil {
			return err
		}
		if commit, err := imp.finish(ctx, pgTxn{tx}); err != nil || !commit {
			return err // a dry run: rolled back
		}
		return tx.Commit(ctx)
	})
}
