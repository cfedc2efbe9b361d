package server

// The findings of the second adversarial review (issue 30), each tried the
// way it was found: over raw sockets, with hostile parameters and SQL, and
// by cancelling downloads part way.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
)

// rawRequest sends text on a new connection and returns the connection
// and a reader of what comes back.
func rawRequest(t *testing.T, addr, text string) (net.Conn, *bufio.Reader) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, text); err != nil {
		t.Fatal(err)
	}
	return conn, bufio.NewReader(conn)
}

// TestBodyNeverSent: a request that announces a body it never sends
// (Content-Length or chunked) is answered 400 at once, unread, and its
// connection closed: it holds no export slot. With every slot's worth of
// such sockets open, a real download still runs.
func TestBodyNeverSent(t *testing.T) {
	f := newFixture(t, 2, "")
	addr := f.ts.Listener.Addr().String()
	for i, framing := range []string{"Content-Length: 1000", "Transfer-Encoding: chunked", "Content-Length: 1000", "Transfer-Encoding: chunked"} {
		path := []string{"/exports/items.xlsx", "/api/exports", "/api/exports/items/preview", "/metrics"}[i]
		conn, r := rawRequest(t, addr, "GET "+path+" HTTP/1.1\r\nHost: 127.0.0.1\r\n"+framing+"\r\n\r\n")
		conn.SetReadDeadline(time.Now().Add(2 * time.Second))
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatalf("%s with %s and no body: no answer within 2 s: %v", path, framing, err)
		}
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 400 || !strings.Contains(string(body), "no body") || !resp.Close {
			t.Errorf("%s with %s: %d close=%v %s, want 400 and the connection closed", path, framing, resp.StatusCode, resp.Close, body)
		}
		if _, err := r.ReadByte(); err != io.EOF {
			t.Errorf("%s with %s: the connection stays open (%v)", path, framing, err)
		}
	}
	// HEAD too.
	conn, r := rawRequest(t, addr, "HEAD /exports/items.xlsx HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\n")
	conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	if resp, err := http.ReadResponse(r, &http.Request{Method: "HEAD"}); err != nil || resp.StatusCode != 400 {
		t.Errorf("HEAD with a body: %v %v", resp, err)
	}
	start := time.Now()
	if resp, body := f.get("/exports/items.xlsx?from=4990"); resp.StatusCode != 200 || len(readBook(t, body)["Items"]) != 12 {
		t.Errorf("a download beside them: %d", resp.StatusCode)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("a download waited %v for a slot", d)
	}
	if got := f.metric(`sheetstream_refused_total{reason="body"}`); got != "5" {
		t.Errorf("refused for a body: %q, want 5", got)
	}
}

// TestConnectionCap: at most max_connections_http connections are open;
// the next waits to be accepted until one closes, then is served.
func TestConnectionCap(t *testing.T) {
	f := newFixture(t, 2, "max_connections_http: 5")
	addr := f.ts.Listener.Addr().String()
	var idle []net.Conn
	for range 5 {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		idle = append(idle, conn)
	}
	time.Sleep(100 * time.Millisecond)
	sixth, r := rawRequest(t, addr, "GET /api/exports HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
	sixth.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	if _, err := r.ReadByte(); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a sixth connection was served beside five open ones: %v", err)
	}
	idle[0].Close()
	sixth.SetReadDeadline(time.Now().Add(2 * time.Second))
	resp, err := http.ReadResponse(r, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("the sixth connection once one closed: %v %v", resp, err)
	}
	for _, c := range idle[1:] {
		c.Close()
	}
	sixth.Close()
	waitFor(t, "the connections to close", func() bool {
		return f.srv.metrics.conns.Load() <= 1
	})
	cfg, err := ParseConfig([]byte("database: sqlite:x.db\nexports: [{name: a, sheets: [{sql: SELECT 1}]}]"))
	if err != nil || cfg.MaxConnectionsHTTP != 512 {
		t.Errorf("default max_connections_http: %d %v", cfg.MaxConnectionsHTTP, err)
	}
}

