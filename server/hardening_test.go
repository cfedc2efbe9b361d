package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/auth"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
)

// TestServiceStrictQuery: a query string the service cannot read whole is
// refused, never read in part: a filter that silently vanished would
// return every row.
func TestServiceStrictQuery(t *testing.T) {
	f := newFixture(t, 2, "")
	for _, c := range []struct{ query, want string }{
		{"kind=a%zz", `parameter \"kind\": the value \"a%zz\" is not a valid URL escape`},
		{"kind=a;x", `a semicolon is not a separator`},
		{"from=1;kind=b", `a semicolon is not a separator`},
		{"kind=a&kind=b", `parameter \"kind\": is given twice`},
		{"from=1&from=1", `parameter \"from\": is given twice`},
		{"k%zzind=a", `is not a valid URL escape`},
		{"kind=a&city=Oslo", `parameter \"city\": is not a parameter of this export`},
	} {
		for _, path := range []string{"/exports/items.xlsx?", "/api/exports/items/preview?", "/api/exports/items/preview?limit=2&"} {
			resp, body := f.get(path + c.query)
			if resp.StatusCode != 400 || !strings.Contains(string(body), c.want) {
				t.Errorf("%s%s: %d %s, want 400 with %s", path, c.query, resp.StatusCode, body, c.want)
			}
		}
	}
	if resp, body := f.get("/api/exports/items/preview?limit=1&limit=2"); resp.StatusCode != 400 || !strings.Contains(string(body), `\"limit\": is given twice`) {
		t.Errorf("limit twice: %d %s", resp.StatusCode, body)
	}
	// What is well formed still works, empty pairs included.
	if resp, body := f.get("/exports/items.xlsx?from=4999&&kind=a&"); resp.StatusCode != 200 || len(readBook(t, body)["Items"]) != 2 {
		t.Errorf("a good query: %d", resp.StatusCode)
	}
	if resp, body := f.get("/exports/items.xlsx?from=%34%39%39%39&kind=b"); resp.StatusCode != 200 || len(readBook(t, body)["Items"]) != 2 {
		t.Errorf("an escaped value: %d", resp.StatusCode)
	}
	if got := f.metric(`sheetstream_downloads_total{export="items",status="ok"}`); got != "2" {
		t.Errorf("only the two good downloads may have run: %q", got)
	}
}

// TestServiceHost: a Host the service does not know is refused before
// anything runs (DNS rebinding); IP addresses, localhost and the
// configured names are served.
func TestServiceHost(t *testing.T) {
	f := newFixture(t, 2, "allowed_hosts: [Sheets.Example.com]")
	do := func(host string) (int, string) {
		req, _ := http.NewRequest("GET", f.url+"/exports/items.xlsx?from=5000", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	for _, host := range []string{"attacker.example", "attacker.example:80", "127.0.0.1.nip.io", "sheets.example.com.evil", "localhost.evil.com"} {
		if code, body := do(host); code != http.StatusMisdirectedRequest || !strings.Contains(body, "allowed_hosts") {
			t.Errorf("Host %s: %d %s, want 421", host, code, body)
		}
	}
	for _, host := range []string{"127.0.0.1", f.ts.Listener.Addr().String(), "localhost:8080", "app.localhost", "[::1]:80", "10.1.2.3", "sheets.example.com", "SHEETS.example.com.:443"} {
		if code, body := do(host); code != 200 {
			t.Errorf("Host %s: %d %s, want 200", host, code, body)
		}
	}
	if got := f.metric(`sheetstream_downloads_total{export="items",status="ok"}`); got != "8" {
		t.Errorf("downloads run: %s, want only the 8 allowed", got)
	}
	any := newFixture(t, 2, `allowed_hosts: ["*"]`)
	req, _ := http.NewRequest("GET", any.url+"/api/exports", nil)
	req.Host = "anything.example"
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf("allowed_hosts *: %v %v", resp, err)
	}
}

func TestCheckListener(t *testing.T) {
	addr := func(s string) net.Addr { a, _ := net.ResolveTCPAddr("tcp", s); return a }
	for _, c := range []struct {
		cfg  Config
		addr string
		ok   bool
	}{
		{Config{}, "127.0.0.1:8080", true},
		{Config{}, "[::1]:8080", true},
		{Config{}, "0.0.0.0:8080", false},
		{Config{}, "[::]:8080", false},
		{Config{}, "192.168.1.10:8080", false},
		{Config{Token: "t"}, "0.0.0.0:8080", true},
		{Config{Public: true}, "0.0.0.0:8080", true},
		// Identities instead of the shared token: behind an issuer, or
		// with API tokens, there is no shared token to set.
		{Config{Auth: auth.Config{OIDC: &auth.OIDC{Issuer: "https://id.example.com"}}}, "0.0.0.0:8080", true},
		{Config{Auth: auth.Config{Tokens: []*auth.Token{{Name: "ci"}}}}, "[::]:8080", true},
		{Config{Auth: auth.Config{Proxy: &auth.Proxy{UserHeader: "X-User"}}}, "0.0.0.0:8080", true},
	} {
		err := c.cfg.CheckListener(addr(c.addr))
		if (err == nil) != c.ok || err != nil && !strings.Contains(err.Error(), "public: true") {
			t.Errorf("%+v on %s: %v", c.cfg, c.addr, err)
		}
	}
}

// TestServiceHeaders: the page and the API are not to be framed, sniffed
// or to leak their URLs; downloads pass through buffering proxies.
func TestServiceHeaders(t *testing.T) {
	f := newFixture(t, 2, "")
	for _, path := range []string{"/", "/app.js", "/api/exports", "/exports/items.xlsx?from=5000", "/api/exports/items/preview?limit=1", "/exports/nope.xlsx"} {
		resp, _ := f.get(path)
		h := resp.Header
		if !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'self'") || !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") ||
			h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: %v", path, h)
		}
	}
	resp, _ := f.get("/exports/items.xlsx?from=5000")
	if resp.Header.Get("X-Accel-Buffering") != "no" {
		t.Errorf("download headers: %v", resp.Header)
	}
	if _, body := f.get("/"); strings.Contains(string(body), "<script>") || strings.Contains(string(body), "<style>") {
		t.Errorf("the page has inline script or style, which its policy blocks")
	}
}

