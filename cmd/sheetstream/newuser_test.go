package main

// What a new user met in the third round (issue #41), each on data made
// like the files they used.

import (
	"database/sql"
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/xlsx"
)

// packageList is a TSV as Debian's and PyPI's package lists are: no
// quoting at all, summaries that open with a quote, inches, and a field
// with a quote pair in the middle.
func packageList(rows int) string {
	var b strings.Builder
	b.WriteString("name\tsummary\tversion\n")
	for i := range rows {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "agent%d\t\"AGENT\" K is a \"doner\"-wrap\t1.%d\n", i, i)
		case 1:
			fmt.Fprintf(&b, "screen%d\ta 27\" screen\t2.%d\n", i, i)
		case 2:
			fmt.Fprintf(&b, "quoted%d\tthe \"best\" tool\t3.%d\n", i, i)
		default:
			fmt.Fprintf(&b, "plain%d\tnothing special\t4.%d\n", i, i)
		}
	}
	return b.String()
}

func countRows(t *testing.T, dbPath, table string) int {
	t.Helper()
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestLazyQuotesNeverMerge: under --lazy-quotes a field that opens with a
// quote it does not close on its line is text, so every line is a row
// (import and convert); --quote none reads the same file with quotes as
// text; without either, the error names --quote none.
func TestLazyQuotesNeverMerge(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	tsv := filepath.Join(dir, "packages.tsv")
	os.WriteFile(tsv, []byte(packageList(4000)), 0o600)
	dbPath := filepath.Join(dir, "p.db")
	for i, flags := range [][]string{{"--lazy-quotes"}, {"--quote", "none"}} {
		table := fmt.Sprintf("p%d", i)
		out, err := exec.Command(bin, append([]string{"import", tsv, "--db", "sqlite:" + dbPath, "--table", table}, flags...)...).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "imported 4000 rows") {
			t.Errorf("import %v: %v %s", flags, err, out)
			continue
		}
		if n := countRows(t, dbPath, table); n != 4000 {
			t.Errorf("import %v: %d rows in the table, want 4000", flags, n)
		}
		book := filepath.Join(dir, table+".xlsx")
		if out, err := exec.Command(bin, append([]string{"convert", tsv, book}, flags...)...).CombinedOutput(); err != nil {
			t.Errorf("convert %v: %v %s", flags, err, out)
			continue
		}
		rows := catRows(t, bin, book)
		if len(rows) != 4001 || rows[1][1] != `"AGENT" K is a "doner"-wrap` || rows[2][1] != `a 27" screen` || rows[3][1] != `the "best" tool` {
			t.Errorf("convert %v: %d rows, the first %q", flags, len(rows), rows[min(1, len(rows)-1)])
		}
	}
	out, err := exec.Command(bin, "convert", tsv, filepath.Join(dir, "strict.xlsx")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--quote none") {
		t.Errorf("without a flag: %v %s", err, out)
	}
	// A real multi-line field under --lazy-quotes is never merged
	// silently: its lines are rows of their own, or a row wider than the
	// header (an error naming the line).
	multi := filepath.Join(dir, "multi.csv")
	os.WriteFile(multi, []byte("a,b\n1,\"two\nlines\",x\n2,y\n"), 0o600)
	if out, err := exec.Command(bin, "convert", multi, filepath.Join(dir, "m.xlsx"), "--lazy-quotes").CombinedOutput(); err != nil {
		t.Errorf("a multi-line field under --lazy-quotes: %v %s", err, out)
	} else if rows := catRows(t, bin, filepath.Join(dir, "m.xlsx")); len(rows) != 4 || rows[1][1] != `"two` {
		t.Errorf("a multi-line field under --lazy-quotes: %q", rows)
	}
	wide := filepath.Join(dir, "wide.csv")
	os.WriteFile(wide, []byte("a,b\n1,\"two\nx,y,z\",w\n"), 0o600)
	out, err = exec.Command(bin, "convert", wide, filepath.Join(dir, "w.xlsx"), "--lazy-quotes").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "line 3") {
		t.Errorf("a multi-line field whose second line is wider, under --lazy-quotes: %v %s", err, out)
	}
	// Another quote character.
	single := filepath.Join(dir, "single.csv")
	os.WriteFile(single, []byte("name,note\n'Bo, Jr','it''s'\n"), 0o600)
	if out, err := exec.Command(bin, "convert", single, filepath.Join(dir, "s.xlsx"), "--quote", "'").CombinedOutput(); err != nil {
		t.Errorf("--quote \"'\": %v %s", err, out)
	} else if text, _ := exec.Command(bin, "cat", filepath.Join(dir, "s.xlsx"), "--format", "tsv").Output(); !strings.Contains(string(text), "Bo, Jr\tit's") {
		t.Errorf("--quote \"'\": %q", text)
	}
	if out, err := exec.Command(bin, "convert", single, filepath.Join(dir, "s.xlsx"), "--quote", "ab").CombinedOutput(); err == nil || !strings.Contains(string(out), "--quote") {
		t.Errorf("--quote ab: %v %s", err, out)
	}
}

