package main

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
)

// TestExportProvenance: --provenance adds a last sheet, as openpyxl and
// calamine read it (the validator passes it): the database without its
// password, who ran it, each sheet's rows and query; a text output or a
// template refuses the flag.
func TestExportProvenance(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "shop.xlsx")
	cmd := exec.Command(bin, "export", "--demo", "--provenance", "-o", out,
		"--query", "SELECT id, name, city FROM customers WHERE id <= 40 ORDER BY id", "--query", "SELECT city, COUNT(*) AS n FROM customers GROUP BY city ORDER BY city")
	cmd.Dir = dir
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, msg)
	}
	res := pyread.Read(t, out)[out]
	if len(res.Audit) > 0 {
		t.Errorf("openxml-audit: %v", res.Audit)
	}
	if n := len(res.Sheets); n < 3 || res.Sheets[n-1][0] != "Provenance" {
		t.Fatalf("sheets: %v", res.Sheets)
	}
	rows := res.Openpyxl["Provenance"]
	text := func(r, c int) string {
		if r >= len(rows) || c >= len(rows[r]) || rows[r][c] == nil {
			return ""
		}
		return rows[r][c].String()
	}
	if text(0, 1) != "s:sheetstream export" || !strings.HasPrefix(text(1, 1), "s:") || !strings.HasPrefix(text(2, 1), "d:") ||
		!strings.Contains(text(3, 1), "demo.db") || text(4, 1) != "n:50" {
		t.Errorf("the fields: %v", rows[:5])
	}
	var sheets []string
	for r := range rows {
		if strings.HasPrefix(text(r, 2), "s:SELECT") {
			sheets = append(sheets, text(r, 0)+" "+text(r, 1))
		}
	}
	if len(sheets) != 2 || sheets[0] != "s:"+res.Sheets[0][0]+" n:"+strconv.Itoa(len(res.Openpyxl[res.Sheets[0][0]])-1) {
		t.Errorf("the queries: %v (sheets %v)", sheets, res.Sheets)
	}
	msg, err := exec.Command(bin, "export", "--demo", "--provenance", "-o", filepath.Join(dir, "x.csv"), "--query", "SELECT 1").CombinedOutput()
	if err == nil || !strings.Contains(string(msg), "--provenance adds a sheet") {
		t.Errorf("to CSV: %v %s", err, msg)
	}
}
