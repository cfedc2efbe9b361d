package server

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/keycloak"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
)

// oidcFixture serves exports on SQLite and PostgreSQL behind the test
// Keycloak: my-sales (group sales, rows of the caller's region claim) on
// each, payroll (group finance), my-groups (anyone: the caller's groups,
// an array on PostgreSQL), and the page's login with client
// sheetstream-page.
func oidcFixture(t *testing.T, kc *keycloak.Server) (*fixture, string) {
	pgURL := testenv.Get(t, "SHEETSTREAM_PG_URL", "starts a PostgreSQL server")
	dir := t.TempDir()
	dbPath := salesDB(t, dir)
	pg, err := sqlsheet.Open(pgURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	for _, q := range []string{`DROP TABLE IF EXISTS oidc_sales`,
		`CREATE TABLE oidc_sales AS SELECT g AS id, (ARRAY['north','south'])[g % 2 + 1] AS region, g * 10.0 AS amount FROM generate_series(1, 20) g`} {
		if _, err := pg.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("SHEETSTREAM_TEST_CLIENT_SECRET", "page-client-secret")
	audit := filepath.Join(dir, "audit.jsonl")
	f := serve(t, mustParse(t, fmt.Sprintf(`database: sqlite:%s
jobs: sqlite:%s
storage: file://%s
audit_log: %s
auth:
  admin_groups: [ops]
  oidc: {issuer: %q, audience: sheetstream, client_id: sheetstream-page, client_secret_env: SHEETSTREAM_TEST_CLIENT_SECRET}
exports:
  - name: my-sales
    allow: [group:sales]
    params: [{name: region, from: "claim:region"}]
    sheets: [{name: Sales, sql: "SELECT id, region, amount FROM sales WHERE region = :region ORDER BY id"}]
  - name: pg-sales
    database: %q
    allow: [group:sales]
    params: [{name: region, from: "claim:region"}]
    sheets: [{name: Sales, sql: "SELECT id, region, amount FROM oidc_sales WHERE region = :region ORDER BY id"}]
  - name: payroll
    allow: [group:finance, user:ops@example.com]
    sheets: [{sql: "SELECT 1 AS pay"}]
  - name: pg-groups
    database: %q
    allow: [any]
    params: [{name: groups, from: groups}, {name: who, from: email}]
    sheets: [{name: G, sql: "SELECT g AS grp, :who AS who FROM unnest(:groups::text[]) AS g WHERE g = ANY(:groups) ORDER BY g"}]
`, dbPath, filepath.Join(dir, "q.db"), filepath.Join(dir, "files"), audit, kc.Issuer, pgURL, pgURL)))
	return f, audit
}

// TestOIDCService: bearer tokens of a real issuer (Keycloak) by the
// password and client-credentials flows; exports by group; the row
// filter from the region claim giving two users of one group disjoint
// rows on SQLite and on PostgreSQL; groups bound as an array on
// PostgreSQL; refusals; jobs that belong to their owner; the audit.
func TestOIDCService(t *testing.T) {
	kc := keycloak.Get(t)
	f, audit := oidcFixture(t, kc)
	tokens := map[string]string{}
	for _, u := range []string{"alice", "bob", "carol", "fin", "ops"} {
		tokens[u] = kc.Password(t, u).Access
	}
	tokens["ci"] = kc.ClientCredentials(t, "sheetstream-ci", "ci-client-secret")
	as := func(who string) []string { return []string{"Authorization", "Bearer " + tokens[who]} }
	names := func(who string) string {
		_, body := f.get("/api/exports", as(who)...)
		var list struct{ Exports []struct{ Name string } }
		json.Unmarshal(body, &list)
		var out []string
		for _, e := range list.Exports {
			out = append(out, e.Name)
		}
		return strings.Join(out, " ")
	}
	for who, want := range map[string]string{"alice": "my-sales pg-sales pg-groups", "fin": "payroll pg-groups",
		"ops": "payroll pg-groups", "ci": "pg-groups"} {
		if got := names(who); got != want {
			t.Errorf("%s sees %q, want %q", who, got, want)
		}
	}
	if resp, _ := f.get("/exports/payroll.xlsx", as("alice")...); resp.StatusCode != 404 {
		t.Errorf("alice's payroll: %d, want 404", resp.StatusCode)
	}
	// The row filter, on both databases.
	for _, export := range []string{"my-sales", "pg-sales"} {
		rows := func(who string) []string {
			resp, body := f.get("/exports/"+export+".xlsx", as(who)...)
			if resp.StatusCode != 200 {
				t.Fatalf("%s's %s: %d %s", who, export, resp.StatusCode, body)
			}
			return readBook(t, body)["Sales"][1:]
		}
		north, south := rows("alice"), rows("bob")
		if len(north) != 10 || len(south) != 10 || !strings.Contains(north[0], "|north|") || !strings.Contains(south[0], "|south|") {
			t.Errorf("%s: alice %v, bob %v", export, north, south)
		}
		for _, r := range north {
			if slices.Contains(south, r) {
				t.Errorf("%s: a row both see: %s", export, r)
			}
		}
		if resp, body := f.get("/exports/"+export+".xlsx?region=south", as("alice")...); resp.StatusCode != 400 || !strings.Contains(string(body), `\"region\"`) {
			t.Errorf("%s: region in the query string: %d %s", export, resp.StatusCode, body)
		}
		if resp, body := f.get("/exports/"+export+".xlsx", as("carol")...); resp.StatusCode != 403 || !strings.Contains(string(body), "claim:region") {
			t.Errorf("%s: a token without the region claim: %d %s", export, resp.StatusCode, body)
		}
	}
	// Groups as an array on PostgreSQL (a JSON text would not cast to
	// text[], nor fit ANY).
	resp, body := f.get("/exports/pg-groups.xlsx", as("alice")...)
	if resp.StatusCode != 200 {
		t.Fatalf("alice's groups on PostgreSQL: %d %s\n%s", resp.StatusCode, body, f.log.String())
	}
	if fmt.Sprint(readBook(t, body)["G"]) != "[grp|who sales|alice@example.com]" {
		t.Errorf("alice's groups on PostgreSQL: %d %v", resp.StatusCode, readBook(t, body)["G"])
	}
	// Refusals at the door.
	resp, _ = f.get("/api/exports")
	if resp.StatusCode != 401 || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("no token: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	for name, token := range map[string]string{"truncated": tokens["alice"][:len(tokens["alice"])-5],
		"another audience": kc.ClientCredentials(t, "other-app", "other-client-secret"), "another issuer": kc.AdminToken(t)} {
		if resp, _ := f.get("/api/exports", "Authorization", "Bearer "+token); resp.StatusCode != 401 {
			t.Errorf("%s: %d", name, resp.StatusCode)
		}
	}
	// Jobs belong to whoever started them.
	_, body = f.do("POST", "/api/exports/pg-sales/jobs", as("alice")...)
	var sub struct{ ID string }
	json.Unmarshal(body, &sub)
	j := f.waitJobAs(sub.ID, as("alice"))
	if j["state"] != "done" || j["rows"] != float64(10) {
		t.Errorf("alice's job: %v", j)
	}
	for _, path := range []string{"/api/jobs/" + sub.ID, "/api/jobs/" + sub.ID + "/file"} {
		if resp, _ := f.get(path, as("bob")...); resp.StatusCode != 404 {
			t.Errorf("bob asks for alice's %s: %d", path, resp.StatusCode)
		}
	}
	if resp, _ := f.do("DELETE", "/api/jobs/"+sub.ID, as("bob")...); resp.StatusCode != 404 {
		t.Errorf("bob cancels alice's job: %d", resp.StatusCode)
	}
	if _, body := f.get("/api/jobs", as("ops")...); !strings.Contains(string(body), sub.ID) {
		t.Errorf("an admin's list lacks alice's job")
	}
	if resp, _ := f.get("/metrics", as("alice")...); resp.StatusCode != 404 {
		t.Errorf("/metrics for alice: %d", resp.StatusCode)
	}
	if _, m := f.get("/metrics", as("ops")...); !strings.Contains(string(m), "\nsheetstream_oidc_key_fetches_total 1\n") ||
		!strings.Contains(string(m), "sheetstream_auth_seconds_count ") {
		t.Errorf("/metrics for ops: %s", m)
	}
	trail, _ := os.ReadFile(audit)
	for _, want := range []string{`"event":"download","subject":"` + subjectOf(t, tokens["alice"]) + `","auth":"oidc","export":"my-sales"`,
		`"event":"job"`, `"outcome":"401 GET /api/exports"`} {
		if !strings.Contains(string(trail), want) {
			t.Errorf("the audit trail lacks %s", want)
		}
	}
	for _, token := range tokens {
		if strings.Contains(string(trail), token) || strings.Contains(f.log.String(), token) {
			t.Error("a token reached the audit trail or the log")
		}
	}
}

// TestOIDCLogin: the page's login by the authorization-code flow with
// PKCE through Keycloak's own login form (as a browser goes through it,
// with a cookie jar): a page without a session goes to the login; the
// session cookie is HttpOnly and SameSite=Lax; requests that change
// something need the session's CSRF token; logout ends the session.
func TestOIDCLogin(t *testing.T) {
	kc := keycloak.Get(t)
	f, audit := oidcFixture(t, kc)
	browser := keycloak.Browser()
	noFollow := *browser
	noFollow.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := noFollow.Get(f.url + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 302 || !strings.HasPrefix(resp.Header.Get("Location"), "/auth/login?next=") {
		t.Fatalf("the page without a session: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, err = noFollow.Get(f.url + "/auth/login?next=/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	authURL, _ := url.Parse(resp.Header.Get("Location"))
	q := authURL.Query()
	if !strings.HasPrefix(authURL.String(), kc.Issuer) || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" ||
		q.Get("nonce") == "" || q.Get("state") == "" || q.Get("client_id") != "sheetstream-page" {
		t.Errorf("the authorization request: %s", authURL)
	}
	// A next that leaves the service is not followed.
	resp, _ = noFollow.Get(f.url + "/auth/login?next=//evil.example.com/")
	resp.Body.Close()
	resp, body := kc.LogIn(t, browser, f.url+"/", "alice")
	if resp.StatusCode != 200 || resp.Request.URL.String() != f.url+"/" || !strings.Contains(string(body), "<h1>Exports</h1>") {
		t.Fatalf("after the login: %d %s %.200s", resp.StatusCode, resp.Request.URL, body)
	}
	var cookie *http.Cookie
	for _, c := range browser.Jar.Cookies(resp.Request.URL) {
		if c.Name == "sheetstream_session" {
			cookie = c
		}
	}
	if cookie == nil {
		t.Fatal("no session cookie")
	}
	// The cookie's attributes are in the callback's Set-Cookie; log in
	// again to read them.
	if sc := callbackCookie(t, kc, f.url); !strings.Contains(sc, "HttpOnly") || !strings.Contains(sc, "SameSite=Lax") || strings.Contains(sc, "Secure") {
		t.Errorf("the session cookie on loopback: %s", sc)
	}
	get := func(method, path string, hdr ...string) (*http.Response, []byte) {
		req, _ := http.NewRequest(method, f.url+path, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := browser.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	_, body = get("GET", "/api/session")
	var me sessionInfo
	json.Unmarshal(body, &me)
	if me.Email != "alice@example.com" || me.Method != "session" || me.CSRFToken == "" || !me.Logout || fmt.Sprint(me.Groups) != "[sales]" {
		t.Errorf("/api/session: %s", body)
	}
	if resp, body := get("GET", "/exports/my-sales.xlsx"); resp.StatusCode != 200 || len(readBook(t, body)["Sales"]) != 11 {
		t.Errorf("alice's download with her session: %d", resp.StatusCode)
	}
	if resp, _ := get("GET", "/exports/payroll.xlsx"); resp.StatusCode != 404 {
		t.Errorf("payroll with alice's session: %d", resp.StatusCode)
	}
	// A POST without the CSRF token, as another site's form would send
	// it (the browser adds the cookie, SameSite allowing); and one with
	// a wrong token.
	for _, hdr := range [][]string{nil, {"X-CSRF-Token", me.CSRFToken + "x"}} {
		if resp, body := get("POST", "/api/exports/my-sales/jobs", hdr...); resp.StatusCode != 403 || !strings.Contains(string(body), "CSRF") {
			t.Errorf("a POST with CSRF token %q: %d %s", hdr, resp.StatusCode, body)
		}
	}
	if resp, body := get("POST", "/api/exports/my-sales/jobs", "X-CSRF-Token", me.CSRFToken); resp.StatusCode != 202 {
		t.Errorf("a POST with the CSRF token: %d %s", resp.StatusCode, body)
	}
	if resp, _ := get("POST", "/auth/logout"); resp.StatusCode != 403 {
		t.Errorf("a logout without the CSRF token: %d", resp.StatusCode)
	}
	var idToken string
	authURL, _ = url.Parse(f.url + "/auth/")
	for _, c := range browser.Jar.Cookies(authURL) {
		if c.Name == "sheetstream_id_token" {
			idToken = c.Value
		}
	}
	resp, body = get("POST", "/auth/logout", "X-CSRF-Token", me.CSRFToken)
	var out struct {
		LogoutURL string `json:"logout_url"`
	}
	json.Unmarshal(body, &out)
	if resp.StatusCode != 200 || !strings.HasPrefix(out.LogoutURL, kc.Issuer+"/protocol/openid-connect/logout?") || !strings.Contains(out.LogoutURL, "id_token_hint=") {
		t.Errorf("logout: %d %s", resp.StatusCode, body)
	}
	if resp, body := get("GET", "/api/exports"); resp.StatusCode != 401 || !strings.Contains(string(body), `"login":"/auth/login"`) {
		t.Errorf("after logout: %d %s", resp.StatusCode, body)
	}
	// The old cookie, copied before logout and replayed after it, is
	// refused: logout revoked the session server-side (in the queue's
	// database), CSRF token or not. A forged one is refused too.
	for _, c := range []struct {
		what, value string
		hdr         []string
	}{
		{"the copied session cookie", cookie.Value, nil},
		{"the copied session cookie with its CSRF token", cookie.Value, []string{"X-CSRF-Token", me.CSRFToken}},
		{"a forged session cookie", strings.Replace(cookie.Value, "a", "b", 1), nil},
	} {
		for _, method := range []string{"GET", "POST"} {
			path := "/api/exports"
			if method == "POST" {
				path = "/api/exports/my-sales/jobs"
			}
			req, _ := http.NewRequest(method, f.url+path, nil)
			req.AddCookie(&http.Cookie{Name: "sheetstream_session", Value: c.value})
			for i := 0; i+1 < len(c.hdr); i += 2 {
				req.Header.Set(c.hdr[i], c.hdr[i+1])
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil || resp.StatusCode != 401 && resp.StatusCode != 403 {
				t.Errorf("%s, %s %s after logout: %v %v", c.what, method, path, resp.StatusCode, err)
			}
		}
	}
	// The ID token handed back for the issuer's logout is no bearer token.
	if idToken == "" {
		t.Error("no ID token cookie after the login")
	} else if resp, _ := f.get("/api/exports", "Authorization", "Bearer "+idToken); resp.StatusCode != 401 {
		t.Errorf("the ID token as a bearer token: %d, want 401", resp.StatusCode)
	}
	trail, _ := os.ReadFile(audit)
	for _, want := range []string{`"event":"login"`, `"auth":"session"`, `"event":"logout"`, `"403 csrf POST`} {
		if !strings.Contains(string(trail), want) {
			t.Errorf("the audit trail lacks %s", want)
		}
	}
}

// callbackCookie logs in as alice in a new browser and returns the
// session cookie's Set-Cookie line.
func callbackCookie(t *testing.T, kc *keycloak.Server, base string) string {
	b := keycloak.Browser()
	var line string
	b.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.Response != nil {
			for _, sc := range req.Response.Header.Values("Set-Cookie") {
				if strings.HasPrefix(sc, "sheetstream_session=") {
					line = sc
				}
			}
		}
		return nil
	}
	kc.LogIn(t, b, base+"/", "alice")
	return line
}

// subjectOf is a token's sub claim.
func subjectOf(t *testing.T, token string) string {
	parts := strings.Split(token, ".")
	var claims struct{ Sub string }
	b, _ := base64.RawURLEncoding.DecodeString(parts[1])
	json.Unmarshal(b, &claims)
	return claims.Sub
}

// TestWebPageLogin: the page's login end to end in Chromium through
// Keycloak's login form: log in, see only the allowed exports, download,
// run one in the background, log out (at Keycloak too).
func TestWebPageLogin(t *testing.T) {
	kc := keycloak.Get(t)
	var audit string
	stdout := runBrowser(t, "browser_login.cjs", func() *fixture {
		f, a := oidcFixture(t, kc)
		audit = a
		return f
	})
	var r struct {
		LoginPage, BackAt, Me, Filename, Saved, JobState, AfterLogout, Revisit string
		CSVName, CSVSaved                                                      string
		Exports, CookiesAfter, CSPViolations                                   []string
		Cookies                                                                []struct {
			Name     string
			HTTPOnly bool `json:"httpOnly"`
			SameSite string
		}
	}
	if err := json.Unmarshal(stdout, &r); err != nil {
		t.Fatalf("report %s: %v", stdout, err)
	}
	if !strings.HasSuffix(r.LoginPage, "/protocol/openid-connect/auth") || r.Me != "Signed in as alice@example.com" {
		t.Errorf("login: %+v", r)
	}
	if got := strings.Join(r.Exports, " "); got != "my-sales pg-sales pg-groups" {
		t.Errorf("alice's page lists %q", got)
	}
	if r.Filename != "my-sales.xlsx" || r.JobState != "done" {
		t.Errorf("download and job: %+v", r)
	}
	if rows := readBook(t, mustRead(t, r.Saved))["Sales"]; len(rows) != 11 || !strings.Contains(rows[1], "|north|") {
		t.Errorf("alice's file: %v", rows)
	}
	if csv := string(mustRead(t, r.CSVSaved)); r.CSVName != "my-sales.csv" || !strings.HasPrefix(csv, "id,region,amount\n1,south,10\n") && !strings.HasPrefix(csv, "id,region,amount\n2,north,20\n") ||
		strings.Count(csv, "\n") != 11 || strings.Contains(csv, "south") && strings.Contains(csv, "north") {
		t.Errorf("alice's CSV %s: %q", r.CSVName, csv)
	}
	found := false
	for _, c := range r.Cookies {
		if c.Name == "sheetstream_session" {
			found = c.HTTPOnly && c.SameSite == "Lax"
		}
	}
	if !found {
		t.Errorf("the session cookie in the browser: %+v", r.Cookies)
	}
	if !strings.HasSuffix(r.AfterLogout, "/protocol/openid-connect/auth") || slices.Contains(r.CookiesAfter, "sheetstream_session") ||
		!strings.HasSuffix(r.Revisit, "/protocol/openid-connect/auth") {
		t.Errorf("logout: %+v", r)
	}
	if len(r.CSPViolations) != 0 {
		t.Errorf("Content-Security-Policy violations: %q", r.CSPViolations)
	}
	trail, _ := os.ReadFile(audit)
	for _, want := range []string{`"event":"login"`, `"event":"download"`, `"auth":"session","export":"my-sales"`, `"event":"logout"`} {
		if !strings.Contains(string(trail), want) {
			t.Errorf("the audit trail lacks %s", want)
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
