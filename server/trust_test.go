package server

// The third review's findings, each done the way the review did it: a
// real HTTP client (raw sockets where headers repeat) against a running
// service, tokens of a local OpenID Connect issuer that publishes its
// discovery document and keys over HTTP as any issuer does.

import (
	"bufio"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/sheetstream/sheetstream/auth"
)

// testIssuer is an OpenID Connect issuer of the tests' own: discovery
// and JWKS over HTTP, RS256 tokens with whatever claims a test gives.
type testIssuer struct {
	url    string
	signer jose.Signer
}

func newTestIssuer(t *testing.T) *testIssuer {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	iss := &testIssuer{}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"issuer": iss.url, "jwks_uri": iss.url + "/keys",
			"authorization_endpoint": iss.url + "/auth", "token_endpoint": iss.url + "/token",
			"id_token_signing_alg_values_supported": []string{"RS256"}})
	})
	mux.HandleFunc("/keys", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k1", Algorithm: "RS256", Use: "sig"}}})
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	iss.url = ts.URL
	iss.signer, err = jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: "k1"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return iss
}

// token signs claims, with iss, aud "sheetstream", exp and iat added.
func (iss *testIssuer) token(t *testing.T, claims map[string]any) string {
	t.Helper()
	all := map[string]any{"iss": iss.url, "aud": "sheetstream", "exp": time.Now().Add(time.Hour).Unix(), "iat": time.Now().Unix()}
	for k, v := range claims {
		all[k] = v
	}
	payload, _ := json.Marshal(all)
	obj, err := iss.signer.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	s, err := obj.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// trustFixture serves the sales database with OIDC bearer tokens of iss,
// a trusted proxy on loopback, a static token, jobs (workers as given)
// and the exports of exports.
func trustFixture(t *testing.T, iss *testIssuer, dir, extra, exports string) *fixture {
	t.Helper()
	token, sum := auth.NewToken()
	os.WriteFile(filepath.Join(dir, "token"), []byte(token), 0o600)
	cfg := mustParse(t, fmt.Sprintf(`database: sqlite:%s
jobs: sqlite:%s
storage: file://%s
audit_log: %s
%s
auth:
  admin_groups: [ops]
  oidc: {issuer: %q, audience: sheetstream}
  proxy: {user_header: X-Forwarded-User, email_header: X-Forwarded-Email, groups_header: X-Forwarded-Groups, trusted: [127.0.0.1]}
  tokens:
    - {name: ci, sha256: %s, groups: [sales]}
exports:
%s`, salesDB(t, dir), filepath.Join(dir, "queue.db"), filepath.Join(dir, "files"), filepath.Join(dir, "audit.jsonl"), extra, iss.url, sum, exports))
	return serve(t, cfg)
}

const trustExports = `  - name: alices
    allow: [user:alice@example.com]
    sheets: [{name: S, sql: "SELECT id, amount FROM sales ORDER BY id"}]
  - name: sales
    allow: [group:sales]
    sheets: [{name: S, sql: "SELECT id, amount FROM sales ORDER BY id"}]
  - name: open
    allow: [any]
    sheets: [{name: S, sql: "SELECT 1 AS one"}]
  - name: mine
    allow: [any]
    params: [{name: mail, from: "claim:email", required: false}]
    sheets: [{name: S, sql: "SELECT :mail AS mail"}]
`

func bearerHdr(token string) []string { return []string{"Authorization", "Bearer " + token} }

// TestUnverifiedEmail: an email the issuer has not verified identifies
// nobody: user:EMAIL does not match it, and claim:email does not read it.
func TestUnverifiedEmail(t *testing.T) {
	iss := newTestIssuer(t)
	f := trustFixture(t, iss, t.TempDir(), "", trustExports)
	for _, c := range []struct {
		verified any
		want     int
	}{{false, 404}, {nil, 404}, {"false", 404}, {true, 200}, {"true", 200}} {
		claims := map[string]any{"sub": "mallory-1", "email": "alice@example.com"}
		if c.verified != nil {
			claims["email_verified"] = c.verified
		}
		tok := iss.token(t, claims)
		if resp, body := f.get("/exports/alices.xlsx", bearerHdr(tok)...); resp.StatusCode != c.want {
			t.Errorf("email_verified %v: %d %s, want %d", c.verified, resp.StatusCode, body, c.want)
		}
		resp, body := f.get("/api/session", bearerHdr(tok)...)
		var who struct{ Email string }
		json.Unmarshal(body, &who)
		if (who.Email != "") != (c.want == 200) {
			t.Errorf("email_verified %v: the session shows email %q (%d)", c.verified, who.Email, resp.StatusCode)
		}
	}
	// A parameter bound to claim:email does not read an unverified one.
	tok := iss.token(t, map[string]any{"sub": "mallory-2", "email": "alice@example.com", "email_verified": false})
	if resp, body := f.get("/exports/mine.xlsx", bearerHdr(tok)...); resp.StatusCode == 200 && strings.Contains(fmt.Sprint(readBook(t, body)), "alice@") {
		t.Errorf("claim:email read an unverified email: %v", readBook(t, body))
	}
}

// TestIDTokenNotBearer: an ID token (a nonce, an at_hash, typ ID) is
// refused as a bearer token; an access token typed Bearer is taken.
func TestIDTokenNotBearer(t *testing.T) {
	iss := newTestIssuer(t)
	f := trustFixture(t, iss, t.TempDir(), "", trustExports)
	for _, c := range []struct {
		claims map[string]any
		want   int
	}{
		{map[string]any{"nonce": "n-1"}, 401},
		{map[string]any{"at_hash": "abc"}, 401},
		{map[string]any{"typ": "ID"}, 401},
		{map[string]any{"typ": "Bearer", "nonce": "n-2"}, 200},
		{map[string]any{}, 200},
	} {
		c.claims["sub"], c.claims["groups"] = "alice-sub", []string{"sales"}
		if resp, body := f.get("/exports/sales.xlsx", bearerHdr(iss.token(t, c.claims))...); resp.StatusCode != c.want {
			t.Errorf("%v: %d %s, want %d", c.claims, resp.StatusCode, body, c.want)
		}
	}
}

// TestIdentityNamespaces: an OIDC sub or a proxy user spelling another
// method's identity is refused, and identities of different methods with
// the same subject own different jobs and rate-limit buckets.
func TestIdentityNamespaces(t *testing.T) {
	iss := newTestIssuer(t)
	dir := t.TempDir()
	f := trustFixture(t, iss, dir, "job_workers: 0\nrate_limit: {jobs_per_hour: 2}", trustExports)
	for _, sub := range []string{"token:ci", "schedule:nightly", "shared-token", "oidc:x|y", "proxy:bob", " ", "\u00a0", "\u2003\u00a0"} {
		if resp, body := f.get("/api/exports", bearerHdr(iss.token(t, map[string]any{"sub": sub}))...); resp.StatusCode != 401 {
			t.Errorf("OIDC sub %q: %d %s, want 401", sub, resp.StatusCode, body)
		}
	}
	for _, user := range []string{"token:ci", "schedule:nightly", "shared-token", "\u00a0", " \u2002 ", "\u200b"} {
		resp, body := f.get("/api/exports", "X-Forwarded-User", user, "X-Forwarded-Groups", "ops")
		if resp.StatusCode != 401 {
			t.Errorf("proxy user %q: %d %s, want 401", user, resp.StatusCode, body)
		}
	}
	// "bob" through the proxy and "bob" through the issuer are two people.
	viaProxy := []string{"X-Forwarded-User", "bob", "X-Forwarded-Groups", "sales"}
	viaOIDC := bearerHdr(iss.token(t, map[string]any{"sub": "bob", "groups": []string{"sales"}}))
	resp, body := f.do("POST", "/api/exports/sales/jobs", viaProxy...)
	var job struct{ ID string }
	if resp.StatusCode != 202 || json.Unmarshal(body, &job) != nil {
		t.Fatalf("proxy bob's job: %d %s", resp.StatusCode, body)
	}
	if resp, _ := f.get("/api/jobs/"+job.ID, viaOIDC...); resp.StatusCode != 404 {
		t.Errorf("OIDC bob reads proxy bob's job: %d", resp.StatusCode)
	}
	_, body = f.get("/api/jobs", viaOIDC...)
	if strings.Contains(string(body), job.ID) {
		t.Errorf("OIDC bob lists proxy bob's job: %s", body)
	}
	var j struct{ Owner string }
	_, body = f.get("/api/jobs/"+job.ID, viaProxy...)
	if json.Unmarshal(body, &j); j.Owner != "proxy:bob" {
		t.Errorf("proxy bob's job is owned by %q, want proxy:bob", j.Owner)
	}
	// Separate buckets: proxy bob's second job is within his two an hour,
	// and OIDC bob has two of his own.
	for i, hdr := range [][]string{viaProxy, viaOIDC, viaOIDC} {
		if resp, body := f.do("POST", "/api/exports/sales/jobs", hdr...); resp.StatusCode != 202 {
			t.Errorf("job %d: %d %s", i+2, resp.StatusCode, body)
		}
	}
	if resp, _ := f.do("POST", "/api/exports/sales/jobs", viaProxy...); resp.StatusCode != 429 {
		t.Errorf("proxy bob's third job an hour: %d, want 429", resp.StatusCode)
	}
	// The empty owner lists nothing, never everyone's: an admin's list is
	// explicit.
	_, body = f.get("/api/jobs", "X-Forwarded-User", "carol", "X-Forwarded-Groups", "sales")
	if strings.Contains(string(body), job.ID) {
		t.Errorf("carol lists bob's job: %s", body)
	}
}

// TestRepeatedIdentityHeaders: an identity header given twice is
// refused with 400, sent on a raw socket as a proxy that appends would.
func TestRepeatedIdentityHeaders(t *testing.T) {
	iss := newTestIssuer(t)
	f := trustFixture(t, iss, t.TempDir(), "", trustExports)
	addr := f.ts.Listener.Addr().String()
	for _, headers := range []string{
		"X-Forwarded-User: admin@example.com\r\nX-Forwarded-User: bob@example.com\r\n",
		"X-Forwarded-User: bob@example.com\r\nX-Forwarded-Groups: sales\r\nX-Forwarded-Groups: ops\r\n",
		"X-Forwarded-User: bob@example.com\r\nX-Forwarded-Email: a@example.com\r\nx-forwarded-email: b@example.com\r\n",
		"Authorization: Bearer x\r\nAuthorization: Bearer y\r\n",
	} {
		conn, r := rawRequest(t, addr, "GET /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n"+headers+"Connection: close\r\n\r\n")
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(r), nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 400 || !strings.Contains(string(body), "more than once") {
			t.Errorf("%q: %d %s, want 400", headers, resp.StatusCode, body)
		}
	}
	// Once each: fine.
	if resp, body := f.get("/api/session", "X-Forwarded-User", "bob@example.com", "X-Forwarded-Groups", "sales"); resp.StatusCode != 200 {
		t.Errorf("single headers: %d %s", resp.StatusCode, body)
	}
}

// TestJobAccessWithdrawn: a user removed from an export's allow list can
// no longer read, download or cancel its earlier jobs (a second service
// on the same queue and storage, with the new configuration); an admin
// still can.
func TestJobAccessWithdrawn(t *testing.T) {
	iss := newTestIssuer(t)
	dir := t.TempDir()
	alice := bearerHdr(iss.token(t, map[string]any{"sub": "alice-sub", "email": "alice@example.com", "email_verified": true}))
	before := trustFixture(t, iss, dir, "", trustExports)
	resp, body := before.do("POST", "/api/exports/alices/jobs", alice...)
	var job struct{ ID string }
	if resp.StatusCode != 202 || json.Unmarshal(body, &job) != nil {
		t.Fatalf("submit: %d %s", resp.StatusCode, body)
	}
	if j := before.waitJobAs(job.ID, alice); j["state"] != "done" {
		t.Fatalf("job: %v", j)
	}
	queued := func(f *fixture) string { // a second job, queued behind none
		resp, body := f.do("POST", "/api/exports/alices/jobs", alice...)
		var j struct{ ID string }
		json.Unmarshal(body, &j)
		if resp.StatusCode != 202 {
			t.Fatalf("second job: %d %s", resp.StatusCode, body)
		}
		return j.ID
	}(before)
	before.ts.Close()
	before.srv.Close()

	after := trustFixture(t, iss, dir, "job_workers: 0", strings.Replace(trustExports, "allow: [user:alice@example.com]", "allow: [user:someone-else@example.com]", 1))
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/jobs/" + job.ID}, {"GET", "/api/jobs/" + job.ID + "/file"}, {"DELETE", "/api/jobs/" + queued},
	} {
		if resp, body := after.do(c.method, c.path, alice...); resp.StatusCode != 404 {
			t.Errorf("%s %s after access was withdrawn: %d %s", c.method, c.path, resp.StatusCode, body)
		}
	}
	if _, body := after.get("/api/jobs", alice...); strings.Contains(string(body), shortID(job.ID)) {
		t.Errorf("the list still shows the job: %s", body)
	}
	admin := []string{"X-Forwarded-User", "root", "X-Forwarded-Groups", "ops"}
	if resp, _ := after.get("/api/jobs/"+job.ID+"/file", admin...); resp.StatusCode != 200 {
		t.Errorf("an admin reads the file: %d", resp.StatusCode)
	}
	audit, _ := os.ReadFile(filepath.Join(dir, "audit.jsonl"))
	if !strings.Contains(string(audit), "404 the export is no longer allowed") {
		t.Errorf("the refusals are not audited:\n%s", audit)
	}
}

