package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream"
	"github.com/sheetstream/sheetstream/internal/pyread"
)

func TestConvertCommand(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(csvPath, []byte("a,b\n1,x\n2,y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// File to file.
	out := filepath.Join(dir, "out.xlsx")
	if msg, err := exec.Command(bin, "convert", csvPath, out).CombinedOutput(); err != nil {
		t.Fatalf("convert: %v\n%s", err, msg)
	}
	// A new file gets the mode a plain create gives (not CreateTemp's
	// 0600); a file written over keeps its own.
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != os.FileMode(0o666&^umask) {
		t.Errorf("new output: mode %v, err %v; want %v", fi.Mode().Perm(), err, os.FileMode(0o666&^umask))
	}
	if err := os.Chmod(out, 0o640); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command(bin, "convert", csvPath, out).CombinedOutput(); err != nil {
		t.Fatalf("convert again: %v\n%s", err, msg)
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("replaced output: mode %v, err %v; want 0640", fi.Mode().Perm(), err)
	}
	// --excel-table: the sheet is a table named after it.
	tableOut := filepath.Join(dir, "table.xlsx")
	if msg, err := exec.Command(bin, "convert", "--excel-table", "--sheet", "2024 data", csvPath, tableOut).CombinedOutput(); err != nil {
		t.Fatalf("convert --excel-table: %v\n%s", err, msg)
	}
	pyread.Python(t)
	r := pyread.Read(t, tableOut)[tableOut]
	if tables := r.Tables["2024 data"]; r.Error != "" || len(r.Audit) > 0 || len(tables) != 1 || tables[0].Name != "_2024_data" || tables[0].Ref != "A1:B3" {
		t.Errorf("convert --excel-table: %v %v, tables %+v", r.Error, r.Audit, tables)
	}
	// stdin to stdout.
	cmd := exec.Command(bin, "convert", "--delimiter", "tab", "-", "-")
	cmd.Stdin = strings.NewReader("a\tb\n3\tz\n")
	piped, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	pipedPath := filepath.Join(dir, "piped.xlsx")
	if err := os.WriteFile(pipedPath, piped, 0o644); err != nil {
		t.Fatal(err)
	}
	// A bad input fails with a one-line message naming file and line, and
	// leaves neither the target nor a temporary file behind.
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("a\n\"unterminated\n"), 0o644)
	target := filepath.Join(dir, "bad.xlsx")
	msg, err := exec.Command(bin, "convert", bad, target).CombinedOutput()
	if err == nil || !strings.Contains(string(msg), "bad.csv") || !strings.Contains(string(msg), "line") ||
		strings.Count(strings.TrimSpace(string(msg)), "\n") != 0 || strings.Contains(string(msg), "goroutine") {
		t.Errorf("bad input: err %v, message %q", err, msg)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*bad.xlsx*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}

	pyread.Python(t)
	res := pyread.Read(t, out, pipedPath)
	if r := res[out]; r.Error != "" || len(r.Audit) > 0 || len(r.Openpyxl["Sheet1"]) != 3 {
		t.Errorf("out.xlsx: %+v", r)
	}
	if r := res[pipedPath]; r.Error != "" || len(r.Openpyxl["Sheet1"]) != 2 || len(r.Openpyxl["Sheet1"][1]) != 2 || r.Openpyxl["Sheet1"][1][1].V != "z" {
		t.Errorf("piped: %+v", r)
	}
}

func TestExportCommand(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	run := func(args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	// The README's first command: an embedded demo database, zero setup.
	msg, err := run("export", "--demo")
	demo := filepath.Join(dir, "sheetstream-demo.xlsx")
	if err != nil || !strings.Contains(msg, demo) || !strings.Contains(msg, "50010 rows") {
		t.Fatalf("export --demo: %v\n%s", err, msg)
	}
	// A table from a SQLite file, and a query, with their sheet names.
	dbPath := filepath.Join(dir, "shop.db")
	if msg, err := run("export", "--demo", "--db", "sqlite:"+dbPath, "-o", "first.xlsx"); err != nil {
		t.Fatalf("%v\n%s", err, msg)
	}
	out := filepath.Join(dir, "tables.xlsx")
	msg, err = run("export", "--db", "sqlite:"+dbPath, "--table", "customers", "--query", "SELECT COUNT(*) AS n FROM orders",
		"--sheet", "Clients", "--sheet", "Count", "-o", out)
	if err != nil || !strings.Contains(msg, "501 rows") {
		t.Fatalf("export: %v\n%s", err, msg)
	}
	// A failing query: one line naming the sheet, no file left behind.
	msg, err = run("export", "--db", "sqlite:"+dbPath, "--query", "SELECT nope FROM orders", "-o", "bad.xlsx")
	if err == nil || !strings.Contains(msg, `sheet "Sheet1"`) || !strings.Contains(msg, "nope") || strings.Count(strings.TrimSpace(msg), "\n") != 0 {
		t.Errorf("bad query: %v\n%s", err, msg)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*bad.xlsx*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
	// Stdout.
	cmd := exec.Command(bin, "export", "--db", "sqlite:"+dbPath, "--table", "customers", "-o", "-")
	piped, err := cmd.Output()
	if err != nil || len(piped) < 1000 || string(piped[:2]) != "PK" {
		t.Errorf("export to stdout: %v, %d bytes", err, len(piped))
	}

	pyread.Python(t)
	// The 50,000-row demo is read for values; the validator (minutes on
	// that size) checks the smaller export of the same database.
	if r := pyread.ReadValues(t, demo)[demo]; r.Error != "" || len(r.Openpyxl["Orders"]) != 50001 ||
		len(r.Calamine["Orders"]) != 50001 || len(r.Openpyxl["By city"]) != 11 || r.Openpyxl["Orders"][1][1].Type != "d" {
		t.Errorf("demo workbook: error %q, sheets %v", r.Error, r.Sheets)
	}
	r := pyread.Read(t, out)[out]
	if r.Error != "" || len(r.Audit) > 0 || len(r.Openpyxl["Clients"]) != 501 || len(r.Openpyxl["Count"]) != 2 ||
		r.Openpyxl["Count"][1][0].V != 50000.0 {
		t.Errorf("tables workbook: %v %v", r.Error, r.Sheets)
	}

	// --excel-table: each sheet an Excel table named after it.
	excel := filepath.Join(dir, "excel-tables.xlsx")
	if msg, err := run("export", "--db", "sqlite:"+dbPath, "--table", "customers", "--query", "SELECT city, COUNT(*) AS n FROM customers GROUP BY city",
		"--sheet", "Clients", "--sheet", "By city", "--excel-table", "-o", excel); err != nil {
		t.Fatalf("export --excel-table: %v\n%s", err, msg)
	}
	r = pyread.Read(t, excel)[excel]
	clients, byCity := r.Tables["Clients"], r.Tables["By city"]
	if r.Error != "" || len(r.Audit) > 0 || len(clients) != 1 || clients[0].Name != "Clients" || clients[0].Ref != "A1:"+lastCell(r.Openpyxl["Clients"]) ||
		len(byCity) != 1 || byCity[0].Name != "By_city" || r.Filters["Clients"] != nil {
		t.Errorf("export --excel-table: %v %v; tables %+v %+v", r.Error, r.Audit, clients, byCity)
	}
}

// lastCell names the bottom-right cell of rows read from A1.
func lastCell(rows [][]*pyread.Value) string {
	width := 0
	for _, r := range rows {
		width = max(width, len(r))
	}
	return string(rune('A'+width-1)) + strconv.Itoa(len(rows))
}

// TestVersionAndMissingDatabase: --version names CHANGELOG.md's newest release
// and the commit when the build recorded it; an export from a SQLite path that
// does not exist fails naming it and creates no file there.
func TestVersionAndMissingDatabase(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "sheetstream")
	if out, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "sheetstream version "+sheetstream.Version()+" ") {
		t.Errorf("--version: %v %q, want the changelog's newest release %s", err, out, sheetstream.Version())
	}
	if head, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil && !strings.Contains(string(out), string(head[:12])) {
		t.Errorf("--version %q does not name commit %s", out, head[:12])
	}
	typo := filepath.Join(t.TempDir(), "typo.db")
	msg, err := exec.Command(bin, "export", "--db", "sqlite:"+typo, "--table", "orders", "-o", filepath.Join(t.TempDir(), "o.xlsx")).CombinedOutput()
	if err == nil || !strings.Contains(string(msg), typo+": no such database file") {
		t.Errorf("export from a missing file: %v %q", err, msg)
	}
	if _, err := os.Stat(typo); !os.IsNotExist(err) {
		t.Errorf("the export created %s", typo)
	}
}

// TestConvertRetypesColumns: a column whose first rows look like numbers
// and whose later rows are codes is text throughout, from a file and
// from standard input (a second pass; stdout gets the workbook once it is
// whole), and stderr says why; airport codes like 0E0 stay text.
func TestConvertRetypesColumns(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("ident,elevation\n")
	for i := range 6000 {
		fmt.Fprintf(&b, "%d,%d\n", 1000+i, i)
	}
	b.WriteString("0E0,35\n0E8,NA\nABQ,5355\n")
	in := filepath.Join(dir, "airports.csv")
	os.WriteFile(in, []byte(b.String()), 0o644)
	check := func(name string, book []byte, stderr string) {
		t.Helper()
		path := filepath.Join(dir, name+".xlsx")
		os.WriteFile(path, book, 0o644)
		csvOut, err := exec.Command(bin, "cat", path, "--format", "csv").Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(csvOut) != b.String() {
			t.Errorf("%s: the CSV back differs from the CSV in (%d bytes, want %d)", name, len(csvOut), b.Len())
		}
		cells, err := exec.Command(bin, "cat", path, "--format", "jsonl", "--cells").Output()
		if err != nil {
			t.Fatal(err)
		}
		typed := map[string]int{}
		for _, line := range strings.Split(strings.TrimSpace(string(cells)), "\n") {
			var c struct {
				Row, Col int
				Type     string
			}
			json.Unmarshal([]byte(line), &c)
			if c.Row > 1 {
				typed[fmt.Sprint(c.Col, c.Type)]++
			}
		}
		if fmt.Sprint(typed) != "map[1string:6003 2number:6002 2string:1]" {
			t.Errorf("%s: cells by column and type: %v", name, typed)
		}
		if !strings.Contains(stderr, `line 6004: column "ident" holds "ABQ", where its first rows held numbers`) {
			t.Errorf("%s: stderr %q", name, stderr)
		}
	}
	var stderr strings.Builder
	cmd := exec.Command(bin, "convert", in, filepath.Join(dir, "file.xlsx"))
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("convert: %v %s", err, stderr.String())
	}
	book, _ := os.ReadFile(filepath.Join(dir, "file.xlsx"))
	check("file", book, stderr.String())
	stderr.Reset()
	cmd = exec.Command(bin, "convert", "-", "-")
	cmd.Stdin, cmd.Stderr = strings.NewReader(b.String()), &stderr
	book, err := cmd.Output()
	if err != nil {
		t.Fatalf("convert - -: %v %s", err, stderr.String())
	}
	check("stdin", book, stderr.String())
}

