package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
)

func TestParseConfig(t *testing.T) {
	ok := `
database: sqlite:x.db
exports:
  - name: a
    params: [{name: since, type: date, default: "2025-01-01"}, {name: n, type: int, required: true}]
    sheets: [{sql: "SELECT :since, :n, ':not' -- :comment\n, x::int"}]
`
	cfg, err := ParseConfig([]byte(ok))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Listen != "127.0.0.1:8080" || cfg.MaxConcurrent != 8 || cfg.Exports[0].Sheets[0].Name != "Sheet1" || cfg.Exports[0].Title != "a" {
		t.Errorf("defaults: %+v", cfg)
	}
	for _, bad := range []struct{ yaml, want string }{
		{`exports: []`, "no exports"},
		{"database: x\nexport: []", "field export not found"},
		{"exports: [{name: a, sheets: [{sql: SELECT 1}]}]", `no database`},
		{"database: d\nexports: [{name: a, sheets: [{sql: 'SELECT :x'}]}]", "uses :x, which is not a declared parameter"},
		{"database: d\nexports: [{name: a, params: [{name: x, type: date, default: soon}], sheets: [{sql: 'SELECT :x'}]}]", `"soon" is not a date`},
		{"database: d\nexports: [{name: a, params: [{name: x, type: money}], sheets: [{sql: 'SELECT 1'}]}]", `type "money"`},
		{"database: d\nexports: [{name: a, sheets: [{sql: 'SELECT 1'}]}, {name: a, sheets: [{sql: 'SELECT 1'}]}]", "defined twice"},
		{"database: d\nexports: [{name: 'a b', sheets: [{sql: 'SELECT 1'}]}]", "name must be"},
		{"database: d\nqueue_timeout: soon\nexports: [{name: a, sheets: [{sql: 'SELECT 1'}]}]", "not a duration"},
		{"database: d\nexports: [{name: a, sheets: [{sql: \"SELECT 'open\"}]}]", "unterminated"},
	} {
		if _, err := ParseConfig([]byte(bad.yaml)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want %q", bad.yaml, err, bad.want)
		}
	}
}

func TestNamedParams(t *testing.T) {
	q, err := parseNamed(`SELECT * FROM t WHERE a = :a AND b::text = ':b' AND "c:d" = :a /* :e */ -- :f` + "\n AND e = :e2")
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string]any{"a": 1, "e2": "x"}
	pg, pgArgs := q.render(true, vals)
	qm, qmArgs := q.render(false, vals)
	if pg != `SELECT * FROM t WHERE a = $1 AND b::text = ':b' AND "c:d" = $1 /* :e */ -- :f`+"\n AND e = $2" || fmt.Sprint(pgArgs) != "[1 x]" {
		t.Errorf("postgres: %s %v", pg, pgArgs)
	}
	if qm != `SELECT * FROM t WHERE a = ? AND b::text = ':b' AND "c:d" = ? /* :e */ -- :f`+"\n AND e = ?" || fmt.Sprint(qmArgs) != "[1 1 x]" {
		t.Errorf("?: %s %v", qm, qmArgs)
	}
}

// fixture is a service over a real database with a few exports.
type fixture struct {
	t   *testing.T
	srv *Server
	ts  *httptest.Server
	url string
	log *syncBuffer
}

// syncBuffer is a log sink the handlers write to from their goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

const sqliteExports = `
max_concurrent: %d
queue_timeout: 200ms
%s
exports:
  - name: items
    title: Items
    description: Items from a number on.
    params:
      - {name: from, type: int, default: "1"}
      - {name: kind, type: text, choices: [a, b]}
    sheets:
      - name: Items
        sql: SELECT id, name, price, day, ok FROM items WHERE id >= :from AND (:kind = '' OR kind = :kind) ORDER BY id
      - name: Summary
        sql: SELECT kind, COUNT(*) AS n FROM items GROUP BY kind ORDER BY kind
  - name: big
    sheets:
      - sql: WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM g WHERE x < 3000000) SELECT x, 'row ' || x AS label FROM g
  - name: noise
    sheets:
      - sql: WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM g WHERE x < 40000) SELECT x, hex(randomblob(600)) AS h FROM g
  - name: failing
    sheets:
      - sql: WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM g WHERE x < 300000) SELECT x, CASE WHEN x > 200000 THEN abs(-9223372036854775808) ELSE x END AS y FROM g
`

