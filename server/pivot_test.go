package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// TestPivots: a sheet's pivots: (the short form and the mapping) are in
// its downloads and jobs, each on its own sheet with the sums computed,
// and listed by /api/exports; a template export refuses them at load.
func TestPivots(t *testing.T) {
	dir := t.TempDir()
	cfg, err := ParseConfig([]byte(fmt.Sprintf(`
database: sqlite:%s
jobs: sqlite:%s
storage: file://%s
exports:
  - name: orders
    sheets:
      - name: Orders
        sql: SELECT id, region, amount FROM orders ORDER BY id
        pivots:
          - 'region::sum(amount)'
          - {name: Counts, rows: [region], values: ['count(id)', 'max(amount)'], layout: tabular}
`, mailShop(t), filepath.Join(dir, "queue.db"), filepath.Join(dir, "files"))))
	if err != nil {
		t.Fatal(err)
	}
	f := serve(t, cfg)
	_, body := f.get("/api/exports")
	if !strings.Contains(string(body), `"pivots":["region::sum(amount)","Counts: region::count(id),max(amount)"]`) {
		t.Errorf("/api/exports: %s", body)
	}
	check := func(what string, book []byte) {
		sheets := readBook(t, book)
		pivot, counts := strings.Join(sheets["Pivot"], "\n"), strings.Join(sheets["Counts"], "\n")
		// North holds the ids 4, 8... 400: their amounts are id/2.
		north := 0.0
		for id := 4; id <= 400; id += 4 {
			north += float64(id) / 2
		}
		if !strings.Contains(pivot, fmt.Sprintf("North|%g", north)) || !strings.Contains(pivot, "Grand Total|40100") {
			t.Errorf("%s: the pivot: %s", what, pivot)
		}
		if !strings.Contains(counts, "region|Count of id|Max of amount") || !strings.Contains(counts, "North|100|200") {
			t.Errorf("%s: the counts: %s", what, counts)
		}
	}
	resp, book := f.get("/exports/orders.xlsx")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s", resp.Status, book)
	}
	check("download", book)
	_, body = f.do("POST", "/api/exports/orders/jobs")
	var j struct{ ID string }
	json.Unmarshal(body, &j)
	f.waitJob(j.ID)
	_, book = f.get("/api/jobs/" + j.ID + "/file")
	check("job", book)
	_, err = ParseConfig([]byte("database: sqlite:x.db\nexports:\n  - {name: t, template: report.xlsx, sheets: [{sql: SELECT 1, pivots: ['a::sum(b)']}]}\n"))
	if err == nil || !strings.Contains(err.Error(), "pivots: with template:") {
		t.Errorf("with a template: %v", err)
	}
	_, err = ParseConfig([]byte("database: sqlite:x.db\nexports:\n  - {name: t, sheets: [{sql: SELECT 1, pivots: ['a:sum(b)']}]}\n"))
	if err == nil || !strings.Contains(err.Error(), "ROWS:COLUMNS:FUNC(COLUMN)") {
		t.Errorf("a bad pivot: %v", err)
	}
}
