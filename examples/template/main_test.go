package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
)

// TestTemplate runs the example: the filled report is read by openpyxl
// (the table over every order with its totals row, the chart's series
// grown with it, the cover's placeholders replaced), validated, and
// re-saved by LibreOffice with its table and chart.
func TestTemplate(t *testing.T) {
	pyread.Python(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "report.xlsx")
	if err := run(context.Background(), path, "Oslo"); err != nil {
		t.Fatal(err)
	}
	r := pyread.Read(t, path)[path]
	if r == nil || r.Error != "" || len(r.Audit) > 0 {
		t.Fatalf("%+v", r)
	}
	tables := r.Tables["Orders"]
	if len(tables) != 1 || tables[0].TotalsRows != 1 || !strings.HasPrefix(tables[0].Ref, "A1:E") || tables[0].Ref == "A1:E3" {
		t.Fatalf("table %+v", tables)
	}
	last := strings.TrimPrefix(tables[0].Ref, "A1:E")
	c := r.Charts["Orders"]
	if len(c) != 1 || *c[0].Series[0].Values != "Orders!$E$2:$E$"+itoaMinus(last) {
		t.Errorf("chart %+v (table %s)", c, tables[0].Ref)
	}
	cover := r.Openpyxl["Cover"]
	if len(cover) < 3 || cover[0][0].V != "Orders from Oslo" || !strings.Contains(cover[1][0].V.(string), " orders, as of ") || strings.Contains(cover[1][0].V.(string), "{{") {
		t.Errorf("cover %v", cover)
	}
	resaved := pyread.Resave(t, filepath.Join(dir, "lo"), path)[0]
	lo := pyread.ReadValues(t, resaved)[resaved]
	if lo == nil || lo.Error != "" || len(lo.Tables["Orders"]) != 1 || len(lo.Charts["Orders"]) != 1 {
		t.Errorf("LibreOffice's copy: %+v", lo)
	}
	if _, err := os.Stat(strings.TrimSuffix(path, ".xlsx") + "-template.xlsx"); err != nil {
		t.Error(err)
	}
}

// itoaMinus is a row number one less: the last body row, above the
// totals row.
func itoaMinus(s string) string {
	n, _ := strconv.Atoi(s)
	return strconv.Itoa(n - 1)
}
