package server

// What several of the package's test files share: a service over a test
// database, requests to it, and downloads read back.

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

func newFixture(t *testing.T, maxConcurrent int, extra string) *fixture {
	dbPath := filepath.Join(t.TempDir(), "shop.db")
	db, err := sqlsheet.Open("sqlite:" + dbPath)
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, price REAL, day DATE, ok BOOLEAN, kind TEXT)`)
	tx, _ := db.Begin()
	for i := 1; i <= 5000; i++ {
		tx.Exec(`INSERT INTO items VALUES (?, ?, ?, ?, ?, ?)`, i, fmt.Sprintf("item %d", i), float64(i)/4,
			time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%365).Format("2006-01-02"), i%2, string(rune('a'+i%2)))
	}
	tx.Commit()
	db.Close()
	cfg, err := ParseConfig([]byte(fmt.Sprintf(sqliteExports, maxConcurrent, extra+"\ndatabase: sqlite:"+dbPath)))
	if err != nil {
		t.Fatal(err)
	}
	return serve(t, cfg)
}

// serve runs a service of cfg with its own http.Server settings on a
// loopback port, logging into the fixture, until the test ends.
func serve(t *testing.T, cfg *Config) *fixture {
	t.Helper()
	logs := &syncBuffer{}
	srv, err := New(cfg, slog.New(slog.NewTextHandler(logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.StartJobs(context.Background()); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(srv)
	ts.Config = srv.HTTPServer()
	ts.Listener = srv.LimitListener(ts.Listener)
	ts.Start()
	t.Cleanup(func() { ts.Close(); srv.Close() })
	return &fixture{t: t, srv: srv, ts: ts, url: ts.URL, log: logs}
}

// readBook reads every sheet of a downloaded workbook as text lines.
func readBook(t *testing.T, b []byte) map[string][]string {
	t.Helper()
	wb, err := xlsx.NewReader(bytes.NewReader(b), int64(len(b)), xlsx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, s := range wb.Sheets() {
		rows, _ := wb.Rows(context.Background(), s.Index)
		for rows.Next() {
			var parts []string
			for _, c := range rows.Row().Cells {
				parts = append(parts, c.String())
			}
			out[s.Name] = append(out[s.Name], strings.Join(parts, "|"))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return out
}
