package sqlsheet_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// countingSource counts how often its rows are read.
type countingSource struct {
	sqlsheet.Source
	reads int
}

func (s *countingSource) EachRow(ctx context.Context, fn func(xlsx.Row) error) error {
	s.reads++
	return s.Source.EachRow(ctx, fn)
}

// speculationCases are tables whose first three rows guess a column's
// type that the fourth changes, and one whose fourth does not.
var speculationCases = map[string]string{
	"stable":         "id,v,\n1,10,\n2,20,\n3,30,\n4,40,\n",
	"widens":         "id,v,\n1,10,\n2,20,\n3,30,\n4,40.5,\n",
	"turns text":     "id,v,\n1,10,\n2,20,\n3,30,\n4,forty,\n",
	"blank fills":    "id,v,\n1,10,\n2,20,\n3,30,\n4,40,late\n",
	"wider row":      "id,v,,,\n1,10\n2,20\n3,30\n4,40,,,true\n", // a CSV row wider than its header is an error
	"empty then int": "id,v\n1\n2\n3\n4,7\n",
}

// TestSpeculation: types guessed from the first rows give the very table
// the full pass does, whatever later rows hold: loaded in one pass over
// the source when the guess holds, started again when a row changes it.
func TestSpeculation(t *testing.T) {
	engines := map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "s.db") },
		"postgres": postgresURL,
		"mysql":    func(t *testing.T) string { return testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server") },
	}
	for engine, url := range engines {
		t.Run(engine, func(t *testing.T) {
			db, err := sqlsheet.Open(url(t))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for name, text := range speculationCases {
				load := func(table string, guessFrom int, mode sqlsheet.ImportMode) (sqlsheet.ImportStats, []string, int) {
					defer sqlsheet.SetSpeculateRows(guessFrom)()
					db.Exec(`DROP TABLE IF EXISTS ` + table)
					src := &countingSource{Source: csvsheet.NewTable(strings.NewReader(text), csvsheet.Options{})}
					st, err := sqlsheet.ImportFrom(context.Background(), db, src, sqlsheet.ImportOptions{Table: table, Mode: mode})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					return st, dump(t, db, table), src.reads
				}
				want, wantRows, _ := load("spec_full", 1<<30, sqlsheet.Create)
				got, gotRows, reads := load("spec_guessed", 3, sqlsheet.Create)
				if !slices.Equal(got.Columns, want.Columns) || !slices.Equal(gotRows, wantRows) {
					t.Errorf("%s: guessed %v %q, full pass %v %q", name, got.Columns, gotRows, want.Columns, wantRows)
				}
				if wantReads := map[bool]int{true: 2, false: 3}[name == "stable"]; reads != wantReads {
					t.Errorf("%s: the source was read %d times, want %d", name, reads, wantReads)
				}
				if _, replaced, _ := load("spec_guessed", 3, sqlsheet.Replace); !slices.Equal(replaced, wantRows) {
					t.Errorf("%s: replace: %q", name, replaced)
				}
			}
		})
	}
}
