package sqlsheet

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/stdlib"

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
)

// ImportOptions configure Import.
type ImportOptions struct {
	Table string
	Mode  ImportMode
	// NoHeader takes the first row as data and names columns col1, col2...
	NoHeader bool
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
	columnEmpty // no value seen yet
)

func (t ColumnType) String() string {
	return [...]string{"text", "integer", "float", "boolean", "date", "timestamp", "time", "empty"}[t]
}

// ImportColumn is one column of the table Import filled.
type ImportColumn struct {
	Name string
	Type ColumnType
}

// ImportStats says what Import did.
type ImportStats struct {
	Rows    int64
	Columns []ImportColumn
	// ErrorCells counts Excel error values (#N/A...), loaded as NULL.
	ErrorCells int64
}

// ErrBadCell reports a cell whose value the target column cannot hold; it
// comes inside an *xlsx.ReadError naming the sheet, row and column.
var ErrBadCell = errors.New("value does not fit the column")

type dialect uint8

const (
	dialectSQLite dialect = iota
	dialectPostgres
	dialectMySQL
)

func dialectOf(db *sql.DB) dialect {
	switch Kind(db) {
	case "postgres":
		return dialectPostgres
	case "mysql":
		return dialectMySQL
	}
	return dialectSQLite
}

func (d dialect) quote(name string) string {
	if d == dialectMySQL {
		return "`" + strings.ReplaceAll(name, "`", "``") + "`"
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

func (d dialect) sqlType(t ColumnType) string {
	types := map[dialect][]string{
		dialectSQLite:   {"TEXT", "INTEGER", "REAL", "BOOLEAN", "DATE", "DATETIME", "TIME"},
		dialectPostgres: {"text", "bigint", "double precision", "boolean", "date", "timestamp", "time"},
		// MEDIUMTEXT: Excel's 32,767 characters can exceed TEXT's 64 KiB.
		dialectMySQL: {"MEDIUMTEXT", "BIGINT", "DOUBLE", "BOOLEAN", "DATE", "DATETIME(3)", "TIME(3)"},
	}
	if t == columnEmpty {
		t = ColumnText
	}
	return types[d][t]
}

// Import loads one sheet of a workbook into a table, all or nothing: the
// rows go in one transaction (PostgreSQL's COPY through pgx, batched
// multi-row INSERTs for SQLite and MySQL), and a bad cell stops the import
// with an error naming sheet, row and column, leaving the database as it
// was. Column types are inferred from the cells (a first pass over the
// sheet) or, with Append, taken from the table.
func Import(ctx context.Context, db *sql.DB, wb *xlsx.Workbook, sheet int, opts ImportOptions) (ImportStats, error) {
	if opts.Table == "" {
		return ImportStats{}, errors.New("sqlsheet: no table name")
	}
	d := dialectOf(db)
	imp := &importer{db: db, wb: wb, sheet: sheet, opts: opts, d: d}
	if err := imp.columns(ctx); err != nil {
		return ImportStats{}, err
	}
	var err error
	if d == dialectPostgres {
		err = imp.loadPostgres(ctx)
	} else {
		err = imp.loadSQL(ctx)
	}
	if err == nil && opts.Progress != nil {
		opts.Progress(imp.stats.Rows)
	}
	return imp.stats, err
}

type importer struct {
	db    *sql.DB
	wb    *xlsx.Workbook
	sheet int
	opts  ImportOptions
	d     dialect
	cols  []ImportColumn
	// byCol maps a sheet column (1-based) to its table column, -1 if none.
	byCol   []int
	created bool // the table is new (Create, Replace)
	stats   ImportStats
}

// columns names and types the table's columns: from the header and a
// pass over the data, or from the existing table.
func (imp *importer) columns(ctx context.Context) error {
	rows, err := imp.wb.Rows(ctx, imp.sheet)
	if err != nil {
		return err
	}
	defer rows.Close()
	var header []string
	types := []ColumnType{}
	first := true
	for rows.Next() {
		row := rows.Row()
		if first && !imp.opts.NoHeader {
			first = false
			for _, c := range row.Cells {
				for len(header) < c.Col()-1 {
					header = append(header, "")
				}
				header = append(header, strings.TrimSpace(c.String()))
			}
			continue
		}
		first = false
		if imp.opts.Mode == Append {
			break // types come from the table
		}
		for i := range row.Cells {
			c := &row.Cells[i]
			for len(types) < c.Col() {
				types = append(types, columnEmpty)
			}
			types[c.Col()-1] = widen(types[c.Col()-1], cellType(c))
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	n := max(len(header), len(types))
	if imp.opts.Mode == Append {
		return imp.tableColumns(ctx, header)
	}
	seen := map[string]bool{}
	for i := range n {
		name := ""
		if i < len(header) {
			name = header[i]
		}
		if name == "" {
			name = "col" + strconv.Itoa(i+1)
		}
		base := name
		for k := 2; seen[strings.ToLower(name)]; k++ {
			name = base + "_" + strconv.Itoa(k)
		}
		seen[strings.ToLower(name)] = true
		t := columnEmpty
		if i < len(types) {
			t = types[i]
		}
		if t == columnEmpty {
			t = ColumnText
		}
		imp.cols = append(imp.cols, ImportColumn{Name: name, Type: t})
		imp.byCol = append(imp.byCol, i)
	}
	if n == 0 {
		return fmt.Errorf("sqlsheet: sheet %q is empty: no columns to import", rows.Sheet().Name)
	}
	imp.stats.Columns = imp.cols
	imp.created = true
	return nil
}

// tableColumns matches the header to an existing table's columns.
func (imp *importer) tableColumns(ctx context.Context, header []string) error {
	rows, err := imp.db.QueryContext(ctx, "SELECT * FROM "+imp.d.quote(imp.opts.Table)+" WHERE 1=0")
	if err != nil {
		return fmt.Errorf("sqlsheet: table %s: %w", imp.opts.Table, err)
	}
	cts, err := rows.ColumnTypes()
	rows.Close()
	if err != nil {
		return err
	}
	index := map[string]int{}
	for i, ct := range cts {
		index[strings.ToLower(ct.Name())] = i
		imp.cols = append(imp.cols, ImportColumn{Name: ct.Name(), Type: columnTypeOf(kindOf(ct))})
	}
	if imp.opts.NoHeader {
		// Without a header, sheet columns fill table columns in order.
		imp.byCol = make([]int, len(cts))
		for i := range imp.byCol {
			imp.byCol[i] = i
		}
		imp.stats.Columns = imp.cols
		return nil
	}
	// Only the columns the header names are loaded, so the table's
	// defaults (a serial id, say) fill the others.
	all := imp.cols
	imp.cols = nil
	used := map[int]bool{}
	imp.byCol = make([]int, len(header))
	for i, h := range header {
		j, ok := index[strings.ToLower(h)]
		if !ok {
			if h == "" {
				imp.byCol[i] = -1
				continue
			}
			return fmt.Errorf("sqlsheet: table %s has no column %q (column %s of the sheet)", imp.opts.Table, h, xlsx.ColumnName(i+1))
		}
		if used[j] {
			return fmt.Errorf("sqlsheet: the sheet names column %q of %s twice", all[j].Name, imp.opts.Table)
		}
		used[j] = true
		imp.byCol[i] = len(imp.cols)
		imp.cols = append(imp.cols, all[j])
	}
	if len(imp.cols) == 0 {
		return fmt.Errorf("sqlsheet: the sheet's header names no column of %s", imp.opts.Table)
	}
	imp.stats.Columns = imp.cols
	return nil
}

func columnTypeOf(k kind) ColumnType {
	switch k {
	case kindInt, kindUint:
		return ColumnInteger
	case kindFloat, kindDecimal:
		return ColumnFloat
	case kindBool:
		return ColumnBoolean
	case kindDate:
		return ColumnDate
	case kindTimestamp, kindTimestampTZ:
		return ColumnTimestamp
	case kindTime:
		return ColumnTime
	}
	return ColumnText
}

// cellType is the narrowest column type that holds the cell.
func cellType(c *xlsx.Value) ColumnType {
	switch c.Type() {
	case xlsx.TypeNumber:
		f := c.Float()
		if f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
			return ColumnInteger
		}
		return ColumnFloat
	case xlsx.TypeBool:
		return ColumnBoolean
	case xlsx.TypeDate:
		if c.Float() < 1 && c.TimeOfDay() {
			return ColumnTime
		}
		if c.Float() == math.Trunc(c.Float()) {
			return ColumnDate
		}
		return ColumnTimestamp
	case xlsx.TypeString:
		return ColumnText
	}
	return columnEmpty // empty and error cells say nothing
}

// widen is the narrowest type holding values of both types.
func widen(a, b ColumnType) ColumnType {
	switch {
	case a == b || b == columnEmpty:
		return a
	case a == columnEmpty:
		return b
	case (a == ColumnInteger && b == ColumnFloat) || (a == ColumnFloat && b == ColumnInteger):
		return ColumnFloat
	case (a == ColumnDate && b == ColumnTimestamp) || (a == ColumnTimestamp && b == ColumnDate):
		return ColumnTimestamp
	}
	return ColumnText
}

func (imp *importer) createSQL(table string) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE " + imp.d.quote(table) + " (")
	for i, c := range imp.cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(imp.d.quote(c.Name) + " " + imp.d.sqlType(c.Type))
	}
	b.WriteString(")")
	return b.String()
}

// value converts a cell for a column of type t. Text converts to
// anything it spells (numbers, ISO dates, TRUE/FALSE); anything converts
// to text.
func (imp *importer) value(c *xlsx.Value, t ColumnType) (any, error) {
	switch c.Type() {
	case xlsx.TypeEmpty:
		return nil, nil
	case xlsx.TypeString:
		if len(c.Bytes()) == 0 {
			return nil, nil // an empty string shows as an empty cell
		}
	case xlsx.TypeError:
		imp.stats.ErrorCells++
		return nil, nil
	}
	bad := func() (any, error) {
		return nil, fmt.Errorf("%w: %s %q into a %s column", ErrBadCell, c.Type(), c.String(), t)
	}
	switch t {
	case ColumnText:
		return c.String(), nil
	case ColumnInteger:
		f := c.Float()
		if c.Type() == xlsx.TypeString {
			n, err := strconv.ParseInt(strings.TrimSpace(string(c.Bytes())), 10, 64)
			if err != nil {
				return bad()
			}
			return n, nil
		}
		n, ok := wholeInt64(f)
		if c.Type() != xlsx.TypeNumber || !ok {
			return bad()
		}
		return n, nil
	case ColumnFloat:
		if c.Type() == xlsx.TypeString {
			f, err := strconv.ParseFloat(strings.TrimSpace(string(c.Bytes())), 64)
			if err != nil {
				return bad()
			}
			return f, nil
		}
		if c.Type() != xlsx.TypeNumber {
			return bad()
		}
		return c.Float(), nil
	case ColumnBoolean:
		switch {
		case c.Type() == xlsx.TypeBool:
			return c.Bool(), nil
		case c.Type() == xlsx.TypeNumber && (c.Float() == 0 || c.Float() == 1):
			return c.Float() == 1, nil
		case c.Type() == xlsx.TypeString:
			if b, err := strconv.ParseBool(strings.ToLower(strings.TrimSpace(string(c.Bytes())))); err == nil {
				return b, nil
			}
		}
		return bad()
	case ColumnDate, ColumnTimestamp, ColumnTime:
		var tm time.Time
		switch c.Type() {
		case xlsx.TypeDate:
			tm = c.Time()
		case xlsx.TypeString:
			var err error
			s := strings.TrimSpace(string(c.Bytes()))
			for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02", "15:04:05.999999999"} {
				if tm, err = time.Parse(layout, s); err == nil {
					break
				}
			}
			if err != nil {
				return bad()
			}
		default:
			return bad()
		}
		return tm, nil
	}
	return bad()
}

// forDriver adapts a converted value to what database/sql drivers store
// well: SQLite keeps dates as ISO text, which the exporter reads back as
// dates.
func (imp *importer) forDriver(v any, t ColumnType) any {
	tm, ok := v.(time.Time)
	if !ok {
		return v
	}
	if imp.d == dialectSQLite {
		switch t {
		case ColumnDate:
			return tm.Format("2006-01-02")
		case ColumnTime:
			return tm.Format("15:04:05.999")
		}
		return tm.Format("2006-01-02 15:04:05.999")
	}
	if t == ColumnTime {
		return tm.Format("15:04:05.999")
	}
	return tm
}

// eachRow converts every data row into vals (one slot per table column)
// and calls fn; conversion errors name the cell.
func (imp *importer) eachRow(ctx context.Context, fn func(vals []any) error) error {
	rows, err := imp.wb.Rows(ctx, imp.sheet)
	if err != nil {
		return err
	}
	defer rows.Close()
	vals := make([]any, len(imp.cols))
	first := true
	for rows.Next() {
		row := rows.Row()
		if first && !imp.opts.NoHeader {
			first = false
			continue
		}
		first = false
		clear(vals)
		for i := range row.Cells {
			c := &row.Cells[i]
			j := -1
			if c.Col()-1 < len(imp.byCol) {
				j = imp.byCol[c.Col()-1]
			}
			if j < 0 {
				if c.Type() != xlsx.TypeEmpty && imp.opts.Mode == Append {
					return &xlsx.ReadError{Sheet: rows.Sheet().Name, Row: row.Num, Col: c.Col(), Err: fmt.Errorf("%w: the column has no header that names a column of %s", ErrBadCell, imp.opts.Table)}
				}
				continue
			}
			v, err := imp.value(c, imp.cols[j].Type)
			if err != nil {
				return &xlsx.ReadError{Sheet: rows.Sheet().Name, Row: row.Num, Col: c.Col(), Err: err}
			}
			vals[j] = v
		}
		if err := fn(vals); err != nil {
			return err
		}
		imp.stats.Rows++
		if imp.opts.Progress != nil && imp.stats.Rows%progressEvery == 0 {
			imp.opts.Progress(imp.stats.Rows)
		}
	}
	return rows.Err()
}

// loadSQL inserts through database/sql in batches of multi-row INSERTs,
// in one transaction.
func (imp *importer) loadSQL(ctx context.Context) (err error) {
	target := imp.opts.Table
	// MySQL commits DDL at once, so a new table is filled under a
	// temporary name and renamed only when complete.
	staged := imp.d == dialectMySQL && imp.created
	if staged {
		target = imp.opts.Table + "__sheetstream_import"
		imp.db.ExecContext(ctx, "DROP TABLE IF EXISTS "+imp.d.quote(target))
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
				imp.db.ExecContext(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS "+imp.d.quote(target))
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
			if _, err := tx.ExecContext(ctx, "DROP TABLE IF EXISTS "+imp.d.quote(target)); err != nil {
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
		b.WriteString("INSERT INTO " + imp.d.quote(target) + " (")
		for i, c := range imp.cols {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(imp.d.quote(c.Name))
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
		q := imp.d.quote
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
	rows, err := imp.db.QueryContext(ctx, "SELECT * FROM "+imp.d.quote(imp.opts.Table)+" WHERE 1=0")
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
				if _, err := tx.Exec(ctx, "DROP TABLE IF EXISTS "+imp.d.quote(imp.opts.Table)); err != nil {
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

// wholeInt64 converts a whole number within int64's range: -2^63 is, 2^63
// is not (a float64 comparison with 1<<63 must be strict on that side).
func wholeInt64(f float64) (int64, bool) {
	if f != math.Trunc(f) || f < -(1<<63) || f >= 1<<63 {
		return 0, false
	}
	return int64(f), true
}