// catRows reads a workbook's first sheet back through cat as CSV.
func catRows(t *testing.T, bin, book string) [][]string {
	t.Helper()
	text, err := exec.Command(bin, "cat", book, "--format", "csv").Output()
	if err != nil {
		t.Fatalf("cat %s: %v", book, err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(text))).ReadAll()
	if err != nil {
		t.Fatalf("cat %s: %v", book, err)
	}
	return rows
}

// TestExportByExtension: -o's extension chooses the format (CSV, TSV,
// JSON lines, a workbook); another extension is refused naming those it
// takes; --format writes any of them under any name.
func TestExportByExtension(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	q := "SELECT id, city FROM customers ORDER BY id LIMIT 3"
	for _, c := range []struct {
		out, format, want string
	}{
		{"a.csv", "", "id,city\n1,"},
		{"a.tsv", "", "id\tcity\n1\t"},
		{"a.jsonl", "", `{"id":1,"city":`},
		{"a.txt", "csv", "id,city\n1,"},
		{"a.xlsx", "", "PK\x03\x04"},
	} {
		args := []string{"export", "--demo", "--query", q, "-o", filepath.Join(dir, c.out)}
		if c.format != "" {
			args = append(args, "--format", c.format)
		}
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Errorf("%s: %v %s", c.out, err, out)
			continue
		}
		b, _ := os.ReadFile(filepath.Join(dir, c.out))
		if !strings.HasPrefix(string(b), c.want) {
			t.Errorf("%s holds %.60q, want it to start %q", c.out, b, c.want)
		}
	}
	for _, c := range []struct{ out, want string }{
		{"a.json", "export writes .xlsx, .xlsm, .csv, .tsv, .jsonl, .parquet, .arrow or .feather, not .json"},
		{"noext", "give the file an extension"},
	} {
		out, err := exec.Command(bin, "export", "--demo", "--query", q, "-o", filepath.Join(dir, c.out)).CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("%s: %v %s", c.out, err, out)
		}
		if _, err := os.Stat(filepath.Join(dir, c.out)); err == nil {
			t.Errorf("%s was written", c.out)
		}
	}
	if out, err := exec.Command(bin, "export", "--demo", "-o", filepath.Join(dir, "two.csv")).CombinedOutput(); err == nil || !strings.Contains(string(out), "holds one query's rows") {
		t.Errorf("two queries to CSV: %v %s", err, out)
	}
}

