package server

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/internal/testenv"
)

// TestWebPage drives the embedded page in headless Chromium with
// playwright-core: it fills a parameter, previews, downloads, and the
// downloaded file is read with openpyxl.
func TestWebPage(t *testing.T) {
	stdout := runBrowser(t, "browser.cjs", func() *fixture { return newFixture(t, 4, "") })
	var r struct {
		Title, Filename, Saved, Status, NumberAlign string
		KindDefault                                 string
		KindOptions                                 []string
		PreviewRows, PreviewAllRows                 int
		Bytes                                       int64
		CSP                                         string
		HeaderTypes, FirstRow, FailedRequests       []string
		CSPViolations                               []string
	}
	if err := json.Unmarshal(stdout, &r); err != nil {
		t.Fatalf("report %s: %v", stdout, err)
	}
	if r.Title != "Items" || r.PreviewRows != 2 || strings.Join(r.HeaderTypes, ",") != "number,string,number,date,bool" ||
		strings.Join(r.FirstRow, "|") != "4,998|item 4998|1,249.5|2025-09-11|FALSE" || r.NumberAlign != "right" {
		t.Errorf("preview: %+v", r)
	}
	if r.KindDefault != "" || strings.Join(r.KindOptions, ",") != "(all),a,b" || r.PreviewAllRows != 3 {
		t.Errorf("the optional kind: chosen %q of %q; the preview of all kinds had %d rows, want 3", r.KindDefault, r.KindOptions, r.PreviewAllRows)
	}
	if !strings.Contains(r.CSP, "default-src 'self'") || len(r.CSPViolations) != 0 {
		t.Errorf("Content-Security-Policy %q; violations: %q", r.CSP, r.CSPViolations)
	}
	if r.Filename != "items.xlsx" || !strings.HasPrefix(r.Status, "Done: items.xlsx") || len(r.FailedRequests) != 0 {
		t.Errorf("download: %+v", r)
	}
	if fi, err := os.Stat(r.Saved); err != nil || fi.Size() != r.Bytes {
		t.Errorf("the page counted %d bytes; the file has %v (%v)", r.Bytes, fi.Size(), err)
	}
	res := pyread.ReadValues(t, r.Saved)[r.Saved]
	if res == nil || res.Error != "" {
		t.Fatalf("openpyxl: %+v", res)
	}
	items := res.Openpyxl["Items"]
	if len(items) != 3 || items[1][0].String() != "n:4998" || items[2][1].String() != "s:item 5000" {
		t.Errorf("downloaded rows: %v", items)
	}
}

// TestWebPageJobs: on the page, "Run in background" queues the export,
// the Recent exports list follows it to done without a reload, and its
// file downloads from there, under the page's Content-Security-Policy.
func TestWebPageJobs(t *testing.T) {
	stdout := runBrowser(t, "browser_jobs.cjs", func() *fixture { return jobFixture(t, "") })
	var r struct {
		FirstState, State, Rows, Params, Filename, Saved string
		Reloads                                          int
		CSPViolations                                    []string
	}
	if err := json.Unmarshal(stdout, &r); err != nil {
		t.Fatalf("report %s: %v", stdout, err)
	}
	if r.State != "done" || r.Rows != "5" || r.Params != "from=4996, kind=a" || r.Filename != "items.xlsx" || r.Reloads != 1 || len(r.CSPViolations) != 0 {
		t.Errorf("the page's background export: %+v", r)
	}
	items := pyread.ReadValues(t, r.Saved)[r.Saved].Openpyxl["Items"]
	if len(items) != 4 || items[1][0].String() != "n:4996" || items[3][0].String() != "n:5000" {
		t.Errorf("the downloaded job's rows: %v", items)
	}
}

// TestWebPageSchedules: the page lists a schedule that mails and, under
// it, its deliveries as they are sent (mail_dir: each an .eml file).
func TestWebPageSchedules(t *testing.T) {
	dir := t.TempDir()
	mailDir := filepath.Join(dir, "mail")
	stdout := runBrowser(t, "browser_schedules.cjs", func() *fixture {
		return newFixture(t, 2, fmt.Sprintf(`jobs: sqlite:%s
storage: file://%s
mail_dir: %s
schedules:
  - {name: daily-items, export: items, params: {from: "4999"}, every: 2s, deliver: {email: {to: [ops@example.com]}}}`,
			filepath.Join(dir, "queue.db"), filepath.Join(dir, "files"), mailDir))
	})
	var r struct {
		Heading, To, State string
		CSPViolations      []string
	}
	if err := json.Unmarshal(stdout, &r); err != nil {
		t.Fatalf("report %s: %v", stdout, err)
	}
	if r.Heading != "daily-items: items, every 2s, mailed to ops@example.com" || r.To != "ops@example.com" || r.State != "sent" || len(r.CSPViolations) != 0 {
		t.Errorf("the page's schedules: %+v", r)
	}
	if files, _ := filepath.Glob(filepath.Join(mailDir, "*.eml")); len(files) == 0 {
		t.Error("no .eml file in mail_dir")
	}
}

// runBrowser serves a fixture and drives its page with the playwright
// script in testdata, which saves downloads into a folder of its own;
// it returns the script's JSON report.
func runBrowser(t *testing.T, script string, fixtureFor func() *fixture) []byte {
	t.Helper()
	modules := testenv.Get(t, "SHEETSTREAM_NODE_MODULES", "installs playwright-core and Debian's chromium")
	pyread.Python(t)
	f := fixtureFor()
	cmd := exec.Command("node", filepath.Join("testdata", script), f.url+"/", t.TempDir())
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	stdout, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("browser: %v\n%s", err, msg)
	}
	return stdout
}
