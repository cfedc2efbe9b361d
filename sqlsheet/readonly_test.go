package sqlsheet_test

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// TestReadOnly runs exports the way the service does, in a read-only
// transaction with a statement timeout, on real servers: reading works,
// writing is refused, and a statement that runs too long is cancelled.
func TestReadOnly(t *testing.T) {
	for _, c := range []struct {
		env, what, sleep, refused string
	}{
		{"SHEETSTREAM_PG_URL", "starts a PostgreSQL server", "SELECT pg_sleep(5)", "read-only"},
		{"SHEETSTREAM_MYSQL_URL", "starts a MariaDB server", "SELECT SLEEP(5) FROM ro", "READ ONLY"},
	} {
		t.Run(c.env, func(t *testing.T) {
			db, err := sqlsheet.Open(testenv.Get(t, c.env, c.what))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			mustExec(t, db, "DROP TABLE IF EXISTS ro", "CREATE TABLE ro (v INT)", "INSERT INTO ro VALUES (1), (2)")
			opts := sqlsheet.Options{ReadOnly: true, StatementTimeout: 300 * time.Millisecond}
			run := func(q string) (sqlsheet.Stats, error) {
				w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
				return sqlsheet.Export(context.Background(), db, w, []sqlsheet.Query{{SQL: q}}, opts)
			}
			if st, err := run("SELECT v FROM ro ORDER BY v"); err != nil || st.Rows != 2 {
				t.Errorf("read: %d rows, %v", st.Rows, err)
			}
			if _, err := run("DELETE FROM ro"); err == nil || !strings.Contains(err.Error(), c.refused) {
				t.Errorf("write: %v, want it refused (%s)", err, c.refused)
			}
			start := time.Now()
			if _, err := run(c.sleep); err == nil || !strings.Contains(strings.ToLower(err.Error()), "statement") {
				t.Errorf("a 5 s statement under a 300 ms timeout: %v", err)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("the timeout did not stop the statement: %v", d)
			}
			var n int
			if err := db.QueryRow("SELECT count(*) FROM ro").Scan(&n); err != nil || n != 2 {
				t.Errorf("rows left: %d, %v", n, err)
			}
		})
	}
}

// TestReadOnlySQLite: a SQLite export with ReadOnly runs one read-only
// statement on its own restricted connection and nothing else: SQL that
// would write a file, change a pooled connection's settings or leave a
// temporary object for a later export is refused, names the sheet and
// changes nothing, and a later export of the same SQL reads the table,
// not something an earlier one left; a statement that never ends is
// interrupted at the statement timeout.
func TestReadOnlySQLite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ro.db")
	mustExec(t, openDB(t, "sqlite:"+path), "CREATE TABLE ro (v INT)", "INSERT INTO ro VALUES (1), (2)")
	db, err := sqlsheet.OpenReadOnly("sqlite:" + path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	opts := sqlsheet.Options{ReadOnly: true, StatementTimeout: 300 * time.Millisecond}
	run := func(q string) (sqlsheet.Stats, error) {
		w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
		defer w.Abort()
		return sqlsheet.Export(context.Background(), db, w, []sqlsheet.Query{{SQL: q, Sheet: "S"}}, opts)
	}
	if st, err := run("SELECT v FROM ro ORDER BY v"); err != nil || st.Rows != 2 {
		t.Fatalf("read: %d rows, %v", st.Rows, err)
	}
	for _, q := range []string{
		"ATTACH DATABASE '" + filepath.Join(dir, "x.db") + "' AS x",
		"VACUUM INTO '" + filepath.Join(dir, "copy.db") + "'",
		"PRAGMA query_only=0; ATTACH '" + filepath.Join(dir, "y.db") + "' AS y; CREATE TABLE y.t (a)",
		"PRAGMA query_only = 0",
		"CREATE TEMP VIEW ro AS SELECT 99 AS v",
		"SELECT 1; CREATE TEMP VIEW ro AS SELECT 99 AS v",
		"DELETE FROM ro",
		"WITH x AS (SELECT 1) INSERT INTO ro SELECT 3 FROM x",
	} {
		_, err := run(q)
		if err == nil || !strings.Contains(err.Error(), `sheet "S"`) || !strings.Contains(err.Error(), "read-only") {
			t.Errorf("%q: %v, want it refused naming the sheet", q, err)
		}
		if err := sqlsheet.CheckReadOnly(db, q); err == nil {
			t.Errorf("CheckReadOnly(%q) passed", q)
		}
	}
	if err := sqlsheet.CheckReadOnly(db, "SELECT * FROM missing_table"); err == nil || !strings.Contains(err.Error(), "missing_table") {
		t.Errorf("CheckReadOnly of a missing table: %v", err)
	}
	if err := sqlsheet.CheckReadOnly(db, "SELECT v FROM ro WHERE v > ?"); err != nil {
		t.Errorf("CheckReadOnly of a good query: %v", err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 1 {
		t.Errorf("files in the folder: %v, want only the database", files)
	}
	// Every pooled connection is as it was: read-only, no view named ro.
	for range 3 {
		if st, err := run("SELECT v FROM ro"); err != nil || st.Rows != 2 {
			t.Errorf("a later export: %d rows, %v", st.Rows, err)
		}
	}
	if _, err := db.Exec("INSERT INTO ro VALUES (3)"); err == nil {
		t.Error("the pool's connection writes")
	}
	start := time.Now()
	_, err = run("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n WHERE i < 0")
	if !errors.Is(err, sqlsheet.ErrStatementTimeout) {
		t.Errorf("a query that never ends: %v, want ErrStatementTimeout", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the statement ran %v under a 300 ms timeout", d)
	}
}