// TestMessagesThirdRound: a folder as input or output, a missing output
// folder, a CSV named .xlsx, HTML named .xls, 20,000 columns, a missing
// argument, an unknown flag and encoding, an encrypted workbook without
// its password: each says plainly what is wrong and what to do. Counts
// are data rows; an empty CSV is an error; a long field is cut unless
// --strict.
func TestMessagesThirdRound(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.csv")
	os.WriteFile(good, []byte("id,name\n1,a\n2,b\n"), 0o644)
	fakeXLSX := filepath.Join(dir, "fake.xlsx")
	os.WriteFile(fakeXLSX, []byte("id,name\n1,a\n"), 0o644)
	html := filepath.Join(dir, "report.xls")
	os.WriteFile(html, []byte("<!DOCTYPE html><html><body><table><tr><td>1</td></tr></table></body></html>"), 0o644)
	wide := filepath.Join(dir, "wide.csv")
	var header, row []string
	for i := range 20000 {
		header, row = append(header, fmt.Sprintf("c%d", i)), append(row, "1")
	}
	os.WriteFile(wide, []byte(strings.Join(header, ",")+"\n"+strings.Join(row, ",")+"\n"), 0o644)
	empty := filepath.Join(dir, "empty.csv")
	os.WriteFile(empty, nil, 0o644)
	long := filepath.Join(dir, "long.csv")
	os.WriteFile(long, []byte("a,b\n1,"+strings.Repeat("x", 40000)+"\n"), 0o644)
	secret := filepath.Join(dir, "secret.xlsx")
	enc := exec.Command(bin, "convert", good, secret, "--password-file", "/dev/stdin")
	enc.Stdin = strings.NewReader("pw\n")
	if out, err := enc.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	db := "sqlite:" + filepath.Join(dir, "x.db")
	for _, c := range []struct {
		args    []string
		want    string
		wantNot string
	}{
		{[]string{"convert", dir, filepath.Join(dir, "o.xlsx")}, "is a folder, not a file", ""},
		{[]string{"cat", dir}, "is a folder, not a file", ""},
		{[]string{"import", good, "--db", "sqlite:" + dir, "--table", "t"}, "is a folder, not a SQLite database file", "unable to open"},
		{[]string{"convert", good, filepath.Join(dir, "nope", "o.xlsx")}, "the folder " + filepath.Join(dir, "nope") + " does not exist", ".tmp-"},
		{[]string{"export", "--demo", "-o", dir}, "is a folder", ".tmp-"},
		{[]string{"cat", fakeXLSX}, "the file is text (CSV?)", "not a zip package"},
		{[]string{"cat", html}, "the file is an HTML page", "saved as .xlsx?"},
		{[]string{"convert", wide, filepath.Join(dir, "w.xlsx")}, "more than 16,384 columns: the row has 20000", "column )"},
		{[]string{"import", wide, "--db", db, "--table", "w"}, "the header has 20000 columns, and a sqlite table holds at most 2000", ""},
		{[]string{"convert", good}, "usage: sheetstream convert IN", ""},
		{[]string{"convert", good, filepath.Join(dir, "o.xlsx"), "--delim", ";"}, "did you mean --delimiter?", ""},
		{[]string{"convert", good, filepath.Join(dir, "o.xlsx"), "--encoding", "klingon"}, "is not a character set sheetstream knows", "htmlindex"},
		{[]string{"cat", secret}, "--password-file", "ReadOptions"},
		{[]string{"convert", empty, filepath.Join(dir, "e.xlsx")}, "the text is empty", ""},
		{[]string{"convert", long, filepath.Join(dir, "l.xlsx"), "--strict"}, "without --strict such text is cut", ""},
	} {
		cmd := exec.Command(bin, c.args...)
		cmd.Env = append(os.Environ(), "SHEETSTREAM_PASSWORD=")
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) || c.wantNot != "" && strings.Contains(string(out), c.wantNot) {
			t.Errorf("%v: %v %q, want %q", c.args, err, out, c.want)
		}
	}
	// Counts are data rows; a long field is cut with a note.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"convert", good, filepath.Join(dir, "g.xlsx")}, "2 rows under a header"},
		{[]string{"convert", filepath.Join(dir, "g.xlsx"), filepath.Join(dir, "g.csv")}, "2 rows under a header"},
		{[]string{"import", good, "--db", db, "--table", "g"}, "imported 2 rows"},
		{[]string{"convert", long, filepath.Join(dir, "l.xlsx")}, "1 texts cut to 32,767 characters"},
	} {
		if out, err := exec.Command(bin, c.args...).CombinedOutput(); err != nil || !strings.Contains(string(out), c.want) {
			t.Errorf("%v: %v %q, want %q", c.args, err, out, c.want)
		}
	}
	if help, _ := exec.Command(bin, "serve", "--help").CombinedOutput(); strings.Count(string(help), "default") > 0 && strings.Contains(string(help), "(default -1)") {
		t.Errorf("serve --help shows two defaults for --job-workers")
	}
}

