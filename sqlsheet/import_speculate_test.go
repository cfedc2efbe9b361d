package sqlsheet

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/xlsx"
)

// countingSource counts how often its rows are read.
type countingSource struct {
	rowsSource
	reads int
}

func (s *countingSource) EachRow(ctx context.Context, fn func(xlsx.Row) error) error {
	s.reads++
	return s.rowsSource.EachRow(ctx, fn)
}

// speculationCases are sheets whose first rows guess a column's type
// that a later row changes, and one they do not.
func speculationCases() map[string]rowsSource {
	row := func(num int, cells ...xlsx.Cell) xlsx.Row {
		r := xlsx.Row{Num: num}
		for i, c := range cells {
			if !c.IsEmpty() {
				r.Cells = append(r.Cells, xlsx.ValueOf(i+1, c))
			}
		}
		return r
	}
	s, n, e := xlsx.String, xlsx.Int, xlsx.Cell{}
	base := func(extra ...xlsx.Row) rowsSource {
		return append(rowsSource{row(1, s("id"), s("v"), e), row(2, n(1), n(10)), row(3, n(2), n(20)), row(4, n(3), n(30))}, extra...)
	}
	return map[string]rowsSource{
		"stable":         base(row(5, n(4), n(40))),
		"widens":         base(row(5, n(4), xlsx.Float(40.5))),
		"turns text":     base(row(5, n(4), s("forty"))),
		"blank fills":    base(row(5, n(4), n(40), s("late"))),
		"wider row":      base(row(5, n(4), n(40), e, e, xlsx.Bool(true))),
		"empty then int": append(rowsSource{row(1, s("id"), s("v")), row(2, n(1)), row(3, n(2)), row(4, n(3))}, row(5, n(4), n(7))),
	}
}

// TestSpeculation: types guessed from the first rows give the very table
// the full pass does, whatever later rows hold: loaded in one pass over
// the source when the guess holds, started again when a row changes it.
func TestSpeculation(t *testing.T) {
	engines := map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "s.db") },
		"postgres": func(t *testing.T) string { return testenv.Get(t, "SHEETSTREAM_PG_URL", "starts a PostgreSQL server") },
		"mysql":    func(t *testing.T) string { return testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server") },
	}
	defer func(n int) { speculateRows = n }(speculateRows)
	for engine, url := range engines {
		t.Run(engine, func(t *testing.T) {
			db, err := Open(url(t))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for name, rows := range speculationCases() {
				load := func(table string, guessFrom int, mode ImportMode) (ImportStats, []string, int) {
					speculateRows = guessFrom
					db.Exec(`DROP TABLE IF EXISTS ` + table)
					src := &countingSource{rowsSource: rows}
					st, err := ImportFrom(context.Background(), db, src, ImportOptions{Table: table, Mode: mode})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					return st, tableRows(t, db, table), src.reads
				}
				want, wantRows, _ := load("spec_full", 1<<30, Create)
				got, gotRows, reads := load("spec_guessed", 3, Create)
				if !slices.Equal(got.Columns, want.Columns) || !slices.Equal(gotRows, wantRows) {
					t.Errorf("%s: guessed %v %q, full pass %v %q", name, got.Columns, gotRows, want.Columns, wantRows)
				}
				if wantReads := map[bool]int{true: 2, false: 3}[name == "stable"]; reads != wantReads {
					t.Errorf("%s: the source was read %d times, want %d", name, reads, wantReads)
				}
				if _, dryRows, _ := load("spec_guessed", 3, Replace); !slices.Equal(dryRows, wantRows) {
					t.Errorf("%s: replace: %q", name, dryRows)
				}
			}
		})
	}
}

// tableRows reads a table back as text, ordered by its first column.
func tableRows(t *testing.T, db *sql.DB, table string) []string {
	rows, err := db.Query(`SELECT * FROM ` + table + ` ORDER BY 1`)
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
		rows.Scan(ptrs...)
		parts := make([]string, len(vals))
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			parts[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out
}

func TestIsDecimalText(t *testing.T) {
	for s, want := range map[string]bool{
		"1": true, "-1.5": true, "+.5": true, "5.": true, "1.8446744073709552E+19": true, "1e-300": true, "0042": true,
		"": false, ".": false, "-": false, "1.2.3": false, "1e": false, "e5": false, "1e+": false, "1e12345": false,
		" 1": false, "1 ": false, "0x10": false, "1,5": false, "NaN": false, "1e5e5": false, "--1": false,
	} {
		if got := isDecimalText(s); got != want {
			t.Errorf("%q: %v", s, got)
		}
	}
	var decimal bool
	if n := testing.AllocsPerRun(100, func() { decimal = isDecimalText("0.14285714285714285E-3") }); n != 0 || !decimal {
		t.Errorf("%v allocations, %v", n, decimal)
	}
}
