package server

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/mailpit"
	"github.com/sheetstream/sheetstream/sqlsheet"
)

// mailShop is a database of orders in regions and the managers of each.
func mailShop(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shop.db")
	db, err := sqlsheet.Open("sqlite:" + path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, region TEXT, amount REAL, note TEXT)`,
		`CREATE TABLE managers (email TEXT, region TEXT)`,
		`INSERT INTO managers VALUES ('north@example.com', 'North'), ('south@example.com', 'South'), ('east@example.com', 'East'),
			('west@elsewhere.test', 'West'), ('not an address', 'North')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	regions := []string{"North", "South", "East", "West"}
	for i := 1; i <= 400; i++ {
		// East's orders carry a long note: its file is over attach_limit.
		note := "n"
		if regions[i%4] == "East" {
			b := make([]byte, 600)
			rand.Read(b)
			note = hex.EncodeToString(b) // incompressible
		}
		if _, err := db.Exec(`INSERT INTO orders VALUES (?, ?, ?, ?)`, i, regions[i%4], float64(i)/2, note); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// TestDeliverByRecipient: a schedule's recipients_sql makes each
// manager's mail carry their own region's orders and nobody else's,
// through an SMTP server that requires STARTTLS (its certificate checked
// against ca_file) and a login; a file over attach_limit arrives as a
// signed link that downloads it with no other credential (a changed
// signature does not); a bad address and one the server refuses fail
// alone, listed under the schedule with the others; the mails are in
// the audit trail and /metrics.
func TestDeliverByRecipient(t *testing.T) {
	srv := mailpit.Start(t, mailpit.Options{TLS: true, Users: map[string]string{"reports": "s3cret"}, AllowedRecipients: `@example\.com$`})
	dir := t.TempDir()
	ca := filepath.Join(dir, "ca.pem")
	os.WriteFile(ca, srv.CA, 0o600)
	t.Setenv("SHEETSTREAM_TEST_SMTP_USER", "reports")
	t.Setenv("SHEETSTREAM_TEST_SMTP_PASSWORD", "s3cret")
	audit := filepath.Join(dir, "audit.jsonl")
	cfg, err := ParseConfig([]byte(fmt.Sprintf(`
database: sqlite:%s
token: the-token
jobs: sqlite:%s
storage: file://%s
audit_log: %s
public_url: https://reports.example.test/
smtp:
  url: smtp://%s
  from: Reports <reports@example.com>
  username_env: SHEETSTREAM_TEST_SMTP_USER
  password_env: SHEETSTREAM_TEST_SMTP_PASSWORD
  starttls: require
  ca_file: %s
exports:
  - name: orders
    params:
      - {name: region, type: text, required: true}
    sheets:
      - name: Orders
        sql: SELECT id, region, amount, note FROM orders WHERE region = :region ORDER BY id
schedules:
  - name: managers
    export: orders
    every: 1s
    deliver:
      email:
        recipients_sql: SELECT email, region FROM managers
        subject: 'Orders of {{.Params.region}} at {{.Time.Format "150405"}}'
        body: "{{.Rows}} orders of {{.Params.region}}."
        attach_limit: 16KiB
        link_ttl: 1h
`, mailShop(t), filepath.Join(dir, "queue.db"), filepath.Join(dir, "files"), audit, srv.SMTP, ca)))
	if err != nil {
		t.Fatal(err)
	}
	f := serve(t, cfg)
	// The first slot's three mails (later slots send theirs too).
	var slot map[string]mailpit.Message
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && slot == nil; time.Sleep(200 * time.Millisecond) {
		bySlot := map[string]map[string]mailpit.Message{}
		for _, m := range srv.Messages(t) {
			at := m.Subject[strings.LastIndex(m.Subject, " ")+1:]
			if bySlot[at] == nil {
				bySlot[at] = map[string]mailpit.Message{}
			}
			bySlot[at][m.To[0].Address] = m
		}
		for _, ms := range bySlot {
			if len(ms) == 3 {
				slot = ms
			}
		}
	}
	if slot == nil {
		t.Fatal("no slot's three mails arrived")
	}
	for _, region := range []string{"North", "South"} {
		m := slot[strings.ToLower(region)+"@example.com"]
		if !strings.HasPrefix(m.Subject, "Orders of "+region) || !strings.Contains(m.Text, "100 orders of "+region) || len(m.Attachments) != 1 {
			t.Fatalf("%s's mail: %+v", region, m)
		}
		rows := readBook(t, srv.Part(t, m, m.Attachments[0]))["Orders"]
		if len(rows) != 101 {
			t.Errorf("%s's workbook: %d rows", region, len(rows))
		}
		for _, r := range rows[1:] {
			if strings.Split(r, "|")[1] != region {
				t.Errorf("%s's workbook holds %q", region, r)
				break
			}
		}
	}
	east := slot["east@example.com"]
	if len(east.Attachments) != 0 {
		t.Fatalf("East's file is over attach_limit, attached: %+v", east)
	}
	link := regexp.MustCompile(`https://reports\.example\.test/api/jobs/\S+`).FindString(east.Text)
	u, err := url.Parse(link)
	if err != nil || link == "" {
		t.Fatalf("no link in %q", east.Text)
	}
	if resp, _ := f.get(u.Path); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the file without the link's signature: %s", resp.Status)
	}
	resp, book := f.get(u.RequestURI())
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the link: %s %s", resp.Status, book)
	}
	rows := readBook(t, book)["Orders"]
	if len(rows) != 101 || strings.Split(rows[1], "|")[1] != "East" {
		t.Errorf("the linked workbook: %d rows, %v", len(rows), rows[:min(2, len(rows))])
	}
	q := u.Query()
	q.Set("signature", strings.Repeat("0", len(q.Get("signature"))))
	if resp, _ := f.get(u.Path + "?" + q.Encode()); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a forged signature: %s", resp.Status)
	}
	// The schedule's deliveries, for the page: the refused ones by name.
	var list struct {
		Schedules []scheduleJSON `json:"schedules"`
	}
	waitFor(t, "the refused deliveries listed", func() bool {
		_, body := f.get("/api/schedules", "Authorization", "Bearer the-token")
		json.Unmarshal(body, &list)
		failed := map[string]bool{}
		for _, m := range list.Schedules[0].Mails {
			if m.State == "failed" {
				failed[m.To] = true
			}
		}
		return failed["west@elsewhere.test"] && failed["not an address"]
	})
	// The schedule may have come round more than once: some slot's mails
	// went out, a later one's may still be queued.
	states := map[string]map[string]bool{}
	for _, m := range list.Schedules[0].Mails {
		if states[m.To] == nil {
			states[m.To] = map[string]bool{}
		}
		states[m.To][m.State] = true
	}
	if !states["north@example.com"]["sent"] || !states["east@example.com"]["linked"] {
		t.Errorf("deliveries: %+v", list.Schedules[0].Mails)
	}
	if _, body := f.get("/metrics", "Authorization", "Bearer the-token"); !regexp.MustCompile(`sheetstream_mails_total\{outcome="sent"\} [1-9]`).Match(body) ||
		!regexp.MustCompile(`sheetstream_mails_total\{outcome="failed"\} [1-9]`).Match(body) {
		t.Errorf("metrics: %s", regexp.MustCompile(`(?m)^sheetstream_mails.*$`).FindAll(body, -1))
	}
	trail, _ := os.ReadFile(audit)
	for _, want := range []string{`"event":"mail"`, `"to":"north@example.com"`, `"outcome":"linked"`, `"to":"west@elsewhere.test"`} {
		if !strings.Contains(string(trail), want) {
			t.Errorf("the audit trail lacks %s", want)
		}
	}
}