// TestLibreOfficeTemplate: a LibreOffice template (.ots, saved by
// LibreOffice itself) converts as its workbook kind does.
func TestLibreOfficeTemplate(t *testing.T) {
	soffice := testenv.Get(t, "SHEETSTREAM_SOFFICE", "installs LibreOffice")
	bin := buildCLI(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "marine.csv")
	os.WriteFile(good, []byte("ship,tons\nAurora,1200\nBorealis,950\n"), 0o644)
	book := filepath.Join(dir, "marine.xlsx")
	if out, err := exec.Command(bin, "convert", good, book).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	cmd := exec.Command(soffice, "--headless", "--convert-to", "ots:calc8_template", "--outdir", dir, book)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("LibreOffice: %v %s", err, out)
	}
	out, err := exec.Command(bin, "convert", filepath.Join(dir, "marine.ots"), filepath.Join(dir, "back.xlsx")).CombinedOutput()
	if err != nil || strings.Contains(string(out), "--format csv") {
		t.Fatalf("convert marine.ots: %v %s", err, out)
	}
	if rows := catRows(t, bin, filepath.Join(dir, "back.xlsx")); fmt.Sprint(rows) != "[[ship tons] [Aurora 1200] [Borealis 950]]" {
		t.Errorf("marine.ots converted: %q", rows)
	}
}

// TestDecimalCommaAndVersions: --decimal , reads a semicolon file's
// 1.234,56 as numbers (import and convert), and a version column (1.10
// beside 1.1, even past the rows types are guessed from) stays text.
func TestDecimalCommaAndVersions(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	semi := filepath.Join(dir, "prices.csv")
	os.WriteFile(semi, []byte("region;price;units\nNorth;1.234,56;10\nSouth;7,5;1.000\n"), 0o600)
	out, err := exec.Command(bin, "convert", semi, filepath.Join(dir, "p.xlsx")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--decimal ,") {
		t.Errorf("the semicolon hint does not name --decimal: %v %s", err, out)
	}
	dbPath := filepath.Join(dir, "p.db")
	out, err = exec.Command(bin, "import", semi, "--db", "sqlite:"+dbPath, "--table", "p", "--delimiter", ";", "--decimal", ",").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "(region text, price float, units integer)") {
		t.Fatalf("import --decimal ,: %v %s", err, out)
	}
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var price float64
	var units int
	if err := db.QueryRow("SELECT price, units FROM p WHERE region = 'North'").Scan(&price, &units); err != nil || price != 1234.56 || units != 10 {
		t.Errorf("North: %v %v %v", price, units, err)
	}
	if out, err := exec.Command(bin, "convert", semi, filepath.Join(dir, "p.xlsx"), "--delimiter", ";", "--decimal", ",").CombinedOutput(); err != nil {
		t.Fatalf("convert --decimal ,: %v %s", err, out)
	}
	if rows := catRows(t, bin, filepath.Join(dir, "p.xlsx")); fmt.Sprint(rows[1:]) != "[[North 1234.56 10] [South 7.5 1000]]" {
		t.Errorf("converted: %q", rows)
	}
	var b strings.Builder
	b.WriteString("name,version\n")
	for i := range 12000 {
		fmt.Fprintf(&b, "p%d,1.1\n", i)
	}
	b.WriteString("last,1.10\n")
	versions := filepath.Join(dir, "versions.csv")
	os.WriteFile(versions, []byte(b.String()), 0o600)
	out, err = exec.Command(bin, "import", versions, "--db", "sqlite:"+dbPath, "--table", "v").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "version text") {
		t.Errorf("versions: %v %s", err, out)
	}
	var last string
	if err := db.QueryRow("SELECT version FROM v WHERE name = 'last'").Scan(&last); err != nil || last != "1.10" {
		t.Errorf("the last version: %q %v", last, err)
	}
	if out, err := exec.Command(bin, "convert", versions, filepath.Join(dir, "v.xlsx")).CombinedOutput(); err != nil {
		t.Fatalf("convert: %v %s", err, out)
	}
	if rows := catRows(t, bin, filepath.Join(dir, "v.xlsx")); rows[12001][1] != "1.10" || rows[1][1] != "1.1" {
		t.Errorf("converted versions: %q %q", rows[1], rows[12001])
	}
}