// TestServiceHEAD answers with the headers of a download or preview and
// runs nothing.
func TestServiceHEAD(t *testing.T) {
	f := newFixture(t, 1, "")
	for _, path := range []string{"/exports/big.xlsx", "/exports/items.xlsx", "/api/exports/big/preview?limit=5"} {
		start := time.Now()
		resp, err := http.Head(f.url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || time.Since(start) > time.Second {
			t.Errorf("HEAD %s: %d in %v", path, resp.StatusCode, time.Since(start))
		}
	}
	if resp, _ := http.Head(f.url + "/exports/big.xlsx?nope=1"); resp.StatusCode != 400 {
		t.Errorf("HEAD with a bad parameter: %d", resp.StatusCode)
	}
	resp, _ := http.Head(f.url + "/exports/items.xlsx")
	if resp.Header.Get("Content-Disposition") != `attachment; filename="items.xlsx"` {
		t.Errorf("HEAD headers: %v", resp.Header)
	}
	if l := f.log.String(); strings.Contains(l, "export") {
		t.Errorf("HEAD ran an export: %s", l)
	}
	if got := f.metric(`sheetstream_rows_total{export="big"}`); got != "" {
		t.Errorf("rows counted for HEAD: %s", got)
	}
}

// stalledDownload requests path on a raw connection with a small receive
// buffer and never reads the response.
func stalledDownload(t *testing.T, url, path string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	conn.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", path)
	return conn
}

// TestServiceStalledClient: a client that stops reading loses its
// download after write_timeout; its slot is free again at once. The
// export is of incompressible text, so that it fills the socket buffers
// quickly (under the race detector too).
func TestServiceStalledClient(t *testing.T) {
	f := newFixture(t, 1, "write_timeout: 700ms")
	conn := stalledDownload(t, f.url, "/exports/noise.xlsx")
	defer conn.Close()
	deadline := time.Now().Add(30 * time.Second)
	for f.metric(`sheetstream_downloads_total{export="noise",status="stalled"}`) != "1" {
		if f.metric(`sheetstream_downloads_total{export="noise",status="ok"}`) != "" {
			t.Fatalf("the export to a client that reads nothing ended ok; log:\n%s", f.log.String())
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stalled download still runs after 30 s; log:\n%s", f.log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if resp, body := f.get("/exports/items.xlsx?from=5000"); resp.StatusCode != 200 || len(readBook(t, body)["Items"]) != 2 {
		t.Errorf("after the stalled client: %d", resp.StatusCode)
	}
	if l := f.log.String(); !strings.Contains(l, "write_timeout") {
		t.Errorf("log: %s", l)
	}
	// The stalled client sees a cut-off transfer, never a complete file.
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, resp.Body); err == nil {
		t.Error("the stalled client read a complete response")
	}
}

// TestHealthCached: health checks within two seconds share one look at
// the databases.
func TestHealthCached(t *testing.T) {
	f := newFixture(t, 1, "")
	f.get("/healthz")
	f.srv.health.mu.Lock()
	first := f.srv.health.checked
	f.srv.health.mu.Unlock()
	for range 50 {
		if resp, _ := f.get("/healthz"); resp.StatusCode != 200 {
			t.Fatalf("healthz %d", resp.StatusCode)
		}
	}
	f.srv.health.mu.Lock()
	again := f.srv.health.checked
	f.srv.health.mu.Unlock()
	if !again.Equal(first) {
		t.Errorf("50 health checks looked at the databases again")
	}
}

func TestConfigSheetNames(t *testing.T) {
	for yaml, want := range map[string]string{
		"database: d\nexports: [{name: q, sheets: [{name: Q1/Q2, sql: 'SELECT 1'}]}]":                                 `export "q", sheet 1: invalid sheet name: "Q1/Q2" contains`,
		"database: d\nexports: [{name: q, sheets: [{name: 'x', sql: 'SELECT 1'}, {name: History, sql: 'SELECT 1'}]}]": `export "q", sheet 2`,
		"database: d\nexports: [{name: q, sheets: [{name: Data, sql: 'SELECT 1'}, {name: DATA, sql: 'SELECT 1'}]}]":   `two sheets are named "DATA"`,
		"database: d\nexports: [{name: q, sheets: [{name: 'a very long sheet name of 32 chars', sql: 'SELECT 1'}]}]":  "longer than 31",
	} {
		if _, err := ParseConfig([]byte(yaml)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %s", yaml, err, want)
		}
	}
}

// TestNewRedactsPassword: a database that cannot be opened is reported
// without its password.
func TestNewRedactsPassword(t *testing.T) {
	for _, url := range []string{"postgres://app:hunter2@db:notaport/x", "postgres://app@db/x?password=hunter2&connect_timeout=zz"} {
		cfg, err := ParseConfig([]byte(fmt.Sprintf("database: %q\nexports: [{name: a, sheets: [{sql: 'SELECT 1'}]}]", url)))
		if err != nil {
			t.Fatal(err)
		}
		_, err = New(cfg, nil)
		if err == nil || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: %v", url, err)
		}
	}
}