// TestExportNotify: an export's notify tells of its jobs started over
// the API, the payload's download an absolute URL under public_url.
func TestExportNotify(t *testing.T) {
	var mu sync.Mutex
	got := map[string]any{}
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		json.Unmarshal(body, &got)
		mu.Unlock()
	}))
	defer hook.Close()
	dir := t.TempDir()
	cfg, err := ParseConfig([]byte(fmt.Sprintf(`
database: sqlite:%s
jobs: sqlite:%s
storage: file://%s
public_url: https://reports.example.test
exports:
  - name: orders
    params: [{name: region, type: text}]
    notify: {webhook: %q}
    sheets:
      - sql: SELECT id, amount FROM orders WHERE region = :region
`, mailShop(t), filepath.Join(dir, "queue.db"), filepath.Join(dir, "files"), hook.URL)))
	if err != nil {
		t.Fatal(err)
	}
	f := serve(t, cfg)
	resp, body := f.do("POST", "/api/exports/orders/jobs?region=North")
	var j struct{ ID string }
	if json.Unmarshal(body, &j); resp.StatusCode != http.StatusAccepted || j.ID == "" {
		t.Fatalf("%s %s", resp.Status, body)
	}
	waitFor(t, "the job's webhook", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return got["id"] == j.ID
	})
	mu.Lock()
	defer mu.Unlock()
	if got["download"] != "https://reports.example.test/api/jobs/"+j.ID+"/file" || got["state"] != "done" || got["rows"] != float64(100) {
		t.Errorf("the webhook: %v", got)
	}
}

