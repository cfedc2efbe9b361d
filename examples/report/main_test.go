package main

import (
	"path/filepath"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
)

// TestReport runs the example and checks every feature it uses with
// openpyxl, the Open XML validator, and a LibreOffice re-save that keeps
// them.
func TestReport(t *testing.T) {
	pyread.Python(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "report.xlsx")
	if err := run(path, 200); err != nil {
		t.Fatal(err)
	}
	check := func(label string, r *pyread.Result, strict bool) {
		t.Helper()
		if r == nil || r.Error != "" || strict && len(r.Audit) > 0 {
			t.Fatalf("%s: %+v", label, r)
		}
		tables := r.Tables["Sales"]
		if len(tables) != 1 || tables[0].Ref != "A4:H205" || tables[0].TotalsRows != 1 {
			t.Errorf("%s: table %+v", label, tables)
		}
		if v := r.Validations["Sales"]; len(v) != 1 || v[0].Type == nil || *v[0].Type != "list" {
			t.Errorf("%s: validations %+v", label, v)
		}
		types := map[string]bool{}
		for _, c := range r.CondFormats["Sales"] {
			types[c.Type] = true
		}
		if !types["colorScale"] || !types["dataBar"] || !types["cellIs"] {
			t.Errorf("%s: conditional formats %v", label, types)
		}
		if r.Notes["Sales"]["G4"][0] == "" {
			t.Errorf("%s: notes %v", label, r.Notes["Sales"])
		}
		if len(r.Images["Sales"]) != 1 {
			t.Errorf("%s: pictures %v", label, r.Images["Sales"])
		}
		if p := r.Protection["Sales"]; p == nil || !p.Sheet {
			t.Errorf("%s: protection %+v", label, p)
		}
		if p := r.Print["Sales"]; p == nil || p.TitleRows == nil || *p.TitleRows != "$4:$4" {
			t.Errorf("%s: print setup %+v", label, p)
		}
		if o := r.Outline["Regions"]; o == nil || o.LevelRow != 2 {
			t.Errorf("%s: outline %+v", label, o)
		}
	}
	check("sheetstream's file", pyread.Read(t, path)[path], true)
	resaved := pyread.Resave(t, filepath.Join(dir, "lo"), path)[0]
	check("LibreOffice's copy", pyread.ReadValues(t, resaved)[resaved], false)
}
