package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/jobs"
)

// jobFixture serves the test shop with background exports on a SQLite
// queue, into storage (a folder when "").
func jobFixture(t *testing.T, store string) *fixture {
	t.Helper()
	dir := t.TempDir()
	if store == "" {
		store = "file://" + filepath.Join(dir, "exports")
	}
	return newFixture(t, 2, fmt.Sprintf("jobs: sqlite:%s\nstorage: %q\njob_timeout: 30s", filepath.Join(dir, "queue.db"), store))
}

// waitJob polls a job until it ends.
func (f *fixture) waitJob(id string) map[string]any {
	f.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, body := f.get("/api/jobs/" + id)
		var j map[string]any
		if resp.StatusCode != 200 || json.Unmarshal(body, &j) != nil {
			f.t.Fatalf("job %s: %d %s", id, resp.StatusCode, body)
		}
		if s := j["state"]; s == "done" || s == "failed" || s == "cancelled" || time.Now().After(deadline) {
			return j
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestJobsAPI: an export submitted as a job runs in the background and
// its file downloads from the service; its parameters are read as
// strictly as a download's; the same Idempotency-Key is the same job; a
// permanent failure fails at once; jobs list newest first with a cursor;
// a running job is cancelled; an unknown id is 404.
func TestJobsAPI(t *testing.T) {
	f := jobFixture(t, "")
	resp, body := f.do("POST", "/api/exports/items/jobs?from=4990&kind=a")
	var sub struct{ ID, State, URL string }
	if resp.StatusCode != 202 || json.Unmarshal(body, &sub) != nil || sub.State != "queued" || sub.URL != "/api/jobs/"+sub.ID || resp.Header.Get("Location") != sub.URL {
		t.Fatalf("submit: %d %s", resp.StatusCode, body)
	}
	j := f.waitJob(sub.ID)
	if host, _ := os.Hostname(); j["worker"] != fmt.Sprintf("%s:%d", host, os.Getpid()) {
		t.Errorf("worker: %v", j["worker"])
	}
	if j["state"] != "done" || j["rows"] != float64(8) || j["attempts"] != float64(1) || j["export"] != "items" || j["download"] != "/api/jobs/"+sub.ID+"/file" {
		t.Fatalf("done: %v", j)
	}
	if p, _ := j["params"].(map[string]any); p["from"] != "4990" || p["kind"] != "a" {
		t.Errorf("params: %v", j["params"])
	}
	resp, book := f.get("/api/jobs/" + sub.ID + "/file")
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Disposition"), `filename="items.xlsx"`) {
		t.Fatalf("file: %d %v", resp.StatusCode, resp.Header)
	}
	if rows := readBook(t, book); len(rows["Items"]) != 7 || len(rows["Summary"]) != 3 {
		t.Errorf("the job's workbook: %v", rows)
	}
	if j["bytes"] != float64(len(book)) {
		t.Errorf("bytes %v, the file has %d", j["bytes"], len(book))
	}
	for path, want := range map[string]int{
		"/api/exports/items/jobs?from=ten":      400,
		"/api/exports/items/jobs?city=Oslo":     400,
		"/api/exports/items/jobs?kind=a&kind=b": 400,
		"/api/exports/nope/jobs":                404,
	} {
		if resp, body := f.do("POST", path); resp.StatusCode != want {
			t.Errorf("POST %s: %d %s, want %d", path, resp.StatusCode, body, want)
		}
	}
	_, b1 := f.do("POST", "/api/exports/items/jobs?from=5000", "Idempotency-Key", "monday")
	_, b2 := f.do("POST", "/api/exports/items/jobs?from=5000", "Idempotency-Key", "monday")
	var s1, s2 struct{ ID string }
	json.Unmarshal(b1, &s1)
	json.Unmarshal(b2, &s2)
	if s1.ID == "" || s1.ID != s2.ID {
		t.Errorf("the same Idempotency-Key: %s and %s", s1.ID, s2.ID)
	}
	_, b3 := f.do("POST", "/api/exports/failing/jobs")
	var failing struct{ ID string }
	json.Unmarshal(b3, &failing)
	fj := f.waitJob(failing.ID)
	if fj["state"] != "failed" || fj["attempts"] != float64(1) || !strings.Contains(fj["error"].(string), "error_id") || fj["download"] != nil ||
		fj["error_id"] == nil || !strings.Contains(f.log.String(), "error_id="+fj["error_id"].(string)) {
		t.Errorf("a failing export: %v", fj)
	}
	if resp, body := f.get("/api/jobs/" + sub.ID + "/file?link"); resp.StatusCode != 200 || string(body) != "{\"url\":\"\"}\n" {
		t.Errorf("?link on a folder: %d %s", resp.StatusCode, body)
	}
	if resp, _ := f.get("/api/jobs/" + sub.ID + "/file?nope"); resp.StatusCode != 400 {
		t.Errorf("an unknown query word: %d", resp.StatusCode)
	}
	if resp, _ := f.get("/api/jobs/" + failing.ID + "/file"); resp.StatusCode != 409 {
		t.Errorf("a failed job's file: %d", resp.StatusCode)
	}
	_, b4 := f.do("POST", "/api/exports/big/jobs")
	var big struct{ ID string }
	json.Unmarshal(b4, &big)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, body := f.get("/api/jobs/" + big.ID); strings.Contains(string(body), `"state":"running"`) {
			break
		}
	}
	if resp, body := f.do("DELETE", "/api/jobs/"+big.ID); resp.StatusCode != 200 {
		t.Errorf("cancel: %d %s", resp.StatusCode, body)
	}
	if bj := f.waitJob(big.ID); bj["state"] != "cancelled" {
		t.Errorf("a cancelled job: %v", bj)
	}
	resp, body = f.get("/api/jobs?limit=2")
	var list struct {
		Jobs []map[string]any
		Next string
	}
	if resp.StatusCode != 200 || json.Unmarshal(body, &list) != nil || len(list.Jobs) != 2 || list.Jobs[0]["id"] != big.ID || list.Next != list.Jobs[1]["id"] {
		t.Fatalf("list: %d %s", resp.StatusCode, body)
	}
	_, body = f.get("/api/jobs?limit=100&after=" + list.Next)
	var rest struct{ Jobs []map[string]any }
	json.Unmarshal(body, &rest)
	if len(rest.Jobs) != 2 || rest.Jobs[1]["id"] != sub.ID {
		t.Errorf("the next page: %s", body)
	}
	num, _, _ := strings.Cut(sub.ID, "-")
	for _, id := range []string{num, num + "-" + strings.Repeat("a", 32), "nope"} {
		if resp, _ := f.get("/api/jobs/" + id); resp.StatusCode != 404 {
			t.Errorf("job %q: %d", id, resp.StatusCode)
		}
	}
	if resp, _ := f.do("POST", "/api/exports/items/jobs", "Origin", "https://evil.example"); resp.StatusCode != 403 {
		t.Errorf("a cross-site submit: %d", resp.StatusCode)
	}
	if got := f.metric(`sheetstream_jobs{state="done"}`); got != "2" {
		t.Errorf("jobs done in the queue: %q, want 2", got)
	}
	if got := f.metric(`sheetstream_jobs{state="failed"}`); got != "1" {
		t.Errorf("jobs failed in the queue: %q, want 1", got)
	}
	if got := f.metric(`sheetstream_job_attempts_total{outcome="failed"}`); got != "1" {
		t.Errorf("failed attempts: %q", got)
	}
	if got := f.metric(`sheetstream_job_upload_bytes_total`); got == "" || got == "0" {
		t.Errorf("bytes stored: %q", got)
	}
	if resp, body := f.get("/healthz"); resp.StatusCode != 200 {
		t.Errorf("healthz with jobs: %d %s", resp.StatusCode, body)
	}
	// A service without jobs says so.
	plain := newFixture(t, 2, "")
	if resp, body := plain.do("POST", "/api/exports/items/jobs"); resp.StatusCode != 404 || !strings.Contains(string(body), "jobs:") {
		t.Errorf("no jobs configured: %d %s", resp.StatusCode, body)
	}
}