func (f *fixture) get(path string, hdr ...string) (*http.Response, []byte) {
	f.t.Helper()
	return f.do("GET", path, hdr...)
}

// do sends a request of method to path with the headers given as name,
// value pairs, and reads the whole answer.
func (f *fixture) do(method, path string, hdr ...string) (*http.Response, []byte) {
	f.t.Helper()
	req, _ := http.NewRequest(method, f.url+path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatalf("%s: reading the body: %v", path, err)
	}
	return resp, body
}

// checkInternalError gets path and wants a 500 whose body has an error id
// and not the database's words (detail), which the log has under that id.
func (f *fixture) checkInternalError(path, detail string) {
	f.t.Helper()
	resp, body := f.get(path)
	var withID struct {
		ID string `json:"error_id"`
	}
	json.Unmarshal(body, &withID)
	if resp.StatusCode != 500 || withID.ID == "" || strings.Contains(string(body), detail) {
		f.t.Errorf("%s: %d %s; want 500 with an error id and without %q", path, resp.StatusCode, body, detail)
		return
	}
	for _, line := range strings.Split(f.log.String(), "\n") {
		if strings.Contains(line, "error_id="+withID.ID) {
			if !strings.Contains(line, detail) {
				f.t.Errorf("%s: the log line of error %s lacks %q: %s", path, withID.ID, detail, line)
			}
			return
		}
	}
	f.t.Errorf("%s: no log line names error %s:\n%s", path, withID.ID, f.log.String())
}

func (f *fixture) metric(name string) string {
	_, body := f.get("/metrics", "Authorization", "Bearer "+f.srv.cfg.Token)
	for _, line := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(line, name+" ") {
			return strings.TrimPrefix(line, name+" ")
		}
	}
	return ""
}