// TestCatForPeople: the table view aligns wide characters by the cells
// they take, shows numbers to 15 significant digits, fits the terminal's
// width with a marker for the columns left out; --head, --tail and
// --records.
func TestCatForPeople(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "cities.csv")
	os.WriteFile(in, []byte("city,population,share,founded,a,b,c,d\n東京,13960000,0.13079200000000002,1457-01-01,x,y,z,w\nLisbon,8454302.540000001,0.5,1147-10-25,x,y,z,w\nOslo,709037,0.25,1048-01-01,x,y,z,w\n"), 0o644)
	book := filepath.Join(dir, "cities.xlsx")
	if out, err := exec.Command(bin, "convert", in, book).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	run := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v %s", args, err, out)
		}
		return string(out)
	}
	table := run([]string{"COLUMNS=200"}, "cat", book)
	lines := strings.Split(strings.TrimRight(table, "\n"), "\n")
	// Every row's population column starts at the same terminal cell.
	col := func(line, text string) int {
		i := strings.Index(line, text)
		if i < 0 {
			t.Fatalf("%q lacks %q", line, text)
		}
		return displayWidth(line[:i])
	}
	if a, b := col(lines[2], "13960000"), col(lines[3], "8454302.54"); a+len("13960000") != b+len("8454302.54") {
		t.Errorf("numbers not right-aligned across a CJK row:\n%s", table)
	}
	if strings.Contains(table, "0.13079200000000002") || strings.Contains(table, "8454302.540000001") {
		t.Errorf("unrounded doubles in the table:\n%s", table)
	}
	narrow := run([]string{"COLUMNS=40"}, "cat", book)
	for _, line := range strings.Split(strings.TrimRight(narrow, "\n"), "\n") {
		if displayWidth(line) > 40 {
			t.Errorf("a line wider than 40 cells: %q", line)
		}
	}
	if !strings.Contains(narrow, "more") {
		t.Errorf("no marker for the columns left out:\n%s", narrow)
	}
	// --head and --tail count rows under the header, in every format.
	if got := run(nil, "cat", book, "--format", "csv", "--head", "1"); got != "city,population,share,founded,a,b,c,d\n東京,13960000,0.13079200000000002,1457-01-01,x,y,z,w\n" {
		t.Errorf("--head 1: %q", got)
	}
	if got := run(nil, "cat", book, "--format", "csv", "--tail", "1"); got != "city,population,share,founded,a,b,c,d\nOslo,709037,0.25,1048-01-01,x,y,z,w\n" {
		t.Errorf("--tail 1: %q", got)
	}
	if got := run(nil, "cat", book, "--format", "jsonl", "--records", "--head", "1"); !strings.HasPrefix(got, `{"city":"東京"`) || strings.Count(got, "\n") != 1 {
		t.Errorf("--records --head 1: %q", got)
	}
	if got := run(nil, "cat", book, "--format", "jsonl", "--records", "--tail", "1"); got != `{"city":"Oslo","population":709037,"share":0.25,"founded":"1048-01-01","a":"x","b":"y","c":"z","d":"w"}`+"\n" {
		t.Errorf("--records: %q", got)
	}
	if got := run(nil, "cat", book, "--head", "1"); strings.Count(got, "\n") != 3 || !strings.Contains(got, "東京") {
		t.Errorf("table --head 1 (the column letters, the header, a row): %q", got)
	}
}

