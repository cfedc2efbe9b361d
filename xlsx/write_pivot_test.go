package xlsx_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/xlsx"
)

// pivotSource writes n rows of region, city, year, paid, amount, units
// (amount sometimes blank, units sometimes text) to the sheet "Data",
// after declaring pivots, and returns the workbook.
func pivotSource(t *testing.T, n int, cities []string, pivots ...xlsx.PivotTable) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := xlsx.NewWriter(&buf, xlsx.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pivots {
		if err := w.AddPivotTable(p); err != nil {
			t.Fatal(err)
		}
	}
	s, _ := w.AddSheet("Data", xlsx.SheetOptions{})
	s.WriteRow([]xlsx.Cell{xlsx.String("region"), xlsx.String("city"), xlsx.String("year"), xlsx.String("paid"), xlsx.String("amount"), xlsx.String("units")})
	rng := rand.New(rand.NewPCG(1, 2))
	region := map[string]string{"Oslo": "North", "Bergen": "North", "Lisbon": "South", "Porto": "South", "Rome": "South", "Zürich": "Middle", "osaka": "East", "Osaka": "East"}
	for i := range n {
		c := cities[rng.IntN(len(cities))]
		amount := xlsx.Float(math.Round(rng.NormFloat64()*1e6) / 100)
		if i%17 == 0 {
			amount = xlsx.Cell{}
		}
		units := xlsx.Int(int64(rng.IntN(50)))
		if i%29 == 0 {
			units = xlsx.String("n/a")
		}
		if err := s.WriteRow([]xlsx.Cell{xlsx.String(region[c]), xlsx.String(c), xlsx.Int(int64(2020 + rng.IntN(4))), xlsx.Bool(rng.IntN(2) == 0), amount, units}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sheetCells reads a sheet as text cells by reference ("B4").
func sheetCells(t *testing.T, book []byte, sheet string) map[string]string {
	t.Helper()
	wb, err := xlsx.NewReader(bytes.NewReader(book), int64(len(book)), xlsx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range wb.Sheets() {
		if s.Name != sheet {
			continue
		}
		rows, _ := wb.Rows(context.Background(), s.Index)
		defer rows.Close()
		out := map[string]string{}
		for rows.Next() {
			for _, c := range rows.Row().Cells {
				out[xlsx.ColumnName(c.Col())+fmt.Sprint(rows.Row().Num)] = c.String()
			}
		}
		return out
	}
	t.Fatalf("no sheet %q", sheet)
	return nil
}

// TestPivotValues: a pivot's cells are the group-by of the rows written,
// computed here independently: every summary, nested row fields with
// their subtotals, a column field, grand totals, items in Excel's order
// (numbers, then text ignoring case).
func TestPivotValues(t *testing.T) {
	funcs := []xlsx.PivotFunc{xlsx.PivotSum, xlsx.PivotCount, xlsx.PivotAverage, xlsx.PivotMax, xlsx.PivotMin, xlsx.PivotCountNums, xlsx.PivotStdDev, xlsx.PivotVar}
	var values []xlsx.PivotValue
	for _, f := range funcs {
		values = append(values, xlsx.PivotValue{Column: "amount", Func: f})
	}
	book := pivotSource(t, 3000, []string{"Oslo", "Bergen", "Lisbon", "Porto", "Rome", "Zürich", "osaka", "Osaka"},
		xlsx.PivotTable{Sheet: "ByCity", Source: "Data", Rows: []string{"city"}, Values: values},
		xlsx.PivotTable{Sheet: "Nested", Source: "Data", Rows: []string{"region", "city"}, Columns: []string{"year"}, Filters: []string{"paid"},
			Values: []xlsx.PivotValue{{Column: "amount"}}},
		xlsx.PivotTable{Sheet: "Units", Source: "Data", Rows: []string{"year"}, Values: []xlsx.PivotValue{{Column: "units", Func: xlsx.PivotCount}, {Column: "units"}}})
	data := sheetCells(t, book, "Data")
	type acc struct{ vals []float64 }
	by := map[string]*acc{}
	group := func(key string, v string) {
		a := by[key]
		if a == nil {
			a = &acc{}
			by[key] = a
		}
		if v != "" {
			f := 0.0
			fmt.Sscan(v, &f)
			a.vals = append(a.vals, f)
		}
	}
	firstOsaka := ""
	for r := 2; data[fmt.Sprint("A", r)] != "" && firstOsaka == ""; r++ {
		if c := data[fmt.Sprint("B", r)]; strings.EqualFold(c, "osaka") {
			firstOsaka = c
		}
	}
	for r := 2; data[fmt.Sprint("A", r)] != ""; r++ {
		get := func(c string) string { return data[fmt.Sprint(c, r)] }
		// Excel's items ignore case: Osaka and osaka are one, shown as
		// the first came.
		city := get("B")
		if strings.EqualFold(city, "osaka") {
			city = firstOsaka
		}
		group("city="+city, get("E"))
		group("all", get("E"))
		group("rc="+get("A")+"/"+city+"/"+get("C"), get("E"))
	}
	summary := func(vals []float64, f xlsx.PivotFunc) float64 {
		n := float64(len(vals))
		sum, mn, mx := 0.0, math.Inf(1), math.Inf(-1)
		for _, v := range vals {
			sum += v
			mn, mx = min(mn, v), max(mx, v)
		}
		mean := sum / n
		ss := 0.0
		for _, v := range vals {
			ss += (v - mean) * (v - mean)
		}
		switch f {
		case xlsx.PivotSum:
			return sum
		case xlsx.PivotCount, xlsx.PivotCountNums:
			return n
		case xlsx.PivotAverage:
			return mean
		case xlsx.PivotMax:
			return mx
		case xlsx.PivotMin:
			return mn
		case xlsx.PivotStdDev:
			return math.Sqrt(ss / (n - 1))
		}
		return ss / (n - 1)
	}
	near := func(got string, want float64) bool {
		var g float64
		fmt.Sscan(got, &g)
		return math.Abs(g-want) <= 1e-9*max(1, math.Abs(want))
	}
	pv := sheetCells(t, book, "ByCity")
	wantOrder := []string{"Bergen", "Lisbon", firstOsaka, "Oslo", "Porto", "Rome", "Zürich"}
	// Several values: a row naming "Values" above their captions.
	if pv["B3"] != "Values" || pv["A4"] != "Row Labels" || pv["B4"] != "Sum of amount" || pv["I4"] != "Var of amount" {
		t.Errorf("header: %q %q %q %q", pv["B3"], pv["A4"], pv["B4"], pv["I4"])
	}
	for i, city := range append(wantOrder, "Grand Total") {
		row := 5 + i
		if pv[fmt.Sprint("A", row)] != city {
			t.Fatalf("row %d: %q, want %q", row, pv[fmt.Sprint("A", row)], city)
		}
		key := "city=" + city
		if city == "Grand Total" {
			key = "all"
		}
		for j, f := range funcs {
			col := xlsx.ColumnName(2 + j)
			if want := summary(by[key].vals, f); !near(pv[fmt.Sprint(col, row)], want) {
				t.Errorf("%s %v: %s, want %v", city, f, pv[fmt.Sprint(col, row)], want)
			}
		}
	}
	nested := sheetCells(t, book, "Nested")
	if nested["A1"] != "paid" || nested["B1"] != "(All)" || nested["A3"] != "Sum of amount" || nested["B3"] != "Column Labels" ||
		nested["A4"] != "Row Labels" || nested["B4"] != "2020" || nested["F4"] != "Grand Total" || nested["A5"] != "East" || nested["A6"] != firstOsaka {
		t.Errorf("nested header: %v", nested)
	}
	for r := 5; nested[fmt.Sprint("A", r)] != "Grand Total"; r++ {
		label := nested[fmt.Sprint("A", r)]
		region := map[string]bool{"East": true, "Middle": true, "North": true, "South": true}[label]
		if region {
			continue
		}
		// The region above this city's rows.
		reg := ""
		for q := r; q >= 5; q-- {
			if l := nested[fmt.Sprint("A", q)]; map[string]bool{"East": true, "Middle": true, "North": true, "South": true}[l] {
				reg = l
				break
			}
		}
		for y := range 4 {
			col := xlsx.ColumnName(2 + y)
			a := by[fmt.Sprintf("rc=%s/%s/%d", reg, label, 2020+y)]
			got := nested[fmt.Sprint(col, r)]
			if a == nil || len(a.vals) == 0 {
				if got != "" && got != "0" {
					t.Errorf("%s/%s %d: %q, want empty", reg, label, 2020+y, got)
				}
				continue
			}
			if !near(got, summary(a.vals, xlsx.PivotSum)) {
				t.Errorf("%s/%s %d: %s, want %v", reg, label, 2020+y, got, summary(a.vals, xlsx.PivotSum))
			}
		}
	}
	units := sheetCells(t, book, "Units")
	if units["A4"] != "Row Labels" || units["B4"] != "Count of units" || units["C4"] != "Sum of units" || units["A9"] != "Grand Total" || units["B9"] != "3000" {
		t.Errorf("units: %v", units)
	}
}

// TestPivotLayouts: the outline layout puts each row field in a column
// of its own, an outer item on its row with its subtotals; the tabular
// layout puts the inner items on their outer item's row and a subtotal
// row under each group; both name the fields in the header, and their
// numbers are the compact layout's.
func TestPivotLayouts(t *testing.T) {
	var pivots []xlsx.PivotTable
	for _, l := range []xlsx.PivotLayout{xlsx.PivotCompact, xlsx.PivotOutline, xlsx.PivotTabular} {
		pivots = append(pivots, xlsx.PivotTable{Sheet: fmt.Sprint("L", l), Source: "Data", Layout: l, Rows: []string{"region", "city"},
			Columns: []string{"year"}, Values: []xlsx.PivotValue{{Column: "amount"}}})
	}
	book := pivotSource(t, 500, []string{"Oslo", "Bergen", "Lisbon"}, pivots...)
	compact, outline, tabular := sheetCells(t, book, "L0"), sheetCells(t, book, "L1"), sheetCells(t, book, "L2")
	if outline["A4"] != "region" || outline["B4"] != "city" || outline["C3"] != "year" || outline["A5"] != "North" || outline["B6"] != "Bergen" ||
		outline["C5"] != compact["B5"] || outline["C6"] != compact["B6"] {
		t.Errorf("outline: %v\ncompact: %v", outline, compact)
	}
	if tabular["A5"] != "North" || tabular["B5"] != "Bergen" || tabular["B6"] != "Oslo" || tabular["A6"] != "" || tabular["A7"] != "North Total" ||
		tabular["C7"] != compact["B5"] || tabular["C5"] != compact["B6"] || tabular["A8"] != "South" || tabular["A10"] != "Grand Total" {
		t.Errorf("tabular: %v\ncompact: %v", tabular, compact)
	}
}

// TestPivotErrors: what cannot be written is refused by name: a column
// the header lacks (when the header comes), a pivot declared after the
// source's rows, too many distinct keys, a source never added.
func TestPivotErrors(t *testing.T) {
	var buf bytes.Buffer
	w, _ := xlsx.NewWriter(&buf, xlsx.Options{})
	w.AddPivotTable(xlsx.PivotTable{Source: "Data", Rows: []string{"nope"}, Values: []xlsx.PivotValue{{Column: "n"}}})
	s, _ := w.AddSheet("Data", xlsx.SheetOptions{})
	if err := s.WriteRow([]xlsx.Cell{xlsx.String("n")}); !errors.Is(err, xlsx.ErrNoColumn) || !errors.Is(err, xlsx.ErrPivot) || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("a missing column: %v", err)
	}
	buf.Reset()
	w, _ = xlsx.NewWriter(&buf, xlsx.Options{})
	s, _ = w.AddSheet("Data", xlsx.SheetOptions{})
	s.WriteRow([]xlsx.Cell{xlsx.String("k"), xlsx.String("n")})
	if err := w.AddPivotTable(xlsx.PivotTable{Source: "Data", Rows: []string{"k"}, Values: []xlsx.PivotValue{{Column: "n"}}}); !errors.Is(err, xlsx.ErrPivot) {
		t.Errorf("declared after the rows: %v", err)
	}
	buf.Reset()
	w, _ = xlsx.NewWriter(&buf, xlsx.Options{})
	w.AddPivotTable(xlsx.PivotTable{Source: "Data", Rows: []string{"k"}, Values: []xlsx.PivotValue{{Column: "n"}}, MaxKeys: 100})
	s, _ = w.AddSheet("Data", xlsx.SheetOptions{})
	s.WriteRow([]xlsx.Cell{xlsx.String("k"), xlsx.String("n")})
	var err error
	for i := 0; err == nil && i < 1000; i++ {
		err = s.WriteRow([]xlsx.Cell{xlsx.Int(int64(i)), xlsx.Int(1)})
	}
	var ce *xlsx.CellError
	if !errors.Is(err, xlsx.ErrPivotKeys) || !errors.As(err, &ce) || ce.Row != 102 {
		t.Errorf("past MaxKeys: %v", err)
	}
	buf.Reset()
	w, _ = xlsx.NewWriter(&buf, xlsx.Options{})
	w.AddPivotTable(xlsx.PivotTable{Source: "Missing", Rows: []string{"k"}, Values: []xlsx.PivotValue{{Column: "n"}}})
	w.AddSheet("Data", xlsx.SheetOptions{})
	if err := w.Close(); !errors.Is(err, xlsx.ErrPivot) || !strings.Contains(err.Error(), "Missing") {
		t.Errorf("no source: %v", err)
	}
	for _, p := range []xlsx.PivotTable{
		{Rows: []string{"k"}, Values: []xlsx.PivotValue{{Column: "n"}}},
		{Source: "D", Values: []xlsx.PivotValue{{Column: "n"}}},
		{Source: "D", Rows: []string{"k"}},
		{Source: "D", Rows: []string{"k"}, Columns: manyFields(65), Values: []xlsx.PivotValue{{Column: "n"}}},
		{Source: "D", Rows: []string{"k", "k"}, Values: []xlsx.PivotValue{{Column: "n"}}},
		{Source: "D", Rows: []string{"k"}, Values: []xlsx.PivotValue{{Column: "n"}}, Layout: 9},
	} {
		w, _ := xlsx.NewWriter(&buf, xlsx.Options{})
		if err := w.AddPivotTable(p); !errors.Is(err, xlsx.ErrPivot) {
			t.Errorf("%+v: %v", p, err)
		}
	}
}

// TestPivotReaders: the pivots are read back by openpyxl (table and
// cache), pass openxml-audit, and LibreOffice, computing them again from
// the source when it re-saves the workbook, keeps them with the same
// values; pandas' group-by of the source equals their cells.
func TestPivotReaders(t *testing.T) {
	python := pyread.Python(t)
	book := pivotSource(t, 2000, []string{"Oslo", "Bergen", "Lisbon", "Porto", "Rome", "Zürich", "Osaka"},
		xlsx.PivotTable{Sheet: "ByCity", Source: "Data", Rows: []string{"city"}, Filters: []string{"paid"},
			Values: []xlsx.PivotValue{{Column: "amount"}, {Column: "amount", Func: xlsx.PivotAverage, NumFormat: "#,##0.00"}, {Column: "amount", Func: xlsx.PivotStdDev}}},
		xlsx.PivotTable{Sheet: "ByYear", Source: "Data", Rows: []string{"region"}, Columns: []string{"year"}, Values: []xlsx.PivotValue{{Column: "amount", Func: xlsx.PivotMax}}},
		xlsx.PivotTable{Sheet: "Tabular", Source: "Data", Rows: []string{"region", "city"}, Columns: []string{"paid"}, Layout: xlsx.PivotTabular,
			Values: []xlsx.PivotValue{{Column: "amount"}, {Column: "units", Func: xlsx.PivotCount}}},
		xlsx.PivotTable{Sheet: "Outline", Source: "Data", Rows: []string{"region", "city"}, Layout: xlsx.PivotOutline, Values: []xlsx.PivotValue{{Column: "amount"}}},
		xlsx.PivotTable{Sheet: "TwoCols", Source: "Data", Rows: []string{"region"}, Columns: []string{"year", "paid"}, Values: []xlsx.PivotValue{{Column: "amount"}}},
		xlsx.PivotTable{Sheet: "Chosen", Source: "Data", Rows: []string{"region", "city"}, Filters: []string{"year"}, FilterItems: map[string]xlsx.Cell{"year": xlsx.Int(2021)},
			NoSubtotals: []string{"region"}, HideValuesRow: true, GrandTotals: xlsx.PivotTotalsRow, Values: []xlsx.PivotValue{{Column: "amount"}, {Column: "units", Func: xlsx.PivotCount}}})
	dir := t.TempDir()
	path := filepath.Join(dir, "pivots.xlsx")
	os.WriteFile(path, book, 0o644)
	res := pyread.Read(t, path)[path]
	if len(res.Audit) > 0 || res.Error != "" {
		t.Errorf("openxml-audit: %v %s", res.Audit, res.Error)
	}
	check := `import sys, json, openpyxl, pandas as pd
path = sys.argv[1]
wb = openpyxl.load_workbook(path)
out = {"pivots": {ws.title: [(p.name, p.location.ref, [d.name for d in p.dataFields], len(p.cache.cacheFields)) for p in ws._pivots] for ws in wb.worksheets}}
df = pd.read_excel(path, sheet_name="Data", engine="openpyxl")
g = df.groupby("city")["amount"].agg(["sum", "mean", "std"])
cells = {r[0].value: [c.value for c in r[1:4]] for r in wb["ByCity"].iter_rows(min_row=5) if r[0].value}
bad = []
for city, row in g.iterrows():
    got = cells.get(city)
    for want, have in zip([row["sum"], row["mean"], row["std"]], got or [None]*3):
        if have is None or abs(have - want) > 1e-9 * max(1, abs(want)):
            bad.append([city, want, have])
total = cells.get("Grand Total")
if abs(total[0] - df["amount"].sum()) > 1e-9 * abs(df["amount"].sum()):
    bad.append(["total", df["amount"].sum(), total[0]])
m = df.groupby(["region", "year"])["amount"].max()
ws = wb["ByYear"]
years = [c.value for c in ws[4][1:5]]
for r in ws.iter_rows(min_row=5):
    if r[0].value in (None, "Grand Total"):
        continue
    for y, c in zip(years, r[1:5]):
        want = m.get((r[0].value, y))
        if want is not None and abs(c.value - want) > 1e-9 * max(1, abs(want)):
            bad.append([r[0].value, y, want, c.value])
out["bad"] = bad
print(json.dumps(out))`
	got, err := exec.Command(python, "-c", check, path).Output()
	if err != nil {
		var ee *exec.ExitError
		errors.As(err, &ee)
		t.Fatalf("%v %s", err, ee.Stderr)
	}
	if !strings.Contains(string(got), `"ByCity": [["PivotTable1", "A3:D12", ["Sum of amount", "Average of amount", "StdDev of amount"], 6]]`) ||
		!strings.Contains(string(got), `"ByYear": [["PivotTable2"`) || !strings.Contains(string(got), `"Tabular": [["PivotTable3"`) ||
		!strings.Contains(string(got), `"Outline": [["PivotTable4"`) || !strings.Contains(string(got), `"TwoCols": [["PivotTable5"`) ||
		!strings.Contains(string(got), `"Chosen": [["PivotTable6"`) || !strings.Contains(string(got), `"bad": []`) {
		t.Errorf("openpyxl and pandas: %s", got)
	}
	resaved := pyread.Resave(t, dir, path)[0]
	// Two column fields: LibreOffice's own computation has every number
	// of ours (its layout is its own).
	theirs := map[string]int{}
	for _, v := range sheetCells(t, mustRead(t, resaved), "TwoCols") {
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			theirs[strconv.FormatFloat(f, 'g', 10, 64)]++
		}
	}
	for ref, v := range sheetCells(t, book, "TwoCols") {
		if f, err := strconv.ParseFloat(v, 64); err == nil && ref[0] != 'A' && theirs[strconv.FormatFloat(f, 'g', 10, 64)] == 0 {
			t.Errorf("LibreOffice's TwoCols lacks %s = %s", ref, v)
		}
	}
	// The filter's chosen item: LibreOffice's grand total of the pivot,
	// computed over 2021's rows alone, is ours.
	ourChosen, loChosen := sheetCells(t, book, "Chosen"), sheetCells(t, mustRead(t, resaved), "Chosen")
	grand := func(cells map[string]string) string {
		for ref, v := range cells {
			if ref[0] == 'A' && (v == "Grand Total" || v == "Total Result") {
				return cells["B"+ref[1:]]
			}
		}
		return ""
	}
	if g, lo := grand(ourChosen), grand(loChosen); g == "" || !twinNear(g, lo) {
		t.Errorf("the filtered pivot's grand total: ours %q, LibreOffice's %q\n%v\n%v", g, lo, ourChosen, loChosen)
	}
	again := sheetCells(t, mustRead(t, resaved), "ByCity")
	ours := sheetCells(t, book, "ByCity")
	for r := 5; r < 12; r++ {
		// LibreOffice lays the pivot out its own way: its rows hold the
		// same cities and sums.
		label, sum := ours[fmt.Sprint("A", r)], ours[fmt.Sprint("B", r)]
		found := false
		for ref, v := range again {
			if strings.HasPrefix(ref, "A") && v == label {
				if again["B"+ref[1:]] == sum {
					found = true
				}
			}
		}
		if !found && label != "" {
			t.Errorf("LibreOffice's pivot lacks %s = %s: %v", label, sum, again)
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPivotCorpusRead: the corpus's workbooks with pivot tables (written
// by Excel, ClosedXML, POI, SheetJS, umya and others) read cell by cell,
// every sheet; the one whose sheet has no part (ClosedXML's
// SheetsWithoutRelId) fails by that sheet's name and its others read.
func TestPivotCorpusRead(t *testing.T) {
	corpus := testenv.Corpus(t)
	var found int
	filepath.WalkDir(corpus, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".xlsx") {
			return nil
		}
		book, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		zr, err := zip.NewReader(bytes.NewReader(book), int64(len(book)))
		if err != nil || !slices.ContainsFunc(zr.File, func(f *zip.File) bool { return strings.HasPrefix(f.Name, "xl/pivotTables/pivotTable") }) {
			return nil
		}
		found++
		wb, err := xlsx.NewReader(bytes.NewReader(book), int64(len(book)), xlsx.ReadOptions{})
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		cells := 0
		for _, s := range wb.Sheets() {
			if s.Kind != xlsx.SheetKindWorksheet {
				continue
			}
			rows, err := wb.Rows(context.Background(), s.Index)
			if err == nil {
				for rows.Next() {
					cells += len(rows.Row().Cells)
				}
				err = rows.Err()
				rows.Close()
			}
			if err != nil && !(strings.HasSuffix(path, "SheetsWithoutRelId.xlsx") && strings.Contains(err.Error(), "missing part")) {
				t.Errorf("%s, sheet %q: %v", path, s.Name, err)
			}
		}
		if cells == 0 {
			t.Errorf("%s: no cells", path)
		}
		return nil
	})
	if found < 20 {
		t.Errorf("%d workbooks with pivot tables in the corpus, want 20", found)
	}
}

// TestPivotHeaderRepeats: a header that repeats a name gives the cache
// fields names of their own (Excel refuses two alike), the declared field
// naming the first; a concurrent source is refused.
func TestPivotHeaderRepeats(t *testing.T) {
	var buf bytes.Buffer
	w, _ := xlsx.NewWriter(&buf, xlsx.Options{})
	w.AddPivotTable(xlsx.PivotTable{Source: "Data", Rows: []string{"k"}, Values: []xlsx.PivotValue{{Column: "n"}}})
	s, _ := w.AddSheet("Data", xlsx.SheetOptions{})
	s.WriteRow([]xlsx.Cell{xlsx.String("k"), xlsx.String("n"), xlsx.String("N"), xlsx.String("n")})
	s.WriteRow([]xlsx.Cell{xlsx.String("a"), xlsx.Int(1), xlsx.Int(10), xlsx.Int(100)})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	zr, _ := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	var def []byte
	for _, f := range zr.File {
		if f.Name == "xl/pivotCache/pivotCacheDefinition1.xml" {
			rc, _ := f.Open()
			def, _ = io.ReadAll(rc)
		}
	}
	for _, want := range []string{`name="k"`, `name="n"`, `name="N2"`, `name="n3"`} {
		if !bytes.Contains(def, []byte(want)) {
			t.Errorf("cache fields lack %s: %s", want, def)
		}
	}
	if got := sheetCells(t, buf.Bytes(), "Pivot"); got["B4"] != "1" {
		t.Errorf("the first n: %v", got)
	}
	w, _ = xlsx.NewWriter(&buf, xlsx.Options{})
	w.AddPivotTable(xlsx.PivotTable{Source: "Data", Rows: []string{"k"}, Values: []xlsx.PivotValue{{Column: "n"}}})
	if _, err := w.AddConcurrentSheet("Data", xlsx.SheetOptions{}); !errors.Is(err, xlsx.ErrPivot) {
		t.Errorf("a concurrent source: %v", err)
	}
}

// TestPivotRecords: with Records the cache holds a record a row (the
// axis fields as indexes of their items, the others as values), read by
// openpyxl and passed by the validator; its spool is gone after Close
// and after Abort.
func TestPivotRecords(t *testing.T) {
	python := pyread.Python(t)
	spool := t.TempDir()
	var buf bytes.Buffer
	w, _ := xlsx.NewWriter(&buf, xlsx.Options{TempDir: spool})
	w.AddPivotTable(xlsx.PivotTable{Source: "Data", Rows: []string{"k"}, Values: []xlsx.PivotValue{{Column: "n"}}, Records: true})
	s, _ := w.AddSheet("Data", xlsx.SheetOptions{})
	s.WriteRow([]xlsx.Cell{xlsx.String("k"), xlsx.String("n"), xlsx.String("note")})
	for i := range 3000 {
		s.WriteRow([]xlsx.Cell{xlsx.String([]string{"a", "b", "c"}[i%3]), xlsx.Int(int64(i)), xlsx.String("<&>")})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(spool); len(left) != 0 {
		t.Errorf("left in TempDir: %v", left)
	}
	path := filepath.Join(t.TempDir(), "records.xlsx")
	os.WriteFile(path, buf.Bytes(), 0o644)
	if res := pyread.Read(t, path)[path]; len(res.Audit) > 0 || res.Error != "" {
		t.Errorf("openxml-audit: %v %s", res.Audit, res.Error)
	}
	check := `import sys, openpyxl
p = openpyxl.load_workbook(sys.argv[1])["Pivot"]._pivots[0]
r = p.cache.records
print(r.count, len(r.r), " ".join(type(f).__name__ + ":" + str(f.v) for f in r.r[1]._fields))`
	got, err := exec.Command(python, "-c", check, path).CombinedOutput()
	if err != nil || strings.TrimSpace(string(got)) != "3000 3000 Index:1 Number:1.0 Text:<&>" {
		t.Errorf("openpyxl's records: %v %s", err, got)
	}
	w, _ = xlsx.NewWriter(io.Discard, xlsx.Options{TempDir: spool})
	w.AddPivotTable(xlsx.PivotTable{Source: "Data", Rows: []string{"k"}, Values: []xlsx.PivotValue{{Column: "n"}}, Records: true})
	s, _ = w.AddSheet("Data", xlsx.SheetOptions{})
	s.WriteRow([]xlsx.Cell{xlsx.String("k"), xlsx.String("n")})
	s.WriteRow([]xlsx.Cell{xlsx.String("a"), xlsx.Int(1)})
	w.Abort()
	if left, _ := os.ReadDir(spool); len(left) != 0 {
		t.Errorf("left in TempDir after Abort: %v", left)
	}
}

// TestPivotColumnFields: two column fields nest as two rows do: an outer
// item over its inner items' columns and its total's column after them,
// the Grand Total column last; with two values each column of items
// repeats for both. The cells are the group-by of the rows, computed
// here independently.
func TestPivotColumnFields(t *testing.T) {
	book := pivotSource(t, 1500, []string{"Oslo", "Bergen", "Lisbon", "Rome"},
		xlsx.PivotTable{Sheet: "One", Source: "Data", Rows: []string{"region"}, Columns: []string{"year", "paid"}, Values: []xlsx.PivotValue{{Column: "amount"}}},
		xlsx.PivotTable{Sheet: "Two", Source: "Data", Rows: []string{"region"}, Columns: []string{"year", "paid"}, Layout: xlsx.PivotTabular,
			Values: []xlsx.PivotValue{{Column: "amount"}, {Column: "units", Func: xlsx.PivotCount}}})
	data := sheetCells(t, book, "Data")
	sum, count := map[string]float64{}, map[string]float64{}
	for r := 2; data[fmt.Sprint("A", r)] != ""; r++ {
		get := func(c string) string { return data[fmt.Sprint(c, r)] }
		var a float64
		fmt.Sscan(get("E"), &a)
		for _, reg := range []string{get("A"), ""} {
			for _, col := range []string{get("C") + "/" + get("D"), get("C") + "/", ""} {
				sum[reg+"|"+col] += a
				if get("F") != "" {
					count[reg+"|"+col]++
				}
			}
		}
	}
	near := func(got string, want float64) bool {
		var g float64
		fmt.Sscan(got, &g)
		return math.Abs(g-want) <= 1e-9*max(1, math.Abs(want))
	}
	one := sheetCells(t, book, "One")
	if one["A3"] != "Sum of amount" || one["B3"] != "Column Labels" || one["B4"] != "2020" || one["C4"] != "" || one["D4"] != "2020 Total" ||
		one["A5"] != "Row Labels" || one["B5"] != "FALSE" || one["C5"] != "TRUE" || one["E4"] != "2021" || one["N4"] != "Grand Total" || one["A6"] != "North" {
		t.Fatalf("header: %v", one)
	}
	// Each column's key from the header rows: year (carried right) and paid.
	keys := map[string]string{}
	year := ""
	for c := 2; c <= 14; c++ {
		col := xlsx.ColumnName(c)
		switch h := one[col+"4"]; {
		case h == "Grand Total":
			keys[col] = ""
		case strings.HasSuffix(h, " Total"):
			keys[col] = strings.TrimSuffix(h, " Total") + "/"
		default:
			if h != "" {
				year = h
			}
			keys[col] = year + "/" + one[col+"5"]
		}
	}
	for r := 6; r <= 8; r++ {
		reg := one[fmt.Sprint("A", r)]
		if reg == "Grand Total" {
			reg = ""
		}
		for col, key := range keys {
			if want := sum[reg+"|"+key]; !near(one[fmt.Sprint(col, r)], want) {
				t.Errorf("One %s%d (%s %s): %s, want %v", col, r, reg, key, one[fmt.Sprint(col, r)], want)
			}
		}
	}
	two := sheetCells(t, book, "Two")
	if two["A3"] != "" || two["B3"] != "year" || two["C3"] != "paid" || two["B4"] != "2020" || two["F4"] != "2020 Sum of amount" || two["G4"] != "2020 Count of units" ||
		two["B5"] != "FALSE" || two["D5"] != "TRUE" || two["A6"] != "region" || two["B6"] != "Sum of amount" || two["C6"] != "Count of units" ||
		two["Z4"] != "Total Sum of amount" || two["AA4"] != "Total Count of units" {
		t.Fatalf("two values' header: %v", two)
	}
	for r := 7; r <= 9; r++ {
		reg := two[fmt.Sprint("A", r)]
		if reg == "Grand Total" {
			reg = ""
		}
		for c := 2; c <= 26; c += 2 {
			col := xlsx.ColumnName(c)
			key := keys[xlsx.ColumnName(2+(c-2)/2)]
			if !near(two[fmt.Sprint(col, r)], sum[reg+"|"+key]) || !near(two[fmt.Sprint(xlsx.ColumnName(c+1), r)], count[reg+"|"+key]) {
				t.Errorf("Two %s%d (%s %s): %s %s, want %v %v", col, r, reg, key, two[fmt.Sprint(col, r)], two[fmt.Sprint(xlsx.ColumnName(c+1), r)], sum[reg+"|"+key], count[reg+"|"+key])
			}
		}
	}
	def := part(t, book, "xl/pivotTables/pivotTable1.xml")
	if !strings.Contains(def, `<colFields count="2"><field x="2"/><field x="3"/></colFields><colItems count="13"><i><x/><x/></i><i r="1"><x v="1"/></i><i t="default"><x/></i><i><x v="1"/><x/></i>`) ||
		!strings.Contains(def, `<i t="grand"><x/></i></colItems>`) || !strings.Contains(def, `firstHeaderRow="1" firstDataRow="3" firstDataCol="1"`) {
		t.Errorf("definition: %s", def)
	}
}

// manyFields names n fields: c0, c1...
func manyFields(n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprint("c", i))
	}
	return out
}

// TestPivotTemplateTwins: a template holding this writer's pivots over a
// header alone (a designer's layout: filters, two column fields, every
// layout, records saved), filled with rows, has the same pivot cells as
// a workbook written with those rows directly; the cache and records
// list every row, and openxml-audit finds nothing.
func TestPivotTemplateTwins(t *testing.T) {
	pivots := func() []xlsx.PivotTable {
		return []xlsx.PivotTable{
			{Sheet: "Compact", Source: "Data", Rows: []string{"region", "city"}, Columns: []string{"year"}, Filters: []string{"paid"}, Values: []xlsx.PivotValue{{Column: "amount"}}},
			{Sheet: "Cols", Source: "Data", Rows: []string{"city"}, Columns: []string{"year", "paid"}, Layout: xlsx.PivotOutline, Records: true,
				Values: []xlsx.PivotValue{{Column: "amount", Func: xlsx.PivotAverage}, {Column: "units", Func: xlsx.PivotCount}}},
			{Sheet: "Tab", Source: "Data", Rows: []string{"region", "city"}, Layout: xlsx.PivotTabular, GrandTotals: xlsx.PivotTotalsRow, Values: []xlsx.PivotValue{{Column: "amount", Func: xlsx.PivotMax}}},
		}
	}
	direct := pivotSource(t, 800, []string{"Oslo", "Bergen", "Lisbon", "Rome"}, pivots()...)
	// The template: the same pivots over the header alone.
	var tpl bytes.Buffer
	w, _ := xlsx.NewWriter(&tpl, xlsx.Options{})
	for _, p := range pivots() {
		if err := w.AddPivotTable(p); err != nil {
			t.Fatal(err)
		}
	}
	s, _ := w.AddSheet("Data", xlsx.SheetOptions{})
	s.WriteRow([]xlsx.Cell{xlsx.String("region"), xlsx.String("city"), xlsx.String("year"), xlsx.String("paid"), xlsx.String("amount"), xlsx.String("units")})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "designer.xlsx")
	os.WriteFile(path, tpl.Bytes(), 0o644)
	// The rows of the direct workbook, filled into the template.
	var rows [][]xlsx.Cell
	wb, _ := xlsx.NewReader(bytes.NewReader(direct), int64(len(direct)), xlsx.ReadOptions{})
	it, _ := wb.Rows(context.Background(), 0)
	for it.Next() {
		if it.Row().Num > 1 {
			var cells []xlsx.Cell
			for _, c := range it.Row().Cells {
				for len(cells) < c.Col()-1 {
					cells = append(cells, xlsx.Cell{})
				}
				switch c.Type() {
				case xlsx.TypeNumber:
					cells = append(cells, xlsx.Float(c.Float()))
				case xlsx.TypeBool:
					cells = append(cells, xlsx.Bool(c.Bool()))
				default:
					cells = append(cells, xlsx.String(c.String()))
				}
			}
			rows = append(rows, cells)
		}
	}
	it.Close()
	filled := fillTemplate(t, path, "Data", xlsx.TemplateOptions{}, nil, rows)
	for _, sheet := range []string{"Compact", "Cols", "Tab"} {
		want, got := sheetCells(t, direct, sheet), sheetCells(t, filled, sheet)
		if !maps.Equal(want, got) {
			t.Errorf("%s: filled template\n%v\nwritten directly\n%v", sheet, got, want)
		}
	}
	if def := part(t, filled, "xl/pivotCache/pivotCacheDefinition2.xml"); !strings.Contains(def, `recordCount="800"`) || !strings.Contains(def, `<worksheetSource ref="A1:F801" sheet="Data"/>`) {
		t.Errorf("cache: %.700s", def)
	}
	if rec := part(t, filled, "xl/pivotCache/pivotCacheRecords2.xml"); strings.Count(rec, "<r>") != 800 {
		t.Errorf("records: %d", strings.Count(rec, "<r>"))
	}
	auditBook(t, "twins.xlsx", filled)
}

// TestPivotFilterItem: a filter showing one item leaves the other rows
// out of the values (the group-by of the paid rows alone, computed here)
// and names the item; an item no row has is shown, over no values;
// NoSubtotals leaves an outer item's row empty.
func TestPivotFilterItem(t *testing.T) {
	book := pivotSource(t, 1000, []string{"Oslo", "Bergen", "Lisbon", "Rome"},
		xlsx.PivotTable{Sheet: "Paid", Source: "Data", Rows: []string{"region", "city"}, Filters: []string{"paid"}, NoSubtotals: []string{"region"},
			FilterItems: map[string]xlsx.Cell{"paid": xlsx.Bool(true)}, Values: []xlsx.PivotValue{{Column: "amount"}}},
		xlsx.PivotTable{Sheet: "Nobody", Source: "Data", Rows: []string{"city"}, Filters: []string{"region"},
			FilterItems: map[string]xlsx.Cell{"region": xlsx.String("west")}, Values: []xlsx.PivotValue{{Column: "amount"}}})
	data := sheetCells(t, book, "Data")
	want := map[string]float64{}
	for r := 2; data[fmt.Sprint("A", r)] != ""; r++ {
		if data[fmt.Sprint("D", r)] != "TRUE" {
			continue
		}
		var a float64
		fmt.Sscan(data[fmt.Sprint("E", r)], &a)
		want[data[fmt.Sprint("B", r)]] += a
		want["Grand Total"] += a
	}
	paid := sheetCells(t, book, "Paid")
	if paid["A1"] != "paid" || paid["B1"] != "TRUE" || paid["A4"] != "North" || paid["B4"] != "" {
		t.Fatalf("paid: %v", paid)
	}
	n := 0
	for r := 4; paid[fmt.Sprint("A", r)] != ""; r++ {
		label := paid[fmt.Sprint("A", r)]
		if label == "North" || label == "South" {
			continue
		}
		var got float64
		fmt.Sscan(paid[fmt.Sprint("B", r)], &got)
		if math.Abs(got-want[label]) > 1e-9*max(1, math.Abs(want[label])) {
			t.Errorf("%s: %v, want %v", label, got, want[label])
		}
		n++
	}
	if n != len(want) {
		t.Errorf("%d rows, want %d: %v", n, len(want), paid)
	}
	if def := part(t, book, "xl/pivotTables/pivotTable1.xml"); !strings.Contains(def, `<pageField fld="3" item="1" hier="-1"/>`) || !strings.Contains(def, `defaultSubtotal="0"`) {
		t.Errorf("definition: %s", def)
	}
	nobody := sheetCells(t, book, "Nobody")
	if nobody["B1"] != "west" || nobody["A4"] != "Grand Total" || nobody["B4"] != "" {
		t.Errorf("an item no row has: %v", nobody)
	}
	if def := part(t, book, "xl/pivotCache/pivotCacheDefinition2.xml"); !strings.Contains(def, `<s v="west"/>`) {
		t.Errorf("cache: %s", def)
	}
}

// twinNear compares two cells' numbers to 1e-9 relative.
func twinNear(a, b string) bool {
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	return errA == nil && errB == nil && math.Abs(x-y) <= 1e-9*max(1, math.Abs(y))
}
