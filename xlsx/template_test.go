package xlsx_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/pyread"

	"github.com/sheetstream/sheetstream/xlsx"
)

// fillTemplate fills sheet of the template file with rows (the first
// row of rows is the header Fill checks) and returns the workbook.
func fillTemplate(t *testing.T, file, sheet string, opts xlsx.TemplateOptions, header []string, rows [][]xlsx.Cell) []byte {
	t.Helper()
	tpl, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w, err := xlsx.NewTemplateWriter(&out, bytes.NewReader(tpl), int64(len(tpl)), opts)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := w.Fill(sheet, header)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := sh.WriteRow(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// rawPart is an entry as stored: its method and compressed bytes.
type rawPart struct {
	method uint16
	crc    uint32
	data   string
}

// rawParts are a package's entries as stored.
func rawParts(t *testing.T, book []byte) map[string]rawPart {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(book), int64(len(book)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]rawPart{}
	for _, f := range zr.File {
		r, err := f.OpenRaw()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, err := b.ReadFrom(r); err != nil {
			t.Fatal(err)
		}
		out[f.Name] = rawPart{f.Method, f.CRC32, b.String()}
	}
	return out
}

// TestTemplateTable fills an Excel table of an Excel-saved workbook: the
// body takes the rows, the table and its autofilter grow, every other
// part is the template's, byte for byte as stored.
func TestTemplateTable(t *testing.T) {
	file := filepath.Join("testdata", "excel", "rust_xlsxwriter", "table01.xlsx")
	var rows [][]xlsx.Cell
	for i := range 500 {
		rows = append(rows, []xlsx.Cell{xlsx.Int(int64(i)), xlsx.String("r" + string(rune('a'+i%26))), xlsx.Float(float64(i) / 4), xlsx.Date(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i))})
	}
	book := fillTemplate(t, file, "Sheet1", xlsx.TemplateOptions{}, []string{"Column1", "Column2", "Column3", "Column4"}, rows)
	tpl, _ := os.ReadFile(file)
	before, after := rawParts(t, tpl), rawParts(t, book)
	for name, raw := range before {
		switch name {
		case "xl/worksheets/sheet1.xml", "xl/tables/table1.xml", "[Content_Types].xml", "xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/styles.xml", "xl/sharedStrings.xml":
			continue
		}
		if raw != after[name] {
			t.Errorf("%s is not the template's, byte for byte", name)
		}
	}
	table := part(t, book, "xl/tables/table1.xml")
	if !strings.Contains(table, `ref="C3:F503"`) || !strings.Contains(table, `<autoFilter ref="C3:F503"/>`) {
		t.Errorf("table: %s", table)
	}
	sheet := part(t, book, "xl/worksheets/sheet1.xml")
	// The first cell of a row says where it is, the next ones follow it;
	// the rows' text follows the template's four shared strings.
	for _, want := range []string{`<row r="4"><c r="C4"><v>0</v></c><c t="s"><v>4</v></c>`, `<row r="503"><c r="C503"><v>499</v></c><c t="s"><v>9</v></c>`, `<tablePart r:id="rId1"/>`} {
		if !strings.Contains(sheet, want) {
			t.Errorf("sheet lacks %s", want)
		}
	}
	if sst := part(t, book, "xl/sharedStrings.xml"); !strings.Contains(sst, `count="504" uniqueCount="30"><si><t>Column1</t></si>`) || !strings.HasSuffix(sst, "<si><t>rz</t></si></sst>") {
		t.Errorf("shared strings: %s", sst)
	}
	_, res := auditBook(t, "template.xlsx", book)
	if tb := res.Tables["Sheet1"]; len(tb) == 0 || tb[0].Ref != "C3:F503" {
		t.Errorf("openpyxl reads the table as %+v", tb)
	}
	for reader, got := range map[string][][]*pyread.Value{"openpyxl": res.Openpyxl["Sheet1"], "calamine": res.Calamine["Sheet1"]} {
		if len(got) < 503 || got[2][2] == nil || got[2][2].V != "Column1" || got[3][3] == nil || got[3][3].V != "ra" || got[502][3] == nil || got[502][3].V != "rf" {
			t.Errorf("%s reads the strings wrong: %d rows", reader, len(got))
		}
	}
}

// TestTemplateStrings: the rows' text is shared after the template's own
// strings within the budget, inline past it or when asked; a row's
// "{{name}}" is data, not a placeholder; every reader reads the same.
func TestTemplateStrings(t *testing.T) {
	file := filepath.Join("testdata", "excel", "rust_xlsxwriter", "table01.xlsx")
	var rows [][]xlsx.Cell
	for i := range 300 {
		rows = append(rows, []xlsx.Cell{xlsx.Int(int64(i)), xlsx.String("text " + strconv.Itoa(i%150)), xlsx.String("{{rows}}"), xlsx.String(strings.Repeat("x", i%7))})
	}
	for _, tc := range []struct {
		name           string
		opts           xlsx.TemplateOptions
		shared, inline bool
	}{
		{"auto", xlsx.TemplateOptions{}, true, false},
		{"budget", xlsx.TemplateOptions{Options: xlsx.Options{SharedStringsBudget: 2000}}, true, true},
		{"inline", xlsx.TemplateOptions{Options: xlsx.Options{Strings: xlsx.StringsInline}}, false, true},
		{"shared", xlsx.TemplateOptions{Options: xlsx.Options{Strings: xlsx.StringsShared, SharedStringsBudget: 10}}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			book := fillTemplate(t, file, "Sheet1", tc.opts, []string{"Column1", "Column2", "Column3", "Column4"}, rows)
			sheet := part(t, book, "xl/worksheets/sheet1.xml")
			sheet = sheet[strings.Index(sheet, `<row r="4"`):] // the new rows
			if got := strings.Contains(sheet, `t="s"><v>`); got != tc.shared {
				t.Errorf("shared strings in the sheet: %v", got)
			}
			if got := strings.Contains(sheet, `t="inlineStr"`); got != tc.inline {
				t.Errorf("inline strings in the sheet: %v", got)
			}
			_, res := auditBook(t, tc.name+".xlsx", book)
			for reader, got := range map[string][][]*pyread.Value{"openpyxl": res.Openpyxl["Sheet1"], "calamine": res.Calamine["Sheet1"]} {
				if len(got) != 303 {
					t.Fatalf("%s: %d rows", reader, len(got))
				}
				if got[2][2] == nil || got[2][2].V != "Column1" {
					t.Errorf("%s: the header is %v", reader, got[2])
				}
				for i, r := range rows {
					row := got[3+i]
					want := []string{r[1].Value().(string), "{{rows}}", r[3].Value().(string)}
					for j, w := range want {
						var v *pyread.Value
						if 3+j < len(row) {
							v = row[3+j]
						}
						if w == "" && (v == nil || v.V == "") {
							continue
						}
						if v == nil || v.V != w {
							t.Fatalf("%s: row %d column %d is %v, want %q", reader, 4+i, 4+j, v, w)
						}
					}
				}
			}
		})
	}
}