// TestMessagesForUsers: errors speak of the input and the flags, not of
// packages: a CSV not in UTF-8 (convert and import) names --encoding; a
// workbook given as CSV is called a workbook, not a file to read with
// another --delimiter; an existing table names --append, --merge and
// --replace; a merge without a key names --key.
func TestMessagesForUsers(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	latin := filepath.Join(dir, "latin.csv")
	os.WriteFile(latin, []byte("name,city\nJos\xe9,S\xe3o Paulo\n"), 0o644)
	good := filepath.Join(dir, "good.csv")
	os.WriteFile(good, []byte("id,name\n1,a\n"), 0o644)
	book := filepath.Join(dir, "book.xlsx")
	if out, err := exec.Command(bin, "convert", good, book).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	db := "sqlite:" + filepath.Join(dir, "x.db")
	if out, err := exec.Command(bin, "import", good, "--db", db, "--table", "t").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"convert", latin, filepath.Join(dir, "l.xlsx")}, "latin.csv: line 2, field 1: not UTF-8 text: give its character set with --encoding"},
		{[]string{"import", latin, "--db", db, "--table", "l"}, "not UTF-8 text: give its character set with --encoding"},
		{[]string{"import", book, "--format", "csv", "--db", db, "--table", "b"}, "book.xlsx is a workbook"},
		{[]string{"import", good, "--db", db, "--table", "t"}, "table t already exists: give --append, --merge or --replace"},
		{[]string{"import", good, "--db", db, "--table", "t", "--merge"}, "give --key"},
	} {
		out, err := exec.Command(bin, c.args...).CombinedOutput()
		msg := string(out)
		if err == nil || !strings.Contains(msg, c.want) || noPackage.MatchString(strings.TrimPrefix(msg, "sheetstream: ")) ||
			strings.Contains(msg, "--delimiter '") {
			t.Errorf("%v: %v %q, want %q", c.args[:1], err, msg, c.want)
		}
	}
}

