package sqlsheet

import (
	"archive/zip"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/sqliteapi"
	"github.com/sheetstream/sheetstream/xlsx"
)

// oddities holds what SQLite's dynamic typing allows: values of every
// storage class in typed and untyped columns, dates in the forms drivers
// write, NULLs, empty and invalid text, long text.
var oddities = []string{
	`CREATE TABLE odd (i INTEGER, r REAL, t TEXT, b BLOB, n NUMERIC(10,2), d DATE, dt DATETIME, ts TIMESTAMP,
		flag BOOLEAN, big BIGINT, v VARCHAR(10), u INT UNSIGNED, untyped, w WEIRD)`,
	`INSERT INTO odd VALUES (1, 1.5, 'text', x'00ff', 12.5, '2024-02-29', '2024-02-29 13:45:30', '2024-02-29T13:45:30.123',
		1, 9007199254740993, 'v', 18446744073709551615, 'x', 1)`,
	`INSERT INTO odd VALUES ('one', 'NaN', 42, 'blob as text', '12.50', '2024-02-29 10:11', '2024-02-29T10:11', '2024-02-29 13:45:30+02:00',
		0, -9007199254740993, 7.25, '12', 3.5, 'w')`,
	`INSERT INTO odd VALUES (NULL, NULL, '', x'', '1e3', '1800-01-01', 'not a date', 45000, 'yes', 2.5, x'c3', NULL, '2024-01-02', x'ff')`,
	`INSERT INTO odd VALUES (-0, -1e308, 'line1' || char(10) || 'line2', zeroblob(3), '0.16666666666666666667', 20000, 1.5,
		'2024-02-29 13:45:30.123456789', 2, 0, '', '-1', '2024-01-02 03:04:05', 2.5)`,
}

// TestSQLiteDirect exports the same queries through SQLite's API and
// through database/sql: the workbooks must be the same, part for part.
func TestSQLiteDirect(t *testing.T) {
	path := filepath.Join(t.TempDir(), "odd.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range append(oddities, `INSERT INTO odd (t) VALUES ('`+strings.Repeat("é", 40000)+`')`) {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	conn, err := sqliteapi.OpenReadOnly(path, "PRAGMA cache_size = -512")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []Query{
		{SQL: "SELECT * FROM odd"},
		{SQL: "SELECT count(*) AS n, min(d), max(dt), sum(r), group_concat(t) FROM odd"},
		{SQL: "SELECT i + 1, t || '!', d, typeof(b) FROM odd WHERE i IS NOT NULL"},
		{SQL: "SELECT ?, ?, ?, ?, ?, ?, ?, * FROM odd WHERE i > ? OR t = ? OR b = ?",
			Args: []any{nil, int8(-3), 2.5, true, "é", []byte{0, 1}, "", 0, "text", []byte{0xc3}}},
	} {
		for _, opts := range []Options{{}, {SampleRows: -1}, {Null: "NULL", Binary: BinaryHex, ForceNumbers: true}} {
			rows, err := conn.Query(context.Background(), q.SQL, q.Args)
			if err != nil {
				t.Fatalf("%s: %v", q.SQL, err)
			}
			direct := exportWith(t, func(w *xlsx.Writer) (Stats, error) {
				return exportFrom(context.Background(), sqliteRows{rows}, sqliteColumns(rows), Workbook(w), "S", queryJob{opts: opts})
			})
			if err := rows.Close(); err != nil {
				t.Fatal(err)
			}
			viaSQL := exportWith(t, func(w *xlsx.Writer) (Stats, error) {
				r, err := (&sqlSession{on: db, dynamic: true}).query(context.Background(), q, "S")
				if err != nil {
					return Stats{}, err
				}
				st, err := exportFrom(context.Background(), r, r.columns(), Workbook(w), "S", queryJob{opts: opts})
				return st, r.end(err)
			})
			for _, part := range []string{"xl/worksheets/sheet1.xml", "xl/sharedStrings.xml", "xl/styles.xml"} {
				a, b := zipPart(t, direct.file, part), zipPart(t, viaSQL.file, part)
				if !bytes.Equal(a, b) {
					t.Errorf("%s, %+v: %s differs:\ndirect:       %.3000s\ndatabase/sql: %.3000s", q.SQL, opts, part, a, b)
				}
			}
			if direct.st.Rows != viaSQL.st.Rows || direct.st.Warnings != viaSQL.st.Warnings {
				t.Errorf("%s: stats %+v, through database/sql %+v", q.SQL, direct.st, viaSQL.st)
			}
		}
	}
}

