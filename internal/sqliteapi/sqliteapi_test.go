package sqliteapi

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// testDB makes a database file with database/sql and returns its path.
func testDB(t *testing.T, statements ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range statements {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(s, err)
		}
	}
	return path
}

func open(t *testing.T, path string) *Conn {
	t.Helper()
	c, err := OpenReadOnly(path, "PRAGMA cache_size = -512")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// TestStorageClasses reads a value of every storage class, from the
// table and from bound arguments, and checks them against what was
// stored.
func TestStorageClasses(t *testing.T) {
	long := strings.Repeat("é", 40000)
	path := testDB(t,
		"CREATE TABLE v (x, d DATE)",
		"INSERT INTO v VALUES (-9007199254740993, '2024-02-29'), (2.5, NULL), ('text', NULL), (x'00ff', NULL), (NULL, NULL), ('', NULL), (x'', NULL), ('"+long+"', NULL)")
	c := open(t, path)
	rows, err := c.Query(context.Background(), "SELECT x, d, ?, ?, ?, ?, ?, ?, ? FROM v", []any{nil, int8(-3), 2.5, true, "é", []byte{0, 1}, ""})
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols := rows.Columns()
	if len(cols) != 9 || cols[0].Name != "x" || cols[0].DeclType != "" || cols[1].DeclType != "DATE" || cols[2].Name != "?" {
		t.Errorf("columns %+v", cols)
	}
	type want struct {
		typ  Type
		text string
	}
	wantX := []want{{Integer, ""}, {Float, ""}, {Text, "text"}, {Blob, "\x00\xff"}, {Null, ""}, {Text, ""}, {Blob, ""}, {Text, long}}
	n := 0
	for rows.Next() {
		w := wantX[n]
		if got := rows.Type(0); got != w.typ {
			t.Errorf("row %d: type %d, want %d", n, got, w.typ)
		}
		switch w.typ {
		case Integer:
			if v := rows.Int64(0); v != -9007199254740993 {
				t.Errorf("integer %d", v)
			}
			if d := rows.Text(1); string(d) != "2024-02-29" {
				t.Errorf("date %q", d)
			}
		case Float:
			if v := rows.Float64(0); v != 2.5 {
				t.Errorf("float %g", v)
			}
		case Text:
			if v := rows.Text(0); string(v) != w.text || v == nil {
				t.Errorf("row %d: text of %d bytes, nil %v", n, len(v), v == nil)
			}
		case Blob:
			if v := rows.Blob(0); !bytes.Equal(v, []byte(w.text)) || v == nil {
				t.Errorf("row %d: blob %x, nil %v", n, v, v == nil)
			}
		}
		if rows.Type(2) != Null || rows.Type(3) != Integer || rows.Int64(3) != -3 || rows.Float64(4) != 2.5 ||
			rows.Int64(5) != 1 || string(rows.Text(6)) != "é" || !bytes.Equal(rows.Blob(7), []byte{0, 1}) ||
			rows.Type(8) != Text || len(rows.Text(8)) != 0 {
			t.Errorf("row %d: arguments read back wrong", n)
		}
		n++
	}
	if err := rows.Err(); err != nil || n != len(wantX) {
		t.Errorf("%d rows, err %v", n, err)
	}
}

// TestUnsupported leaves to database/sql what this package does not
// take, and reports SQLite's own errors as such.
func TestUnsupported(t *testing.T) {
	c := open(t, testDB(t, "CREATE TABLE t (v INTEGER)", "INSERT INTO t VALUES (1), (2), (3)"))
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{"DELETE FROM t WHERE v = 3 RETURNING v", nil}, {"INSERT INTO t VALUES (4)", nil},
		{"SELECT 1; SELECT 2", nil}, {"  ", nil}, {"SELECT v FROM t\x00; DELETE FROM t", nil},
		{"SELECT v FROM t WHERE v > ?", nil}, {"SELECT v FROM t", []any{1}},
		{"SELECT v FROM t WHERE v > :min", []any{1}}, {"SELECT v FROM t WHERE v > ?1", []any{1}},
		{"SELECT ?", []any{time.Now()}}, {"SELECT ?", []any{sql.Named("x", 1)}}, {"SELECT ?", []any{struct{}{}}},
	} {
		if rows, err := c.Query(context.Background(), q.sql, q.args); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%q %v: rows %v, err %v; want ErrUnsupported", q.sql, q.args, rows, err)
		}
	}
	_, err := c.Query(context.Background(), "SELECT nope FROM t", nil)
	if err == nil || errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "no such column") {
		t.Errorf("bad query: err %v", err)
	}
	// The connection still works after all that.
	rows, err := c.Query(context.Background(), "SELECT sum(v) FROM t", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !rows.Next() || rows.Int64(0) != 6 {
		t.Error("sum is not 6: a statement wrote")
	}
	if err := rows.Close(); err != nil {
		t.Error(err)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := OpenReadOnly(filepath.Join(dir, "missing.db"), ""); err == nil {
		t.Error("opened a missing file")
	}
	if _, err := OpenReadOnly(testDB(t, "CREATE TABLE t (v)"), "PRAGMA nonsense("); err == nil || !strings.Contains(err.Error(), "incomplete input") {
		t.Errorf("bad pragma: err %v", err)
	}
}

// TestInterrupt cancels a statement that works a long time before its
// first row: SQLite itself stops, and Err says why.
func TestInterrupt(t *testing.T) {
	c := open(t, testDB(t, "CREATE TABLE t (v)"))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	rows, err := c.Query(ctx, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) SELECT x FROM c ORDER BY x DESC", nil)
	if err != nil {
		t.Fatal(err)
	}
	if rows.Next() {
		t.Error("a row before the sort ended")
	}
	if !errors.Is(rows.Err(), context.DeadlineExceeded) {
		t.Errorf("err = %v, want the deadline", rows.Err())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to stop", d)
	}
	if err := rows.Close(); err != nil {
		t.Errorf("close after interrupt: %v", err)
	}
	c.Close()
	c.Interrupt() // after Close: nothing to stop, and no crash
	c.Close()
}

// TestDenyChanges: a restricted connection runs one read-only query and
// refuses, naming why, everything that would write a file, change the
// connection's state or leave something behind for a later query.
func TestDenyChanges(t *testing.T) {
	path := testDB(t, "CREATE TABLE t (a INTEGER, b TEXT)", "INSERT INTO t VALUES (1, 'x'), (2, 'y')")
	dir := filepath.Dir(path)
	c := open(t, path)
	if err := c.DenyChanges(); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"SELECT a, b FROM t",
		"  -- a comment\n /* and another */ select count(*) FROM t",
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT i FROM n",
		"VALUES (1), (2)",
		"SELECT * FROM pragma_table_info('t')",
		"SELECT a FROM t WHERE b = ?",
	} {
		args := []any{}
		if strings.Contains(q, "?") {
			args = []any{"x"}
		}
		rows, err := c.Query(context.Background(), q, args)
		if err != nil {
			t.Errorf("%q: %v", q, err)
			continue
		}
		for rows.Next() {
		}
		if err := rows.Close(); err != nil {
			t.Errorf("%q: %v", q, err)
		}
		if err := c.Check(q); err != nil {
			t.Errorf("Check(%q): %v", q, err)
		}
	}
	for _, c2 := range []struct{ q, why string }{
		{"ATTACH DATABASE '" + filepath.Join(dir, "new.db") + "' AS x", `starts with "ATTACH"`},
		{"VACUUM INTO '" + filepath.Join(dir, "copy.db") + "'", `starts with "VACUUM"`},
		{"PRAGMA query_only = 0", `starts with "PRAGMA"`},
		{"PRAGMA query_only=0; ATTACH '" + filepath.Join(dir, "x.db") + "' AS x; CREATE TABLE x.t (a)", `starts with "PRAGMA"`},
		{"CREATE TEMP VIEW v AS SELECT 1", `starts with "CREATE"`},
		{"SELECT 1; CREATE TEMP VIEW t AS SELECT 2", "more than one statement"},
		{"WITH x AS (SELECT 1) INSERT INTO t SELECT 1, 'z' FROM x", "it does more than read"},
		{"SELECT 1; -- done\n;", ""},
		{"BEGIN", `starts with "BEGIN"`},
		{"-- nothing but a comment", `starts with ""`},
		{"SELECT 1;;", ""},
	} {
		_, err := c.Query(context.Background(), c2.q, nil)
		if c2.why == "" {
			if err != nil {
				t.Errorf("%q: %v", c2.q, err)
			}
			continue
		}
		if !errors.Is(err, ErrNotReadOnly) || !strings.Contains(err.Error(), c2.why) {
			t.Errorf("%q: %v, want ErrNotReadOnly: %s", c2.q, err, c2.why)
		}
		if err := c.Check(c2.q); !errors.Is(err, ErrNotReadOnly) {
			t.Errorf("Check(%q): %v, want ErrNotReadOnly", c2.q, err)
		}
	}
	// What the keyword check lets through, the authorizer still sees: a
	// SELECT may not read a table-valued pragma that sets one.
	if _, err := c.Query(context.Background(), "SELECT * FROM pragma_query_only(0)", nil); err == nil {
		t.Error("SELECT * FROM pragma_query_only(0) ran")
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(entries) != 1 {
		t.Errorf("files beside the database: %v, want only it", entries)
	}
	// The connection is as it was: still read-only, no temporary view.
	rows, err := c.Query(context.Background(), "SELECT count(*) FROM sqlite_temp_master", nil)
	if err != nil {
		t.Fatal(err)
	}
	rows.Next()
	if n := rows.Int64(0); n != 0 {
		t.Errorf("%d temporary objects", n)
	}
	rows.Close()
}

func TestFirstKeyword(t *testing.T) {
	for q, want := range map[string]string{
		"select 1": "SELECT", "\n\t WITH x": "WITH", "--c\nValues(1)": "VALUES", "/* a */ /**/ select": "SELECT",
		"/* open": "", "-- only": "", "": "", "(SELECT 1)": "", "SELECT_1": "SELECT_",
	} {
		if got := firstKeyword(q); got != want {
			t.Errorf("firstKeyword(%q) = %q, want %q", q, got, want)
		}
	}
}
