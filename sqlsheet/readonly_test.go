package sqlsheet_test

import (
	"context"
	"io"
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