// TestServicePostgresPool: downloads wait for one of max_connections
// instead of failing; previews stop the query after their rows; the
// database's words stay in the log.
func TestServicePostgresPool(t *testing.T) {
	pgURL := testenv.Get(t, "SHEETSTREAM_PG_URL", "starts a PostgreSQL server")
	cfg, err := ParseConfig([]byte(`
database: "` + pgURL + `&application_name=sheetstream_pool_test"
max_concurrent: 16
max_connections: 3
queue_timeout: 60s
exports:
  - name: slow
    sheets: [{sql: "SELECT g, pg_sleep(0.0002) FROM (SELECT generate_series(1, 1500) AS g) s"}]
  - name: huge
    sheets: [{sql: "SELECT g, md5(g::text) AS h FROM (SELECT generate_series(1, 100000000) AS g) s"}]
  - name: secret
    sheets: [{sql: "SELECT * FROM secret_internal_table"}]
`))
	if err != nil {
		t.Fatal(err)
	}
	f := serve(t, cfg)
	admin, err := sqlsheet.Open(pgURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()

	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	peak := 0
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			var n int
			admin.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE application_name = 'sheetstream_pool_test'`).Scan(&n)
			mu.Lock()
			peak = max(peak, n)
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	for range 12 {
		wg.Go(func() {
			resp, err := http.Get(f.url + "/exports/slow.xlsx")
			if err != nil {
				t.Error(err)
				return
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err == nil && resp.StatusCode == 200 && len(readBook(t, body)["Sheet1"]) != 1501 {
				t.Errorf("a download is incomplete")
			}
			mu.Lock()
			codes[resp.StatusCode]++
			mu.Unlock()
		})
	}
	wg.Wait()
	close(stop)
	// The sampler may be between its query and its write to peak.
	<-sampled
	if codes[200] != 12 {
		t.Errorf("12 downloads over 3 connections: statuses %v", codes)
	}
	if peak > 3 {
		t.Errorf("%d connections open at once; max_connections is 3", peak)
	}

	// The whole query takes tens of seconds; a preview that stops it after
	// its row takes milliseconds, so the bound leaves room for a loaded
	// machine without letting a full run pass.
	for range 3 {
		start := time.Now()
		resp, body := f.get("/api/exports/huge/preview?limit=1")
		if d := time.Since(start); resp.StatusCode != 200 || d > 5*time.Second {
			t.Errorf("preview of 1 row of 100 million: %d in %v: %s", resp.StatusCode, d, body)
		}
	}
	var pv struct{ Rows [][]*previewCell }
	_, body := f.get("/api/exports/huge/preview?limit=3")
	if json.Unmarshal(body, &pv) != nil || len(pv.Rows) != 3 || pv.Rows[2][0].Value != 3.0 {
		t.Errorf("preview: %s", body)
	}
	f.checkInternalError("/exports/secret.xlsx", "secret_internal_table")
	f.checkInternalError("/api/exports/secret/preview", "secret_internal_table")
}
