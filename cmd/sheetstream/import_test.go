package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// TestImportMessySheet loads a report whose table sits under a title and
// above totals with --header-row auto and --stop-at-empty, and a
// rectangle of it with --range and --columns.
func TestImportMessySheet(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "report.xlsx")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := xlsx.NewWriter(f, xlsx.Options{})
	sh, _ := w.AddSheet("Report", xlsx.SheetOptions{})
	s, e := xlsx.String, xlsx.Cell{}
	for _, r := range [][]xlsx.Cell{
		{s("Sales by region")}, {}, {e, s("Region"), s("Units"), s("Note")},
		{e, s("North"), xlsx.Int(10), s("x")}, {e, s("South"), xlsx.Int(7)}, {}, {e, s("Total"), xlsx.Int(17)},
	} {
		if err := sh.WriteRow(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	db := "sqlite:" + filepath.Join(dir, "r.db")
	out, err := exec.Command(bin, "import", path, "--db", db, "--table", "a", "--header-row", "auto", "--stop-at-empty").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "header: row 3") || !strings.Contains(string(out), "imported 2 rows") ||
		!strings.Contains(string(out), "Units integer") {
		t.Errorf("auto: %v\n%s", err, out)
	}
	out, err = exec.Command(bin, "import", path, "--db", db, "--table", "b", "--range", "B3:D", "--columns", "region,units", "--stop-at-empty").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "imported 2 rows") || !strings.Contains(string(out), "(Region text, Units integer)") {
		t.Errorf("range and columns: %v\n%s", err, out)
	}
	out, err = exec.Command(bin, "import", path, "--db", db, "--table", "t", "--header-row", "3", "--stop-at-empty", "--type", "Units=float", "--columns", "Region,Units").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "(Region text, Units float)") {
		t.Errorf("--type: %v\n%s", err, out)
	}
	out, err = exec.Command(bin, "import", path, "--db", db, "--table", "c", "--range", "B9:A1").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--range") {
		t.Errorf("bad range: %v\n%s", err, out)
	}
}

// importCLI runs `sheetstream import --db db ARGS...` with stdin as its
// standard input, returning what it printed.
func importCLI(bin, db, stdin string, args ...string) (string, error) {
	cmd := exec.Command(bin, append([]string{"import", "--db", db}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestImportText loads CSV and TSV files and standard input (sniffed, and
// named with --format), and refuses --sheet and unknown formats.
func TestImportText(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "t.db")
	csvPath, tsvPath := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.tsv")
	os.WriteFile(csvPath, []byte("\ufeffid,name\n1,Ana\n2,\"Bo, Jr\"\n"), 0o600)
	os.WriteFile(tsvPath, []byte("id\tname\n1\tAna\n"), 0o600)
	for _, c := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{csvPath, "--table", "c"}, "imported 2 rows from " + csvPath + " into c (id integer, name text)"},
		{"", []string{tsvPath, "--table", "t"}, "imported 1 rows from " + tsvPath + " into t (id integer, name text)"},
		{"x,y\n1,2.5\n", []string{"-", "--table", "s"}, "imported 1 rows from standard input into s (x integer, y float)"},
		{"x;y\n1;a\n", []string{"-", "--table", "d", "--format", "csv", "--delimiter", ";"}, "(x integer, y text)"},
		{"x\ty\n1\ta\n", []string{"-", "--table", "f", "--format", "tsv"}, "(x integer, y text)"},
	} {
		if out, err := importCLI(bin, db, c.stdin, c.args...); err != nil || !strings.Contains(out, c.want) {
			t.Errorf("%v: %v\n%s", c.args, err, out)
		}
	}
	for _, args := range [][]string{
		{csvPath, "--table", "x", "--sheet", "2"},
		{filepath.Join(dir, "a.dat"), "--table", "x"},
		{csvPath, "--table", "x", "--format", "ods"},
	} {
		if out, err := importCLI(bin, db, "", args...); err == nil {
			t.Errorf("%v: accepted\n%s", args, out)
		}
	}
}

// TestImportMergeAndRejects: --merge --key with and without --dry-run
// reports its counts, --max-errors with --rejects keeps the bad rows, and
// a failed import leaves no rejects file behind.
func TestImportMergeAndRejects(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "m.db")
	first, second := filepath.Join(dir, "first.csv"), filepath.Join(dir, "second.csv")
	os.WriteFile(first, []byte("id,score\n1,10\n2,20\n"), 0o600)
	os.WriteFile(second, []byte("id,score\n1,10\n2,25\n3,x\n4,40\n"), 0o600)
	rejects := filepath.Join(dir, "rejects.csv")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{first}, "imported 2 rows"},
		{[]string{second, "--merge", "--key", "id", "--dry-run", "--max-errors", "1"},
			"dry run, nothing changed: would merge 3 rows from " + second + " into s: 1 to insert, 1 to update, 1 to leave"},
		{[]string{second, "--merge", "--key", "id", "--max-errors", "1", "--rejects", rejects}, "merged 3 rows from " + second + " into s: 1 inserted, 1 updated, 1 unchanged"},
		{[]string{second, "--merge", "--key", "id", "--max-errors", "1"}, "rejected 1 rows; give --rejects"},
	} {
		out, err := importCLI(bin, db, "", append([]string{"--table", "s"}, c.args...)...)
		if err != nil || !strings.Contains(out, c.want) {
			t.Errorf("%v: %v\n%s", c.args, err, out)
		}
	}
	if got, _ := os.ReadFile(rejects); !strings.HasPrefix(string(got), "row,error,id,score\n4,") {
		t.Errorf("rejects file: %q", got)
	}
	failed, dup := filepath.Join(dir, "failed.csv"), filepath.Join(dir, "dup.csv")
	os.WriteFile(dup, []byte("id,score\n5,1\n3,x\n5,2\n"), 0o600)
	out, err := importCLI(bin, db, "", "--table", "s", dup, "--merge", "--key", "id", "--max-errors", "1", "--rejects", failed)
	if err == nil || !strings.Contains(out, `row 4, field 1 (column "id"): duplicate key: the key (id) repeats row 2's`) {
		t.Errorf("a duplicate key: %v\n%s", err, out)
	}
	if _, err := os.Stat(failed); err == nil {
		t.Error("a failed import left its rejects file")
	}
}

