package sqlsheet_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/sheetstream/sheetstream/csvsheet"
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

// BenchmarkImportSQLite loads W1's columns (four integers, three
// decimals, three texts, as the writer stores them: shared strings,
// compact references) from an .xlsx file and from the same rows as CSV
// into a new SQLite table, a tenth of I1's rows; it reports ns and
// allocations per cell.
func BenchmarkImportSQLite(b *testing.B) {
	const rows, cols = 100_000, 10
	dir := b.TempDir()
	xlsxPath, csvPath := filepath.Join(dir, "w1.xlsx"), filepath.Join(dir, "w1.csv")
	writeW1(b, xlsxPath, csvPath, rows)
	sources := map[string]func() (sqlsheet.Source, func()){
		"xlsx": func() (sqlsheet.Source, func()) {
			wb, err := xlsx.Open(xlsxPath, xlsx.ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			return sqlsheet.SheetSource(wb, 0), func() { wb.Close() }
		},
		"csv": func() (sqlsheet.Source, func()) {
			f, err := os.Open(csvPath)
			if err != nil {
				b.Fatal(err)
			}
			return csvsheet.NewTable(f, csvsheet.Options{}), func() { f.Close() }
		},
	}
	for _, name := range []string{"xlsx", "csv"} {
		b.Run(name, func(b *testing.B) {
			dbPath := filepath.Join(dir, name+".db")
			b.ReportAllocs()
			for b.Loop() {
				os.Remove(dbPath)
				db, err := sqlsheet.Open("sqlite:" + dbPath)
				if err != nil {
					b.Fatal(err)
				}
				src, done := sources[name]()
				st, err := sqlsheet.ImportFrom(context.Background(), db, src, sqlsheet.ImportOptions{Table: "w1"})
				done()
				db.Close()
				if err != nil {
					b.Fatal(err)
				}
				if st.Rows != rows {
					b.Fatalf("%d rows", st.Rows)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(rows*cols), "ns/cell")
		})
	}
}

// writeW1 writes W1's rows as an .xlsx file and as CSV.
func writeW1(b *testing.B, xlsxPath, csvPath string, rows int) {
	f, err := os.Create(xlsxPath)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w, err := xlsx.NewWriter(f, xlsx.Options{})
	if err != nil {
		b.Fatal(err)
	}
	s, err := w.AddSheet("W1", xlsx.SheetOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var text bytes.Buffer
	csvw := csv.NewWriter(&text)
	header := []string{"col1", "col2", "col3", "col4", "col5", "col6", "col7", "col8", "col9", "col10"}
	cells := make([]xlsx.Cell, len(header))
	for j, h := range header {
		cells[j] = xlsx.String(h)
	}
	s.WriteRow(cells)
	csvw.Write(header)
	record := make([]string, len(header))
	for i := range rows {
		ints := [4]int64{int64(i), int64(i * 7 % 100000), int64(i * 13 % 1000), int64(i * 31 % 1000000)}
		floats := [3]float64{float64(i)*1.25 + 0.5, float64(i%100) / 100, float64(i) / 7}
		texts := [3]string{fmt.Sprintf("name-%d", i), fmt.Sprintf("city-%d", i%100), fmt.Sprintf("x%d", i)}
		for j, n := range ints {
			cells[j], record[j] = xlsx.Int(n), strconv.FormatInt(n, 10)
		}
		for j, f := range floats {
			cells[4+j], record[4+j] = xlsx.Float(f), strconv.FormatFloat(f, 'g', -1, 64)
		}
		for j, t := range texts {
			cells[7+j], record[7+j] = xlsx.String(t), t
		}
		if err := s.WriteRow(cells); err != nil {
			b.Fatal(err)
		}
		csvw.Write(record)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	csvw.Flush()
	if err := os.WriteFile(csvPath, text.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
}
