package main

import (
	"archive/zip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// TestExportTemplate: export --template fills the designed workbook's
// table with the query's rows, --set fills its placeholders; a header
// that does not match the table, or a sheet it does not have, fails
// before anything is written, naming them.
func TestExportTemplate(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "shop.db")
	db, err := sqlsheet.Open("sqlite:" + dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE t (city TEXT, revenue REAL); INSERT INTO t VALUES ('Oslo', 10), ('Lisbon', 12.5)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	tpl := filepath.Join(dir, "design.xlsx")
	f, _ := os.Create(tpl)
	w, _ := xlsx.NewWriter(f, xlsx.Options{Strings: xlsx.StringsShared})
	sh, _ := w.AddSheet("Revenue", xlsx.SheetOptions{})
	if err := sh.AddTable(xlsx.Range{FirstRow: 2, FirstCol: 1, LastRow: 3, LastCol: 2}, xlsx.Table{Name: "Revenue"}); err != nil {
		t.Fatal(err)
	}
	sh.WriteRow([]xlsx.Cell{xlsx.String("Revenue for {{quarter}}")})
	sh.WriteRow([]xlsx.Cell{xlsx.String("City"), xlsx.String("Revenue")})
	sh.WriteRow([]xlsx.Cell{xlsx.Blank(), xlsx.Blank()})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out := filepath.Join(dir, "out.xlsx")
	msg, err := exec.Command(bin, "export", "--db", "sqlite:"+dbPath, "--query", "SELECT city, revenue FROM t ORDER BY city",
		"--sheet", "Revenue", "--template", tpl, "--set", "quarter=Q3", "-o", out).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, msg)
	}
	read := func(name string) string {
		zr, err := zip.OpenReader(out)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		rc, err := zr.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		b, _ := io.ReadAll(rc)
		return string(b)
	}
	if tb := read("xl/tables/table1.xml"); !strings.Contains(tb, `ref="A2:B4"`) {
		t.Errorf("table: %s", tb)
	}
	if s := read("xl/sharedStrings.xml"); !strings.Contains(s, "Revenue for Q3") {
		t.Errorf("placeholder: %s", s)
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"--query", "SELECT city AS town, revenue FROM t", "--sheet", "Revenue"}, `column 1: the table's column is "City", the rows' "town"`},
		{[]string{"--query", "SELECT city, revenue FROM t", "--sheet", "Sales"}, `no sheet "Sales"`},
	} {
		out2 := filepath.Join(dir, "bad.xlsx")
		args := append([]string{"export", "--db", "sqlite:" + dbPath, "--template", tpl, "-o", out2}, bad.args...)
		msg, err := exec.Command(bin, args...).CombinedOutput()
		if err == nil || !strings.Contains(string(msg), bad.want) || !strings.Contains(string(msg), "design.xlsx") {
			t.Errorf("%v: %v\n%s", bad.args, err, msg)
		}
		if _, err := os.Stat(out2); err == nil {
			t.Errorf("%v: a file was left", bad.args)
		}
	}
}
