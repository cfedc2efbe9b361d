package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
)

// TestPivot runs the example: three pivot sheets after the sales, read
// by openpyxl and the validator, the grand total of "By product" the sum
// of every amount.
func TestPivot(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pivot.xlsx")
	if err := run(path, 2000); err != nil {
		t.Fatal(err)
	}
	r := pyread.Read(t, path)[path]
	if r == nil || r.Error != "" || len(r.Audit) > 0 {
		t.Fatalf("%+v", r)
	}
	var names []string
	for _, s := range r.Sheets {
		names = append(names, s[0])
	}
	if strings.Join(names, ",") != "Sales,By region,By product,Spread" {
		t.Fatalf("sheets %v", names)
	}
	total := 0.0
	for _, row := range r.Openpyxl["Sales"][1:] {
		total += row[7].V.(float64)
	}
	var grand []any
	for _, row := range r.Openpyxl["By product"] {
		if len(row) > 1 && row[0] != nil && row[0].String() == "s:Grand Total" {
			grand = append(grand, row[1].V, row[3].V)
		}
	}
	if len(grand) != 2 || grand[0].(float64)-total > 1e-6 || total-grand[0].(float64) > 1e-6 || grand[1] != float64(2000) {
		t.Errorf("By product's grand total %v, want %v and 2000 orders", grand, total)
	}
}