// TestPreviewBounded: a preview of 1,000 rows of ten 32,000-character
// texts (320 MB) answers within a fixed memory and byte bound, each text
// cut in the JSON with "cut", and "truncated" where the rows stopped at
// the bound; a preview of small rows is whole.
func TestPreviewBounded(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "wide.db")
	db, err := sqlsheet.Open("sqlite:" + dbPath)
	if err != nil {
		t.Fatal(err)
	}
	cols := make([]string, 10)
	for i := range cols {
		cols[i] = fmt.Sprintf("printf('%%d-', i) || replace(hex(zeroblob(16000)), '00', char(%d + 97)) AS c%d", i, i)
	}
	if _, err := db.Exec(`CREATE TABLE wide AS WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < 1000) SELECT i, ` + strings.Join(cols, ", ") + ` FROM g`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	cfg, err := ParseConfig([]byte("database: sqlite:" + dbPath + "\nexports:\n  - {name: wide, sheets: [{sql: SELECT * FROM wide ORDER BY i}]}\n  - {name: small, sheets: [{sql: SELECT i FROM wide ORDER BY i}]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	f := serve(t, cfg)
	var resp *http.Response
	var body []byte
	grew, alloc := testenv.HeapGrowth(func() { resp, body = f.get("/api/exports/wide/preview?limit=1000") })
	var got struct {
		Columns   []string
		Rows      [][]*previewCell
		Truncated bool
	}
	if resp.StatusCode != 200 || json.Unmarshal(body, &got) != nil {
		t.Fatalf("preview: %d, %d bytes", resp.StatusCode, len(body))
	}
	if len(body) > 2<<20 {
		t.Errorf("the preview answered %d bytes", len(body))
	}
	if !got.Truncated || len(got.Rows) == 0 || len(got.Rows) >= 1000 || len(got.Columns) != 11 {
		t.Errorf("preview: %d rows of %d columns, truncated %v; want some rows, truncated", len(got.Rows), len(got.Columns), got.Truncated)
	}
	for _, row := range got.Rows {
		for _, c := range row[1:] {
			if s, _ := c.Value.(string); !c.Cut || len([]rune(s)) != previewTextChars {
				t.Fatalf("a 32,000-character text: cut %v, %d characters", c.Cut, len([]rune(s)))
			}
		}
	}
	if grew > 64<<20 {
		t.Errorf("the heap grew by %d MiB during the preview", grew>>20)
	}
	if alloc > 200<<20 {
		t.Errorf("the preview allocated %d MiB", alloc>>20)
	}
	resp, body = f.get("/api/exports/small/preview?limit=1000")
	got.Rows, got.Truncated = nil, false
	if resp.StatusCode != 200 || json.Unmarshal(body, &got) != nil || len(got.Rows) != 1000 || got.Truncated {
		t.Errorf("a preview of small rows: %d, %d rows, truncated %v", resp.StatusCode, len(got.Rows), got.Truncated)
	}
}

// TestEncryptedDownloadCancelled: an encrypted download held back in
// temp_dir and cancelled by its client at several points leaves nothing
// there, and no descriptor open.
func TestEncryptedDownloadCancelled(t *testing.T) {
	if testing.Short() {
		t.Skip("cancels downloads of 800,000 rows, a minute under the race detector; the go pass runs it")
	}
	dbPath := filepath.Join(t.TempDir(), "shop.db")
	db, err := sqlsheet.Open("sqlite:" + dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE t AS WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < 800000) SELECT i, hex(randomblob(20)) AS h FROM g`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	tmp := t.TempDir()
	t.Setenv("SHEETSTREAM_TEST_CANCEL_PASSWORD", "pw")
	cfg, err := ParseConfig([]byte(fmt.Sprintf("database: sqlite:%s\ntemp_dir: %s\nexports:\n  - {name: secret, password_env: SHEETSTREAM_TEST_CANCEL_PASSWORD, sheets: [{sql: SELECT * FROM t}]}\n", dbPath, tmp)))
	if err != nil {
		t.Fatal(err)
	}
	f := serve(t, cfg)
	fds := openFiles()
	// Cut before anything is held, as soon as the package spills into
	// temp_dir, and a while after.
	for _, c := range []struct {
		spilled bool
		after   time.Duration
	}{{false, 20 * time.Millisecond}, {true, 0}, {true, 150 * time.Millisecond}} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			req, _ := http.NewRequestWithContext(ctx, "GET", f.url+"/exports/secret.xlsx", nil)
			if resp, err := http.DefaultClient.Do(req); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
		if c.spilled {
			waitFor(t, "the package to spill into temp_dir", func() bool {
				left, _ := os.ReadDir(tmp)
				return len(left) > 0
			})
		}
		time.Sleep(c.after)
		cancel()
		<-done
		waitFor(t, "the download to end", func() bool { return f.srv.metrics.inFlight.Load() == 0 })
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("cancelled %v after spilling=%v: left in temp_dir: %v", c.after, c.spilled, left)
		}
	}
	if got := f.metric(`sheetstream_downloads_total{export="secret",status="cancelled"}`); got != "3" {
		t.Errorf("downloads cancelled: %q, want 3\n%s", got, f.log.String())
	}
	if now := openFiles(); fds >= 0 && now > fds+2 {
		t.Errorf("open descriptors: %d before, %d after", fds, now)
	}
}

// openFiles counts the process's open descriptors (-1 where /proc lacks them).
func openFiles() int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(entries)
}

// TestSQLiteExportsReadOnly: SQL a SQLite export's restricted read-only
// connection will not run is refused when the service starts, naming the
// export and sheet, and writes nothing.
func TestSQLiteExportsReadOnly(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "shop.db")
	db, err := sqlsheet.Open("sqlite:" + dbPath)
	if err != nil {
		t.Fatal(err)
	}
	db.Exec("CREATE TABLE items (id INTEGER)")
	db.Close()
	for _, sql := range []string{
		"ATTACH DATABASE '" + filepath.Join(dir, "x.db") + "' AS x",
		"VACUUM INTO '" + filepath.Join(dir, "copy.db") + "'",
		"PRAGMA query_only=0; ATTACH '" + filepath.Join(dir, "y.db") + "' AS y; CREATE TABLE y.t (a)",
		"CREATE TEMP VIEW items AS SELECT 99 AS id",
		"INSERT INTO items (id) VALUES (999) RETURNING id",
		"SELECT * FROM no_such_table",
	} {
		cfg, err := ParseConfig([]byte(fmt.Sprintf("database: sqlite:%s\nexports:\n  - {name: bad, sheets: [{name: S, sql: %q}]}\n", dbPath, sql)))
		if err != nil {
			t.Fatal(err)
		}
		if srv, err := New(cfg, nil); err == nil || !strings.Contains(err.Error(), `export "bad", sheet "S"`) {
			t.Errorf("%q: %v, want it refused naming the export and sheet", sql, err)
			if srv != nil {
				srv.Close()
			}
		}
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 1 {
		t.Errorf("files in the folder: %v", files)
	}
}

// TestSQLiteStatementTimeout: a SQLite query that never ends is stopped
// at statement_timeout (its slot freed), and one that makes nothing for
// write_timeout is abandoned as stalled.
func TestSQLiteStatementTimeout(t *testing.T) {
	const forever = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n WHERE i < 0`
	for _, c := range []struct {
		settings string
		code     int
		status   string
	}{
		{"statement_timeout: 300ms\nwrite_timeout: 20s", 500, "error"},
		{"statement_timeout: 1m\nwrite_timeout: 400ms", 504, "stalled"},
	} {
		dbPath := filepath.Join(t.TempDir(), "t.db")
		db, _ := sqlsheet.Open("sqlite:" + dbPath)
		db.Exec("CREATE TABLE t (a)")
		db.Close()
		cfg, err := ParseConfig([]byte(fmt.Sprintf("database: sqlite:%s\nmax_concurrent: 1\n%s\nexports:\n  - {name: forever, sheets: [{sql: %q}]}\n", dbPath, c.settings, forever)))
		if err != nil {
			t.Fatal(err)
		}
		f := serve(t, cfg)
		start := time.Now()
		resp, body := f.get("/exports/forever.xlsx")
		if d := time.Since(start); resp.StatusCode != c.code || d > 5*time.Second {
			t.Errorf("%s: %d after %v (%s), want %d soon", c.settings, resp.StatusCode, d, body, c.code)
		}
		if got := f.metric(`sheetstream_downloads_total{export="forever",status="` + c.status + `"}`); got != "1" {
			t.Errorf("%s: status %s counted %q", c.settings, c.status, got)
		}
		if f.srv.metrics.inFlight.Load() != 0 || len(f.srv.slots) != 0 {
			t.Errorf("%s: the slot is still held", c.settings)
		}
	}
}

// TestParamsRefused: values no user means, and text no cell can hold, are
// a 400 naming the parameter, on downloads and previews alike; names the
// service reads itself are refused at load.
func TestParamsRefused(t *testing.T) {
	f := newFixture(t, 2, "")
	cfg := `
database: sqlite:x.db
exports:
  - name: p
    params: [{name: x, type: float, required: true}, {name: t, type: text}]
    sheets: [{sql: "SELECT :x AS x, :t AS t"}]
`
	_ = f
	parsed, err := ParseConfig([]byte(cfg))
	if err != nil {
		t.Fatal(err)
	}
	e := parsed.Exports[0]
	for _, q := range []map[string]string{
		{"x": "NaN"}, {"x": "nan"}, {"x": "Inf"}, {"x": "-Infinity"}, {"x": "0x1p-2"}, {"x": "1e999"}, {"x": "1_0"},
		{"x": "1", "t": "\xff"}, {"x": "1", "t": "a\uFFFEb"}, {"x": "1", "t": "\uFFFF"}, {"x": "1", "t": "a\x00"},
	} {
		if _, err := e.values(q); err == nil {
			t.Errorf("%q: accepted", q)
		} else if pe := (*ParamError)(nil); !errors.As(err, &pe) {
			t.Errorf("%q: %v, not a ParamError", q, err)
		}
	}
	for _, ok := range []string{"1", "-2.5", ".5", "1e3", "+4.", " 7 "} {
		if _, err := e.values(map[string]string{"x": ok}); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	// Over HTTP, on the fixture's text parameter: 400, not 500 or an empty reply.
	for _, path := range []string{"/exports/items.xlsx?kind=%FF", "/api/exports/items/preview?kind=%EF%BF%BE", "/exports/items.xlsx?kind=%00"} {
		if resp, body := f.get(path); resp.StatusCode != 400 || !strings.Contains(string(body), `"kind\"`) && !strings.Contains(string(body), `\"kind\"`) {
			t.Errorf("%s: %d %s, want 400 naming kind", path, resp.StatusCode, body)
		}
	}
	for _, name := range []string{"limit", "Sheet"} {
		_, err := ParseConfig([]byte(fmt.Sprintf("database: sqlite:x.db\nexports: [{name: a, params: [{name: %s}], sheets: [{sql: SELECT 1}]}]", name)))
		if err == nil || !strings.Contains(err.Error(), "query word") {
			t.Errorf("a parameter named %s: %v", name, err)
		}
	}
}

// TestAuthDetails: with a token, /metrics needs it and /healthz answers
// only liveness without it; the scheme is read in any case; cross-site
// requests are refused, a link followed from another site is not.
func TestAuthDetails(t *testing.T) {
	f := newFixture(t, 2, "token: s3cret")
	if resp, body := f.get("/metrics"); resp.StatusCode != 401 || strings.Contains(string(body), "items") {
		t.Errorf("/metrics without the token: %d %s", resp.StatusCode, body)
	}
	if resp, _ := f.get("/metrics", "Authorization", "Bearer s3cret"); resp.StatusCode != 200 {
		t.Errorf("/metrics with the token: %d", resp.StatusCode)
	}
	for _, h := range []string{"bearer s3cret", "BEARER s3cret", "Bearer   s3cret"} {
		if resp, _ := f.get("/api/exports", "Authorization", h); resp.StatusCode != 200 {
			t.Errorf("%q: %d", h, resp.StatusCode)
		}
	}
	for _, h := range []string{"Bearer s3cre", "Bearer s3cret x", "Basic s3cret", "Bearers3cret", "s3cret", "Bearer"} {
		if resp, _ := f.get("/api/exports", "Authorization", h); resp.StatusCode != 401 {
			t.Errorf("%q: %d, want 401", h, resp.StatusCode)
		}
	}
	// Liveness for anyone; the databases checked for those with the token.
	os.Rename(f.srv.dbs[f.srv.exports["items"].Database].url[len("sqlite:"):], filepath.Join(t.TempDir(), "gone.db"))
	if resp, body := f.get("/healthz"); resp.StatusCode != 200 || string(body) != "ok\n" {
		t.Errorf("/healthz without the token: %d %s", resp.StatusCode, body)
	}

	open := newFixture(t, 2, "")
	for _, c := range []struct {
		hdr  []string
		code int
	}{
		{[]string{"Origin", "https://evil.example"}, 403},
		{[]string{"Origin", "null"}, 403},
		{[]string{"Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "cors"}, 403},
		{[]string{"Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "no-cors", "Sec-Fetch-Dest", "image"}, 403},
		{[]string{"Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "navigate"}, 403}, // not started by a person
		{[]string{"Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "navigate", "Sec-Fetch-User", "?1"}, 200},
		{[]string{"Sec-Fetch-Site", "same-origin", "Origin", strings.TrimPrefix(open.url, "")}, 200},
		{[]string{"Sec-Fetch-Site", "none"}, 200},
	} {
		if resp, _ := open.get("/exports/items.xlsx?from=4999", c.hdr...); resp.StatusCode != c.code {
			t.Errorf("%q: %d, want %d", c.hdr, resp.StatusCode, c.code)
		}
	}
	if got := open.metric(`sheetstream_downloads_total{export="items",status="ok"}`); got != "3" {
		t.Errorf("downloads run: %s, want only the 3 allowed", got)
	}
	if resp, _ := open.get("/app.js", "Sec-Fetch-Site", "cross-site"); resp.StatusCode != 200 {
		t.Errorf("the page's script, cross-site: %d", resp.StatusCode)
	}
}

// TestConfigSecrets: database_env and ${VAR} keep passwords out of the
// file; a file other users may read that holds the token or a password
// loads with a warning.
func TestConfigSecrets(t *testing.T) {
	t.Setenv("SHEETSTREAM_TEST_DB_URL", "postgres://u:pw@127.0.0.1:1/db")
	t.Setenv("SHEETSTREAM_TEST_DB_PASSWORD", "pw")
	cfg, err := ParseConfig([]byte("database_env: SHEETSTREAM_TEST_DB_URL\nexports:\n  - {name: a, sheets: [{sql: SELECT 1}]}\n  - {name: b, database: 'mysql://u:${SHEETSTREAM_TEST_DB_PASSWORD}@127.0.0.1:1/db', sheets: [{sql: SELECT 1}]}\n  - {name: c, database_env: SHEETSTREAM_TEST_DB_URL, sheets: [{sql: SELECT 1}]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Exports[0].Database != "postgres://u:pw@127.0.0.1:1/db" || cfg.Exports[1].Database != "mysql://u:pw@127.0.0.1:1/db" || cfg.Exports[2].Database != cfg.Exports[0].Database {
		t.Errorf("databases: %q %q %q", cfg.Exports[0].Database, cfg.Exports[1].Database, cfg.Exports[2].Database)
	}
	for _, bad := range []string{
		"database_env: SHEETSTREAM_TEST_UNSET\nexports: [{name: a, sheets: [{sql: SELECT 1}]}]",
		"database: 'postgres://u:${SHEETSTREAM_TEST_UNSET}@h/db'\nexports: [{name: a, sheets: [{sql: SELECT 1}]}]",
		"database: sqlite:x.db\ndatabase_env: SHEETSTREAM_TEST_DB_URL\nexports: [{name: a, sheets: [{sql: SELECT 1}]}]",
	} {
		if _, err := ParseConfig([]byte(bad)); err == nil || !strings.Contains(err.Error(), "database") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	dir := t.TempDir()
	for _, c := range []struct {
		text string
		mode os.FileMode
		warn bool
	}{
		{"token: s3cret\ndatabase: sqlite:x.db", 0o644, true},
		{"token: s3cret\ndatabase: sqlite:x.db", 0o600, false},
		{"token_env: SHEETSTREAM_TEST_DB_PASSWORD\ndatabase: sqlite:x.db", 0o644, false},
		{"database: postgres://u:pw@h/db", 0o644, true},
		{"database: 'postgres://u:${SHEETSTREAM_TEST_DB_PASSWORD}@h/db'", 0o644, false},
	} {
		path := filepath.Join(dir, "c.yaml")
		os.WriteFile(path, []byte(c.text+"\nexports: [{name: a, sheets: [{sql: SELECT 1}]}]\n"), c.mode)
		os.Chmod(path, c.mode)
		cfg, err := LoadConfig(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(cfg.Warnings) > 0; got != c.warn || got && !strings.Contains(cfg.Warnings[0], "other users may read") {
			t.Errorf("%q at %04o: warnings %q", c.text, c.mode, cfg.Warnings)
		}
		if strings.Contains(strings.Join(cfg.Warnings, " "), "pw") || strings.Contains(strings.Join(cfg.Warnings, " "), "s3cret") {
			t.Errorf("a warning shows the secret: %q", cfg.Warnings)
		}
	}
}

// TestShutdownCounted: downloads the service cuts at shutdown are counted
// as "shutdown", not as cancelled by their clients, and their transfers
// fail.
func TestShutdownCounted(t *testing.T) {
	f := newFixture(t, 2, "")
	resp := f.startDownload(context.Background(), "big")
	defer resp.Body.Close()
	f.srv.CutDownloads()
	if _, err := io.Copy(io.Discard, resp.Body); err == nil {
		t.Error("a download cut at shutdown read as complete")
	}
	waitFor(t, "the download to end", func() bool { return f.srv.metrics.inFlight.Load() == 0 })
	if got := f.metric(`sheetstream_downloads_total{export="big",status="shutdown"}`); got != "1" {
		t.Errorf("status shutdown: %q\n%s", got, f.log.String())
	}
	if got := f.metric(`sheetstream_downloads_total{export="big",status="cancelled"}`); got != "" {
		t.Errorf("status cancelled: %q", got)
	}
}