type exported struct {
	file []byte
	st   Stats
}

func exportWith(t *testing.T, run func(*xlsx.Writer) (Stats, error)) exported {
	t.Helper()
	var buf bytes.Buffer
	w, err := xlsx.NewWriter(&buf, xlsx.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := run(w)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return exported{buf.Bytes(), st}
}

func zipPart(t *testing.T, file []byte, name string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	f, err := zr.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestSQLiteDirectDeclines runs through database/sql what the direct path
// does not take (internal/sqliteapi's tests list it): statements that
// write, queries with arguments it leaves alone, temporary tables; and
// files it cannot open.
func TestSQLiteDirectDeclines(t *testing.T) {
	dir := t.TempDir()
	db, err := Open("sqlite:" + filepath.Join(dir, "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1), (2), (3)"); err != nil {
		t.Fatal(err)
	}
	if file, _ := sqliteFile(db); file == "" {
		t.Fatal("Open's database has no file for the direct path")
	}
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	st, err := Export(context.Background(), db, w, []Query{
		{SQL: "DELETE FROM t WHERE v = 3 RETURNING v"},
		{SQL: "SELECT v FROM t WHERE v > ?", Args: []any{0}},
		{SQL: "SELECT v FROM t WHERE v > :min", Args: []any{sql.Named("min", 1)}},
		{SQL: "SELECT v FROM t"},
	}, Options{})
	if err != nil || st.Rows != 1+2+1+2 {
		t.Errorf("rows %d, err %v; want 6", st.Rows, err)
	}
	// What only db's connections know: a temporary table.
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TEMP TABLE tt AS SELECT 42 AS x"); err != nil {
		t.Fatal(err)
	}
	w, _ = xlsx.NewWriter(io.Discard, xlsx.Options{})
	if st, err := Export(context.Background(), db, w, []Query{{SQL: "SELECT x FROM tt"}}, Options{}); err != nil || st.Rows != 1 {
		t.Errorf("temporary table: rows %d, err %v", st.Rows, err)
	}
	w, _ = xlsx.NewWriter(io.Discard, xlsx.Options{})
	if _, err := Export(context.Background(), db, w, []Query{{SQL: "SELECT nope FROM t"}}, Options{}); err == nil || !strings.Contains(err.Error(), "no such column") {
		t.Errorf("bad query through Export: err %v", err)
	}
	if mem, err := Open("sqlite::memory:"); err != nil {
		t.Error(err)
	} else if file, _ := sqliteFile(mem); file != "" {
		t.Errorf("in-memory database: file %q", file)
	}
}

// TestSQLiteDirectInterrupt cancels a query that works a long time
// before its first row: the interrupt stops SQLite itself.
func TestSQLiteDirectInterrupt(t *testing.T) {
	db, err := Open("sqlite:" + filepath.Join(t.TempDir(), "i.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	start := time.Now()
	_, err = Export(ctx, db, w, []Query{{
		SQL: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) SELECT x FROM c ORDER BY x DESC",
	}}, Options{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the deadline", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to stop", d)
	}
}

func TestSQLitePath(t *testing.T) {
	for url, want := range map[string]string{
		"sqlite:shop.db": "shop.db", "sqlite:/var/x.db": "/var/x.db", "file:a/b.db": "a/b.db",
		"sqlite::memory:": "", "postgres://h/db": "", "mysql://u@h/db": "", "::nonsense": "",
	} {
		if got := SQLitePath(url); got != want {
			t.Errorf("SQLitePath(%q) = %q, want %q", url, got, want)
		}
	}
}
