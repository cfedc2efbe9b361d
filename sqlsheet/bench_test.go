package sqlsheet_test

import (
	"context"
	"database/sql"
	"io"
	"path/filepath"
	"testing"

	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// e1Rows is the size of the benchmarks' table: E1's columns (integers,
// decimals, text and a date), a tenth of its rows.
const e1Rows = 100_000

const e1Columns = `i AS id, i * 7 % 100000 AS a, i * 13 % 1000 AS b, i * 31 % 1000000 AS c, i * 1.25 + 0.5 AS ratio,
  (i % 100) / 100.0 AS pct, 1.0 / (i % 7 + 1) AS frac, 'name-' || i AS name, 'city-' || (i % 100) AS city`

// benchmarkExport exports E1's table from db to nowhere, reporting the
// time and allocations per row.
func benchmarkExport(b *testing.B, db *sql.DB, table string) {
	b.ReportAllocs()
	for b.Loop() {
		w, err := xlsx.NewWriter(io.Discard, xlsx.Options{})
		if err != nil {
			b.Fatal(err)
		}
		st, err := sqlsheet.Export(context.Background(), db, w, []sqlsheet.Query{{SQL: "SELECT * FROM " + table + " ORDER BY id"}}, sqlsheet.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		if st.Rows != e1Rows {
			b.Fatalf("%d rows", st.Rows)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*e1Rows), "ns/row")
}

// BenchmarkExportSQLite reads through SQLite's API (the direct path).
func BenchmarkExportSQLite(b *testing.B) {
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(b.TempDir(), "e1.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, c INTEGER, ratio REAL, pct REAL, frac REAL, name TEXT, city TEXT, day DATE);
		INSERT INTO t WITH RECURSIVE g(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM g WHERE i < 99999)
		SELECT ` + e1Columns + `, date('2000-01-01', '+' || (i % 9000) || ' days') FROM g`); err != nil {
		b.Fatal(err)
	}
	benchmarkExport(b, db, "t")
}

// BenchmarkExportPostgres reads through pgx's rows, from the server the
// test command starts (SHEETSTREAM_PG_URL).
func BenchmarkExportPostgres(b *testing.B) {
	db, err := sqlsheet.Open(testenv.Get(b, "SHEETSTREAM_PG_URL", "starts a PostgreSQL server"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DROP TABLE IF EXISTS sqlsheet_bench_e1;
		CREATE TABLE sqlsheet_bench_e1 AS SELECT ` + e1Columns + `, DATE '2000-01-01' + i % 9000 AS day FROM generate_series(0, 99999) i`); err != nil {
		b.Fatal(err)
	}
	defer db.Exec("DROP TABLE sqlsheet_bench_e1")
	benchmarkExport(b, db, "sqlsheet_bench_e1")
}
