package main

import (
	"archive/zip"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

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
	sh.WriteRow([]xlsx.Cell{xlsx.String("Revenue for {{quarter}}"), xlsx.String("{{target}}"), xlsx.String("{{code}}"), xlsx.String("{{due}}")})
	sh.WriteRow([]xlsx.Cell{xlsx.String("City"), xlsx.String("Revenue")})
	sh.WriteRow([]xlsx.Cell{xlsx.Blank(), xlsx.Blank()})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out := filepath.Join(dir, "out.xlsx")
	msg, err := exec.Command(bin, "export", "--db", "sqlite:"+dbPath, "--query", "SELECT city, revenue FROM t ORDER BY city",
		"--sheet", "Revenue", "--template", tpl, "--set", "quarter=Q3", "--set", "target=1500", "--set-text", "code=007", "--set", "due=2026-12-31", "-o", out).CombinedOutput()
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
	if s := read("xl/sharedStrings.xml"); !strings.Contains(s, "Revenue for Q3") || !strings.Contains(s, "<t>007</t>") {
		t.Errorf("placeholder: %s", s)
	}
	// A number and an ISO date fill cells that are only their placeholder
	// typed (the date in a date format); --set-text kept 007 text.
	if s := read("xl/worksheets/sheet1.xml"); !strings.Contains(s, `<c><v>1500</v></c><c t="s"><v>`) || !regexp.MustCompile(`<c s="\d+"><v>46387</v></c>`).MatchString(s) {
		t.Errorf("typed placeholders: %s", s)
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

	// An encrypted template opens with --template-password-file; the
	// workbook is encrypted with --password-file; without the template's
	// password (and no terminal) it fails, naming the file.
	secretTpl := filepath.Join(dir, "secret-design.xlsx")
	f, _ = os.Create(secretTpl)
	w, _ = xlsx.NewWriter(f, xlsx.Options{Strings: xlsx.StringsShared, Password: "designer"})
	sh, _ = w.AddSheet("Revenue", xlsx.SheetOptions{})
	if err := sh.AddTable(xlsx.Range{FirstRow: 1, FirstCol: 1, LastRow: 2, LastCol: 2}, xlsx.Table{Name: "Revenue"}); err != nil {
		t.Fatal(err)
	}
	sh.WriteRow([]xlsx.Cell{xlsx.String("City"), xlsx.String("Revenue")})
	sh.WriteRow([]xlsx.Cell{xlsx.Blank(), xlsx.Blank()})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	tplPass, outPass := filepath.Join(dir, "tpl.pass"), filepath.Join(dir, "out.pass")
	os.WriteFile(tplPass, []byte("designer\n"), 0o600)
	os.WriteFile(outPass, []byte("reader\n"), 0o600)
	secretOut := filepath.Join(dir, "secret.xlsx")
	cmd := exec.Command(bin, "export", "--db", "sqlite:"+dbPath, "--query", "SELECT city, revenue FROM t ORDER BY city",
		"--template", secretTpl, "--template-password-file", tplPass, "--password-file", outPass, "-o", secretOut)
	cmd.Env = append(os.Environ(), "SHEETSTREAM_PASSWORD=")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, msg)
	}
	wb, err := xlsx.Open(secretOut, xlsx.ReadOptions{Password: "reader"})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := wb.Rows(context.Background(), 0)
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
	wb.Close()
	if strings.Join(got, ",") != "City,Revenue,Lisbon,12.5,Oslo,10" {
		t.Errorf("the encrypted workbook holds %q", got)
	}
	cmd = exec.Command(bin, "export", "--db", "sqlite:"+dbPath, "--query", "SELECT city, revenue FROM t", "--template", secretTpl, "-o", filepath.Join(dir, "nopass.xlsx"))
	cmd.Env = append(os.Environ(), "SHEETSTREAM_PASSWORD=")
	if msg, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(msg), "password") {
		t.Errorf("an encrypted template without its password: %v\n%s", err, msg)
	}
}

// TestSetValue: --set types numbers as written (no leading zeros or plus)
// and ISO dates and times; anything else stays text.
func TestSetValue(t *testing.T) {
	day := time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)
	for in, want := range map[string]any{
		"42": int64(42), "-3.5": -3.5, "1e3": 1000.0, "0": int64(0), "0.5": 0.5,
		"007": "007", "+5": "+5", "1,000": "1,000", "12 34": "12 34", "": "", "Q3": "Q3", "99999999999999999999": 1e20,
		"2026-12-31": day, "2026-12-31T09:30": day.Add(9*time.Hour + 30*time.Minute), "2026-12-31 09:30:15": day.Add(9*time.Hour + 30*time.Minute + 15*time.Second),
		"31/12/2026": "31/12/2026", "2026-13-01": "2026-13-01",
	} {
		got := setValue(in)
		if g, ok := got.(time.Time); ok {
			if w, ok := want.(time.Time); !ok || !g.Equal(w) {
				t.Errorf("%q: %v, want %v", in, got, want)
			}
			continue
		}
		if got != want {
			t.Errorf("%q: %#v, want %#v", in, got, want)
		}
	}
}