// noPackage finds a library package's name in a message: the libraries
// say what is wrong without it.
var noPackage = regexp.MustCompile(`(^|: )(sqlsheet|csvsheet|xlsx|storage|jobs|auth|server|csv): `)

// TestDateFormatFlag: --date-format on import and convert reads
// day-first dates as dates; without it --type date names the flag.
func TestDateFormatFlag(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "days.csv")
	os.WriteFile(in, []byte("day,when,amount\n31/01/2024,Jan 5 2000,5\n01/02/2024,Dec 25 1999,6\n"), 0o644)
	db := "sqlite:" + filepath.Join(dir, "d.db")
	if out, err := exec.Command(bin, "import", in, "--db", db, "--table", "d", "--date-format", "%d/%m/%Y", "--date-format", "%b %d %Y").CombinedOutput(); err != nil ||
		!strings.Contains(string(out), "(day date, when date, amount integer)") {
		t.Errorf("import --date-format: %v %s", err, out)
	}
	book := filepath.Join(dir, "d.xlsx")
	if out, err := exec.Command(bin, "convert", in, book, "--date-format", "%d/%m/%Y", "--date-format", "%b %d %Y").CombinedOutput(); err != nil {
		t.Fatalf("convert --date-format: %v %s", err, out)
	}
	if out, _ := exec.Command(bin, "cat", book, "--format", "csv").Output(); string(out) != "day,when,amount\n2024-01-31,2000-01-05,5\n2024-02-01,1999-12-25,6\n" {
		t.Errorf("convert --date-format, read back: %q", out)
	}
	if out, err := exec.Command(bin, "import", in, "--db", db, "--table", "e", "--type", "day=date").CombinedOutput(); err == nil || !strings.Contains(string(out), "--date-format") {
		t.Errorf("--type date without --date-format: %v %s", err, out)
	}
}
