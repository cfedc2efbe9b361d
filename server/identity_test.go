package server

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/auth"
	"github.com/sheetstream/sheetstream/sqlsheet"
)

// TestIdentities: static tokens and a trusted proxy establish who asks;
// each sees only the exports its groups are allowed (others answer 404);
// a row filter bound to the identity gives two users of one group
// disjoint rows and cannot be given in the query string; jobs belong to
// whoever started them; /metrics needs an admin group.
func TestIdentities(t *testing.T) {
	dir := t.TempDir()
	dbPath := salesDB(t, dir)
	tokens := map[string]string{}
	var entries []string
	for _, c := range []struct{ name, groups, region string }{
		{"alice", "sales", "north"}, {"bob", "sales", "south"}, {"fin", "finance", ""}, {"ops", "ops", ""}, {"carol", "sales", ""},
	} {
		token, sum := auth.NewToken()
		tokens[c.name] = token
		claims := ""
		if c.region != "" {
			claims = fmt.Sprintf(", claims: {region: %s}", c.region)
		}
		entries = append(entries, fmt.Sprintf("    - {name: %s, sha256: %s, groups: [%s]%s}", c.name, sum, c.groups, claims))
	}
	cfgText := []byte(fmt.Sprintf(`database: sqlite:%s
jobs: sqlite:%s
storage: file://%s
audit_log: %s
auth:
  admin_groups: [ops]
  proxy: {user_header: X-Forwarded-User, groups_header: X-Forwarded-Groups, trusted: [10.0.0.0/8]}
  tokens:
%s
exports:
  - name: my-sales
    allow: [group:sales]
    params: [{name: region, from: "claim:region"}]
    sheets: [{name: Sales, sql: "SELECT id, region, amount FROM sales WHERE region = :region ORDER BY id"}]
  - name: payroll
    allow: [group:finance]
    sheets: [{sql: "SELECT 1 AS pay"}]
  - name: my-groups
    allow: [any]
    params: [{name: groups, from: groups}, {name: who, from: subject}]
    sheets: [{name: G, sql: "SELECT value AS grp, :who AS who FROM json_each(:groups)"}]
`, dbPath, filepath.Join(dir, "q.db"), filepath.Join(dir, "files"), filepath.Join(dir, "audit.jsonl"), strings.Join(entries, "\n")))
	f := serve(t, mustParse(t, string(cfgText)))
	as := func(who string) []string { return []string{"Authorization", "Bearer " + tokens[who]} }
	names := func(who string) []string {
		_, body := f.get("/api/exports", as(who)...)
		var list struct{ Exports []struct{ Name string } }
		json.Unmarshal(body, &list)
		var out []string
		for _, e := range list.Exports {
			out = append(out, e.Name)
		}
		return out
	}
	if resp, body := f.get("/exports/my-groups.xlsx", as("fin")...); resp.StatusCode != 200 || fmt.Sprint(readBook(t, body)["G"]) != "[grp|who finance|token:fin]" {
		t.Errorf("groups and subject bound on SQLite: %d %v", resp.StatusCode, readBook(t, body)["G"])
	}
	if got := fmt.Sprint(names("alice")); got != "[my-sales my-groups]" {
		t.Errorf("alice sees %s", got)
	}
	if got := fmt.Sprint(names("fin")); got != "[payroll my-groups]" {
		t.Errorf("fin sees %s", got)
	}
	if resp, _ := f.get("/exports/payroll.xlsx", as("alice")...); resp.StatusCode != 404 {
		t.Errorf("alice's payroll: %d, want 404", resp.StatusCode)
	}
	if resp, _ := f.get("/exports/payroll.xlsx", as("fin")...); resp.StatusCode != 200 {
		t.Errorf("fin's payroll: %d", resp.StatusCode)
	}
	resp, _ := f.get("/api/exports")
	if resp.StatusCode != 401 || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("no credentials: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	if resp, _ := f.get("/api/exports", "X-Forwarded-User", "mallory", "X-Forwarded-Groups", "finance"); resp.StatusCode != 401 {
		t.Errorf("proxy headers from an untrusted address: %d", resp.StatusCode)
	}
	// The row filter from the identity.
	rows := func(who string) []string {
		resp, body := f.get("/exports/my-sales.xlsx", as(who)...)
		if resp.StatusCode != 200 {
			t.Fatalf("%s's sales: %d %s", who, resp.StatusCode, body)
		}
		return readBook(t, body)["Sales"][1:]
	}
	north, south := rows("alice"), rows("bob")
	if len(north) != 10 || len(south) != 10 || !strings.Contains(north[0], "|north|") || !strings.Contains(south[0], "|south|") {
		t.Errorf("alice %v, bob %v", north, south)
	}
	for _, r := range north {
		for _, s := range south {
			if r == s {
				t.Errorf("a row both see: %s", r)
			}
		}
	}
	if resp, body := f.get("/exports/my-sales.xlsx?region=south", as("alice")...); resp.StatusCode != 400 || !strings.Contains(string(body), `\"region\"`) {
		t.Errorf("region in the query string: %d %s", resp.StatusCode, body)
	}
	if resp, body := f.get("/exports/my-sales.xlsx", as("carol")...); resp.StatusCode != 403 || !strings.Contains(string(body), "claim:region") {
		t.Errorf("a token without the claim: %d %s", resp.StatusCode, body)
	}
	// Jobs belong to their owner.
	_, body := f.do("POST", "/api/exports/my-sales/jobs", as("alice")...)
	var sub struct{ ID string }
	json.Unmarshal(body, &sub)
	j := f.waitJobAs(sub.ID, as("alice"))
	if j["state"] != "done" || j["owner"] != "token:alice" || j["rows"] != float64(10) {
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
	if _, body := f.get("/api/jobs", as("bob")...); strings.Contains(string(body), sub.ID) {
		t.Errorf("bob's list shows alice's job")
	}
	if _, body := f.get("/api/jobs", as("ops")...); !strings.Contains(string(body), sub.ID) {
		t.Errorf("an admin's list lacks alice's job")
	}
	if resp, book := f.get("/api/jobs/"+sub.ID+"/file", as("alice")...); resp.StatusCode != 200 || len(readBook(t, book)["Sales"]) != 11 {
		t.Errorf("alice's file: %d", resp.StatusCode)
	}
	if resp, _ := f.get("/metrics", as("alice")...); resp.StatusCode != 404 {
		t.Errorf("/metrics for alice: %d", resp.StatusCode)
	}
	if resp, _ := f.get("/metrics", as("ops")...); resp.StatusCode != 200 {
		t.Errorf("/metrics for ops: %d", resp.StatusCode)
	}
	// The audit trail: a line per download, job and refusal, never a token.
	trail, _ := os.ReadFile(filepath.Join(dir, "audit.jsonl"))
	for _, want := range []string{`"event":"download","subject":"token:alice"`, `"event":"refused","subject":"token:alice","auth":"token","export":"payroll","outcome":"404 no such export or not allowed"`,
		`"event":"job","subject":"token:alice"`, `"event":"refused","subject":"-"`, `"outcome":"403 `} {
		if !strings.Contains(string(trail), want) {
			t.Errorf("the audit trail lacks %s", want)
		}
	}
	for _, token := range tokens {
		if strings.Contains(string(trail), token) || strings.Contains(f.log.String(), token) {
			t.Error("a token reached the audit trail or the log")
		}
	}
	// Limits per identity: a third download within the minute is a 429.
	limited := serve(t, mustParse(t, strings.Replace(string(cfgText), "audit_log:", "rate_limit: {downloads_per_minute: 2, jobs_per_hour: 1}\naudit_log:", 1)))
	for i, want := range []int{200, 200, 429} {
		resp, _ := limited.get("/exports/my-sales.xlsx", as("alice")...)
		if resp.StatusCode != want || want == 429 && resp.Header.Get("Retry-After") == "" {
			t.Errorf("alice's download %d: %d, want %d", i+1, resp.StatusCode, want)
		}
	}
	if resp, _ := limited.get("/exports/my-sales.xlsx", as("bob")...); resp.StatusCode != 200 {
		t.Errorf("bob's own allowance: %d", resp.StatusCode)
	}
	for i, want := range []int{202, 429} {
		if resp, _ := limited.do("POST", "/api/exports/my-sales/jobs", as("bob")...); resp.StatusCode != want {
			t.Errorf("bob's job %d: %d, want %d", i+1, resp.StatusCode, want)
		}
	}
	// A configuration that turns auth on and allows nobody is refused.
	_, err := ParseConfig([]byte("database: sqlite:x.db\nauth: {tokens: [{name: a, sha256: " + strings.Repeat("0", 64) + "}]}\nexports: [{name: a, sheets: [{sql: SELECT 1}]}]"))
	if err == nil || !strings.Contains(err.Error(), "no export allows anyone") {
		t.Errorf("auth without allow: %v", err)
	}
}

func (f *fixture) waitJobAs(id string, hdr []string) map[string]any {
	f.t.Helper()
	for range 300 {
		_, body := f.get("/api/jobs/"+id, hdr...)
		var j map[string]any
		json.Unmarshal(body, &j)
		if s := j["state"]; s == "done" || s == "failed" || s == "cancelled" {
			return j
		}
		sleep()
	}
	return nil
}

func sleep() { time.Sleep(50 * time.Millisecond) }

func mustParse(t *testing.T, text string) *Config {
	t.Helper()
	cfg, err := ParseConfig([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// salesDB makes a SQLite file in dir with a table sales of 20 rows, ten
// of region north and ten of south, and returns its path.
func salesDB(t *testing.T, dir string) string {
	dbPath := filepath.Join(dir, "sales.db")
	db, err := sqlsheet.Open("sqlite:" + dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.Exec(`CREATE TABLE sales (id INTEGER, region TEXT, amount REAL)`)
	for i := 1; i <= 20; i++ {
		db.Exec(`INSERT INTO sales VALUES (?, ?, ?)`, i, []string{"north", "south"}[i%2], float64(i)*10)
	}
	return dbPath
}
