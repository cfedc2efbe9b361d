package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/xlsx"
)

// writeSample writes a small workbook with one cell of each type.
func writeSample(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := xlsx.NewWriter(f, xlsx.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := w.AddSheet("Data", xlsx.SheetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)
	s.WriteRow([]xlsx.Cell{xlsx.String("name"), xlsx.String("n"), xlsx.String("ok"), xlsx.String("when"), xlsx.String("at")})
	s.WriteRow([]xlsx.Cell{xlsx.String("a, \"quoted\"\nline"), xlsx.Float(0.1), xlsx.Bool(true), xlsx.Date(day),
		xlsx.TimeOfDay(time.Date(2000, 1, 1, 13, 45, 0, 0, time.UTC))})
	s.WriteRow([]xlsx.Cell{xlsx.String("b"), xlsx.Int(1234567890123), xlsx.Bool(false), xlsx.Error(xlsx.ErrorNA)})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestCatAndConvertFromXLSX(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	book := filepath.Join(dir, "book.xlsx")
	writeSample(t, book)

	out, err := exec.Command(bin, "cat", "--format", "jsonl", "--cells", book).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"sheet":"Data","row":2,"col":1,"type":"string","value":"a, \"quoted\"\nline"}`,
		`{"sheet":"Data","row":2,"col":2,"type":"number","value":0.1}`,
		`{"sheet":"Data","row":2,"col":3,"type":"bool","value":true}`,
		`{"sheet":"Data","row":2,"col":4,"type":"date","value":"2024-02-29"}`,
		`{"sheet":"Data","row":2,"col":5,"type":"date","value":"13:45:00"}`,
		`{"sheet":"Data","row":3,"col":2,"type":"number","value":1234567890123}`,
		`{"sheet":"Data","row":3,"col":4,"type":"error","value":"#N/A"}`,
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 14 {
		t.Fatalf("%d cells, want 14:\n%s", len(lines), out)
	}
	for _, w := range want {
		if !strings.Contains(string(out), w+"\n") {
			t.Errorf("missing %s", w)
		}
	}
	for _, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Errorf("not JSON: %s: %v", l, err)
		}
	}

	// XLSX to CSV reads back with encoding/csv.
	csvPath := filepath.Join(dir, "book.csv")
	if msg, err := exec.Command(bin, "convert", book, csvPath).CombinedOutput(); err != nil {
		t.Fatalf("convert: %v\n%s", err, msg)
	}
	f, _ := os.Open(csvPath)
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || recs[1][0] != "a, \"quoted\"\nline" || recs[1][3] != "2024-02-29" || recs[2][1] != "1234567890123" || recs[2][2] != "FALSE" {
		t.Errorf("csv: %q", recs)
	}

	// A missing sheet is a one-line error naming the sheets there are.
	msg, err := exec.Command(bin, "cat", "--sheet", "Nope", book).CombinedOutput()
	if err == nil || !strings.Contains(string(msg), `"Data"`) || strings.Count(strings.TrimSpace(string(msg)), "\n") != 0 {
		t.Errorf("missing sheet: %v %q", err, msg)
	}
	// The table view aligns numbers right.
	table, err := exec.Command(bin, "cat", "--sheet", "1", book).Output()
	if err != nil || !strings.Contains(string(table), "0.1") || strings.Fields(strings.Split(string(table), "\n")[0])[0] != "A" || !strings.Contains(string(table), "            0.1  TRUE") {
		t.Errorf("table: %v\n%s", err, table)
	}
}

// TestCorpusCLI runs info and cat --cells over every corpus file: each
// exits 0, or — for the files the reader's expected-failure list names —
// exits 1 with a one-line message naming the file. Never a panic, and
// never more than 1 GiB of memory.
func TestCorpusCLI(t *testing.T) {
	dir := testenv.Corpus(t)
	manifest, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	failing := map[string]bool{}
	list, err := os.ReadFile(filepath.Join("..", "..", "xlsx", "testdata", "corpus-failures.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(list), "\n") {
		if l != "" && l[0] != '#' {
			failing[strings.Split(l, "\t")[0]] = true
		}
	}
	var files []string
	sc := bufio.NewScanner(bytes.NewReader(manifest))
	sc.Scan()
	for sc.Scan() {
		if name, _, _ := strings.Cut(sc.Text(), "\t"); name != "" {
			files = append(files, name)
		}
	}
	bin := buildCLI(t)
	var mu sync.Mutex
	var peak int64
	jobs := make(chan string)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name := range jobs {
				path := filepath.Join(dir, name)
				for _, args := range [][]string{{"info", path}, {"cat", "--cells", "--format", "jsonl", "--all-sheets", path}} {
					cmd := exec.Command(bin, args...)
					var stderr bytes.Buffer
					cmd.Stdout, cmd.Stderr = nil, &stderr
					err := cmd.Run()
					msg := strings.TrimSpace(stderr.String())
					mu.Lock()
					if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
						peak = max(peak, ru.Maxrss)
					}
					switch {
					case strings.Contains(msg, "goroutine") || strings.Contains(msg, "panic"):
						t.Errorf("%s %s: crashed:\n%s", args[0], name, msg)
					case failing[name] && (err == nil || cmd.ProcessState.ExitCode() != 1 || strings.Contains(msg, "\n") || !strings.Contains(msg, filepath.Base(name))):
						t.Errorf("%s %s: want exit 1 with one line naming the file; got %v, %q", args[0], name, err, msg)
					case !failing[name] && err != nil:
						t.Errorf("%s %s: %v: %s", args[0], name, err, msg)
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, f := range files {
		jobs <- f
	}
	close(jobs)
	wg.Wait()
	if peak > 1<<20 { // Maxrss is in KiB
		t.Errorf("a run reached %d MiB", peak>>10)
	}
	t.Logf("%d files, peak RSS of one run %d MiB", len(files), peak>>10)
}

// TestImportCommand round-trips the demo: export from SQLite, import the
// workbook into a new SQLite database, export that, and compare every
// cell of the two workbooks.
func TestImportCommand(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	first := filepath.Join(dir, "first.xlsx")
	if msg, err := exec.Command(bin, "export", "--demo", "-o", first).CombinedOutput(); err != nil {
		t.Fatalf("export: %v\n%s", err, msg)
	}
	db := "sqlite:" + filepath.Join(dir, "copy.db")
	msg, err := exec.Command(bin, "import", first, "--db", db, "--table", "orders", "--sheet", "Orders").CombinedOutput()
	if err != nil || !strings.Contains(string(msg), "imported 50000 rows") {
		t.Fatalf("import: %v\n%s", err, msg)
	}
	second := filepath.Join(dir, "second.xlsx")
	if msg, err := exec.Command(bin, "export", "--db", db, "--table", "orders", "--sheet", "Orders", "-o", second).CombinedOutput(); err != nil {
		t.Fatalf("export again: %v\n%s", err, msg)
	}
	cells := func(path string) string {
		out, err := exec.Command(bin, "cat", "--format", "jsonl", "--cells", "--sheet", "Orders", path).Output()
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	a, b := cells(first), cells(second)
	if a != b {
		al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
		for i := range min(len(al), len(bl)) {
			if al[i] != bl[i] {
				t.Fatalf("cell %d differs after the round trip:\n%s\n%s", i, al[i], bl[i])
			}
		}
		t.Fatalf("%d cells, then %d", len(al), len(bl))
	}
	// Importing again into the same table is refused, naming the table.
	msg, err = exec.Command(bin, "import", first, "--db", db, "--table", "orders", "--sheet", "Orders").CombinedOutput()
	if err == nil || !strings.Contains(string(msg), "orders") {
		t.Errorf("second import: %v %s", err, msg)
	}
}

// TestServeShutdown: SIGTERM lets a running download finish, then serve
// exits cleanly.
func TestServeShutdown(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	config := filepath.Join(dir, "exports.yaml")
	os.WriteFile(filepath.Join(dir, "unused.db"), nil, 0o644) // an empty file is an empty database
	os.WriteFile(config, []byte(`
database: sqlite:`+filepath.Join(dir, "unused.db")+`
exports:
  - name: numbers
    sheets:
      - sql: WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM g WHERE x < 400000) SELECT x, 'n' || x AS s FROM g
`), 0o644)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv := exec.Command(bin, "serve", "--config", config, "--listen", addr)
	var logs bytes.Buffer
	srv.Stderr = &logs
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()
	var resp *http.Response
	for i := 0; ; i++ {
		resp, err = http.Get("http://" + addr + "/exports/numbers.xlsx")
		if err == nil {
			break
		}
		if i > 100 {
			t.Fatalf("serve did not start: %v\n%s", err, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	defer resp.Body.Close()
	first := make([]byte, 1024)
	if _, err := io.ReadFull(resp.Body, first); err != nil {
		t.Fatal(err)
	}
	srv.Process.Signal(syscall.SIGTERM)
	rest, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("the download was cut by the shutdown: %v", err)
	}
	book := append(first, rest...)
	wb, err := xlsx.NewReader(bytes.NewReader(book), int64(len(book)), xlsx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := wb.Rows(context.Background(), 0)
	n := 0
	for rows.Next() {
		n++
	}
	if rows.Err() != nil || n != 400001 {
		t.Errorf("%d rows, %v", n, rows.Err())
	}
	if err := srv.Wait(); err != nil {
		t.Errorf("serve exited with %v:\n%s", err, logs.String())
	}
	if _, err := http.Get("http://" + addr + "/healthz"); err == nil {
		t.Error("serve still answers after shutdown")
	}
}

// TestServeExposure: serve refuses an address other machines reach
// without a token, unless the configuration says public: true, and a
// missing SQLite file is an error at startup, not an empty database.
func TestServeExposure(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "shop.db")
	os.WriteFile(db, nil, 0o644)
	write := func(name, extra, database string) string {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(extra+"\ndatabase: sqlite:"+database+"\nexports: [{name: a, sheets: [{sql: 'SELECT 1'}]}]\n"), 0o644)
		return path
	}
	run := func(args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("serve", "--config", write("open.yaml", "", db), "--listen", "0.0.0.0:0")
	if err == nil || !strings.Contains(out, "without a token") || !strings.Contains(out, "public: true") {
		t.Errorf("0.0.0.0 without a token: %v %s", err, out)
	}
	out, err = run("serve", "--config", write("typo.yaml", "", filepath.Join(dir, "shpo.db")), "--listen", "127.0.0.1:0")
	if err == nil || !strings.Contains(out, "shpo.db: no such database file") {
		t.Errorf("a missing database: %v %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "shpo.db")); !os.IsNotExist(err) {
		t.Errorf("serve created the mistyped database")
	}
	// public: true starts (and is stopped here).
	cmd := exec.Command(bin, "serve", "--config", write("public.yaml", "public: true", db), "--listen", "0.0.0.0:0")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var logs strings.Builder
	lines := bufio.NewScanner(stderr)
	for lines.Scan() && !strings.Contains(logs.String(), "serving") {
		logs.WriteString(lines.Text() + "\n")
	}
	if !strings.Contains(logs.String(), "serving") || !strings.Contains(logs.String(), "without a token on purpose") {
		t.Errorf("public: true: %s", logs.String())
	}
}

// TestServeDemo: `serve --demo` serves the demo shop in one command: the
// page, the API with the exports of examples/exports.yaml, a
// parametrised download read back by python-calamine; and SIGTERM removes
// its database.
func TestServeDemo(t *testing.T) {
	pyread.Python(t)
	bin := buildCLI(t)
	cmd := exec.Command(bin, "serve", "--demo", "--listen", "127.0.0.1:0")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var base, dbPath, mailDir string
	started := time.Now()
	lines := bufio.NewScanner(stderr)
	for base == "" && lines.Scan() {
		line := lines.Text()
		if _, p, ok := strings.Cut(line, "the demo shop (500 customers, 50,000 orders) in "); ok {
			dbPath = p
		}
		if _, p, ok := strings.Cut(line, "mails go to "); ok {
			mailDir, _, _ = strings.Cut(p, " as .eml files")
		}
		if _, u, ok := strings.Cut(line, " on http://"); ok {
			base = "http://" + strings.TrimSuffix(u, "/")
		}
	}
	if base == "" || dbPath == "" {
		t.Fatalf("no URL or database printed")
	}
	go io.Copy(io.Discard, stderr)
	get := func(path string) []byte {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: %d %v %s", path, resp.StatusCode, err, body)
		}
		return body
	}
	if page := get("/"); !strings.Contains(string(page), "<h1>Exports</h1>") {
		t.Errorf("page: %.200s", page)
	}
	var list struct{ Exports []struct{ Name string } }
	if err := json.Unmarshal(get("/api/exports"), &list); err != nil || len(list.Exports) != 4 || list.Exports[0].Name != "orders" || list.Exports[3].Name != "city-report" {
		t.Errorf("exports: %+v %v", list, err)
	}
	// The designed report, filled with one city's orders: its table grown
	// to them, the cover's placeholders from the parameters.
	report := get("/exports/city-report.xlsx?city=Lisbon&team=Finance")
	zr, err := zip.NewReader(bytes.NewReader(report), int64(len(report)))
	if err != nil {
		t.Fatal(err)
	}
	partText := func(name string) string {
		rc, err := zr.Open(name)
		if err != nil {
			t.Fatalf("city-report: %v", err)
		}
		defer rc.Close()
		b, _ := io.ReadAll(rc)
		return string(b)
	}
	if tb := partText("xl/tables/table1.xml"); !regexp.MustCompile(`ref="A1:E[1-9][0-9]{3}"`).MatchString(tb) {
		t.Errorf("city-report's table: %s", tb)
	}
	if sst := partText("xl/sharedStrings.xml"); !strings.Contains(sst, "Orders from Lisbon") || !strings.Contains(sst, "Prepared for Finance") {
		t.Errorf("city-report's cover: %.400s", sst)
	}
	if def := partText("xl/pivotCache/pivotCacheDefinition1.xml"); !strings.Contains(def, `refreshOnLoad="1"`) {
		t.Errorf("city-report's pivot cache: %s", def)
	}
	dir := t.TempDir()
	orders := filepath.Join(dir, "orders.xlsx")
	os.WriteFile(orders, get("/exports/orders.xlsx?since=2025-03-01&city=Oslo&paid=true"), 0o644)
	cities := filepath.Join(dir, "cities.xlsx")
	os.WriteFile(cities, get("/exports/cities.xlsx"), 0o644)
	read := pyread.ReadValues(t, orders, cities)
	rows := read[orders].Calamine["Orders"]
	if len(rows) < 100 || rows[0][3].String() != "s:city" {
		t.Fatalf("orders: %d rows, header %v", len(rows), rows[0])
	}
	for _, r := range rows[1:] {
		if r[3].String() != "s:Oslo" || r[7].String() != "b:true" || fmt.Sprint(r[1].V) < "2025-03-01" {
			t.Fatalf("a row outside the filter: %v", r)
		}
	}
	if by := read[cities].Calamine["By city"]; len(by) != 11 || len(read[cities].Calamine["Customers"]) != 501 {
		t.Errorf("cities: %d cities, %d customers", len(by), len(read[cities].Calamine["Customers"]))
	}
	// A background export with no setup, driven by `sheetstream jobs`.
	out, err := exec.Command(bin, "jobs", "submit", "orders", "since=2025-03-01", "city=Oslo", "--wait", "--url", base).Output()
	var job struct{ ID, State, Download string }
	if err != nil || json.Unmarshal(out, &job) != nil || job.State != "done" || job.Download == "" {
		t.Fatalf("jobs submit --wait: %v %s", err, out)
	}
	background := filepath.Join(dir, "background.xlsx")
	os.WriteFile(background, get(job.Download), 0o644)
	if got := pyread.ReadValues(t, background)[background].Calamine["Orders"]; len(got) < 100 || len(got) < len(rows) {
		t.Errorf("the background export: %d rows, the download with paid=true %d", len(got), len(rows))
	}
	if out, err := exec.Command(bin, "jobs", "list", "--url", base).Output(); err != nil || !strings.Contains(string(out), job.ID) {
		t.Errorf("jobs list: %v %s", err, out)
	}
	if out, err := exec.Command(bin, "jobs", "submit", "orders", "since=soon", "--url", base).CombinedOutput(); err == nil || !strings.Contains(string(out), `parameter \"since\"`) && !strings.Contains(string(out), `parameter "since"`) {
		t.Errorf("a bad parameter: %v %s", err, out)
	}
	// Delivery with no setup: each city manager's report, mailed every
	// minute into a folder as .eml files.
	var sc struct {
		Schedules []struct{ Name, Recipients string }
	}
	if err := json.Unmarshal(get("/api/schedules"), &sc); err != nil || len(sc.Schedules) != 2 || sc.Schedules[1].Name != "city-reports-by-mail" {
		t.Errorf("schedules: %+v %v", sc, err)
	}
	var mails []string
	for deadline := started.Add(75 * time.Second); time.Now().Before(deadline) && len(mails) < 3; time.Sleep(500 * time.Millisecond) {
		mails, _ = filepath.Glob(filepath.Join(mailDir, "*.eml"))
	}
	if mailDir == "" || len(mails) != 3 {
		t.Fatalf("mails in %q: %v", mailDir, mails)
	}
	for _, path := range mails {
		raw, _ := os.ReadFile(path)
		m, err := mail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		to := m.Header.Get("To")
		city := map[string]string{"<oslo.manager@example.com>": "Oslo", "<lisbon.manager@example.com>": "Lisbon", "<nairobi.manager@example.com>": "Nairobi"}[to]
		if city == "" || !strings.Contains(m.Header.Get("Subject"), city) || !strings.Contains(string(raw), `filename="city-report.xlsx"`) {
			t.Errorf("a demo mail to %s: %s", to, m.Header.Get("Subject"))
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve --demo on SIGTERM: %v", err)
	}
	if _, err := os.Stat(dbPath); !os.IsNotExist(err) {
		t.Errorf("the demo database is left at %s", dbPath)
	}
}