// TestMailConfig: what a delivery's configuration gets wrong is said
// when it loads, by name.
func TestMailConfig(t *testing.T) {
	base := "database: sqlite:x.db\njobs: sqlite:q.db\nstorage: file:///tmp/x\n%s\nexports:\n  - {name: orders, params: [{name: region, type: text}], sheets: [{sql: SELECT 1}]}\nschedules:\n  - {name: s, export: orders, every: 1h, %s}\n"
	for _, c := range []struct{ top, sched, want string }{
		{"", "deliver: {email: {to: [a@example.com]}}", "needs smtp:"},
		{"mail_dir: /tmp/mail", "deliver: {email: {}}", "needs a list of addresses"},
		{"mail_dir: /tmp/mail", "deliver: {email: {to: [a@example.com], recipients_sql: SELECT 1}}", "has to: and recipients_sql:"},
		{"mail_dir: /tmp/mail", "deliver: {email: {to: [not an address]}}", `address "not an address"`},
		{"mail_dir: /tmp/mail", "deliver: {email: {to: [a@example.com], attach_limit: lots}}", "is not a size"},
		{"mail_dir: /tmp/mail", "deliver: {email: {to: [a@example.com], subject: '{{.Nope}}'}}", "subject"},
		{"mail_dir: /tmp/mail", "deliver: {email: {recipients_sql: 'SELECT email FROM m WHERE x = :nope'}}", ":nope"},
		{"mail_dir: /tmp/mail", "key: 'same.xlsx', deliver: {email: {recipients_sql: SELECT email FROM m}}", "{{.Recipient}}"},
		{"smtp: {url: 'http://mail.example.com', from: a@example.com}", "", "want smtp://HOST:PORT"},
		{"smtp: {url: 'smtp://mail.example.com', from: a@example.com, starttls: maybe}", "", "starttls"},
		{"smtp: {url: 'smtp://mail.example.com', from: a@example.com, password_env: SHEETSTREAM_TEST_UNSET}", "", "password_env"},
		{"smtp: {url: 'smtp://mail.example.com', from: a@example.com, ca_file: /nonexistent.pem}", "", "ca_file"},
		{"public_url: 'reports.example.com'", "", "public_url"},
	} {
		sched := c.sched
		if sched == "" {
			sched = "keep: 1d"
		}
		_, err := ParseConfig([]byte(fmt.Sprintf(base, c.top, sched)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s / %s: %v, want %q", c.top, c.sched, err, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want int64
	}{{"10MiB", 10 << 20}, {"500KiB", 500 << 10}, {"2MB", 2e6}, {"1048576", 1 << 20}, {"1.5 MiB", 3 << 19}} {
		if got, err := parseSize(c.in); err != nil || got != c.want {
			t.Errorf("%s: %d %v", c.in, got, err)
		}
	}
}

// TestJobProgress: a long export's job (3,000,000 rows) shows its rows
// while it runs, in GET /api/jobs/ID (the page polls the same), before it
// finishes with all of them.
func TestJobProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("a 3,000,000-row export: the go stage runs it, the race stage (-short) would take minutes")
	}
	f := jobFixture(t, "")
	resp, body := f.do("POST", "/api/exports/big/jobs")
	var j struct{ ID string }
	if json.Unmarshal(body, &j); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("%s %s", resp.Status, body)
	}
	seen := map[float64]bool{}
	var got map[string]any
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		_, body := f.get("/api/jobs/" + j.ID)
		json.Unmarshal(body, &got)
		if got["state"] == "running" {
			if rows, _ := got["rows"].(float64); rows > 0 {
				seen[rows] = true
			}
		} else if got["state"] != "queued" {
			break
		}
	}
	if got["state"] != "done" || got["rows"] != float64(3000000) {
		t.Fatalf("the job: %v", got)
	}
	partial := false
	for rows := range seen {
		partial = partial || rows > 0 && rows < 3000000
	}
	if !partial {
		t.Errorf("rows seen while the job ran: %v, want a count short of its 3,000,000", seen)
	}
}
