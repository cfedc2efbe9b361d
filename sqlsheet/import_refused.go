package sqlsheet

import (
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sheetstream/sheetstream/internal/sqliteapi"
)

// Rows the table refuses (a key it has already, a CHECK or foreign key
// constraint) are rejected under MaxErrors like rows with a bad cell.
// SQLite's own loader inserts a statement's rows again one by one when
// the table refuses it. Into a PostgreSQL or MySQL table that can refuse
// a row (it has such a constraint or a unique index), whose bulk loaders
// stop at the first, the rows are staged and moved into the table in
// parts, each under a savepoint: all of them first, then, if the table
// refuses that, runs of moveRun rows, and a run it refuses in halves,
// down to the single rows it refuses. A refused row costs about two
// runs' worth of inserts; the stage, a second copy of every row.
const (
	moveRun       = 8192
	moveSavepoint = "sheetstream_move"
	stageRowIndex = "sheetstream_stage_row"
)

// moveStage inserts the staged rows into the target in their order in
// the source, rejecting those the table refuses, up to MaxErrors.
func (imp *importer) moveStage(ctx context.Context, tx txn) error {
	insert := "INSERT INTO " + imp.engine.quoteTable(imp.target) + " (" + imp.columnList("") + ") SELECT " + imp.columnList("s.") +
		" FROM " + imp.engine.quote(stageTable) + " s WHERE 1 = 1"
	order := " ORDER BY s." + imp.engine.quote(stageRow)
	rejects := imp.refusedWriter()
	err := imp.inParts(ctx, tx, func(cond string) error {
		return tx.exec(ctx, insert+cond+order)
	}, func(num int64, why error) error {
		return imp.refuse(ctx, tx, rejects, num, why)
	})
	if err != nil {
		return err
	}
	return flushRejects(rejects)
}