// TestPipes: a workbook on standard input ("-") for cat, info, convert and
// import, as in `sheetstream export ... -o - | sheetstream cat -`.
func TestPipes(t *testing.T) {
	bin := buildCLI(t)
	book, err := exec.Command(bin, "export", "--demo", "-o", "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	run := func(stdin []byte, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Stdin = bytes.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if out := run(book, "cat", "-", "--sheet", "By city", "--format", "csv"); !strings.HasPrefix(out, "city,orders,revenue,first_order,last_order\nLisbon,6588,") || strings.Count(out, "\n") != 11 {
		t.Errorf("cat -: %q", out)
	}
	if out := run(book, "info", "-", "--json"); !strings.Contains(out, `"Orders"`) || !strings.Contains(out, `"By city"`) {
		t.Errorf("info -: %s", out)
	}
	if out := run(book, "convert", "-", "-", "--sheet", "2"); !strings.HasPrefix(out, "city,orders,") {
		t.Errorf("convert - -: %q", out)
	}
	// CSV on standard input is still CSV.
	xl := run([]byte("a,b\n1,x\n"), "convert", "-", "-")
	if out := run([]byte(xl), "cat", "-", "--format", "csv"); out != "a,b\n1,x\n" {
		t.Errorf("CSV through convert - - and cat -: %q", out)
	}
	db := filepath.Join(t.TempDir(), "piped.db")
	run(book, "import", "-", "--db", "sqlite:"+db, "--table", "cities", "--sheet", "By city")
	if out := run(nil, "export", "--db", "sqlite:"+db, "--table", "cities", "-o", "-"); len(out) < 1000 {
		t.Errorf("the imported table exports as %d bytes", len(out))
	}
	cmd := exec.Command(bin, "cat", "-")
	cmd.Stdin = strings.NewReader("not a workbook")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "standard input") {
		t.Errorf("garbage on standard input: %v %s", err, out)
	}
}

