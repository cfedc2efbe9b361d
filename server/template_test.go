package server

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// designTemplate writes a template as a designer would: a cover with a
// placeholder, and a sheet with an Excel table of one body row.
func designTemplate(t *testing.T, path string) {
	designTemplateWith(t, path, xlsx.Options{Strings: xlsx.StringsShared})
}

// designTemplateWith is designTemplate written with opts (a password).
func designTemplateWith(t *testing.T, path string, opts xlsx.Options) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := xlsx.NewWriter(f, opts)
	if err != nil {
		t.Fatal(err)
	}
	cover, _ := w.AddSheet("Cover", xlsx.SheetOptions{})
	cover.WriteRow([]xlsx.Cell{xlsx.String("Items of kind {{kind}}, {{rows}} rows")})
	items, _ := w.AddSheet("Items", xlsx.SheetOptions{})
	if err := items.AddTable(xlsx.Range{FirstRow: 1, FirstCol: 1, LastRow: 2, LastCol: 2}, xlsx.Table{Name: "Items"}); err != nil {
		t.Fatal(err)
	}
	items.WriteRow([]xlsx.Cell{xlsx.String("id"), xlsx.String("kind")})
	items.WriteRow([]xlsx.Cell{xlsx.Blank(), xlsx.Blank()})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func zipPart(t *testing.T, book []byte, name string) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(book), int64(len(book)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.Open(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer rc.Close()
	b, _ := io.ReadAll(rc)
	return string(b)
}

// TestServiceTemplate: template: fills the designed workbook with the
// export's rows, the placeholders taking the request's parameters; a
// template without the sheet, or with password_env, is refused at load.
func TestServiceTemplate(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "shop.db")
	db, err := sqlsheet.Open("sqlite:" + dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE items (id INTEGER PRIMARY KEY, kind TEXT); INSERT INTO items VALUES (1, 'a'), (2, 'b'), (3, 'a'), (4, 'a')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	tpl := filepath.Join(dir, "report.xlsx")
	designTemplate(t, tpl)
	cfg, err := ParseConfig([]byte(`
database: sqlite:` + dbPath + `
exports:
  - name: items
    template: ` + tpl + `
    params:
      - {name: kind, type: text}
    sheets:
      - {name: Items, sql: "SELECT id, kind FROM items WHERE kind = :kind"}
`))
	if err != nil {
		t.Fatal(err)
	}
	f := serve(t, cfg)
	// The API names the template's file, never the server's path to it.
	if _, list := f.get("/api/exports"); !strings.Contains(string(list), `"template":"report.xlsx"`) || strings.Contains(string(list), dir) {
		t.Errorf("/api/exports: %s", list)
	}
	resp, body := f.get("/exports/items.xlsx?kind=a")
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if tb := zipPart(t, body, "xl/tables/table1.xml"); !strings.Contains(tb, `ref="A1:B4"`) {
		t.Errorf("table: %s", tb)
	}
	if sst := zipPart(t, body, "xl/sharedStrings.xml"); !strings.Contains(sst, "Items of kind a, 3 rows") {
		t.Errorf("placeholders: %s", sst)
	}
	// The rows' text joins the template's shared strings, after its own.
	if sh := zipPart(t, body, "xl/worksheets/sheet2.xml"); !strings.Contains(sh, `<row r="4"><c><v>4</v></c><c t="s"><v>3</v></c></row>`) {
		t.Errorf("rows: %s", sh)
	}
	if sst := zipPart(t, body, "xl/sharedStrings.xml"); !strings.HasSuffix(sst, `<si><t>a</t></si></sst>`) {
		t.Errorf("the rows' strings: %s", sst)
	}
	secretTpl := filepath.Join(dir, "secret.xlsx")
	designTemplateWith(t, secretTpl, xlsx.Options{Strings: xlsx.StringsShared, Password: "designer"})
	for _, bad := range []struct{ tpl, extra, sheet, want string }{
		{tpl, "", "Nope", `no sheet "Nope"`},
		{secretTpl, "", "Items", "template_password_env"},
		{secretTpl, "    template_password_env: SHEETSTREAM_TEST_WRONG\n", "Items", "wrong password"},
	} {
		t.Setenv("SHEETSTREAM_TEST_WRONG", "nope")
		_, err := ParseConfig([]byte(`
database: sqlite:` + dbPath + `
exports:
  - name: items
    template: ` + bad.tpl + `
` + bad.extra + `    sheets:
      - {name: ` + bad.sheet + `, sql: "SELECT 1"}
`))
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v", bad.want, err)
		}
	}

	// An encrypted template, its password from the environment; the
	// download encrypted with the export's password.
	t.Setenv("SHEETSTREAM_TEST_TPL_PASSWORD", "designer")
	t.Setenv("SHEETSTREAM_TEST_PASSWORD", "reader")
	cfg, err = ParseConfig([]byte(`
database: sqlite:` + dbPath + `
exports:
  - name: items
    template: ` + secretTpl + `
    template_password_env: SHEETSTREAM_TEST_TPL_PASSWORD
    password_env: SHEETSTREAM_TEST_PASSWORD
    params:
      - {name: kind, type: text}
    sheets:
      - {name: Items, sql: "SELECT id, kind FROM items WHERE kind = :kind"}
`))
	if err != nil {
		t.Fatal(err)
	}
	f = serve(t, cfg)
	resp, body = f.get("/exports/items.xlsx?kind=a")
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	wb, err := xlsx.NewReader(bytes.NewReader(body), int64(len(body)), xlsx.ReadOptions{Password: "reader"})
	if err != nil {
		t.Fatal(err)
	}
	defer wb.Close()
	if wb.Encryption() == "" {
		t.Error("the download is not encrypted")
	}
	rows, err := wb.Rows(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		for _, c := range rows.Row().Cells {
			got = append(got, c.String())
		}
	}
	rows.Close()
	if strings.Join(got, ",") != "id,kind,1,a,3,a,4,a" {
		t.Errorf("the encrypted download holds %q", got)
	}

	// A relative template: path is a file of the configuration's folder,
	// wherever the service runs from.
	conf := filepath.Join(dir, "exports.yaml")
	if err := os.WriteFile(conf, []byte(`
database: sqlite:`+dbPath+`
exports:
  - name: items
    template: report.xlsx
    sheets:
      - {name: Items, sql: "SELECT id, kind FROM items"}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	loaded, err := LoadConfig(conf)
	if err != nil {
		t.Fatal(err)
	}
	if got := loaded.Exports[0].Template; got != tpl {
		t.Errorf("template: %s, want %s", got, tpl)
	}
}
