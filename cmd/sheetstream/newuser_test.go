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

	_ "modernc.org/sqlite"
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
