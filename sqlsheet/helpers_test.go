package sqlsheet_test

// What several of the package's test files share: the databases (SQLite
// files, the test command's PostgreSQL and MariaDB), workbooks written and
// imported, and tables read back.

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// openDB opens the database at url for a test, closed when it ends.
func openDB(t *testing.T, url string) *sql.DB {
	t.Helper()
	db, err := sqlsheet.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// openEngine opens a database of the engine for a test: a new SQLite
// file, or the PostgreSQL or MariaDB server the test command started
// (skipping without it).
func openEngine(t *testing.T, engine sqlsheet.Engine) *sql.DB {
	t.Helper()
	switch engine {
	case sqlsheet.EnginePostgres:
		return openDB(t, postgresURL(t))
	case sqlsheet.EngineMySQL:
		return openDB(t, testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server"))
	}
	return openDB(t, "sqlite:"+filepath.Join(t.TempDir(), "test.db"))
}

func mustExec(t *testing.T, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// postgresURL is the throwaway server the test command starts.
func postgresURL(t *testing.T) string {
	return testenv.Get(t, "SHEETSTREAM_PG_URL", "starts a PostgreSQL server")
}

// export runs the queries into a workbook file and returns its path.
func export(t *testing.T, db *sql.DB, queries []sqlsheet.Query, opts sqlsheet.Options) (string, sqlsheet.Stats) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "export.xlsx")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := xlsx.NewWriter(f, xlsx.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlsheet.Export(context.Background(), db, w, queries, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path, st
}

// checkSheet compares what openpyxl and python-calamine read with want,
// row by row; a nil row in want is not checked.
func checkSheet(t *testing.T, r *pyread.Result, sheet string, want [][]*pyread.Value) {
	t.Helper()
	if r == nil || r.Error != "" || len(r.Audit) > 0 {
		t.Fatalf("readers: %+v", r)
	}
	for _, reader := range []string{"openpyxl", "calamine"} {
		got := r.Openpyxl[sheet]
		if reader == "calamine" {
			got = r.Calamine[sheet]
		}
		if len(got) != len(want) {
			t.Errorf("%s: sheet %q has %d rows, want %d", reader, sheet, len(got), len(want))
			continue
		}
		for i, row := range want {
			if row == nil {
				continue
			}
			for j, w := range row {
				var g *pyread.Value
				if j < len(got[i]) {
					g = got[i][j]
				}
				if reader == "calamine" && g == nil && w.Equal(pyread.Str("")) {
					continue // calamine reads empty text as an empty cell
				}
				if !g.Equal(w) {
					t.Errorf("%s: sheet %q %s: got %v, want %v", reader, sheet, xlsx.CellName(i+1, j+1), g, w)
				}
			}
		}
	}
	if f := r.Freeze[sheet]; f == nil || *f != "A2" {
		t.Errorf("sheet %q: header not frozen: %v", sheet, f)
	}
	if len(want) > 0 {
		wantFilter := "A1:" + xlsx.CellName(len(want), len(want[0]))
		if f := r.Filters[sheet]; f == nil || *f != wantFilter {
			t.Errorf("sheet %q: autofilter %v, want %s", sheet, f, wantFilter)
		}
	}
}

// writeBook writes a workbook as build makes it into a file and opens it
// for reading (closed when the test ends); it returns the file's path too.
func writeBook(t *testing.T, build func(w *xlsx.Writer) error) (*xlsx.Workbook, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in.xlsx")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := xlsx.NewWriter(f, xlsx.Options{})
	err = build(w)
	if err == nil {
		err = w.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	wb, err := xlsx.Open(path, xlsx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wb.Close() })
	return wb, path
}

// importBook writes a workbook of rows on a sheet "Data" and opens it
// for reading.
func importBook(t *testing.T, rows [][]xlsx.Cell) *xlsx.Workbook {
	t.Helper()
	wb, _ := writeBook(t, func(w *xlsx.Writer) error {
		s, err := w.AddSheet("Data", xlsx.SheetOptions{})
		for _, r := range rows {
			if err == nil {
				err = s.WriteRow(r)
			}
		}
		return err
	})
	return wb
}

// dump reads a table back as text, one line per row, ordered by id.
func dump(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	return queryRows(t, db, `SELECT * FROM `+table+` ORDER BY 1`)
}

// queryRows is a query's rows, each its columns joined by "|" (NULL for
// NULL, times to the millisecond).
func queryRows(t *testing.T, db *sql.DB, query string) []string {
	t.Helper()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			switch v := v.(type) {
			case nil:
				parts[i] = "NULL"
			case []byte:
				parts[i] = string(v)
			case time.Time:
				parts[i] = v.Format("2006-01-02 15:04:05.000")
			default:
				parts[i] = fmt.Sprint(v)
			}
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out
}

// csvTable is text as a csvsheet.Table, from a file.
func csvTable(t *testing.T, text string, opts csvsheet.Options) *csvsheet.Table {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in.csv")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return csvsheet.NewTable(f, opts)
}

// resave is exported as another program saving it would leave it: its
// schema part kept, and a sheet of rows (nil: an empty row, which gets no
// element).
func resave(t *testing.T, exported *xlsx.Workbook, sheet string, rows ...[]xlsx.Cell) *xlsx.Workbook {
	t.Helper()
	parts, err := exported.CustomXML()
	if err != nil || len(parts) != 1 {
		t.Fatalf("%d custom parts: %v", len(parts), err)
	}
	wb, _ := writeBook(t, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet(sheet, xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		for _, r := range rows {
			if r == nil {
				err = sh.SkipRows(1)
			} else {
				err = sh.WriteRow(r)
			}
			if err != nil {
				return err
			}
		}
		return w.AddCustomXML(parts[0])
	})
	return wb
}