// TestTemplateErrors: a file that is not a workbook, an encrypted one, a
// sheet the template lacks, a header that does not match the table: each
// refused before any row, named.
func TestTemplateErrors(t *testing.T) {
	if _, err := xlsx.NewTemplateWriter(&bytes.Buffer{}, strings.NewReader("not a zip"), 9, xlsx.TemplateOptions{}); !errors.Is(err, xlsx.ErrTemplate) {
		t.Errorf("not a zip: %v", err)
	}
	cfb := append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 600)...)
	if _, err := xlsx.NewTemplateWriter(&bytes.Buffer{}, bytes.NewReader(cfb), int64(len(cfb)), xlsx.TemplateOptions{}); !errors.Is(err, xlsx.ErrTemplate) || !strings.Contains(err.Error(), "damaged compound file") {
		t.Errorf("a damaged compound file: %v", err)
	}
	tpl, _ := os.ReadFile(filepath.Join("testdata", "excel", "rust_xlsxwriter", "table02.xlsx"))
	w, err := xlsx.NewTemplateWriter(&bytes.Buffer{}, bytes.NewReader(tpl), int64(len(tpl)), xlsx.TemplateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Fill("Sales", nil); !errors.Is(err, xlsx.ErrTemplate) || !strings.Contains(err.Error(), "Sheet1, Sheet2") {
		t.Errorf("missing sheet: %v", err)
	}
	// Sheet1 has tables side by side: filling one would split another.
	if _, err := w.Fill("Sheet1", nil); !errors.Is(err, xlsx.ErrTemplate) || !strings.Contains(err.Error(), "would be split") {
		t.Errorf("tables side by side: %v", err)
	}
	tpl, _ = os.ReadFile(filepath.Join("testdata", "excel", "rust_xlsxwriter", "table01.xlsx"))
	if w, err = xlsx.NewTemplateWriter(&bytes.Buffer{}, bytes.NewReader(tpl), int64(len(tpl)), xlsx.TemplateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Fill("Sheet1", []string{"Column1", "Colour", "Column3", "Column4"}); err == nil || !strings.Contains(err.Error(), `column 2: the table's column is "Column2", the rows' "Colour"`) {
		t.Errorf("header by name: %v", err)
	}
	if _, err := w.Fill("Sheet1", []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "4 columns") {
		t.Errorf("header width: %v", err)
	}
}

// TestTemplateTotalsRow: the totals row moves under the rows with its
// formula, the table grows over them with it.
func TestTemplateTotalsRow(t *testing.T) {
	rows := make([][]xlsx.Cell, 40)
	for i := range rows {
		rows[i] = []xlsx.Cell{xlsx.String("x"), xlsx.Int(int64(i)), xlsx.Int(2), xlsx.Int(3)}
	}
	book := fillTemplate(t, filepath.Join("testdata", "excel", "rust_xlsxwriter", "table08.xlsx"), "Sheet1", xlsx.TemplateOptions{}, nil, rows)
	table := part(t, book, "xl/tables/table1.xml")
	if !strings.Contains(table, `ref="C3:F44"`) || !strings.Contains(table, `<autoFilter ref="C3:F43"/>`) || !strings.Contains(table, `totalsRowCount="1"`) {
		t.Errorf("table: %s", table)
	}
	sheet := part(t, book, "xl/worksheets/sheet1.xml")
	if !strings.Contains(sheet, `<row r="44"`) || !strings.Contains(sheet, `<c r="F44"><f>SUBTOTAL(103,[Column4])</f>`) {
		t.Errorf("the totals row did not move under the rows: %s", sheet[strings.LastIndex(sheet, "<row"):])
	}
	if zipHas(t, book, "xl/calcChain.xml") || !strings.Contains(part(t, book, "xl/workbook.xml"), `fullCalcOnLoad="1"`) {
		t.Error("the calculation chain is kept, or Excel is not told to recalculate")
	}
	_, res := auditBook(t, "totals.xlsx", book)
	if tb := res.Tables["Sheet1"]; len(tb) != 1 || tb[0].Ref != "C3:F44" || tb[0].TotalsRows != 1 {
		t.Errorf("openpyxl: %+v", tb)
	}
}

func zipHas(t *testing.T, book []byte, name string) bool {
	zr, err := zip.NewReader(bytes.NewReader(book), int64(len(book)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == name {
			return true
		}
	}
	return false
}

// TestTemplateFollowers: below a sheet's last row without a table, the
// rows make what reads the range follow: a chart's series (its stale
// cache dropped), a pivot cache's source (refreshed on open), the print
// area; a macro project is copied byte for byte.
func TestTemplateFollowers(t *testing.T) {
	nums := func(n int) [][]xlsx.Cell {
		rows := make([][]xlsx.Cell, n)
		for i := range rows {
			rows[i] = []xlsx.Cell{xlsx.Int(int64(i)), xlsx.Int(int64(2 * i)), xlsx.Int(int64(3 * i))}
		}
		return rows
	}
	book := fillTemplate(t, filepath.Join("testdata", "excel", "rust_xlsxwriter", "chart_bar01.xlsx"), "Sheet1", xlsx.TemplateOptions{}, nil, nums(100))
	chart := part(t, book, "xl/charts/chart1.xml")
	if !strings.Contains(chart, "<c:f>Sheet1!$A$1:$A$105</c:f>") || !strings.Contains(chart, "<c:f>Sheet1!$C$1:$C$105</c:f>") || strings.Contains(chart, "<c:numCache>") {
		t.Errorf("chart series: %s", chart)
	}
	_, res := auditBook(t, "chart.xlsx", book)
	if c := res.Charts["Sheet1"]; len(c) != 1 || *c[0].Series[1].Values != "Sheet1!$C$1:$C$105" {
		t.Errorf("openpyxl: %+v", c)
	}

	rows := [][]xlsx.Cell{{xlsx.String("North"), xlsx.String("Gizmo"), xlsx.Int(75)}, {xlsx.String("South"), xlsx.String("Gizmo"), xlsx.Int(80)}}
	// The pivot cache as Excel leaves it, not refreshed on load.
	pivot, err := os.ReadFile(filepath.Join("testdata", "excel", "PhpSpreadsheet", "PivotTableSimple.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	pivot = rewritePart(t, pivot, "xl/pivotCache/pivotCacheDefinition1.xml", func(s string) string { return strings.Replace(s, ` refreshOnLoad="1"`, "", 1) })
	pivotFile := filepath.Join(t.TempDir(), "pivot.xlsx")
	if err := os.WriteFile(pivotFile, pivot, 0o644); err != nil {
		t.Fatal(err)
	}
	book = fillTemplate(t, pivotFile, "Data", xlsx.TemplateOptions{}, nil, rows)
	def := part(t, book, "xl/pivotCache/pivotCacheDefinition1.xml")
	if !strings.Contains(def, `<worksheetSource ref="A1:C7" sheet="Data"/>`) || !strings.Contains(def, `refreshOnLoad="1"`) {
		t.Errorf("pivot cache: %.600s", def)
	}

	// The pivot table over the template's own rows (rows 2-5, above the
	// filled ones) is not computed: the pivot table copied as stored.
	tpl, _ := os.ReadFile(pivotFile)
	if before, after := rawParts(t, tpl), rawParts(t, book); before["xl/pivotTables/pivotTable1.xml"] != after["xl/pivotTables/pivotTable1.xml"] {
		t.Error("the pivot table was not copied as stored")
	}

	book = fillTemplate(t, filepath.Join("testdata", "excel", "rust_xlsxwriter", "defined_name01.xlsx"), "Sheet1", xlsx.TemplateOptions{}, nil, nums(10))
	if wb := part(t, book, "xl/workbook.xml"); !strings.Contains(wb, `localSheetId="0">Sheet1!$A$1:$E$16</definedName>`) {
		t.Errorf("print area: %s", wb)
	}

	// A picture's drawing and media, copied as they were.
	file := filepath.Join("testdata", "excel", "rust_xlsxwriter", "image01.xlsx")
	book = fillTemplate(t, file, "Sheet1", xlsx.TemplateOptions{}, nil, nums(10))
	tpl, _ = os.ReadFile(file)
	for _, name := range []string{"xl/media/image1.png", "xl/drawings/drawing1.xml", "xl/drawings/_rels/drawing1.xml.rels"} {
		if rawParts(t, book)[name] != rawParts(t, tpl)[name] {
			t.Errorf("%s is not the template's, byte for byte", name)
		}
	}
	auditBook(t, "image.xlsx", book)

	file = filepath.Join("testdata", "excel", "rust_xlsxwriter", "macro01.xlsm")
	book = fillTemplate(t, file, "Sheet1", xlsx.TemplateOptions{}, nil, nums(10))
	tpl, _ = os.ReadFile(file)
	if rawParts(t, book)["xl/vbaProject.bin"] != rawParts(t, tpl)["xl/vbaProject.bin"] {
		t.Error("the macro project is not the template's, byte for byte")
	}
	if ct := part(t, book, "[Content_Types].xml"); !strings.Contains(ct, "sheet.macroEnabled.main+xml") {
		t.Errorf("content types: %s", ct)
	}
}

// TestTemplatePlaceholders: {{name}} in text cells (shared and inline)
// and in every sheet's header and footer is replaced from the values,
// {{rows}} and {{now}}; a template's content type (.xltx) becomes a
// workbook's.
func TestTemplatePlaceholders(t *testing.T) {
	design := writeBook(t, xlsx.Options{Strings: xlsx.StringsShared}, func(w *xlsx.Writer) error {
		cover, err := w.AddSheet("Cover", xlsx.SheetOptions{Print: &xlsx.PrintSetup{Footer: "&L{{city}}: {{rows}} rows&RPage &P"}})
		if err != nil {
			return err
		}
		if err := cover.WriteRow([]xlsx.Cell{xlsx.String("Sales of {{city}} <east>"), xlsx.String("{{rows}} rows, {{ now }}"), xlsx.String("{{unknown}}")}); err != nil {
			return err
		}
		data, err := w.AddSheet("Data", xlsx.SheetOptions{Print: &xlsx.PrintSetup{Header: "&C{{city}}"}})
		if err != nil {
			return err
		}
		if err := data.AddTable(rng("A1:B2"), xlsx.Table{Name: "Sales"}); err != nil {
			return err
		}
		if err := data.WriteRow([]xlsx.Cell{xlsx.String("Day"), xlsx.String("Amount")}); err != nil {
			return err
		}
		return data.WriteRow([]xlsx.Cell{xlsx.Blank(), xlsx.Blank()})
	})
	// As an .xltx: the same package with a template's content type.
	design = rewritePart(t, design, "[Content_Types].xml", func(s string) string {
		return strings.Replace(s, "spreadsheetml.sheet.main+xml", "spreadsheetml.template.main+xml", 1)
	})
	// An inline string on the cover, as some programs write text.
	design = rewritePart(t, design, "xl/worksheets/sheet1.xml", func(s string) string {
		return strings.Replace(s, "</row>", `<c r="Z1" t="inlineStr"><is><t>inline {{city}}, {{rows}}</t></is></c></row>`, 1)
	})
	dir := t.TempDir()
	file := filepath.Join(dir, "design.xltx")
	if err := os.WriteFile(file, design, 0o644); err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	rows := [][]xlsx.Cell{{xlsx.Date(day), xlsx.Float(10.5)}, {xlsx.Date(day.AddDate(0, 0, 1)), xlsx.Float(11)}, {xlsx.Date(day.AddDate(0, 0, 2)), xlsx.Float(9)}}
	now := time.Date(2026, 11, 27, 8, 30, 0, 0, time.UTC)
	book := fillTemplate(t, file, "Data", xlsx.TemplateOptions{Values: map[string]any{"city": "Oslo & Bergen"}, Now: now}, []string{"day", "amount"}, rows)
	sst := part(t, book, "xl/sharedStrings.xml")
	for _, want := range []string{"Sales of Oslo &amp; Bergen &lt;east&gt;", "3 rows, 2026-11-27 08:30", "{{unknown}}"} {
		if !strings.Contains(sst, want) {
			t.Errorf("shared strings lack %q: %s", want, sst)
		}
	}
	// In a header or footer an & is doubled: a single one starts a code.
	if s := part(t, book, "xl/worksheets/sheet2.xml"); !strings.Contains(s, "&amp;COslo &amp;&amp; Bergen") {
		t.Errorf("the filled sheet's header: %s", s)
	}
	if s := part(t, book, "xl/worksheets/sheet1.xml"); !strings.Contains(s, "<oddFooter>&amp;LOslo &amp;&amp; Bergen: 3 rows&amp;RPage &amp;P</oddFooter>") || !strings.Contains(s, "<t>inline Oslo &amp; Bergen, 3</t>") {
		t.Errorf("the cover's footer and inline text: %s", s)
	}
	if ct := part(t, book, "[Content_Types].xml"); strings.Contains(ct, "template.main") {
		t.Errorf("still a template: %s", ct)
	}
	_, res := auditBook(t, "placeholders.xlsx", book)
	got := res.Openpyxl["Data"]
	if len(got) != 4 || got[1][0].Type != "d" || !strings.HasPrefix(got[1][0].V.(string), "2026-03-01") {
		t.Errorf("dates in a column without a date format: %v", got)
	}
}

// pastryRows are rows for ClosedXML's pastry table.
// TestTemplatePivotComputed: a designer's pivot over the filled table
// (Excel's, by the table's name: ClosedXML's test file saved by Excel
// 2013, two row fields without subtotals and three values) is computed
// from the rows: its cells equal a group-by of the rows computed here,
// its cache lists their items and records, the source still follows
// the table, and the workbook passes openxml-audit.
func TestTemplatePivotComputed(t *testing.T) {
	pastry := filepath.Join("testdata", "excel", "ClosedXML", "PivotTableWithTableSource.xlsx")
	rows := pastryRows(40)
	book := fillTemplate(t, pastry, "Data", xlsx.TemplateOptions{}, []string{"EmptyField", "Name", "NumberOfOrders", "Quality", "Month", "BakeDate"}, rows)
	def := part(t, book, "xl/pivotCache/pivotCacheDefinition1.xml")
	if !strings.Contains(def, `<worksheetSource name="PastryData"/>`) || !strings.Contains(def, `refreshOnLoad="1"`) || !strings.Contains(def, `recordCount="40"`) ||
		!strings.Contains(def, `<s v="Bagel"/>`) || !strings.Contains(def, `r:id="rId1"`) {
		t.Errorf("pivot cache over a table: %.900s", def)
	}
	if rec := part(t, book, "xl/pivotCache/pivotCacheRecords1.xml"); !strings.Contains(rec, `count="40"`) || strings.Count(rec, "<r>") != 40 {
		t.Errorf("records: %.300s", rec)
	}
	if tb := part(t, book, "xl/tables/table1.xml"); !strings.Contains(tb, `ref="A1:F41"`) {
		t.Errorf("table: %s", tb)
	}
	table := part(t, book, "xl/pivotTables/pivotTable1.xml")
	if !strings.Contains(table, `name="PivotTable1" cacheId="54"`) || !strings.Contains(table, `defaultSubtotal="0"`) || !strings.Contains(table, `<location ref="A1:D`) {
		t.Errorf("table definition: %.900s", table)
	}
	type sums struct{ orders, quality float64 }
	want := map[string]*sums{}
	for _, r := range rows {
		name, month := r[1].Value().(string), r[4].Value().(string)
		orders, quality := float64(r[2].Value().(int64)), r[3].Value().(float64)
		for _, k := range []string{name + "/" + month, "Grand Total"} {
			if want[k] == nil {
				want[k] = &sums{}
			}
			want[k].orders += orders
			want[k].quality += quality
		}
	}
	pvt := sheetCells(t, book, "pvt")
	if pvt["A1"] != "Row Labels" || pvt["B1"] != "Sum of NumberOfOrders" || pvt["C1"] != "Sum of Quality" || pvt["D1"] != "Count of EmptyField" || pvt["A2"] != "Bagel" || pvt["B2"] != "" {
		t.Fatalf("pivot sheet: %v", pvt)
	}
	name, seen := "", 0
	for r := 2; pvt[fmt.Sprint("A", r)] != ""; r++ {
		label := pvt[fmt.Sprint("A", r)]
		key := label
		switch {
		case slices.Contains([]string{"Croissant", "Doughnut", "Bearclaw", "Danish", "Scone", "Bagel"}, label):
			name = label
			continue
		case label != "Grand Total":
			key = name + "/" + label
		}
		w := want[key]
		if w == nil {
			t.Fatalf("row %d: %q is no group of the rows", r, key)
		}
		var orders, quality float64
		fmt.Sscan(pvt[fmt.Sprint("B", r)], &orders)
		fmt.Sscan(pvt[fmt.Sprint("C", r)], &quality)
		if orders != w.orders || math.Abs(quality-w.quality) > 1e-9*max(1, math.Abs(w.quality)) {
			t.Errorf("%s: %v %v, want %v %v", key, orders, quality, w.orders, w.quality)
		}
		seen++
	}
	if seen != len(want) {
		t.Errorf("%d groups shown, want %d: %v", seen, len(want), pvt)
	}
	auditBook(t, "pastry.xlsx", book)
}

func pastryRows(n int) [][]xlsx.Cell {
	names := []string{"Croissant", "Doughnut", "Bearclaw", "Danish", "Scone", "Bagel"}
	rows := make([][]xlsx.Cell, n)
	for i := range rows {
		rows[i] = []xlsx.Cell{xlsx.Blank(), xlsx.String(names[i%len(names)]), xlsx.Int(int64(100 + i)), xlsx.Float(float64(i) / 3),
			xlsx.String(time.Month(1 + i%12).String()[:3]), xlsx.Date(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i))}
	}
	return rows
}

// rewritePart changes one part of a package, the others as they were.
func rewritePart(t *testing.T, book []byte, name string, f func(string) string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(book), int64(len(book)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, file := range zr.File {
		rc, _ := file.Open()
		var b bytes.Buffer
		b.ReadFrom(rc)
		rc.Close()
		data := b.String()
		if file.Name == name {
			data = f(data)
		}
		w, _ := zw.Create(file.Name)
		w.Write([]byte(data))
	}
	zw.Close()
	return out.Bytes()
}

// TestTemplateResavedByLibreOffice: LibreOffice opens the filled
// templates and saves them with their table, chart and pivot table kept.
func TestTemplateResavedByLibreOffice(t *testing.T) {
	pyread.Python(t)
	dir := t.TempDir()
	rows := func(n int, f func(i int) []xlsx.Cell) [][]xlsx.Cell {
		out := make([][]xlsx.Cell, n)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	books := map[string][]byte{
		"table.xlsx": fillTemplate(t, filepath.Join("testdata", "excel", "rust_xlsxwriter", "table08.xlsx"), "Sheet1", xlsx.TemplateOptions{}, nil,
			rows(30, func(i int) []xlsx.Cell {
				return []xlsx.Cell{xlsx.String("x"), xlsx.Int(int64(i)), xlsx.Int(2), xlsx.Int(3)}
			})),
		"chart.xlsx": fillTemplate(t, filepath.Join("testdata", "excel", "rust_xlsxwriter", "chart_bar01.xlsx"), "Sheet1", xlsx.TemplateOptions{}, nil,
			rows(30, func(i int) []xlsx.Cell { return []xlsx.Cell{xlsx.Int(int64(i)), xlsx.Int(2), xlsx.Int(3)} })),
		"pastry.xlsx": fillTemplate(t, filepath.Join("testdata", "excel", "ClosedXML", "PivotTableWithTableSource.xlsx"), "Data", xlsx.TemplateOptions{}, nil, pastryRows(30)),
		"pivot.xlsx": fillTemplate(t, filepath.Join("testdata", "excel", "PhpSpreadsheet", "PivotTableSimple.xlsx"), "Data", xlsx.TemplateOptions{}, nil,
			rows(30, func(i int) []xlsx.Cell {
				return []xlsx.Cell{xlsx.String("North"), xlsx.String("Gizmo"), xlsx.Int(int64(i))}
			})),
	}
	var paths []string
	for name, b := range books {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	out := filepath.Join(dir, "lo")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range pyread.Resave(t, out, paths...) {
		saved, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Base(p) {
		case "table.xlsx":
			if x := part(t, saved, "xl/tables/table1.xml"); !strings.Contains(x, `ref="C3:F34"`) {
				t.Errorf("LibreOffice's table: %s", x)
			}
		case "chart.xlsx":
			if x := part(t, saved, "xl/charts/chart1.xml"); !strings.Contains(x, "$A$1:$A$35") {
				t.Errorf("LibreOffice's chart: %.500s", x)
			}
		case "pastry.xlsx":
			if !zipHas(t, saved, "xl/pivotTables/pivotTable1.xml") {
				t.Error("LibreOffice dropped the pivot table over a table")
			} else if x := part(t, saved, "xl/pivotCache/pivotCacheDefinition1.xml"); !strings.Contains(x, `recordCount="30"`) || !strings.Contains(x, `<s v="Bagel"/>`) {
				// LibreOffice rebuilt the cache from the 30 rows (Bagel is only in them)
				t.Errorf("LibreOffice's pivot cache over a table: %.500s", x)
			}
			// Its own computation of the pivot has every number ours has.
			var theirs []float64
			for _, v := range sheetCells(t, saved, "pvt") {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					theirs = append(theirs, f)
				}
			}
			for ref, v := range sheetCells(t, books["pastry.xlsx"], "pvt") {
				f, err := strconv.ParseFloat(v, 64)
				if err == nil && f != 0 && !slices.ContainsFunc(theirs, func(g float64) bool { return math.Abs(f-g) <= 1e-12*math.Abs(f) }) {
					t.Errorf("LibreOffice's pivot lacks our %s = %s", ref, v)
				}
			}
		case "pivot.xlsx":
			if !zipHas(t, saved, "xl/pivotTables/pivotTable1.xml") {
				t.Error("LibreOffice dropped the pivot table")
			} else if x := part(t, saved, "xl/pivotCache/pivotCacheDefinition1.xml"); !strings.Contains(x, `ref="A1:C35"`) {
				t.Errorf("LibreOffice's pivot cache: %.500s", x)
			}
		}
	}
}

// TestTemplateMemory: a template's other sheets are copied, never held:
// one with tens of megabytes of them fills 300,000 rows in the heap a tiny one
// takes.
func TestTemplateMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 40 MB template")
	}
	dir := t.TempDir()
	makeTemplate := func(name string, bigRows int) string {
		book := writeBook(t, xlsx.Options{Compression: xlsx.CompressionNone}, func(w *xlsx.Writer) error {
			big, err := w.AddSheet("Archive", xlsx.SheetOptions{})
			if err != nil {
				return err
			}
			for i := range bigRows {
				if err := big.WriteRow([]xlsx.Cell{xlsx.Int(int64(i)), xlsx.String("archived row " + strconv.Itoa(i)), xlsx.Float(float64(i) / 3)}); err != nil {
					return err
				}
			}
			data, err := w.AddSheet("Data", xlsx.SheetOptions{})
			if err != nil {
				return err
			}
			return data.WriteRow([]xlsx.Cell{xlsx.String("n"), xlsx.String("text")})
		})
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, book, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	peak := func(file string) (uint64, int64) {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		info, _ := f.Stat()
		out, err := os.Create(filepath.Join(dir, "out.xlsx"))
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base, top := ms.HeapAlloc, ms.HeapAlloc
		w, err := xlsx.NewTemplateWriter(out, f, info.Size(), xlsx.TemplateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sh, err := w.Fill("Data", nil)
		if err != nil {
			t.Fatal(err)
		}
		row := make([]xlsx.Cell, 2)
		for i := range 300_000 {
			row[0], row[1] = xlsx.Int(int64(i)), xlsx.String("row")
			if err := sh.WriteRow(row); err != nil {
				t.Fatal(err)
			}
			if i%20000 == 0 {
				runtime.ReadMemStats(&ms)
				top = max(top, ms.HeapAlloc)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&ms)
		top = max(top, ms.HeapAlloc)
		return top - base, info.Size()
	}
	small, _ := peak(makeTemplate("small.xlsx", 10))
	big, size := peak(makeTemplate("big.xlsx", 800_000))
	if size < 30<<20 {
		t.Fatalf("the big template is only %d bytes", size)
	}
	t.Logf("heap over the fill: tiny template %.1f MiB, %d MB template %.1f MiB", float64(small)/(1<<20), size>>20, float64(big)/(1<<20))
	if big > small+8<<20 {
		t.Errorf("the big template took %.1f MiB more heap", float64(big-small)/(1<<20))
	}
}

// TestTemplateTypedPlaceholders: a cell that is only {{name}} becomes the
// value typed (number, date, time, boolean; {{rows}} and {{now}} too), in
// any sheet; inside longer text, and for text values, it is text; a sheet
// without placeholders is copied as stored; openpyxl and calamine agree.
func TestTemplateTypedPlaceholders(t *testing.T) {
	design := writeBook(t, xlsx.Options{Strings: xlsx.StringsShared}, func(w *xlsx.Writer) error {
		cover, err := w.AddSheet("Cover", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		bold, err := w.AddStyle(xlsx.Style{Font: xlsx.Font{Bold: true}})
		if err != nil {
			return err
		}
		row := []xlsx.Cell{xlsx.String("{{total}}").WithStyle(bold), xlsx.String("{{ day }}"), xlsx.String("{{rate}}"), xlsx.String("{{ok}}"),
			xlsx.String("{{rows}}"), xlsx.String("{{now}}"), xlsx.String("{{name}}"), xlsx.String("Total: {{total}} on {{day}}"), xlsx.Formula("A1*2"), xlsx.String("{{unknown}}")}
		if err := cover.WriteRow(row); err != nil {
			return err
		}
		plain, err := w.AddSheet("Plain", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		if err := plain.WriteRow([]xlsx.Cell{xlsx.String("no placeholders"), xlsx.Int(1)}); err != nil {
			return err
		}
		data, err := w.AddSheet("Data", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		if err := data.WriteRow([]xlsx.Cell{xlsx.String("{{day}}"), xlsx.String("{{rows}}")}); err != nil {
			return err
		}
		if err := data.AddTable(rng("A3:B4"), xlsx.Table{Name: "Sales"}); err != nil {
			return err
		}
		if err := data.WriteRow(nil); err != nil {
			return err
		}
		if err := data.WriteRow([]xlsx.Cell{xlsx.String("Item"), xlsx.String("Amount")}); err != nil {
			return err
		}
		return data.WriteRow([]xlsx.Cell{xlsx.Blank(), xlsx.Blank()})
	})
	dir := t.TempDir()
	file := filepath.Join(dir, "design.xlsx")
	if err := os.WriteFile(file, design, 0o644); err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	now := time.Date(2026, 11, 27, 8, 30, 15, 0, time.UTC)
	values := map[string]any{"total": 1234, "day": day, "rate": 0.25, "ok": true, "name": "Oslo"}
	var rows [][]xlsx.Cell
	for i := range 3 {
		rows = append(rows, []xlsx.Cell{xlsx.String("item " + strconv.Itoa(i)), xlsx.Float(float64(i) + 0.5)})
	}
	book := fillTemplate(t, file, "Data", xlsx.TemplateOptions{Values: values, Now: now}, []string{"Item", "Amount"}, rows)
	before, after := rawParts(t, design), rawParts(t, book)
	if before["xl/worksheets/sheet2.xml"] != after["xl/worksheets/sheet2.xml"] {
		t.Errorf("the sheet without placeholders was not copied as stored")
	}
	if before["xl/worksheets/sheet1.xml"] == after["xl/worksheets/sheet1.xml"] {
		t.Errorf("the cover was copied as stored")
	}
	_, res := auditBook(t, "typed.xlsx", book)
	for reader, sheets := range map[string]map[string][][]*pyread.Value{"openpyxl": res.Openpyxl, "calamine": res.Calamine} {
		cover := sheets["Cover"]
		if len(cover) != 1 || len(cover[0]) < 10 {
			t.Fatalf("%s: cover %v", reader, cover)
		}
		c := cover[0]
		check := func(i int, typ string, want any) {
			t.Helper()
			if c[i] == nil || c[i].Type != typ {
				t.Errorf("%s: cover column %d is %v, want a %s %v", reader, i+1, c[i], typ, want)
				return
			}
			switch w := want.(type) {
			case float64:
				if f, ok := c[i].V.(float64); !ok || f != w {
					t.Errorf("%s: cover column %d is %v, want %v", reader, i+1, c[i].V, w)
				}
			case string:
				if s, ok := c[i].V.(string); !ok || !strings.HasPrefix(s, w) {
					t.Errorf("%s: cover column %d is %v, want %v", reader, i+1, c[i].V, w)
				}
			case bool:
				if c[i].V != w {
					t.Errorf("%s: cover column %d is %v, want %v", reader, i+1, c[i].V, w)
				}
			}
		}
		check(0, "n", 1234.0)
		check(1, "d", "2026-03-01")
		check(2, "n", 0.25)
		check(3, "b", true)
		check(4, "n", 3.0)
		check(5, "d", "2026-11-27T08:30:00")
		check(6, "s", "Oslo")
		check(7, "s", "Total: 1234 on 2026-03-01")
		check(9, "s", "{{unknown}}")
		data := sheets["Data"]
		if len(data) < 1 || len(data[0]) < 2 {
			t.Fatalf("%s: data %v", reader, data)
		}
		c = data[0]
		check(0, "d", "2026-03-01")
		check(1, "s", "3") // the filled sheet is written before its rows are counted
	}
	if got := res.Formulas["Cover"]["I1"]; got != "=A1*2" {
		t.Errorf("the formula over the typed cell: %q", got)
	}
	// The bold style is kept on the number; the date got a date format.
	cover := part(t, book, "xl/worksheets/sheet1.xml")
	if !strings.Contains(cover, `<row r="1"><c s="1"><v>1234</v></c>`) {
		t.Errorf("cover: %s", cover)
	}
}

// TestTemplateRollover: rows past the last row go on to "Data (2)" after
// the filled sheet, its header the table's columns, its cells in the
// columns' styles; the table stops at the sheet's last row, the note
// under it moved to the very bottom; the sheets after move one place and
// so do their defined names. Our reader reads every row back in order;
// the package (with the big sheets' middles cut out, to keep the Python
// readers quick) passes the validator, openpyxl and calamine.
func TestTemplateRollover(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 1,048,600 rows")
	}
	design := writeBook(t, xlsx.Options{Strings: xlsx.StringsShared}, func(w *xlsx.Writer) error {
		cover, err := w.AddSheet("Cover", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		if err := cover.WriteRow([]xlsx.Cell{xlsx.String("{{rows}} rows")}); err != nil {
			return err
		}
		money, err := w.AddStyle(xlsx.Style{NumFmt: "0.00"})
		if err != nil {
			return err
		}
		data, err := w.AddSheet("Data", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		if err := data.AddTable(rng("A1:B2"), xlsx.Table{Name: "Sales"}); err != nil {
			return err
		}
		for _, r := range [][]xlsx.Cell{{xlsx.String("N"), xlsx.String("Amount")}, {xlsx.Blank(), xlsx.Blank().WithStyle(money)}, nil, {xlsx.String("end of data")}} {
			if err := data.WriteRow(r); err != nil {
				return err
			}
		}
		last, err := w.AddSheet("Last", xlsx.SheetOptions{Print: &xlsx.PrintSetup{Area: rng("A1:B2")}})
		if err != nil {
			return err
		}
		return last.WriteRow([]xlsx.Cell{xlsx.String("last")})
	})
	const extra = 25
	total := xlsx.MaxRows - 3 + extra // the header and the two rows after the body stay
	tpl := bytes.NewReader(design)
	var out bytes.Buffer
	w, err := xlsx.NewTemplateWriter(&out, tpl, int64(len(design)), xlsx.TemplateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sh, err := w.Fill("Data", []string{"N", "Amount"})
	if err != nil {
		t.Fatal(err)
	}
	cells := make([]xlsx.Cell, 2)
	for i := range total {
		cells[0], cells[1] = xlsx.Int(int64(i)), xlsx.Float(float64(i)/2)
		if err := sh.WriteRow(cells); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	book := out.Bytes()
	if got := w.Sheets(); strings.Join(got, "|") != "Cover|Data|Data (2)|Last" {
		t.Errorf("sheets %q", got)
	}
	wb, err := xlsx.NewReader(bytes.NewReader(book), int64(len(book)), xlsx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range wb.Sheets() {
		names = append(names, s.Name)
	}
	if strings.Join(names, "|") != "Cover|Data|Data (2)|Last" {
		t.Fatalf("the workbook's sheets: %q", names)
	}
	next := int64(0)
	for index, want := range []int{xlsx.MaxRows, extra + 1} {
		rows, err := wb.Rows(context.Background(), index+1)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			row := rows.Row()
			if len(row.Cells) == 0 {
				continue // the empty row between the body and the note
			}
			n++
			first := row.Cells[0].String()
			switch {
			case row.Num == 1:
				if first != "N" || row.Cells[1].String() != "Amount" {
					t.Errorf("sheet %d: header %v", index+1, row.Cells)
				}
			case index == 0 && row.Num == xlsx.MaxRows:
				if first != "end of data" {
					t.Errorf("the note under the table is at the bottom: %q", first)
				}
			default:
				if first != strconv.FormatInt(next, 10) || row.Cells[1].Type() != xlsx.TypeNumber {
					t.Fatalf("sheet %d row %d: %v, want %d", index+1, row.Num, row.Cells, next)
				}
				next++
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		if n != want-boolInt(index == 0) {
			t.Errorf("sheet %d has %d rows, want %d", index+1, n, want-boolInt(index == 0))
		}
	}
	if next != int64(total) {
		t.Errorf("%d rows read back, %d written", next, total)
	}
	if tb := part(t, book, "xl/tables/table1.xml"); !strings.Contains(tb, `ref="A1:B1048574"`) {
		t.Errorf("table: %s", tb)
	}
	spill := part(t, book, "xl/worksheets/sheet4.xml")
	if !strings.Contains(spill, `<row r="2"><c><v>1048573</v></c><c s="1"><v>524286.5</v></c></row>`) || !strings.Contains(spill, `state="frozen"`) {
		t.Errorf("the rolled-over sheet: %.600s", spill)
	}
	wbXML := part(t, book, "xl/workbook.xml")
	if !regexp.MustCompile(`<sheet name="Data"[^>]*/><sheet name="Data \(2\)" sheetId="4" r:id="rIdRows1"/><sheet name="Last"`).MatchString(wbXML) || !strings.Contains(wbXML, `localSheetId="3"`) {
		t.Errorf("workbook: %s", wbXML)
	}
	// The Python readers and the validator on the package with the filled
	// sheet's rows from 100 on cut out (their XML is any fill's; our
	// reader read them above).
	cut := regexp.MustCompile(`<row r="[1-9]\d{2,6}"[^>]*>.*?</row>`)
	small := rewritePart(t, book, "xl/worksheets/sheet2.xml", func(s string) string { return cut.ReplaceAllString(s, "") })
	_, res := auditBook(t, "rollover.xlsx", small)
	if got := res.Sheets; len(got) != 4 || got[2][0] != "Data (2)" {
		t.Errorf("openpyxl's sheets: %v", got)
	}
	for reader, sheets := range map[string]map[string][][]*pyread.Value{"openpyxl": res.Openpyxl, "calamine": res.Calamine} {
		spill := sheets["Data (2)"]
		if len(spill) != extra+1 || spill[0][0].V != "N" || spill[1][0].V != float64(total-extra) || spill[extra][1].V != float64(total-1)/2 {
			t.Errorf("%s reads Data (2) as %d rows: %v ... %v", reader, len(spill), spill[:min(2, len(spill))], spill[len(spill)-1])
		}
		if c := sheets["Cover"]; len(c) != 1 || c[0][0].V != strconv.Itoa(total)+" rows" {
			t.Errorf("%s: cover %v", reader, c)
		}
	}
	if p := res.Print["Last"]; p == nil || p.Area == nil || !strings.Contains(*p.Area, "$A$1:$B$2") {
		t.Errorf("Last's print area: %+v", *p.Area)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestTemplateEncrypted: a template encrypted with a password (by our
// writer, which msoffcrypto-tool decrypts elsewhere) opens with
// TemplatePassword and is refused without it or with a wrong one, named;
// the filled workbook is encrypted with Password, and msoffcrypto-tool
// decrypts it into a package openpyxl, calamine and the validator read.
func TestTemplateEncrypted(t *testing.T) {
	design := writeBook(t, xlsx.Options{Strings: xlsx.StringsShared, Password: "designer"}, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("Data", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		if err := sh.AddTable(rng("A1:B2"), xlsx.Table{Name: "Secret"}); err != nil {
			return err
		}
		if err := sh.WriteRow([]xlsx.Cell{xlsx.String("Who"), xlsx.String("Amount")}); err != nil {
			return err
		}
		return sh.WriteRow([]xlsx.Cell{xlsx.Blank(), xlsx.Blank()})
	})
	for _, bad := range []struct {
		password string
		want     error
	}{{"", xlsx.ErrEncrypted}, {"wrong", xlsx.ErrPassword}} {
		_, err := xlsx.NewTemplateWriter(io.Discard, bytes.NewReader(design), int64(len(design)), xlsx.TemplateOptions{TemplatePassword: bad.password})
		if !errors.Is(err, bad.want) {
			t.Errorf("template password %q: %v, want %v", bad.password, err, bad.want)
		}
	}
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "filled.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := xlsx.NewTemplateWriter(out, bytes.NewReader(design), int64(len(design)), xlsx.TemplateOptions{Options: xlsx.Options{Password: "reader"}, TemplatePassword: "designer"})
	if err != nil {
		t.Fatal(err)
	}
	sh, err := w.Fill("Data", []string{"Who", "Amount"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		if err := sh.WriteRow([]xlsx.Cell{xlsx.String("n" + strconv.Itoa(i)), xlsx.Int(int64(i))}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	out.Close()
	if cells, err := dumpCells(t, out.Name(), xlsx.ReadOptions{Password: "reader"}); err != nil || len(cells) != 2*101 {
		t.Errorf("our reader: %d cells, %v", len(cells), err)
	}
	python := pyread.Python(t)
	plain := filepath.Join(dir, "plain.xlsx")
	if err := decryptWithMsoffcrypto(t, python, out.Name(), plain, "reader"); err != nil {
		t.Fatalf("msoffcrypto-tool: %v", err)
	}
	book, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	if tb := part(t, book, "xl/tables/table1.xml"); !strings.Contains(tb, `ref="A1:B101"`) {
		t.Errorf("table: %s", tb)
	}
	_, res := auditBook(t, "decrypted.xlsx", book)
	for reader, rows := range map[string][][]*pyread.Value{"openpyxl": res.Openpyxl["Data"], "calamine": res.Calamine["Data"]} {
		if len(rows) != 101 || rows[100][0].V != "n99" || rows[100][1].V != 99.0 {
			t.Errorf("%s: %d rows, last %v", reader, len(rows), rows[len(rows)-1])
		}
	}
}