// TestLegacyCLI runs info and cat on every file of the legacy corpus
// (.xls, .xlsb, .ods): each reads, with info naming the format its bytes
// are, or exits 1 with one line naming the file, as legacy-failures.tsv
// expects; and import loads the same sheet from each format.
func TestLegacyCLI(t *testing.T) {
	dir := testenv.LegacyCorpus(t)
	manifest, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	failing := map[string]bool{}
	list, err := os.ReadFile(filepath.Join("..", "..", "xlsx", "testdata", "legacy-failures.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(list), "\n") {
		if l != "" && l[0] != '#' {
			failing[strings.Split(l, "\t")[0]] = true
		}
	}
	type file struct{ name, format string }
	var files []file
	for i, line := range strings.Split(string(manifest), "\n") {
		if f := strings.Split(line, "\t"); i > 0 && len(f) > 2 {
			files = append(files, file{f[1], f[2]})
		}
	}
	bin := buildCLI(t)
	var mu sync.Mutex
	jobs := make(chan file)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range jobs {
				path := filepath.Join(dir, f.name)
				for _, args := range [][]string{{"info", path}, {"cat", "--cells", "--format", "jsonl", "--all-sheets", path}} {
					var stdout, stderr bytes.Buffer
					cmd := exec.Command(bin, args...)
					cmd.Stdout, cmd.Stderr = &stdout, &stderr
					err := cmd.Run()
					msg := strings.TrimSpace(stderr.String())
					mu.Lock()
					switch {
					case strings.Contains(msg, "goroutine") || strings.Contains(msg, "panic"):
						t.Errorf("%s %s: crashed:\n%s", args[0], f.name, msg)
					case failing[f.name] && (err == nil || cmd.ProcessState.ExitCode() != 1 || strings.Contains(msg, "\n") || !strings.Contains(msg, filepath.Base(f.name))):
						t.Errorf("%s %s: want exit 1 with one line naming the file; got %v, %q", args[0], f.name, err, msg)
					case !failing[f.name] && err != nil:
						t.Errorf("%s %s: %v: %s", args[0], f.name, err, msg)
					case !failing[f.name] && args[0] == "info" && !strings.Contains(stdout.String(), "format:    "+f.format+" ("):
						t.Errorf("info %s: the format is not %s:\n%s", f.name, f.format, stdout.String())
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, f := range files {
		jobs <- f
	}
	close(jobs)
	wg.Wait()

	db := "sqlite:" + filepath.Join(t.TempDir(), "legacy.db")
	for _, ext := range []string{"xls", "xlsb", "ods"} {
		path := filepath.Join(dir, "calamine", "issues."+ext)
		msg, err := exec.Command(bin, "import", path, "--db", db, "--table", "issue2_"+ext, "--sheet", "issue2").CombinedOutput()
		if err != nil || !strings.Contains(string(msg), "imported 2 rows") || !strings.Contains(string(msg), "(1 integer, a text)") {
			t.Errorf("import %s: %v\n%s", path, err, msg)
		}
	}
}

// TestLegacyToXLSX converts every readable file of the legacy corpus
// (.xls, .xlsb, .ods) to .xlsx, in process, and reads both: every sheet's
// cells are the same (type and value, as CSV prints them), number cells
// keep their format codes, merged ranges are the same; a
// sample of the results passes openxml-audit, opens in openpyxl, and
// LibreOffice re-saves it with its sheets.
func TestLegacyToXLSX(t *testing.T) {
	dir := testenv.LegacyCorpus(t)
	out := t.TempDir()
	ctx := context.Background()
	// formats are each number cell's format code, by sheet and cell.
	var formats map[string]string
	cells := func(path string) (string, error) {
		wb, closeWB, err := openWorkbook(path, xlsx.ReadOptions{}, nil, &password{})
		if err != nil {
			return "", err
		}
		defer closeWB()
		formats = map[string]string{}
		var b bytes.Buffer
		for _, s := range wb.Sheets() {
			if s.Kind != xlsx.SheetKindWorksheet {
				continue
			}
			fmt.Fprintf(&b, "# %s %v\n", s.Name, s.State)
			rows, err := wb.Rows(ctx, s.Index)
			if err != nil {
				return "", err
			}
			for rows.Next() {
				row := rows.Row()
				for i := range row.Cells {
					if c := &row.Cells[i]; c.Type() == xlsx.TypeNumber {
						formats[fmt.Sprintf("%s!%s", s.Name, xlsx.CellName(row.Num, c.Col()))] = wb.NumberFormat(c.Style())
					}
				}
				fmt.Fprintf(&b, "%d:", row.Num)
				for i := range row.Cells {
					c := &row.Cells[i]
					fmt.Fprintf(&b, " %d=%s:%s", c.Col(), c.Type(), csvsheet.AppendCellText(nil, c))
				}
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "merged %v\n", rows.MergedCells())
			err = rows.Err()
			rows.Close()
			if err != nil {
				return "", err
			}
		}
		return b.String(), nil
	}
	var converted []string
	same, unreadable := 0, 0
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		ext := strings.ToLower(filepath.Ext(path))
		if err != nil || d.IsDir() || ext != ".xls" && ext != ".xlsb" && ext != ".ods" {
			return nil
		}
		want, err := cells(path)
		if err != nil {
			unreadable++
			return nil
		}
		wantFormats := formats
		dst := filepath.Join(out, fmt.Sprintf("%d-%s.xlsx", same, filepath.Base(path)))
		if err := workbookToXLSX(ctx, path, dst, "", nil, &password{}); err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		got, err := cells(dst)
		if err != nil || got != want {
			t.Errorf("%s: the .xlsx reads otherwise (%v)", path, err)
			return nil
		}
		for cell, code := range wantFormats {
			if code != "" && formats[cell] != code {
				t.Errorf("%s, %s: number format %q became %q", path, cell, code, formats[cell])
				break
			}
		}
		same++
		if same%40 == 0 {
			converted = append(converted, dst)
		}
		return nil
	})
	if same < 600 {
		t.Errorf("%d files converted the same (%d unreadable), want 600 or more", same, unreadable)
	}
	pyread.Python(t)
	for path, r := range pyread.Read(t, converted...) {
		if r.Error != "" || len(r.Audit) > 0 {
			t.Errorf("%s: openpyxl %q, openxml-audit %v", path, r.Error, r.Audit)
		}
	}
	// LibreOffice opens the sample and saves it again with the same
	// sheets and cells (its own writer: what it read is what it keeps).
	resaved := pyread.Resave(t, t.TempDir(), converted...)
	for i, path := range converted {
		before, err1 := cells(path)
		after, err2 := cells(resaved[i])
		if err1 != nil || err2 != nil || len(after) == 0 || strings.Count(after, "# ") != strings.Count(before, "# ") {
			t.Errorf("%s re-saved by LibreOffice: %v %v, %d sheets before, %d after", path, err1, err2, strings.Count(before, "# "), strings.Count(after, "# "))
		}
	}
}
