package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/sqlsheet"
)

// TestServiceCharts: charts: on a sheet draws its charts in .xlsx
// downloads, from the query's columns over every row; the CSV download
// of the same sheet has the rows alone; the export list names them; a
// chart of an unknown type is refused at load, one of a column the query
// lacks fails the download before its rows.
func TestServiceCharts(t *testing.T) {
	pyread.Python(t)
	dbPath := filepath.Join(t.TempDir(), "shop.db")
	db, err := sqlsheet.Open("sqlite:" + dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE sales (month TEXT, revenue REAL, cost REAL);
		INSERT INTO sales VALUES ('Jan', 10, 4), ('Feb', 12, 5), ('Mar', 9, 7)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	cfg, err := ParseConfig([]byte(`
database: sqlite:` + dbPath + `
exports:
  - name: sales
    sheets:
      - name: Sales
        sql: SELECT month, revenue, cost FROM sales
        charts:
          - column:month:revenue,cost
          - {type: line, categories: month, values: [cost], title: Cost}
  - name: broken
    sheets:
      - {name: S, sql: "SELECT month FROM sales", charts: ["bar:month:profit"]}
`))
	if err != nil {
		t.Fatal(err)
	}
	f := serve(t, cfg)
	resp, body := f.get("/exports/sales.xlsx")
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	path := filepath.Join(t.TempDir(), "sales.xlsx")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	r := pyread.Read(t, path)[path]
	if r == nil || r.Error != "" || len(r.Audit) > 0 {
		t.Fatalf("%+v", r)
	}
	charts := r.Charts["Sales"]
	if len(charts) != 2 || charts[0].Type != "barChart" || charts[1].Type != "lineChart" {
		t.Fatalf("charts %+v", charts)
	}
	if s := charts[0].Series; len(s) != 2 || *s[0].Values != "Sales!$B$2:$B$4" || *s[1].Values != "Sales!$C$2:$C$4" || *s[0].Categories != "Sales!$A$2:$A$4" {
		t.Errorf("column chart's series %+v", s)
	}
	if c := charts[1]; c.Title == nil || *c.Title != "Cost" {
		t.Errorf("line chart's title %v", c.Title)
	}
	resp, body = f.get("/exports/sales.csv")
	if resp.StatusCode != 200 || !strings.HasPrefix(string(body), "month,revenue,cost\n") {
		t.Errorf("CSV: %d %q", resp.StatusCode, body)
	}
	_, list := f.get("/api/exports")
	if !strings.Contains(string(list), `"charts":["column:month:revenue,cost","line:month:cost"]`) {
		t.Errorf("the export list does not name the charts: %s", list)
	}
	// The configuration's mistake fails the download before a row (the
	// details, which name the column, go to the server's log).
	resp, body = f.get("/exports/broken.xlsx")
	if resp.StatusCode != 500 || !strings.Contains(string(body), "error_id") {
		t.Errorf("a chart of a missing column: %d %s", resp.StatusCode, body)
	}
	for _, bad := range []string{`["pizza:a:b"]`, `[{type: column, values: []}]`} {
		_, err := ParseConfig([]byte(`
database: sqlite:` + dbPath + `
exports:
  - name: x
    sheets:
      - {name: S, sql: "SELECT 1", charts: ` + bad + `}
`))
		if err == nil || !strings.Contains(err.Error(), "chart") {
			t.Errorf("charts %s: %v", bad, err)
		}
	}
}
