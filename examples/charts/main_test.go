package main

import (
	"path/filepath"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
)

// TestCharts runs the example: openpyxl reads each chart of the dashboard
// and the chartsheet, the Open XML validator takes the file, and
// LibreOffice re-saves it with the charts kept.
func TestCharts(t *testing.T) {
	pyread.Python(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "charts.xlsx")
	if err := run(path, 24); err != nil {
		t.Fatal(err)
	}
	want := []string{"barChart", "barChart", "lineChart", "areaChart", "pieChart", "doughnutChart", "scatterChart", "radarChart", "stockChart", "barChart"}
	r := pyread.Read(t, path)[path]
	if r == nil || r.Error != "" || len(r.Audit) > 0 {
		t.Fatalf("%+v", r)
	}
	got := r.Charts["Dashboard"]
	if len(got) != len(want) {
		t.Fatalf("%d charts on the dashboard, want %d", len(got), len(want))
	}
	for i, c := range got {
		if c.Type != want[i] || c.Title == nil || len(c.Series) == 0 {
			t.Errorf("chart %d: %+v", i+1, c)
		}
	}
	if s := got[0].Series[0]; *s.Values != "Data!$B$2:$B$25" || *s.Categories != "Data!$A$2:$A$25" {
		t.Errorf("the open-ended ranges end at the last month: %+v", s)
	}
	if c := r.Charts["Trend"]; len(c) != 1 || len(c[0].Series) != 3 {
		t.Errorf("chartsheet: %+v", c)
	}
	resaved := pyread.Resave(t, filepath.Join(dir, "lo"), path)[0]
	if lo := pyread.ReadValues(t, resaved)[resaved]; lo == nil || lo.Error != "" || len(lo.Charts["Dashboard"]) < len(want)-1 {
		t.Errorf("LibreOffice's copy: %+v", lo)
	}
}
