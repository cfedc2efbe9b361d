package server

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/sqlsheet"
)

// TestServiceExcelTables: table: true on an export makes each of its
// sheets an Excel table, and on a sheet that sheet alone.
func TestServiceExcelTables(t *testing.T) {
	pyread.Python(t)
	dbPath := filepath.Join(t.TempDir(), "shop.db")
	db, err := sqlsheet.Open("sqlite:" + dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE items (id INTEGER PRIMARY KEY, kind TEXT); INSERT INTO items VALUES (1, 'a'), (2, 'b'), (3, 'a')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	cfg, err := ParseConfig([]byte(`
database: sqlite:` + dbPath + `
exports:
  - name: all
    table: true
    sheets:
      - {name: Items, sql: "SELECT id, kind FROM items"}
      - {name: Kinds, sql: "SELECT kind, COUNT(*) AS n FROM items GROUP BY kind"}
  - name: one
    sheets:
      - {name: Items, sql: "SELECT id, kind FROM items", table: true}
      - {name: Kinds, sql: "SELECT kind, COUNT(*) AS n FROM items GROUP BY kind"}
`))
	if err != nil {
		t.Fatal(err)
	}
	f := serve(t, cfg)
	for _, tc := range []struct {
		export string
		tables map[string]string // sheet: range
	}{
		{"all", map[string]string{"Items": "A1:B4", "Kinds": "A1:B3"}},
		{"one", map[string]string{"Items": "A1:B4"}},
	} {
		resp, body := f.get("/exports/" + tc.export + ".xlsx")
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", tc.export, resp.StatusCode, body)
		}
		path := filepath.Join(t.TempDir(), tc.export+".xlsx")
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
		r := pyread.Read(t, path)[path]
		if r == nil || r.Error != "" || len(r.Audit) > 0 {
			t.Fatalf("%s: %+v", tc.export, r)
		}
		for _, sheet := range []string{"Items", "Kinds"} {
			tables, want := r.Tables[sheet], tc.tables[sheet]
			switch {
			case want == "" && (len(tables) != 0 || r.Filters[sheet] == nil):
				t.Errorf("%s/%s: tables %+v, autofilter %v; want an autofilter only", tc.export, sheet, tables, r.Filters[sheet])
			case want != "" && (len(tables) != 1 || tables[0].Ref != want || tables[0].Name != sheet):
				t.Errorf("%s/%s: tables %+v, want %s over %s", tc.export, sheet, tables, sheet, want)
			}
		}
	}
}