// TestJobFlood: one identity's burst of jobs is capped at
// max_jobs_per_identity (429 with Retry-After past it, counted under a
// lock so a concurrent burst cannot pass it), others still submit; jobs
// never take every export slot, so a download runs beside two heavy
// jobs; an Idempotency-Key reused for another export is 422.
func TestJobFlood(t *testing.T) {
	iss := newTestIssuer(t)
	dir := t.TempDir()
	f := trustFixture(t, iss, dir, "job_workers: 0\nmax_jobs_per_identity: 5", trustExports)
	ci, _ := os.ReadFile(filepath.Join(dir, "token"))
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	retry := ""
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, _ := f.do("POST", "/api/exports/sales/jobs", bearerHdr(string(ci))...)
			mu.Lock()
			codes[resp.StatusCode]++
			if resp.StatusCode == 429 {
				retry = resp.Header.Get("Retry-After")
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if codes[202] != 5 || codes[429] != 35 || retry == "" {
		t.Errorf("40 jobs at once: %v (Retry-After %q), want 5 accepted and 35 refused", codes, retry)
	}
	if resp, body := f.do("POST", "/api/exports/sales/jobs", "X-Forwarded-User", "dora", "X-Forwarded-Groups", "sales"); resp.StatusCode != 202 {
		t.Errorf("another identity: %d %s", resp.StatusCode, body)
	}
	// At the cap, a retry with the Idempotency-Key of a job it made gets
	// that job (it adds none); a new key is refused.
	erin := []string{"X-Forwarded-User", "erin", "X-Forwarded-Groups", "sales"}
	var first struct{ ID string }
	for i := range 5 {
		resp, body := f.do("POST", "/api/exports/sales/jobs", append(erin, "Idempotency-Key", fmt.Sprintf("e-%d", i))...)
		if resp.StatusCode != 202 {
			t.Fatalf("erin's job %d: %d %s", i, resp.StatusCode, body)
		}
		if i == 0 {
			json.Unmarshal(body, &first)
		}
	}
	resp, body := f.do("POST", "/api/exports/sales/jobs", append(erin, "Idempotency-Key", "e-0")...)
	var again struct{ ID string }
	if json.Unmarshal(body, &again); resp.StatusCode != 202 || again.ID != first.ID {
		t.Errorf("a keyed retry at the cap: %d %s, want 202 and job %s", resp.StatusCode, body, first.ID)
	}
	if resp, _ := f.do("POST", "/api/exports/sales/jobs", append(erin, "Idempotency-Key", "e-new")...); resp.StatusCode != 429 {
		t.Errorf("a new key at the cap: %d, want 429", resp.StatusCode)
	}
	// Idempotency: the same key for another export is a conflict.
	dora := []string{"X-Forwarded-User", "dora", "X-Forwarded-Groups", "sales", "Idempotency-Key", "k-1"}
	if resp, body := f.do("POST", "/api/exports/sales/jobs", dora...); resp.StatusCode != 202 {
		t.Fatalf("keyed: %d %s", resp.StatusCode, body)
	}
	if resp, body := f.do("POST", "/api/exports/sales/jobs", dora...); resp.StatusCode != 202 {
		t.Errorf("the same key again: %d %s", resp.StatusCode, body)
	}
	if resp, body := f.do("POST", "/api/exports/open/jobs", dora...); resp.StatusCode != 422 {
		t.Errorf("the key for another export: %d %s, want 422", resp.StatusCode, body)
	}
}

// TestJobSlots: with two export slots, jobs hold at most one, so a
// download runs while heavy jobs wait; a job whose query makes nothing
// within write_timeout is stopped and fails, naming why.
func TestJobSlots(t *testing.T) {
	dir := t.TempDir()
	f := serve(t, mustParse(t, fmt.Sprintf(`database: sqlite:%s
jobs: sqlite:%s
storage: file://%s
write_timeout: 1s
max_concurrent: 2
job_workers: 2
exports:
  - name: big
    sheets: [{sql: "WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM g WHERE x < 3000000) SELECT x, 'row ' || x AS label FROM g"}]
  - name: silent
    sheets: [{sql: "SELECT count(*) AS n FROM (WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM g WHERE x < 100000000) SELECT x FROM g)"}]
  - name: small
    sheets: [{sql: "SELECT id, amount FROM sales"}]
`, salesDB(t, dir), filepath.Join(dir, "queue.db"), filepath.Join(dir, "files"))))
	submit := func(name string) string {
		resp, body := f.do("POST", "/api/exports/"+name+"/jobs")
		var j struct{ ID string }
		json.Unmarshal(body, &j)
		if resp.StatusCode != 202 {
			t.Fatalf("job: %d %s", resp.StatusCode, body)
		}
		return j.ID
	}
	ids := []string{submit("big"), submit("big")}
	waitFor(t, "a job to take its slot", func() bool { return len(f.srv.jobSlots) == 1 })
	time.Sleep(200 * time.Millisecond)
	if held := len(f.srv.slots); held != 1 {
		t.Errorf("jobs hold %d of the two export slots, want 1 (job_slots)", held)
	}
	if resp, _ := f.get("/exports/small.xlsx"); resp.StatusCode != 200 {
		t.Errorf("a download beside the jobs: %d, want 200", resp.StatusCode)
	}
	for _, id := range ids {
		f.do("DELETE", "/api/jobs/"+id)
	}
	j := f.waitJob(submit("silent"))
	if j["state"] != "failed" || !strings.Contains(fmt.Sprint(j["error"]), "write_timeout") {
		t.Errorf("a job silent past write_timeout: %v", j)
	}
}

// TestEncryptedNoPreview: an encrypted export's preview is refused as
// its CSV is, unless the configuration says preview: true.
func TestEncryptedNoPreview(t *testing.T) {
	t.Setenv("SHEETSTREAM_TEST_PREVIEW_PASSWORD", "pw")
	dir := t.TempDir()
	cfgText := fmt.Sprintf(`database: sqlite:%s
exports:
  - {name: locked, password_env: SHEETSTREAM_TEST_PREVIEW_PASSWORD, sheets: [{sql: "SELECT id, amount FROM sales"}]}
  - {name: shown, password_env: SHEETSTREAM_TEST_PREVIEW_PASSWORD, preview: true, sheets: [{sql: "SELECT id, amount FROM sales"}]}
  - {name: plain, preview: false, sheets: [{sql: "SELECT id, amount FROM sales"}]}
`, salesDB(t, dir))
	g := serve(t, mustParse(t, cfgText))
	for name, want := range map[string]int{"locked": 403, "shown": 200, "plain": 403} {
		resp, body := g.get("/api/exports/" + name + "/preview")
		if resp.StatusCode != want || want == 403 && strings.Contains(string(body), "amount") {
			t.Errorf("preview of %s: %d %s, want %d", name, resp.StatusCode, body, want)
		}
	}
	_, body := g.get("/api/exports")
	if !strings.Contains(string(body), `"name":"locked"`) || !strings.Contains(string(body), `"preview":false`) {
		t.Errorf("/api/exports does not say which exports have no preview: %s", body)
	}
}

// TestNoExistenceOracle: an export the caller may not use and one that
// does not exist answer alike: status, headers (names) and body.
func TestNoExistenceOracle(t *testing.T) {
	iss := newTestIssuer(t)
	f := trustFixture(t, iss, t.TempDir(), "", trustExports)
	bob := []string{"X-Forwarded-User", "bob", "X-Forwarded-Groups", "finance"}
	for _, paths := range [][2]string{
		{"/exports/alices.xlsx", "/exports/nosuch.xlsx"},
		{"/api/exports/alices/preview", "/api/exports/nosuch/preview"},
		{"/exports/alices.csv", "/exports/nosuch.csv"},
	} {
		r1, b1 := f.get(paths[0], bob...)
		r2, b2 := f.get(paths[1], bob...)
		same := strings.Replace(string(b1), "alices", "nosuch", 1) == string(b2)
		if r1.StatusCode != 404 || r2.StatusCode != 404 || !same || fmt.Sprint(headerNames(r1.Header)) != fmt.Sprint(headerNames(r2.Header)) {
			t.Errorf("%s and %s differ: %d %v %s / %d %v %s", paths[0], paths[1], r1.StatusCode, headerNames(r1.Header), b1, r2.StatusCode, headerNames(r2.Header), b2)
		}
	}
}

func headerNames(h http.Header) []string {
	var out []string
	for k := range h {
		if k != "Date" && k != "Content-Length" {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// TestAuditGaps: a cancel and a probe of another identity's job are
// audited; a flood of requests without credentials is recorded sampled,
// not a line each.
func TestAuditGaps(t *testing.T) {
	iss := newTestIssuer(t)
	dir := t.TempDir()
	f := trustFixture(t, iss, dir, "job_workers: 0", trustExports)
	bob := []string{"X-Forwarded-User", "bob", "X-Forwarded-Groups", "sales"}
	resp, body := f.do("POST", "/api/exports/sales/jobs", bob...)
	var job struct{ ID string }
	if resp.StatusCode != 202 || json.Unmarshal(body, &job) != nil {
		t.Fatalf("submit: %d %s", resp.StatusCode, body)
	}
	if resp, _ := f.get("/api/jobs/"+job.ID, "X-Forwarded-User", "eve", "X-Forwarded-Groups", "sales"); resp.StatusCode != 404 {
		t.Errorf("eve reads bob's job: %d", resp.StatusCode)
	}
	if resp, _ := f.do("DELETE", "/api/jobs/"+job.ID, bob...); resp.StatusCode != 200 {
		t.Errorf("cancel: %d", resp.StatusCode)
	}
	start := time.Now()
	for range 500 {
		f.get("/api/exports", "Authorization", "Bearer wrong")
	}
	elapsed := time.Since(start)
	audit, _ := os.ReadFile(filepath.Join(dir, "audit.jsonl"))
	text := string(audit)
	for _, want := range []string{`"subject":"eve","auth":"proxy","export":"sales","job":"` + shortID(job.ID) + `","outcome":"404 another identity's job"`,
		`"event":"job_cancel","subject":"bob","auth":"proxy","export":"sales","job":"` + shortID(job.ID)} {
		if !strings.Contains(text, want) {
			t.Errorf("the audit trail lacks %s", want)
		}
	}
	n401 := strings.Count(text, `"outcome":"401 `)
	if most := int(elapsed.Seconds()+2) * sampledPerSecond; n401 == 0 || n401 > most {
		t.Errorf("%d records of 500 refusals in %v, want 1 to %d", n401, elapsed, most)
	}
	if n401 < 500 && !strings.Contains(text, "such refusals before it not recorded") && elapsed > time.Second {
		t.Errorf("the records left out are not counted")
	}
}

// TestQueueFilePrivate: the SQLite queue and its WAL files are the
// owner's only.
func TestQueueFilePrivate(t *testing.T) {
	iss := newTestIssuer(t)
	dir := t.TempDir()
	f := trustFixture(t, iss, dir, "", trustExports)
	f.do("POST", "/api/exports/sales/jobs", "X-Forwarded-User", "bob", "X-Forwarded-Groups", "sales")
	for _, name := range []string{"queue.db", "queue.db-wal", "queue.db-shm"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			if name == "queue.db" {
				t.Fatal(err)
			}
			continue
		}
		if perm := fi.Mode().Perm(); perm != 0o600 {
			t.Errorf("%s is %04o, want 0600", name, perm)
		}
	}
}
