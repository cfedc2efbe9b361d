package sqlsheet

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sheetstream/sheetstream/internal/sqliteapi"
)

// loadSQLite loads a SQLite file through SQLite's own API on a connection
// of its own, as the export reads it: one prepared INSERT stepped per
// row, values bound by type, no boxing and no database/sql in between.
// Converting the cells and inserting run on two goroutines, handing
// batches of rows between them. It returns ok false, having done
// nothing, when the file cannot be opened so (the caller then loads
// through database/sql).
func (imp *importer) loadSQLite(ctx context.Context, path, pragmas string) (ok bool, err error) {
	conn, err := sqliteapi.OpenReadWrite(path, pragmas)
	if err != nil {
		return false, nil
	}
	defer conn.Close()
	// IMMEDIATE: the write lock now, so that another writer makes the
	// import wait (busy_timeout) or fail before any work, not at COMMIT.
	if err := conn.Exec("BEGIN IMMEDIATE"); err != nil {
		return true, fmt.Errorf("import into %s: %w", imp.opts.Table, err)
	}
	defer func() {
		if err != nil {
			conn.Exec("ROLLBACK")
		}
	}()
	if imp.created {
		for _, ddl := range imp.newTableDDL(imp.opts.Table) {
			if err := conn.Exec(ddl); err != nil {
				return true, fmt.Errorf("create table %s: %w", imp.opts.Table, err)
			}
		}
	}
	// One statement inserts rowsPerInsert rows, another the rest one by
	// one: fewer steps through SQLite's VM for the same binds.
	var inserts [2]*sqliteapi.Stmt
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(imp.cols)), ", ") + ")"
	for i, n := range []int{1, rowsPerInsert} {
		stmt, err := conn.Prepare("INSERT INTO " + imp.engine.quoteTable(imp.opts.Table) + " (" + imp.columnList("") + ") VALUES " +
			strings.TrimSuffix(strings.Repeat(row+", ", n), ", "))
		if err != nil {
			return true, fmt.Errorf("insert into %s: %w", imp.opts.Table, err)
		}
		defer stmt.Close()
		inserts[i] = stmt
	}

	batches, free := make(chan *rowBatch, 2), make(chan *rowBatch, 3)
	for range 3 {
		free <- newRowBatch(len(imp.cols))
	}
	loaded := make(chan error, 1)
	go func() {
		loaded <- imp.insertBatches(inserts, batches, free)
	}()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batch := <-free
	send := func() error {
		select {
		case batches <- batch:
		case err := <-loaded: // the inserts failed: stop reading
			loaded <- err
			return errInsertFailed
		}
		batch = <-free
		return nil
	}
	var spill []value
	next := func() []value { return batch.next(len(imp.cols)) }
	err = imp.eachRowInto(ctx, next, func(num int, vals []value) error {
		if !batch.commit(num, imp.cols) {
			// Its text does not fit beside the batch's: it starts the
			// next batch.
			spill = append(spill[:0], vals...)
			if err := send(); err != nil {
				return err
			}
			batch.add(num, spill, imp.cols)
		}
		if batch.rows == loadBatchRows {
			return send()
		}
		return nil
	})
	if err == nil && batch.rows > 0 {
		err = send()
	}
	close(batches)
	if lerr := <-loaded; lerr != nil {
		return true, lerr
	}
	if err != nil {
		return true, err
	}
	if err := imp.writeRefused(); err != nil {
		return true, err
	}
	imp.finish(ctx, nil) // never staged: counts the rows inserted
	if err := conn.Exec("COMMIT"); err != nil {
		return true, fmt.Errorf("import into %s: %w", imp.opts.Table, err)
	}
	return true, nil
}

var errInsertFailed = errors.New("insert failed")

// rowsPerInsert is how many rows one multi-row INSERT takes.
const rowsPerInsert = 16