// TestImportMaxRecord: a quote left open fails at --max-record-mib with
// the flag named; a long record under the limit loads.
func TestImportMaxRecord(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "m.db")
	long := strings.Repeat("x", 3<<20)
	out, err := importCLI(bin, db, "id,text\n1,\""+long+"\n2,b\n", "-", "--format", "csv", "--table", "open", "--max-record-mib", "1")
	if err == nil || !strings.Contains(out, "record 2") || !strings.Contains(out, "--max-record-mib") {
		t.Errorf("an open quote under --max-record-mib 1: %v\n%.300s", err, out)
	}
	out, err = importCLI(bin, db, "id,text\n1,\""+long+"\"\n2,b\n", "-", "--format", "csv", "--table", "long", "--max-record-mib", "4")
	if err != nil || !strings.Contains(out, "imported 2 rows") {
		t.Errorf("a 3 MiB record under --max-record-mib 4: %v\n%.300s", err, out)
	}
}

// TestSemicolonCSV: text in semicolons read as comma-separated would load
// as one column; import and convert say so and name the flag, and do as
// told with --delimiter.
func TestSemicolonCSV(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "export.csv")
	os.WriteFile(path, []byte("region;units;price\nNorth;10;1,5\n"), 0o600)
	db := "sqlite:" + filepath.Join(dir, "s.db")
	for _, args := range [][]string{
		{"import", path, "--db", db, "--table", "s"},
		{"convert", path, filepath.Join(dir, "s.xlsx")},
	} {
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "2 semicolons") || !strings.Contains(string(out), "--delimiter ';'") {
			t.Errorf("%s: %v\n%s", args[0], err, out)
		}
	}
	out, err := importCLI(bin, db, "a;b\n1;2\n", "-", "--table", "stdin")
	if err == nil || !strings.Contains(out, "standard input: the first line has no commas but 1 semicolons") {
		t.Errorf("standard input: %v\n%s", err, out)
	}
	out, err = importCLI(bin, db, "", path, "--table", "s", "--delimiter", ";")
	if err != nil || !strings.Contains(out, "(region text, units integer, price text)") {
		t.Errorf("--delimiter ';': %v\n%s", err, out)
	}
	// Read with commas as asked, the row "North;10;1,5" has two fields
	// where the header has one: an error naming the line and --ragged,
	// which cuts it.
	out, err = importCLI(bin, db, "", path, "--table", "one", "--delimiter", ",")
	if err == nil || !strings.Contains(out, "line 2: 2 fields where the header has 1") || !strings.Contains(out, "--ragged") {
		t.Errorf("--delimiter , as asked: %v\n%s", err, out)
	}
	out, err = importCLI(bin, db, "", path, "--table", "one", "--delimiter", ",", "--ragged")
	if err != nil || !strings.Contains(out, "imported 1 rows") {
		t.Errorf("--delimiter , --ragged: %v\n%s", err, out)
	}
}