// TestJobsS3: with S3 storage the file's link is a signed redirect to
// the object, which holds the workbook.
func TestJobsS3(t *testing.T) {
	raw := testenv.Get(t, "SHEETSTREAM_S3_URL", "starts an S3 server (versitygw)")
	t.Setenv("AWS_ACCESS_KEY_ID", os.Getenv("SHEETSTREAM_S3_ACCESS_KEY"))
	t.Setenv("AWS_SECRET_ACCESS_KEY", os.Getenv("SHEETSTREAM_S3_SECRET_KEY"))
	bucket, query, _ := strings.Cut(strings.TrimPrefix(raw, "s3://"), "?")
	f := jobFixture(t, "s3://"+bucket+"/"+fmt.Sprint(time.Now().UnixNano())+"?"+query)
	_, body := f.do("POST", "/api/exports/items/jobs?from=4001")
	var sub struct{ ID string }
	json.Unmarshal(body, &sub)
	if j := f.waitJob(sub.ID); j["state"] != "done" {
		t.Fatalf("job: %v", j)
	}
	_, linked := f.get("/api/jobs/" + sub.ID + "/file?link")
	var link struct{ URL string }
	if json.Unmarshal(linked, &link) != nil || !strings.Contains(link.URL, "X-Amz-Signature") {
		t.Errorf("?link: %s", linked)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(f.url + "/api/jobs/" + sub.ID + "/file")
	if err != nil || resp.StatusCode != http.StatusFound || !strings.Contains(resp.Header.Get("Location"), "X-Amz-Signature") {
		t.Fatalf("file link: %v %v", resp, err)
	}
	resp, err = http.Get(resp.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	book, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if rows := readBook(t, book); len(rows["Items"]) != 1001 || !strings.Contains(resp.Header.Get("Content-Disposition"), "items.xlsx") {
		t.Errorf("the object: %d rows, %q", len(rows["Items"]), resp.Header.Get("Content-Disposition"))
	}
}

// TestSchedulesConfig: a configured schedule's slots become jobs that run
// and say which schedule and slot they are; schedules naming a missing
// export, a parameter the export refuses or a bad cron expression are
// refused at load, and so are schedules without a queue.
func TestSchedulesConfig(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("SHEETSTREAM_TEST_HOOK_SECRET", "s3cret")
	var hooks atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get(jobs.SignatureHeader) == jobs.Sign([]byte("s3cret"), body) && strings.Contains(string(body), `"schedule":"every-second"`) {
			hooks.Add(1)
		}
	}))
	defer hook.Close()
	f := newFixture(t, 2, fmt.Sprintf(`jobs: sqlite:%s
storage: file://%s
schedules:
  - {name: every-second, export: items, params: {from: "4999"}, every: 1s, key: 'items/{{.Time.Format "150405"}}.xlsx',
     notify: {webhook: %q, secret_env: SHEETSTREAM_TEST_HOOK_SECRET}}`,
		filepath.Join(dir, "queue.db"), filepath.Join(dir, "files"), hook.URL))
	var done []map[string]any
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		_, body := f.get("/api/jobs?limit=100")
		var list struct{ Jobs []map[string]any }
		json.Unmarshal(body, &list)
		done = done[:0]
		for _, j := range list.Jobs {
			if j["state"] == "done" {
				done = append(done, j)
			}
		}
		if len(done) >= 2 {
			break
		}
	}
	if len(done) < 2 {
		t.Fatalf("scheduled jobs done: %v", done)
	}
	for _, j := range done {
		slot, _ := time.Parse(time.RFC3339, fmt.Sprint(j["slot"]))
		if j["schedule"] != "every-second" || slot.IsZero() || j["owner"] != "schedule:every-second" || j["rows"] != float64(4) {
			t.Errorf("a scheduled job: %v", j)
		}
		if _, err := os.Stat(filepath.Join(dir, "files", "items", slot.Format("150405")+".xlsx")); err != nil {
			t.Errorf("its file by the key template: %v", err)
		}
	}
	waitFor(t, "signed webhooks of the scheduled jobs", func() bool { return hooks.Load() >= 2 })
	for _, c := range []struct{ yaml, want string }{
		{"- {name: s, export: items, every: 1h, notify: {webhook: 'ftp://x'}}", "notify.webhook"},
		{"- {name: s, export: items, every: 1h, notify: {webhook: 'http://x', secret_env: SHEETSTREAM_TEST_UNSET}}", "secret_env"},
		{"- {name: s, export: items, every: 1h, keep: 3x}", "duration"},
		{"- {name: s, export: nope, every: 1h}", `no export named "nope"`},
		{"- {name: s, export: items, params: {from: ten}, every: 1h}", `parameter "from"`},
		{"- {name: s, export: items, cron: '61 * * * *'}", `cron "61 * * * *"`},
		{"- {name: s, export: items, every: 1h, timezone: Mars/Olympus}", "timezone"},
	} {
		_, err := ParseConfig([]byte(fmt.Sprintf(sqliteExports, 2, "database: sqlite:x.db\nschedules:\n  "+c.yaml)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.yaml, err, c.want)
		}
	}
	cfg, err := ParseConfig([]byte(fmt.Sprintf(sqliteExports, 2, "database: sqlite:x.db\nschedules: [{name: s, export: items, every: 1h}]")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(cfg, nil); err == nil || !strings.Contains(err.Error(), "schedules need a queue") {
		t.Errorf("schedules without a queue: %v", err)
	}
}
