package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
)

// TestPivotCLI: convert --pivot and export --pivot put each pivot on a
// sheet of its own after the rows, read by openpyxl as a pivot table,
// its cells the group-by of the rows (computed here from the CSV); a
// pivot naming a missing column fails before any row is written and
// leaves no file; a text output refuses --pivot.
func TestPivotCLI(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("city,year,amount\n")
	sums := map[string]float64{}
	for i := range 500 {
		city := []string{"Oslo", "Lisbon", "Rome"}[i%3]
		year := 2023 + i%2
		amount := float64(i%97) + 0.25
		fmt.Fprintf(&b, "%s,%d,%g\n", city, year, amount)
		sums[fmt.Sprintf("%s/%d", city, year)] += amount
		sums[city] += amount
	}
	in := filepath.Join(dir, "sales.csv")
	os.WriteFile(in, []byte(b.String()), 0o644)
	out := filepath.Join(dir, "sales.xlsx")
	if msg, err := exec.Command(bin, "convert", in, out, "--pivot", "city:year:sum(amount)", "--pivot", "city::average(amount),count(amount)").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, msg)
	}
	res := pyread.Read(t, out)[out]
	if len(res.Audit) > 0 {
		t.Errorf("openxml-audit: %v", res.Audit)
	}
	if len(res.Sheets) != 3 || res.Sheets[1][0] != "Pivot" || res.Sheets[2][0] != "Pivot 2" {
		t.Fatalf("sheets: %v", res.Sheets)
	}
	cells := map[string]string{}
	for r, row := range res.Openpyxl["Pivot"] {
		for c, v := range row {
			if v != nil {
				cells[fmt.Sprintf("%c%d", 'A'+c, r+1)] = v.String()
			}
		}
	}
	if cells["B4"] != "n:2023" || cells["C4"] != "n:2024" || cells["A5"] != "s:Lisbon" || cells["A8"] != "s:Grand Total" {
		t.Fatalf("the pivot's labels: %v", cells)
	}
	for r, city := range []string{"Lisbon", "Oslo", "Rome"} {
		for c, year := range []int{2023, 2024} {
			got, _ := strconv.ParseFloat(strings.TrimPrefix(cells[fmt.Sprintf("%c%d", 'B'+c, 5+r)], "n:"), 64)
			if want := sums[fmt.Sprintf("%s/%d", city, year)]; math.Abs(got-want) > 1e-9*want {
				t.Errorf("%s %d: %v, want %v", city, year, got, want)
			}
		}
		got, _ := strconv.ParseFloat(strings.TrimPrefix(cells[fmt.Sprintf("D%d", 5+r)], "n:"), 64)
		if want := sums[city]; math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s: %v, want %v", city, got, want)
		}
	}
	check := `import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
print([(ws.title, [p.name for p in ws._pivots]) for ws in wb.worksheets])`
	python := pyread.Python(t)
	if got, err := exec.Command(python, "-c", check, out).Output(); err != nil || strings.TrimSpace(string(got)) != "[('Sheet1', []), ('Pivot', ['PivotTable1']), ('Pivot 2', ['PivotTable2'])]" {
		t.Errorf("openpyxl's pivots: %v %s", err, got)
	}
	missing := filepath.Join(dir, "missing.xlsx")
	msg, err := exec.Command(bin, "convert", in, missing, "--pivot", "region::sum(amount)").CombinedOutput()
	if err == nil || !strings.Contains(string(msg), `no column "region"`) {
		t.Errorf("a missing column: %v %s", err, msg)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("a failed conversion left its file")
	}
	if msg, err := exec.Command(bin, "convert", in, filepath.Join(dir, "x.parquet"), "--pivot", "city::sum(amount)").CombinedOutput(); err == nil || !strings.Contains(string(msg), "pivot tables") {
		t.Errorf("to Parquet: %v %s", err, msg)
	}
	// export: the pivot after its query.
	exported := filepath.Join(dir, "export.xlsx")
	cmd := exec.Command(bin, "export", "--demo", "-o", exported, "--query", "SELECT city, COUNT(*) AS n FROM customers GROUP BY city",
		"--query", "SELECT c.city, o.quantity FROM orders o JOIN customers c ON c.id = o.customer_id", "--pivot", "city::sum(quantity)")
	cmd.Dir = dir
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("export --pivot: %v %s", err, msg)
	}
	ex := pyread.ReadValues(t, exported)[exported]
	if len(ex.Sheets) != 3 || ex.Sheets[2][0] != "Pivot" || len(ex.Openpyxl["Pivot"]) != 14 {
		t.Errorf("export's sheets: %v, the pivot's rows %d", ex.Sheets, len(ex.Openpyxl["Pivot"]))
	}
}