// TestTextColumnDatesAndNarrowTable: a date in a column that is text
// (dates beside words) is imported as cat shows it, 2016-01-10, from a
// workbook and from its .xls saved by LibreOffice; the table view cuts a
// wide last column with … rather than leaving it out.
func TestTextColumnDatesAndNarrowTable(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	book := filepath.Join(dir, "mixed.xlsx")
	f, err := os.Create(book)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := xlsx.NewWriter(f, xlsx.Options{})
	s, _ := w.AddSheet("S", xlsx.SheetOptions{})
	s.WriteRow([]xlsx.Cell{xlsx.String("when"), xlsx.String("note")})
	s.WriteRow([]xlsx.Cell{xlsx.Date(time.Date(2016, 1, 10, 0, 0, 0, 0, time.UTC)), xlsx.String(strings.Repeat("a long note ", 8))})
	s.WriteRow([]xlsx.Cell{xlsx.String("unknown"), xlsx.String("x")})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	inputs := []string{book}
	if soffice := os.Getenv("SHEETSTREAM_SOFFICE"); soffice != "" {
		cmd := exec.Command(soffice, "--headless", "--convert-to", "xls:MS Excel 97", "--outdir", dir, book)
		cmd.Env = append(os.Environ(), "HOME="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("LibreOffice: %v %s", err, out)
		}
		inputs = append(inputs, filepath.Join(dir, "mixed.xls"))
	}
	dbPath := filepath.Join(dir, "m.db")
	for i, in := range inputs {
		table := fmt.Sprintf("m%d", i)
		if out, err := exec.Command(bin, "import", in, "--db", "sqlite:"+dbPath, "--table", table).CombinedOutput(); err != nil || !strings.Contains(string(out), "when text") {
			t.Fatalf("import %s: %v %s", in, err, out)
		}
		if got := fmt.Sprint(queryStrings(t, dbPath, "SELECT when_ FROM (SELECT \"when\" AS when_ FROM "+table+" ORDER BY rowid)")); got != "[2016-01-10 unknown]" {
			t.Errorf("%s: the text column holds %s, want [2016-01-10 unknown]", in, got)
		}
	}
	cmd := exec.Command(bin, "cat", book)
	cmd.Env = append(os.Environ(), "COLUMNS=40")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "a long note") || !strings.Contains(string(out), "…") || strings.Contains(string(out), "more") {
		t.Errorf("the wide last column, 40 cells wide:\n%s", out)
	}
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if displayWidth(line) > 40 {
			t.Errorf("a line wider than 40 cells: %q", line)
		}
	}
}

func queryStrings(t *testing.T, dbPath, q string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		rows.Scan(&s)
		out = append(out, s)
	}
	return out
}

// TestCatText: cat reads CSV and TSV with convert's text flags.
func TestCatText(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	tsv := filepath.Join(dir, "packages.tsv")
	os.WriteFile(tsv, []byte(packageList(8)), 0o600)
	out, err := exec.Command(bin, "cat", tsv, "--quote", "none", "--format", "jsonl", "--records", "--head", "1").CombinedOutput()
	if err != nil || string(out) != `{"name":"agent0","summary":"\"AGENT\" K is a \"doner\"-wrap","version":1}`+"\n" {
		t.Errorf("cat --quote none: %v %s", err, out)
	}
	if out, err := exec.Command(bin, "cat", tsv).CombinedOutput(); err == nil || !strings.Contains(string(out), "--quote none") {
		t.Errorf("cat without --quote: %v %s", err, out)
	}
	semi := filepath.Join(dir, "p.txt")
	os.WriteFile(semi, []byte("a;b\n1,5;x\n"), 0o600)
	if out, err := exec.Command(bin, "cat", semi, "--delimiter", ";", "--decimal", ",", "--format", "csv").CombinedOutput(); err != nil || string(out) != "a,b\n1.5,x\n" {
		t.Errorf("cat --delimiter ';' --decimal ,: %v %q", err, out)
	}
}
