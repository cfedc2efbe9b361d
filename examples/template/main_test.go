package main

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
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
// re-saved by LibreOffice with its table and chart; its pivot table is
// computed from the rows as they were filled (a line per customer with
// the sum of their amounts), and LibreOffice rebuilds it the same.
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
	report, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if def := zipPart(t, report, "xl/pivotCache/pivotCacheDefinition1.xml"); !strings.Contains(def, `refreshOnLoad="1"`) || !strings.Contains(def, `<worksheetSource name="Orders"/>`) {
		t.Errorf("the pivot cache: %s", def)
	}
	// The pivot table as written, before anything refreshes it: a line
	// per customer with the sum of the customer's amounts, computed from
	// the rows as they were filled in.
	sums := map[string]float64{}
	for _, row := range r.Openpyxl["Orders"][1:] {
		if len(row) > 4 && row[2] != nil && row[4] != nil && row[0] != nil && row[0].V != "Total" {
			sums[row[2].V.(string)] += row[4].V.(float64)
		}
	}
	shown := 0
	for _, row := range r.Openpyxl["By customer"] {
		if len(row) < 2 || row[0] == nil || row[1] == nil {
			continue
		}
		if want, ok := sums[fmt.Sprint(row[0].V)]; ok {
			if got, _ := row[1].V.(float64); math.Abs(got-want) > 1e-9*math.Abs(want) {
				t.Errorf("pivot: %v %v, want %v", row[0].V, got, want)
			}
			shown++
		}
	}
	if shown != len(sums) || len(sums) < 2 {
		t.Errorf("the pivot as written shows %d of %d customers: %v", shown, len(sums), r.Openpyxl["By customer"])
	}
	resaved := pyread.Resave(t, filepath.Join(dir, "lo"), path)[0]
	lo := pyread.ReadValues(t, resaved)[resaved]
	if lo == nil || lo.Error != "" || len(lo.Tables["Orders"]) != 1 || len(lo.Charts["Orders"]) != 1 {
		t.Errorf("LibreOffice's copy: %+v", lo)
	}
	// LibreOffice rebuilt the pivot table from the rows: a line per
	// customer of the city and the grand total, which it computed.
	if lo != nil {
		rows := lo.Openpyxl["By customer"]
		customers := map[string]bool{}
		for _, r := range r.Openpyxl["Orders"][1:] {
			if len(r) > 2 && r[2] != nil && r[0] != nil && r[0].V != "Total" {
				customers[r[2].V.(string)] = true
			}
		}
		if len(customers) < 2 || len(rows) != 3+len(customers)+1 || rows[2][1] == nil || rows[2][1].V != "Sum of Amount" || rows[len(rows)-1][0].V != "Total Result" {
			t.Errorf("LibreOffice's pivot table: %d rows for %d customers: %v", len(rows), len(customers), rows)
		}
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

// zipPart is a part of a package, as text.
func zipPart(t *testing.T, book []byte, name string) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(book), int64(len(book)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.Open(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer rc.Close()
	b, _ := io.ReadAll(rc)
	return string(b)
}