// insertBatches binds and inserts each batch's rows, returning the
// batches for reuse; after a failure it only drains them.
func (imp *importer) insertBatches(inserts [2]*sqliteapi.Stmt, batches <-chan *rowBatch, free chan<- *rowBatch) error {
	var failed error
	n := len(imp.cols)
	for b := range batches {
		for r := 0; r < b.rows && failed == nil; {
			k, stmt := 1, inserts[0]
			if r+rowsPerInsert <= b.rows {
				k, stmt = rowsPerInsert, inserts[1]
			}
			err := insertRows(stmt, b.vals[r*n:(r+k)*n])
			switch {
			case err != nil && k > 1:
				// The statement's rows are undone: insert them one by one
				// to find the rows the table refuses.
				for i := r; i < r+k && failed == nil; i++ {
					row := b.vals[i*n : (i+1)*n]
					if err := insertRows(inserts[0], row); err != nil {
						failed = imp.refuseInserted(b.nums[i], row, err)
					}
				}
			case err != nil:
				failed = imp.refuseInserted(b.nums[r], b.vals[r*n:(r+1)*n], err)
			}
			r += k
		}
		b.reset()
		free <- b
	}
	return failed
}

// insertRows binds one statement's rows and runs it.
func insertRows(stmt *sqliteapi.Stmt, vals []value) error {
	for j := range vals {
		if err := bindValue(stmt, j, &vals[j]); err != nil {
			return err
		}
	}
	return stmt.Exec()
}

func bindValue(s *sqliteapi.Stmt, i int, v *value) error {
	switch v.tag {
	case tagInt, tagBool:
		return s.BindInt64(i, v.i)
	case tagFloat:
		return s.BindFloat64(i, v.f)
	case tagText:
		return s.BindText(i, v.b)
	}
	return s.BindNull(i)
}

// loadBatchRows is how many rows go from the converter to the inserter at
// a time; loadBatchBytes the most text a batch holds, in one arena.
const (
	loadBatchRows  = 512
	loadBatchBytes = 1 << 20
)

// rowBatch is converted rows with their text copied into one arena, which
// never grows (a row that does not fit starts the next batch), so that
// the values' slices into it stay valid.
type rowBatch struct {
	vals  []value
	nums  []int // each row's number in the source
	arena []byte
	rows  int
}

func newRowBatch(cols int) *rowBatch {
	return &rowBatch{vals: make([]value, 0, loadBatchRows*cols), arena: make([]byte, 0, loadBatchBytes)}
}

// add copies a row in; see commit.
func (b *rowBatch) add(num int, vals []value, cols []ImportColumn) bool {
	copy(b.next(len(vals)), vals)
	return b.commit(num, cols)
}

// next is the place of the next row: its values, written there, are
// taken in by commit.
func (b *rowBatch) next(cols int) []value {
	b.vals = slices.Grow(b.vals, cols)
	return b.vals[len(b.vals) : len(b.vals)+cols]
}

// commit takes in the row written at next, copying its text into the
// arena (unless it is kept to the import's end) and converting times to
// SQLite's text; false when its text does not fit beside the rows
// already in (an empty batch takes any row, its text past the arena in a
// slice of its own).
func (b *rowBatch) commit(num int, cols []ImportColumn) bool {
	vals := b.vals[len(b.vals) : len(b.vals)+len(cols)]
	size := 0
	for j := range vals {
		switch vals[j].tag {
		case tagText:
			if !vals[j].kept {
				size += len(vals[j].b)
			}
		case tagTime:
			size += 32
		}
	}
	arena := b.arena
	if len(arena)+size > cap(arena) {
		if b.rows > 0 {
			return false
		}
		arena = make([]byte, 0, size)
	}
	for j := range vals {
		v := &vals[j]
		switch v.tag {
		case tagTime:
			start := len(arena)
			arena = appendSQLiteTime(arena, v.t, cols[j].Type)
			*v = value{tag: tagText, b: arena[start:len(arena):len(arena)]}
		case tagText:
			if v.kept {
				continue
			}
			start := len(arena)
			arena = append(arena, v.b...)
			v.b = arena[start:len(arena):len(arena)]
		case tagFloat:
			v.b = nil // the file's text, lent: SQLite takes the double
		}
	}
	b.vals = b.vals[:len(b.vals)+len(vals)]
	if cap(arena) == cap(b.arena) {
		b.arena = arena
	}
	b.nums = append(b.nums, num)
	b.rows++
	return true
}

// reset empties the batch without clearing its values: each row's are
// cleared as it is converted, and commit turned its times into text.
func (b *rowBatch) reset() {
	b.vals, b.nums, b.arena, b.rows = b.vals[:0], b.nums[:0], b.arena[:0], 0
}
