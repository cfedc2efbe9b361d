package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// TestProvenance: an export with provenance: true ends each workbook
// (download and job) with a sheet naming the export, its parameters (a
// secret one redacted), who asked, each sheet's rows and query; a
// template refuses it at load.
func TestProvenance(t *testing.T) {
	dir := t.TempDir()
	cfg, err := ParseConfig([]byte(fmt.Sprintf(`
database: sqlite:%s
jobs: sqlite:%s
storage: file://%s
exports:
  - name: orders
    provenance: true
    params:
      - {name: region, type: text}
      - {name: pin, type: text, secret: true}
    sheets:
      - name: Orders
        sql: SELECT id, amount FROM orders WHERE region = :region AND :pin <> ''
      - name: Managers
        sql: SELECT email FROM managers
`, mailShop(t), filepath.Join(dir, "queue.db"), filepath.Join(dir, "files"))))
	if err != nil {
		t.Fatal(err)
	}
	f := serve(t, cfg)
	resp, book := f.get("/exports/orders.xlsx?region=South&pin=1234")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s", resp.Status, book)
	}
	check := func(what string, sheets map[string][]string) {
		prov := strings.Join(sheets["Provenance"], "\n")
		for _, want := range []string{"Export|orders", "Asked by|", "Rows|105", "region|South", "pin|[redacted]",
			"Orders|100|SELECT id, amount FROM orders WHERE region = :region AND :pin <> ''", "Managers|5|SELECT email FROM managers"} {
			if !strings.Contains(prov, want) {
				t.Errorf("%s: the provenance lacks %q:\n%s", what, want, prov)
			}
		}
		if strings.Contains(prov, "1234") {
			t.Errorf("%s: the secret parameter's value is in the provenance", what)
		}
	}
	check("download", readBook(t, book))
	resp, body := f.do("POST", "/api/exports/orders/jobs?region=South&pin=1234")
	var j struct{ ID string }
	if json.Unmarshal(body, &j); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("%s %s", resp.Status, body)
	}
	f.waitJob(j.ID)
	_, book = f.get("/api/jobs/" + j.ID + "/file")
	check("job", readBook(t, book))
	_, err = ParseConfig([]byte("database: sqlite:x.db\nexports:\n  - {name: t, provenance: true, template: report.xlsx, sheets: [{sql: SELECT 1}]}\n"))
	if err == nil || !strings.Contains(err.Error(), "provenance: true with template:") {
		t.Errorf("with a template: %v", err)
	}
}