func TestServiceSQLite(t *testing.T) {
	f := newFixture(t, 4, "")

	resp, body := f.get("/api/exports")
	var list struct{ Exports []map[string]any }
	if resp.StatusCode != 200 || json.Unmarshal(body, &list) != nil || len(list.Exports) != 4 || list.Exports[0]["title"] != "Items" {
		t.Fatalf("list: %d %s", resp.StatusCode, body)
	}
	if strings.Contains(string(body), "sqlite:") || strings.Contains(string(body), "SELECT") {
		t.Errorf("the list shows database URLs or SQL: %s", body)
	}

	resp, body = f.get("/exports/items.xlsx?from=4998&kind=a")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Disposition") != `attachment; filename="items.xlsx"` ||
		!strings.Contains(resp.Header.Get("Content-Type"), "spreadsheetml") {
		t.Fatalf("download: %d %v", resp.StatusCode, resp.Header)
	}
	book := readBook(t, body)
	wantItems := []string{"id|name|price|day|ok", "4998|item 4998|1249.5|2025-09-11T00:00:00|FALSE", "5000|item 5000|1250|2025-09-13T00:00:00|FALSE"}
	if strings.Join(book["Items"], "\n") != strings.Join(wantItems, "\n") || strings.Join(book["Summary"], ",") != "kind|n,a|2500,b|2500" {
		t.Errorf("workbook: %q", book)
	}
	// openpyxl reads the same download.
	path := filepath.Join(t.TempDir(), "items.xlsx")
	os.WriteFile(path, body, 0o644)
	if r := pyread.ReadValues(t, path)[path]; r == nil || r.Error != "" || len(r.Openpyxl["Items"]) != 3 || len(r.Calamine["Summary"]) != 3 {
		t.Errorf("openpyxl/calamine: %+v", r)
	}

	resp, body = f.get("/api/exports/items/preview?limit=2&from=10")
	var pv struct {
		Columns []string
		Rows    [][]*previewCell
	}
	if resp.StatusCode != 200 || json.Unmarshal(body, &pv) != nil {
		t.Fatalf("preview: %d %s", resp.StatusCode, body)
	}
	if strings.Join(pv.Columns, ",") != "id,name,price,day,ok" || len(pv.Rows) != 2 ||
		pv.Rows[0][0].Type != "number" || pv.Rows[0][0].Value != 10.0 || pv.Rows[0][3].Type != "date" || pv.Rows[0][4].Type != "bool" || pv.Rows[1][1].Value != "item 11" {
		t.Errorf("preview: %s", body)
	}

	for path, want := range map[string]string{
		"/exports/items.xlsx?from=ten":            `parameter \"from\": \"ten\" is not a whole number`,
		"/exports/items.xlsx?kind=c":              `parameter \"kind\": \"c\" is not one of a, b`,
		"/exports/items.xlsx?form=1":              `parameter \"form\": is not a parameter of this export`,
		"/api/exports/items/preview?limit=100000": `parameter \"limit\": want 1 to 1000`,
	} {
		if resp, body := f.get(path); resp.StatusCode != 400 || !strings.Contains(string(body), want) {
			t.Errorf("%s: %d %s, want 400 with %s", path, resp.StatusCode, body, want)
		}
	}
	for _, path := range []string{"/exports/nope.xlsx", "/api/exports/nope/preview", "/exports/items.pdf", "/exports/nope.csv"} {
		if resp, _ := f.get(path); resp.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", path, resp.StatusCode)
		}
	}
	if resp, body := f.get("/healthz"); resp.StatusCode != 200 || string(body) != "ok\n" {
		t.Errorf("healthz: %d %s", resp.StatusCode, body)
	}
	if got := f.metric(`sheetstream_downloads_total{export="items",status="ok"}`); got != "1" {
		t.Errorf("metrics: downloads %q", got)
	}
	if got := f.metric(`sheetstream_rows_total{export="items"}`); got != "4" {
		t.Errorf("metrics: rows %q", got)
	}
	if resp, body := f.get("/"); resp.StatusCode != 200 || !strings.Contains(string(body), "<h1>Exports</h1>") {
		t.Errorf("page: %d", resp.StatusCode)
	}
}

func TestServiceToken(t *testing.T) {
	f := newFixture(t, 2, "token: s3cret")
	if resp, _ := f.get("/api/exports"); resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") == "" {
		t.Errorf("no token: %d", resp.StatusCode)
	}
	if resp, _ := f.get("/exports/items.xlsx", "Authorization", "Bearer wrong"); resp.StatusCode != 401 {
		t.Errorf("wrong token: %d", resp.StatusCode)
	}
	if resp, _ := f.get("/exports/items.xlsx", "Authorization", "Bearer s3cret"); resp.StatusCode != 200 {
		t.Errorf("right token: %d", resp.StatusCode)
	}
	if resp, _ := f.get("/healthz"); resp.StatusCode != 200 {
		t.Errorf("healthz needs no token: %d", resp.StatusCode)
	}
}

