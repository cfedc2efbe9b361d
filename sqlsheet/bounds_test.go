package sqlsheet_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// heapPeak samples the live heap while f runs, collecting garbage before
// each look (drivers leave a row's worth of it behind per row, and how
// much piles up between collections depends on the pacer, the race
// detector's above all), and returns the most it saw above the heap
// before.
func heapPeak(f func()) uint64 {
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	runtime.GC()
	metrics.Read(live)
	base := live[0].Value.Uint64()
	var peak uint64
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Go(func() {
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			runtime.GC()
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	})
	f()
	close(done)
	wg.Wait()
	return peak - min(peak, base)
}

// TestLargeValuesBounded exports a table of values far larger than a cell
// holds (4 MiB texts and blobs, 240 MiB in all): memory stays within a
// fixed bound, since each value is cut before it is copied, and the cells
// are what they would be from the whole values: the text's first 32,767
// characters, the blob's true size.
func TestLargeValuesBounded(t *testing.T) {
	const rows, size = 30, 4 << 20
	run := func(t *testing.T, url, setup, query string) {
		db, err := sqlsheet.Open(url)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, q := range strings.Split(setup, ";\n") {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if !strings.HasPrefix(url, "sqlite") {
			db.Close()
			if db, err = sqlsheet.OpenReadOnly(url); err != nil {
				t.Fatal(err)
			}
			defer db.Close()
		}
		for _, binary := range []sqlsheet.BinaryMode{sqlsheet.BinaryPlaceholder, sqlsheet.BinaryBase64} {
			var out bytes.Buffer
			var st sqlsheet.Stats
			var err error
			peak := heapPeak(func() {
				w, _ := xlsx.NewWriter(&out, xlsx.Options{})
				// Placeholders through the scanning pipeline alone; base64
				// through the rows sampled for column widths.
				opts := sqlsheet.Options{Binary: binary}
				if binary == sqlsheet.BinaryPlaceholder {
					opts.SampleRows = -1
				}
				st, err = sqlsheet.Export(context.Background(), db, w, []sqlsheet.Query{{SQL: query, Sheet: "Big"}}, opts)
				if err == nil {
					err = w.Close()
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("binary mode %d: peak live heap %.1f MiB for %d MiB of values", binary, float64(peak)/(1<<20), rows*2*size>>20)
			if peak > 64<<20 {
				t.Errorf("binary mode %d: the export held %.1f MiB live; the bound is 64 MiB", binary, float64(peak)/(1<<20))
			}
			if st.Rows != rows || st.Warnings.Truncated != int64(rows*(1+int(binary/sqlsheet.BinaryBase64))) {
				t.Errorf("binary mode %d: %d rows, %+v", binary, st.Rows, st.Warnings)
			}
			wb, err := xlsx.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()), xlsx.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			rs, _ := wb.Rows(context.Background(), 0)
			n := 0
			for rs.Next() {
				row := rs.Row()
				if row.Num == 1 {
					continue
				}
				n++
				text, blob := row.Cells[1].String(), row.Cells[2].String()
				if len(text) != xlsx.MaxCellChars || strings.Trim(text, "x") != "" {
					t.Fatalf("row %d: text of %d characters, want %d x", row.Num, len(text), xlsx.MaxCellChars)
				}
				want := fmt.Sprintf("<binary %d bytes>", size)
				if binary == sqlsheet.BinaryBase64 {
					want = strings.Repeat("AAAA", xlsx.MaxCellChars/4) + "AAA"[:xlsx.MaxCellChars%4]
				}
				if blob != want {
					t.Fatalf("row %d: blob %.40q..., want %.40q...", row.Num, blob, want)
				}
			}
			if err := rs.Err(); err != nil || n != rows {
				t.Fatalf("%d rows read back, %v", n, err)
			}
			rs.Close()
		}
	}
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "big.db")
		run(t, "sqlite:"+path, fmt.Sprintf(`CREATE TABLE big (id INTEGER, note TEXT, data BLOB);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < %d) INSERT INTO big SELECT x, printf('%%.*c', %d, 'x'), zeroblob(%d) FROM c`, rows, size, size),
			"SELECT id, note, data FROM big ORDER BY id")
	})
	t.Run("postgres", func(t *testing.T) {
		run(t, testenv.Get(t, "SHEETSTREAM_PG_URL", "starts a PostgreSQL server"), fmt.Sprintf(`DROP TABLE IF EXISTS big_values;
CREATE TABLE big_values AS SELECT g AS id, repeat('x', %d) AS note, decode(repeat('00', %d), 'hex') AS data FROM generate_series(1, %d) g`, size, size, rows),
			"SELECT id, note, data FROM big_values ORDER BY id")
	})
	t.Run("mysql", func(t *testing.T) {
		run(t, testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server"), fmt.Sprintf(`DROP TABLE IF EXISTS big_values;
CREATE TABLE big_values (id INT, note LONGTEXT, data LONGBLOB);
INSERT INTO big_values WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < %d) SELECT x, REPEAT('x', %d), REPEAT(CHAR(0), %d) FROM c`, rows, size, size),
			"SELECT id, note, data FROM big_values ORDER BY id")
	})
}

// TestPreviewStopsTheQuery: MaxRows on the last query cancels it once it
// has its rows, instead of reading (PostgreSQL, MySQL) the whole result.
// The queries stream their rows (generate_series in FROM would first
// materialize them all). Reading all ten million takes about 10 s
// (psql's COPY to /dev/null); a stopped query, well under 1 s, but 1.5 s
// on a machine the other tests load: the bound sits between.
func TestPreviewStopsTheQuery(t *testing.T) {
	const bound = 5 * time.Second
	for _, c := range []struct{ env, what, query string }{
		{"SHEETSTREAM_PG_URL", "starts a PostgreSQL server", "SELECT g, md5(g::text) FROM (SELECT generate_series(1, 10000000) AS g) s"},
		{"SHEETSTREAM_MYSQL_URL", "starts a MariaDB server", "SELECT seq, MD5(seq) FROM seq_1_to_10000000"},
	} {
		t.Run(c.env, func(t *testing.T) {
			db, err := sqlsheet.OpenReadOnly(testenv.Get(t, c.env, c.what))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for i, limit := range []int64{1, 5000, 1} {
				start := time.Now()
				w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
				st, err := sqlsheet.Export(context.Background(), db, w, []sqlsheet.Query{{SQL: c.query}},
					sqlsheet.Options{MaxRows: limit, SampleRows: -1, ReadOnly: true, StatementTimeout: time.Minute})
				d := time.Since(start)
				if err != nil || st.Rows != limit {
					t.Fatalf("run %d: %d rows, %v", i, st.Rows, err)
				}
				if d > bound {
					t.Errorf("run %d: %d rows of 10 million took %v: the query was not stopped", i, limit, d)
				}
			}
			// The connections are fine afterwards.
			var n int
			if err := db.QueryRow("SELECT 41 + 1").Scan(&n); err != nil || n != 42 {
				t.Errorf("after the previews: %d, %v", n, err)
			}
		})
	}
}

// TestRedact: database URLs and errors never show a password.
func TestRedact(t *testing.T) {
	for url, want := range map[string]string{
		"postgres://app:s3cr%40t@db.example:5432/shop?sslmode=require": "postgres://app:xxxxx@db.example:5432/shop?sslmode=require",
		"postgres://app@db/shop?password=hunter2&sslmode=disable":      "postgres://app@db/shop?password=xxxxx&sslmode=disable",
		"mysql://root:pw@tcp(127.0.0.1:3306)/x":                        "mysql://root:xxxxx@tcp(127.0.0.1:3306)/x",
		"host=db user=app password='a b' dbname=shop":                  "host=db user=app password=xxxxx dbname=shop",
		"sqlite:/var/lib/shop.db":                                      "sqlite:/var/lib/shop.db",
	} {
		if got := sqlsheet.RedactURL(url); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", url, got, want)
		}
	}
	for _, url := range []string{"postgres://app:s3cr%40t@db:x/shop", "postgres://app:hunter2@[::1/shop", "postgres://app@db/shop?password=hunter2&connect_timeout=zz"} {
		_, err := sqlsheet.Open(url)
		if err == nil {
			t.Errorf("Open(%q) succeeded", url)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "s3cr") || strings.Contains(msg, "hunter2") {
			t.Errorf("Open(%q): the error shows the password: %s", url, msg)
		}
	}
	base := errors.New("connect to postgres://u:topsecret@h/db failed")
	if err := sqlsheet.RedactError(base, "postgres://u:topsecret@h/db"); strings.Contains(err.Error(), "topsecret") || !errors.Is(err, base) {
		t.Errorf("RedactError: %v", err)
	}
}