// TestConvertFileLeavesStdin: converting a file reads nothing from
// standard input, which a terminal or an idle pipe may never close.
func TestConvertFileLeavesStdin(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "in.csv")
	os.WriteFile(path, []byte("a,b\n1,2\n"), 0o600)
	idle, open, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close() // the writer stays open: a read of stdin blocks
	defer idle.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "convert", path, filepath.Join(dir, "out.xlsx"))
	cmd.Stdin = idle
	if out, err := cmd.CombinedOutput(); err != nil || ctx.Err() != nil {
		t.Errorf("convert waited on standard input: %v (%v)\n%s", err, ctx.Err(), out)
	}
}

// TestImportSummary: a replace says how many rows the old table held only
// when a dry run counted them; it never claims a count it did not take.
func TestImportSummary(t *testing.T) {
	st := sqlsheet.ImportStats{Rows: 3, Removed: 4}
	if got, want := importSummary(st, sqlsheet.Replace, true, "f.csv", "t", "id integer"),
		"dry run, nothing changed: would replace t (4 rows) with 3 rows from f.csv (id integer)"; got != want {
		t.Errorf("dry run:\n got %q\nwant %q", got, want)
	}
	st.Removed = 0
	if got, want := importSummary(st, sqlsheet.Replace, false, "f.csv", "t", "id integer"),
		"replaced t with 3 rows from f.csv (id integer)"; got != want {
		t.Errorf("replace:\n got %q\nwant %q", got, want)
	}
}

// TestImportCreatesNoStrayFile: a dry run, an append or merge into a
// mistyped path, and a --create that fails leave no SQLite file behind; a
// database that cannot be opened is named as such, not the input; a
// failed import into a file that existed keeps it.
func TestImportCreatesNoStrayFile(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "stocks.csv")
	os.WriteFile(csvPath, []byte("id,day\n1,2024-01-02\n2,2024-01-03\n"), 0o600)
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("id,day\n1,2024-01-02\n2,soon\n"), 0o600)
	typo := filepath.Join(dir, "typo.db")
	for _, c := range []struct {
		args []string
		ok   bool
		want string
	}{
		{[]string{csvPath, "--table", "t", "--dry-run"}, true, "dry run, nothing changed: would import 2 rows"},
		{[]string{csvPath, "--table", "t", "--dry-run", "--replace"}, true, "dry run"},
		{[]string{csvPath, "--table", "t", "--append"}, false, "database " + typo + ": no such file"},
		{[]string{csvPath, "--table", "t", "--merge", "--key", "id"}, false, "database " + typo + ": no such file"},
		{[]string{bad, "--table", "t", "--type", "day=date"}, false, `"soon"`},
	} {
		out, err := importCLI(bin, "sqlite:"+typo, "", c.args...)
		if (err == nil) != c.ok || !strings.Contains(out, c.want) {
			t.Errorf("%v: %v\n%s\nwant %q", c.args, err, out, c.want)
		}
		if files, _ := filepath.Glob(typo + "*"); len(files) != 0 {
			t.Errorf("%v left %v", c.args, files)
		}
	}
	out, err := importCLI(bin, "sqlite:"+filepath.Join(dir, "no", "such", "x.db"), "", csvPath, "--table", "t")
	if err == nil || !strings.HasPrefix(out, "sheetstream: database sqlite:"+filepath.Join(dir, "no", "such", "x.db")+": ") || strings.Contains(out, "stocks.csv") {
		t.Errorf("a database in a missing folder: %v %s", err, out)
	}
	// A file that existed stays, with what it had, when an import fails.
	if out, err := importCLI(bin, "sqlite:"+typo, "", csvPath, "--table", "t"); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	if out, err := importCLI(bin, "sqlite:"+typo, "", bad, "--table", "t2", "--type", "day=date"); err == nil {
		t.Fatalf("a bad import passed: %s", out)
	}
	if out, err := importCLI(bin, "sqlite:"+typo, "", csvPath, "--table", "t", "--dry-run", "--append"); err != nil || !strings.Contains(out, "would import 2 rows") {
		t.Errorf("the existing file after a failed import: %v %s", err, out)
	}
}
