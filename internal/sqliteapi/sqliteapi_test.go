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