// inParts runs apply, statements on the staged rows a condition on the
// stage (as s) picks, under a savepoint: for all the rows first, and
// when the table refuses them, for runs of moveRun rows, and a run it
// refuses in halves, down to the single rows it refuses, for each of
// which, in order, refuse is called (it may end the work with an
// error). An error of the database that is not a refusal ends it too.
func (imp *importer) inParts(ctx context.Context, tx txn, apply func(cond string) error, refuse func(num int64, why error) error) error {
	if imp.stats.Rows == 0 {
		return nil
	}
	q := imp.engine.quote
	try := func(cond string) (refused error, err error) {
		if err := tx.exec(ctx, "SAVEPOINT "+moveSavepoint); err != nil {
			return nil, err
		}
		if refused = apply(cond); refused != nil {
			if !refusedByTable(refused) {
				return nil, fmt.Errorf("import into %s: %w", imp.opts.Table, refused)
			}
			return withDetail(refused), tx.exec(ctx, "ROLLBACK TO SAVEPOINT "+moveSavepoint)
		}
		return nil, tx.exec(ctx, "RELEASE SAVEPOINT "+moveSavepoint)
	}
	refused, err := try("")
	if refused == nil || err != nil {
		return err
	}
	if imp.engine != EngineMySQL { // MySQL's stage has the index from the start
		if err := tx.exec(ctx, "CREATE INDEX "+q(stageRowIndex)+" ON "+q(stageTable)+" ("+q(stageRow)+")"); err != nil {
			return err
		}
	}
	var first, last int64
	if _, err := tx.queryRow(ctx, "SELECT MIN("+q(stageRow)+"), MAX("+q(stageRow)+") FROM "+q(stageTable), &first, &last); err != nil {
		return err
	}
	// narrow applies rows lo to hi, which the table refused with why, in
	// halves, down to the single rows it refuses.
	var narrow func(lo, hi int64, why error) error
	narrow = func(lo, hi int64, why error) error {
		if lo == hi {
			return refuse(lo, why)
		}
		mid := lo + (hi-lo)/2
		for _, half := range [2][2]int64{{lo, mid}, {mid + 1, hi}} {
			refused, err := try(imp.stageRows(half[0], half[1]))
			if err == nil && refused != nil {
				err = narrow(half[0], half[1], refused)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	for lo := first; lo <= last; lo += moveRun {
		hi := min(last, lo+moveRun-1)
		refused, err := try(imp.stageRows(lo, hi))
		if err == nil && refused != nil {
			err = narrow(lo, hi, refused)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// stageRows is the condition picking the staged rows lo to hi, after
// others.
func (imp *importer) stageRows(lo, hi int64) string {
	row := "s." + imp.engine.quote(stageRow)
	return " AND " + row + " >= " + strconv.FormatInt(lo, 10) + " AND " + row + " <= " + strconv.FormatInt(hi, 10)
}

// refuse rejects source row num, which the table refused with why.
func (imp *importer) refuse(ctx context.Context, tx txn, rejects *csv.Writer, num int64, why error) error {
	return imp.rejectStaged(ctx, tx, rejects, imp.refusal(int(num), why))
}

// rejectStaged rejects the staged row a refusal names: it is counted
// and written to Rejects with its staged values as text; one more than
// MaxErrors fails the import with the refusal.
func (imp *importer) rejectStaged(ctx context.Context, tx txn, rejects *csv.Writer, refusal *ImportError) error {
	if !imp.takeReject() {
		if imp.opts.MaxErrors == 0 {
			return refusal
		}
		return fmt.Errorf("more than %d rejected rows: %w", imp.opts.MaxErrors, refusal)
	}
	imp.stats.Rows--
	if rejects == nil {
		return nil
	}
	found, record, err := imp.stagedRecord(ctx, tx, int64(refusal.Row))
	if err != nil || !found {
		return err
	}
	record[0], record[1] = strconv.Itoa(refusal.Row), refusal.Err.Error()
	if err := rejects.Write(record); err != nil {
		return fmt.Errorf("writing rejected rows: %w", err)
	}
	return nil
}

// stagedRecord reads a staged row's values as text, for Rejects, into a
// record with two fields before them; found is false when the stage has
// no row num.
func (imp *importer) stagedRecord(ctx context.Context, tx txn, num int64) (found bool, record []string, err error) {
	q := imp.engine.quote
	text := map[Engine]string{EnginePostgres: "text", EngineMySQL: "CHAR"}[imp.engine]
	if text == "" {
		text = "TEXT"
	}
	query := "SELECT "
	vals := make([]sql.NullString, len(imp.cols))
	dst := make([]any, len(imp.cols))
	for i, c := range imp.cols {
		if i > 0 {
			query += ", "
		}
		query += "CAST(" + q(c.Name) + " AS " + text + ")"
		dst[i] = &vals[i]
	}
	query += " FROM " + q(stageTable) + " WHERE " + q(stageRow) + " = " + strconv.FormatInt(num, 10)
	if found, err = tx.queryRow(ctx, query, dst...); !found || err != nil {
		return found, nil, err
	}
	record = make([]string, 2+len(vals))
	for i, v := range vals {
		record[2+i] = v.String
	}
	return true, record, nil
}

// refusedWriter writes refused rows after those rejected as they were
// read (whose header is written); nil without Rejects.
func (imp *importer) refusedWriter() *csv.Writer {
	if imp.opts.Rejects == nil {
		return nil
	}
	return csv.NewWriter(imp.opts.Rejects)
}

// withDetail adds PostgreSQL's detail to its error, which names the
// values: "Key (id)=(2) already exists".
func withDetail(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Detail != "" {
		return fmt.Errorf("%w: %s", err, pgErr.Detail)
	}
	return err
}

// refusal is the error of a row the table refused.
func (imp *importer) refusal(num int, why error) *ImportError {
	return &ImportError{Table: imp.opts.Table, Sheet: imp.src.SheetName(), Row: num, Err: fmt.Errorf("the table refused the row: %w", why)}
}

// takeReject counts one more rejected row if MaxErrors leaves room for
// it. The rows read and the rows inserted are rejected on goroutines of
// their own, against one count.
func (imp *importer) takeReject() bool {
	for {
		n := imp.rejected.Load()
		if n >= int64(imp.opts.MaxErrors) {
			return false
		}
		if imp.rejected.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// refusedByTable says whether err is the table refusing a row (a key it
// has, a CHECK, NOT NULL or foreign key constraint), which MaxErrors
// may reject the row for, and not a failure of the database (a full
// disk, a lost connection), which fails the import whatever MaxErrors.
func refusedByTable(err error) bool {
	var pgErr *pgconn.PgError
	var myErr *mysql.MySQLError
	var liteErr *sqliteapi.Error
	var coded interface{ Code() int } // modernc.org/sqlite's, through database/sql
	switch {
	case errors.As(err, &pgErr):
		return strings.HasPrefix(pgErr.Code, "23") // integrity constraint violation
	case errors.As(err, &myErr):
		// MySQL's CHECK constraint is 3819, SQLSTATE HY000; MariaDB's, 23000.
		return string(myErr.SQLState[:2]) == "23" || myErr.Number == 3819
	case errors.As(err, &liteErr):
		return liteErr.Constraint()
	case errors.As(err, &coded):
		return coded.Code()&0xff == 19 // SQLITE_CONSTRAINT
	}
	return false
}

// refuseInserted rejects a row the table refused while SQLite's loader
// inserted it, keeping it for Rejects, if MaxErrors leaves room; else it
// returns the error that ends the import.
func (imp *importer) refuseInserted(num int, vals []value, err error) error {
	if !refusedByTable(err) {
		return &ImportError{Table: imp.opts.Table, Sheet: imp.src.SheetName(), Row: num, Err: err}
	}
	refusal := imp.refusal(num, err)
	switch {
	case imp.opts.MaxErrors == 0:
		return refusal
	case !imp.takeReject():
		return fmt.Errorf("more than %d rejected rows: %w", imp.opts.MaxErrors, refusal)
	}
	record := make([]string, 2+len(vals))
	record[0], record[1] = strconv.Itoa(num), refusal.Err.Error()
	for j := range vals {
		record[2+j] = imp.valueText(&vals[j], imp.cols[j].Type)
	}
	imp.refused = append(imp.refused, record)
	return nil
}

// valueText is a value as Rejects writes it: text as it is, NULL empty.
func (imp *importer) valueText(v *value, t ColumnType) string {
	switch v.tag {
	case tagNull:
		return ""
	case tagText:
		return string(v.b)
	case tagBool:
		return strconv.FormatBool(v.i != 0)
	}
	return string(imp.appendCopyValue(nil, v, t))
}

// writeRefused writes the rows SQLite's loader refused to Rejects, after
// the rows rejected as they were read, and takes them off the rows
// loaded.
func (imp *importer) writeRefused() error {
	imp.stats.Rows -= int64(len(imp.refused))
	w := imp.refusedWriter()
	if w == nil {
		return nil
	}
	for _, record := range imp.refused {
		if err := w.Write(record); err != nil {
			return fmt.Errorf("writing rejected rows: %w", err)
		}
	}
	return flushRejects(w)
}

// flushRejects writes out what a Rejects writer holds (none: nil).
func flushRejects(w *csv.Writer) error {
	if w == nil {
		return nil
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("writing rejected rows: %w", err)
	}
	return nil
}

// mayRefuse says whether the table can refuse a row the cell checks
// passed: it has a constraint (a key, CHECK, foreign key) or a unique
// index. A new table can only by the primary key an export's schema part
// gave it. When the catalog cannot say, it may.
func (imp *importer) mayRefuse(ctx context.Context) bool {
	if imp.created {
		return len(imp.stats.Key) > 0
	}
	var q string
	var args []any
	switch imp.engine {
	case EnginePostgres:
		q = `SELECT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = $1::regclass AND contype IN ('p', 'u', 'c', 'f', 'x', 't'))
			OR EXISTS (SELECT 1 FROM pg_index WHERE indrelid = $1::regclass AND indisunique)`
		args = []any{imp.engine.quoteTable(imp.opts.Table)}
	case EngineMySQL:
		schema, name := splitTable(imp.opts.Table)
		q = `SELECT EXISTS (SELECT 1 FROM information_schema.table_constraints
				WHERE table_schema = COALESCE(NULLIF(?, ''), DATABASE()) AND table_name = ?)
			OR EXISTS (SELECT 1 FROM information_schema.statistics
				WHERE table_schema = COALESCE(NULLIF(?, ''), DATABASE()) AND table_name = ? AND non_unique = 0)`
		args = []any{schema, name, schema, name}
	default:
		return true
	}
	var may bool
	if err := imp.db.QueryRowContext(ctx, q, args...).Scan(&may); err != nil {
		return true
	}
	return may
}