// startDownload begins a download and reads its first bytes, so that the
// export is running; the caller closes the body.
func (f *fixture) startDownload(ctx context.Context, name string) *http.Response {
	f.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", f.url+"/exports/"+name+".xlsx", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		f.t.Fatalf("%s: %d", name, resp.StatusCode)
	}
	if _, err := io.ReadFull(resp.Body, make([]byte, 1024)); err != nil {
		f.t.Fatal(err)
	}
	return resp
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestServiceOverLimit(t *testing.T) {
	f := newFixture(t, 1, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	held := f.startDownload(ctx, "big") // holds the only slot: its body is not read further
	defer held.Body.Close()
	resp, body := f.get("/exports/items.xlsx")
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "1" || !strings.Contains(string(body), "too many exports") {
		t.Errorf("over the limit: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	if got := f.metric("sheetstream_rejected_total"); got != "1" {
		t.Errorf("rejected %q", got)
	}
}

// TestServiceDisconnect: a client that goes away cancels its query, and
// nothing is left running.
func TestServiceDisconnect(t *testing.T) {
	f := newFixture(t, 2, "")
	f.get("/exports/items.xlsx") // warm up connections and goroutines
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	resp := f.startDownload(ctx, "big")
	if f.metric("sheetstream_downloads_in_flight") != "1" {
		t.Errorf("in flight: %s", f.metric("sheetstream_downloads_in_flight"))
	}
	cancel()
	resp.Body.Close()
	start := time.Now()
	waitFor(t, "the export to stop", func() bool {
		return f.metric(`sheetstream_downloads_total{export="big",status="cancelled"}`) == "1"
	})
	if d := time.Since(start); d > time.Second {
		t.Errorf("the query ran on for %v after the client left", d)
	}
	http.DefaultClient.CloseIdleConnections()
	waitFor(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
}

// TestServiceFailureMidStream: a query that fails after the response began
// must not look like a complete download.
func TestServiceFailureMidStream(t *testing.T) {
	f := newFixture(t, 2, "")
	resp, err := http.Get(f.url + "/exports/failing.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || err == nil {
		t.Fatalf("status %d, %d bytes, read error %v: the client must see a failed transfer", resp.StatusCode, len(body), err)
	}
	if len(body) == 0 {
		t.Error("no bytes before the failure: the test does not test a failure mid-stream")
	}
	if got := f.metric(`sheetstream_downloads_total{export="failing",status="error"}`); got != "1" {
		t.Errorf("error count %q", got)
	}
	// The log names the export and how far it got.
	if l := f.log.String(); !strings.Contains(l, `msg="export failed" name=failing rows=2000`) || !strings.Contains(l, "integer overflow") {
		t.Errorf("log: %s", l)
	}
}

// TestServicePostgres runs an export on a real PostgreSQL server: read-only
// transaction, bound parameters, a failure mid-stream.
func TestServicePostgres(t *testing.T) {
	pgURL := testenv.Get(t, "SHEETSTREAM_PG_URL", "starts a PostgreSQL server")
	db, err := sqlsheet.Open(pgURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`DROP TABLE IF EXISTS svc_items`,
		`CREATE TABLE svc_items AS SELECT g AS id, 'item ' || g AS name, g / 4.0 AS price, DATE '2025-01-01' + g % 365 AS day FROM generate_series(1, 5000) g`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := ParseConfig([]byte(`
database: "` + pgURL + `"
exports:
  - name: items
    params: [{name: from, type: int, default: "1"}, {name: since, type: date}]
    sheets: [{sql: "SELECT id, name, price, day FROM svc_items WHERE id >= :from AND (:since::date IS NULL OR day >= :since) ORDER BY id"}]
  - name: writer
    sheets: [{sql: "INSERT INTO svc_items (id) VALUES (-1) RETURNING id"}]
  - name: failing
    sheets: [{sql: "SELECT g, 1 / (200000 - g) FROM generate_series(1, 300000) g"}]
  - name: long
    sheets: [{sql: "SELECT g, 'killable ' || g FROM generate_series(1, 20000000) g"}]
`))
	if err != nil {
		t.Fatal(err)
	}
	f := serve(t, cfg)

	resp, body := f.get("/exports/items.xlsx?from=4999&since=" + url.QueryEscape("2025-01-01"))
	if got := readBook(t, body)["Sheet1"]; resp.StatusCode != 200 || strings.Join(got, ",") != "id|name|price|day,4999|item 4999|1249.75|2025-09-12T00:00:00,5000|item 5000|1250|2025-09-13T00:00:00" {
		t.Errorf("download: %d %q", resp.StatusCode, got)
	}
	// The same as CSV, from PostgreSQL's binary rows.
	if resp, body := f.get("/exports/items.csv?from=4999"); resp.StatusCode != 200 ||
		string(body) != "id,name,price,day\n4999,item 4999,1249.75,2025-09-12\n5000,item 5000,1250,2025-09-13\n" {
		t.Errorf("items.csv: %d %q", resp.StatusCode, body)
	}
	f.checkInternalError("/exports/writer.xlsx", "read-only")
	r, err := http.Get(f.url + "/exports/failing.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err == nil || len(got) == 0 {
		t.Errorf("failing export: %d bytes, error %v; want bytes, then a failed transfer", len(got), err)
	}

	// The database kills the export's backend mid-stream: the client sees
	// a failed transfer too.
	resp2 := f.startDownload(context.Background(), "long")
	defer resp2.Body.Close()
	if _, err := db.Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%killable%' AND pid <> pg_backend_pid()`); err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, resp2.Body); err == nil {
		t.Error("the download of a killed query ended as if complete")
	}
}

// TestPreviewSheet: ?sheet=N (1-based) or ?sheet=NAME previews a sheet
// after the first; another value is a 400 naming the parameter.
func TestPreviewSheet(t *testing.T) {
	f := newFixture(t, 4, "")
	for _, q := range []string{"sheet=2", "sheet=Summary"} {
		resp, body := f.get("/api/exports/items/preview?" + q)
		var p struct {
			Sheet   string
			Columns []string
		}
		if json.Unmarshal(body, &p); resp.StatusCode != 200 || p.Sheet != "Summary" || strings.Join(p.Columns, ",") != "kind,n" {
			t.Errorf("%s: %d %s", q, resp.StatusCode, body)
		}
	}
	for _, q := range []string{"sheet=3", "sheet=0", "sheet=Nope"} {
		if resp, body := f.get("/api/exports/items/preview?" + q); resp.StatusCode != 400 || !strings.Contains(string(body), `\"sheet\": want 1 to 2`) {
			t.Errorf("%s: %d %s", q, resp.StatusCode, body)
		}
	}
	if _, body := f.get("/api/exports/items/preview"); !strings.Contains(string(body), `"sheet":"Items"`) {
		t.Errorf("the first sheet by default: %s", body)
	}
}

// TestDownloadCSV: /exports/NAME.csv streams a sheet's query as CSV:
// dates as days, decimals as written, text a spreadsheet would run as a
// formula escaped; an export of several sheets needs ?sheet; a failure
// after the first bytes ends the transfer unfinished, never as a whole
// file.
func TestDownloadCSV(t *testing.T) {
	f := newFixture(t, 4, "")
	resp, body := f.get("/exports/items.csv?from=4999&sheet=1")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
		resp.Header.Get("Content-Disposition") != `attachment; filename="items.csv"` ||
		string(body) != "id,name,price,day,ok\n4999,item 4999,1249.75,2025-09-12,TRUE\n5000,item 5000,1250,2025-09-13,FALSE\n" {
		t.Errorf("items.csv: %d %v %q", resp.StatusCode, resp.Header, body)
	}
	if resp, body := f.get("/exports/items.csv?sheet=Summary"); resp.StatusCode != 200 || string(body) != "kind,n\na,2500\nb,2500\n" {
		t.Errorf("items.csv, Summary: %d %q", resp.StatusCode, body)
	}
	if resp, body := f.get("/exports/items.csv"); resp.StatusCode != 400 || !strings.Contains(string(body), "has 2 sheets") {
		t.Errorf("items.csv without sheet: %d %s", resp.StatusCode, body)
	}
	// A formula's text is escaped.
	xdb := filepath.Join(t.TempDir(), "x.db")
	if db, err := sqlsheet.Open("sqlite:" + xdb); err == nil {
		db.Exec("CREATE TABLE t (x INTEGER)")
		db.Close()
	}
	g := serve(t, mustParse(t, `database: "sqlite:`+xdb+`"
exports:
  - name: risky
    sheets: [{sql: "SELECT '=HYPERLINK(1)' AS a, '-2' AS b, -2 AS c"}]
`))
	if _, body := g.get("/exports/risky.csv"); string(body) != "a,b,c\n\"'=HYPERLINK(1)\",\"'-2\",-2\n" {
		t.Errorf("risky.csv: %q", body)
	}
	// A failure mid-stream: the client sees the transfer fail.
	resp2, err := http.Get(f.url + "/exports/failing.csv")
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, resp2.Body)
	resp2.Body.Close()
	if resp2.StatusCode == 200 && err == nil {
		t.Errorf("failing.csv: a whole response of %d bytes", n)
	}
}
