package xlsx_test

import (
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

func row(v ...*pyread.Value) []*pyread.Value { return v }

type readbackCase struct {
	name  string
	opts  xlsx.Options
	build func(t *testing.T, w *xlsx.Writer)
	// want maps sheet names to the rows openpyxl and calamine must read.
	want map[string][][]*pyread.Value
	// check inspects the rest of what the readers saw.
	check func(t *testing.T, r *pyread.Result)
	// libreOffice lists cells that LibreOffice's copy holds differently,
	// by LibreOffice's own semantics (it calculates formulas, for one).
	libreOffice map[string]map[string]*pyread.Value
}

// concurrentRows makes each concurrent sheet a few chunks long.
const concurrentRows = 2500

var leapDay = time.Date(2024, 2, 29, 13, 45, 30, 0, time.UTC)

var readbackCases = []readbackCase{
	{
		name: "numbers",
		build: func(t *testing.T, w *xlsx.Writer) {
			sh := addSheet(t, w, "Numbers", xlsx.SheetOptions{})
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.Int(0), xlsx.Int(-42), xlsx.Int(1 << 53), xlsx.Uint(18446744073709551615 >> 11)}))
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.Float(0.1), xlsx.Float(-1.5e-300), xlsx.Float(1.7976931348623157e308), xlsx.Float(123456789.125)}))
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.Float32(0.1), xlsx.Number(int8(-8)), xlsx.Number(uint16(65535)), xlsx.Number(float32(2.5))}))
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.Float(math.Copysign(0, -1)), xlsx.Float(1e15), xlsx.Float(1e-5), xlsx.Float(4.9e-324)}))
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.Decimal("-1234.50"), xlsx.Decimal("0.05000000000000000000"), xlsx.Decimal("-0.00"),
				xlsx.Decimal("999999999999999"), xlsx.Formula("D5/3").WithValue(xlsx.Decimal("333333333333333.0"))}))
		},
		want: map[string][][]*pyread.Value{"Numbers": {
			row(pyread.Num(0), pyread.Num(-42), pyread.Num(1<<53), pyread.Num(18446744073709551615>>11)),
			row(pyread.Num(0.1), pyread.Num(-1.5e-300), pyread.Num(1.7976931348623157e308), pyread.Num(123456789.125)),
			row(pyread.Num(0.1), pyread.Num(-8), pyread.Num(65535), pyread.Num(2.5)),
			row(pyread.Num(0), pyread.Num(1e15), pyread.Num(1e-5), pyread.Num(4.9e-324)),
			row(pyread.Num(-1234.5), pyread.Num(0.05), pyread.Num(0), pyread.Num(999999999999999), pyread.Num(333333333333333)),
		}},
	},
	{
		name: "strings shared, inline and rich",
		build: func(t *testing.T, w *xlsx.Writer) {
			sh := addSheet(t, w, "Text", xlsx.SheetOptions{})
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.String("plain"), xlsx.String("plain"), xlsx.String(" lead and trail "), xlsx.String("")}))
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.String("Tom & Jerry <b>"), xlsx.String("中文字符测试"), xlsx.String("line1\nline2\ttab"), xlsx.Bytes([]byte("bytes"))}))
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.Rich([]xlsx.RichRun{{Text: "bold", Font: xlsx.Font{Bold: true}}, {Text: " and "}, {Text: "red", Font: xlsx.Font{Color: "FF0000", Italic: true}}})}))
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.String("😀 beyond the BMP"), xlsx.String("quote \" and apostrophe '")}))
		},
		want: map[string][][]*pyread.Value{"Text": {
			row(pyread.Str("plain"), pyread.Str("plain"), pyread.Str(" lead and trail "), pyread.Str("")),
			row(pyread.Str("Tom & Jerry <b>"), pyread.Str("中文字符测试"), pyread.Str("line1\nline2\ttab"), pyread.Str("bytes")),
			row(pyread.Str("bold and red")),
			row(pyread.Str("😀 beyond the BMP"), pyread.Str("quote \" and apostrophe '")),
		}},
	},
	{
		name: "strings always inline",
		opts: xlsx.Options{Strings: xlsx.StringsInline},
		build: func(t *testing.T, w *xlsx.Writer) {
			sh := addSheet(t, w, "Inline", xlsx.SheetOptions{})
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.String("a"), xlsx.String("a"), xlsx.Rich([]xlsx.RichRun{{Text: "x", Font: xlsx.Font{Bold: true}}})}))
		},
		want: map[string][][]*pyread.Value{"Inline": {row(pyread.Str("a"), pyread.Str("a"), pyread.Str("x"))}},
	},
	{
		name: "shared strings past the budget go inline",
		opts: xlsx.Options{SharedStringsBudget: 1000},
		build: func(t *testing.T, w *xlsx.Writer) {
			sh := addSheet(t, w, "Budget", xlsx.SheetOptions{})
			for i := range 50 {
				must(t, sh.WriteRow([]xlsx.Cell{xlsx.String("first"), xlsx.String("unique " + strconv.Itoa(i))}))
			}
		},
		want: map[string][][]*pyread.Value{"Budget": func() (rows [][]*pyread.Value) {
			for i := range 50 {
				rows = append(rows, row(pyread.Str("first"), pyread.Str("unique "+strconv.Itoa(i))))
			}
			return rows
		}()},
	},
	{
		name: "booleans errors blanks",
		build: func(t *testing.T, w *xlsx.Writer) {
			sh := addSheet(t, w, "Misc", xlsx.SheetOptions{})
			yellow := style(t, w, xlsx.Style{Fill: xlsx.Fill{Pattern: xlsx.PatternSolid, Color: "FFFF00"}})
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.Bool(true), xlsx.Bool(false), xlsx.Blank().WithStyle(yellow), {}, xlsx.Int(5)}))
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.Error(xlsx.ErrorNA), xlsx.Error(xlsx.ErrorDiv0), xlsx.Error(xlsx.ErrorValue),
				xlsx.Error(xlsx.ErrorRef), xlsx.Error(xlsx.ErrorName), xlsx.Error(xlsx.ErrorNum), xlsx.Error(xlsx.ErrorNull)}))
		},
		want: map[string][][]*pyread.Value{"Misc": {
			row(pyread.Bool(true), pyread.Bool(false), nil, nil, pyread.Num(5)),
			row(pyread.Error("#N/A"), pyread.Error("#DIV/0!"), pyread.Error("#VALUE!"), pyread.Error("#REF!"), pyread.Error("#NAME?"), pyread.Error("#NUM!"), pyread.Error("#NULL!")),
		}},
	},
	{
		name: "dates in the 1900 system",
		build: func(t *testing.T, w *xlsx.Writer) {
			sh := addSheet(t, w, "Dates", xlsx.SheetOptions{})
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.Time(leapDay), xlsx.Date(leapDay), xlsx.TimeOfDay(leapDay), xlsx.Duration(26*time.Hour + 90*time.Second)}))
			must(t, sh.WriteRow([]xlsx.Cell{
				xlsx.Date(time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)),
				xlsx.Date(time.Date(1900, 2, 28, 0, 0, 0, 0, time.UTC)),
				xlsx.Date(time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC)),
				xlsx.Date(time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)),
			}))
			ms := time.Date(2023, 7, 1, 8, 5, 9, 250_000_000, time.UTC)
			ymd := style(t, w, xlsx.Style{NumFmt: "d mmmm yyyy"})
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.Time(ms), xlsx.Date(ms).WithStyle(ymd)}))
		},
		want: map[string][][]*pyread.Value{"Dates": {
			row(pyread.DateTime("2024-02-29T13:45:30"), pyread.DateTime("2024-02-29T00:00:00"), pyread.TimeOfDay("13:45:30"), pyread.Duration(26*3600+90)),
			row(pyread.DateTime("1900-01-01T00:00:00"), pyread.DateTime("1900-02-28T00:00:00"), pyread.DateTime("1900-03-01T00:00:00"), pyread.DateTime("9999-12-31T00:00:00")),
			row(pyread.DateTime("2023-07-01T08:05:09.250000"), pyread.DateTime("2023-07-01T00:00:00")),
		}},
	},
	{
		name: "dates in the 1904 system and converted to a location",
		opts: xlsx.Options{Date1904: true, Location: time.FixedZone("UTC+2", 2*3600)},
		build: func(t *testing.T, w *xlsx.Writer) {
			sh := addSheet(t, w, "Dates1904", xlsx.SheetOptions{})
			must(t, sh.WriteRow([]xlsx.Cell{
				xlsx.Time(time.Date(2024, 2, 29, 23, 0, 0, 0, time.UTC)),
				// Serial 0 (1904-01-01) reads back as a time of day in both
				// readers, so the first day of the system is tested at 1.
				xlsx.Date(time.Date(1904, 1, 2, 0, 0, 0, 0, time.FixedZone("UTC+2", 2*3600))),
			}))
		},
		want: map[string][][]*pyread.Value{"Dates1904": {row(pyread.DateTime("2024-03-01T01:00:00"), pyread.DateTime("1904-01-02T00:00:00"))}},
	},
	{
		name: "formulas with cached values",
		build: func(t *testing.T, w *xlsx.Writer) {
			sh := addSheet(t, w, "Calc", xlsx.SheetOptions{})
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.Int(2), xlsx.Int(3),
				xlsx.Formula("=A1*B1").WithValue(xlsx.Int(6)),
				xlsx.Formula("A1&\"x\"").WithValue(xlsx.String("2x")),
				xlsx.Formula("A1>B1").WithValue(xlsx.Bool(false)),
				xlsx.Formula("1/0").WithValue(xlsx.Error(xlsx.ErrorDiv0)),
				xlsx.Formula("SUM(A1:B1)"),
			}))
		},
		want: map[string][][]*pyread.Value{"Calc": {row(pyread.Num(2), pyread.Num(3), pyread.Num(6), pyread.Str("2x"), pyread.Bool(false), pyread.Error("#DIV/0!"))}},
		// LibreOffice calculates the formula that has no cached value.
		libreOffice: map[string]map[string]*pyread.Value{"Calc": {"G1": pyread.Num(5)}},
		check: func(t *testing.T, r *pyread.Result) {
			want := map[string]string{"C1": "=A1*B1", "D1": `=A1&"x"`, "E1": "=A1>B1", "F1": "=1/0", "G1": "=SUM(A1:B1)"}
			if got := r.Formulas["Calc"]; !maps.Equal(got, want) {
				t.Errorf("formulas = %v, want %v", got, want)
			}
		},
	},
	{
		// Three sheets written at once with a memory budget so small that
		// the waiting ones block, and one spilling to a temporary file.
		name: "concurrent sheets",
		opts: xlsx.Options{SheetBufferSize: 1, ChunkSize: 32 << 10, Workers: 2},
		build: func(t *testing.T, w *xlsx.Writer) {
			must(t, writeConcurrent(w, 3, concurrentRows))
		},
		want: func() map[string][][]*pyread.Value {
			want := map[string][][]*pyread.Value{"First": {row(pyread.Str("before"))}, "Last": {row(pyread.Str("after"))}}
			for c := range 3 {
				rows := [][]*pyread.Value{row(pyread.Str("id"), pyread.Str("link"))}
				for i := range concurrentRows {
					day := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%3000)
					rows = append(rows, row(pyread.Num(float64(i)), pyread.Str("shared "+strconv.Itoa(i%500)), pyread.Str("sheet "+strconv.Itoa(c)+" row "+strconv.Itoa(i)),
						pyread.Num(float64(i)*0.25), pyread.DateTime(day.Format("2006-01-02T15:04:05"))))
				}
				want["C"+strconv.Itoa(c)] = rows
			}
			return want
		}(),
		check: func(t *testing.T, r *pyread.Result) {
			for c := range 3 {
				want := map[string]string{"B1": "https://example.com/" + strconv.Itoa(c)}
				if got := r.Links["C"+strconv.Itoa(c)]; !maps.Equal(got, want) {
					t.Errorf("C%d links = %v, want %v", c, got, want)
				}
			}
		},
	},
	{
		name: "hyperlinks external and internal",
		build: func(t *testing.T, w *xlsx.Writer) {
			sh := addSheet(t, w, "Links", xlsx.SheetOptions{})
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.Link("https://example.com/a b?q=1&r=2", "Example"), xlsx.Link("mailto:someone@example.com", "")}))
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.InternalLink("'Other sheet'!B2", "go")}))
			addSheet(t, w, "Other sheet", xlsx.SheetOptions{})
		},
		want: map[string][][]*pyread.Value{"Links": {row(pyread.Str("Example"), pyread.Str("mailto:someone@example.com")), row(pyread.Str("go"))}},
		check: func(t *testing.T, r *pyread.Result) {
			want := map[string]string{"A1": "https://example.com/a%20b?q=1&r=2", "B1": "mailto:someone@example.com", "A2": "#'Other sheet'!B2"}
			if got := r.Links["Links"]; !maps.Equal(got, want) {
				t.Errorf("links = %v, want %v", got, want)
			}
		},
	},
	{
		name: "styles",
		build: func(t *testing.T, w *xlsx.Writer) {
			sh := addSheet(t, w, "Styled", xlsx.SheetOptions{TabColor: "#00FF00"})
			ids := []xlsx.StyleID{
				style(t, w, xlsx.Style{Font: xlsx.Font{Bold: true, Italic: true, Underline: xlsx.UnderlineDouble, Size: 14, Name: "Arial", Color: "1F497D"}}),
				style(t, w, xlsx.Style{Fill: xlsx.Fill{Pattern: xlsx.PatternDarkGrid, Color: "FF0000", Background: "0000FF"}}),
				style(t, w, xlsx.Style{Border: xlsx.Border{Left: xlsx.BorderLine{Style: xlsx.LineThick, Color: "00FF00"}, Top: xlsx.BorderLine{Style: xlsx.LineDashed},
					Diagonal: xlsx.BorderLine{Style: xlsx.LineThin}, DiagonalUp: true}}),
				style(t, w, xlsx.Style{Alignment: xlsx.Alignment{Horizontal: xlsx.HAlignCenter, Vertical: xlsx.VAlignTop, Wrap: true, Indent: 2, Rotation: -45}}),
				style(t, w, xlsx.Style{NumFmt: "0.000%"}),
				style(t, w, xlsx.Style{NumFmt: "#,##0.00", Font: xlsx.Font{Strike: true, Script: xlsx.ScriptSuperscript}}),
			}
			if again := style(t, w, xlsx.Style{NumFmt: "0.000%"}); again != ids[4] {
				t.Errorf("equal styles got ids %d and %d", ids[4], again)
			}
			cells := make([]xlsx.Cell, len(ids))
			for i, id := range ids {
				cells[i] = xlsx.Float(0.125).WithStyle(id)
			}
			must(t, sh.WriteRow(cells))
		},
		want: map[string][][]*pyread.Value{"Styled": {row(pyread.Num(0.125), pyread.Num(0.125), pyread.Num(0.125), pyread.Num(0.125), pyread.Num(0.125), pyread.Num(0.125))}},
	},
	{
		name: "layout: widths, rows, panes, filter, merges, visibility",
		build: func(t *testing.T, w *xlsx.Writer) {
			hidden := addSheet(t, w, "Hidden first", xlsx.SheetOptions{State: xlsx.SheetHidden})
			must(t, hidden.WriteRow([]xlsx.Cell{xlsx.Int(1)}))
			sh := addSheet(t, w, "Layout", xlsx.SheetOptions{FreezeRows: 1, FreezeCols: 2})
			must(t, sh.SetColumn(1, 1, xlsx.ColumnOptions{Width: 30}))
			must(t, sh.SetColumn(3, 4, xlsx.ColumnOptions{Width: 12}))
			must(t, sh.SetColumn(5, 5, xlsx.ColumnOptions{Hidden: true}))
			bold := style(t, w, xlsx.Style{Font: xlsx.Font{Bold: true}})
			must(t, sh.WriteRowWith([]xlsx.Cell{xlsx.String("h1"), xlsx.String("h2"), xlsx.String("h3")}, xlsx.RowOptions{Height: 30}.WithStyle(bold)))
			must(t, sh.WriteRowWith([]xlsx.Cell{xlsx.Int(1), xlsx.Int(2), xlsx.Int(3)}, xlsx.RowOptions{Hidden: true}))
			must(t, sh.SkipRows(2))
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.String("merged"), {}, {}}))
			must(t, sh.MergeCells(xlsx.Range{FirstRow: 5, FirstCol: 1, LastRow: 6, LastCol: 3}))
			must(t, sh.SetAutoFilter(xlsx.Range{FirstRow: 1, FirstCol: 1, LastRow: 2, LastCol: 3}))
			addSheet(t, w, "Very hidden", xlsx.SheetOptions{State: xlsx.SheetVeryHidden})
		},
		want: map[string][][]*pyread.Value{
			"Hidden first": {row(pyread.Num(1))},
			"Layout":       {row(pyread.Str("h1"), pyread.Str("h2"), pyread.Str("h3")), row(pyread.Num(1), pyread.Num(2), pyread.Num(3)), nil, nil, row(pyread.Str("merged"))},
		},
		check: func(t *testing.T, r *pyread.Result) {
			wantSheets := [][2]string{{"Hidden first", "hidden"}, {"Layout", "visible"}, {"Very hidden", "veryHidden"}}
			if !slices.Equal(r.Sheets, wantSheets) {
				t.Errorf("sheets = %v, want %v", r.Sheets, wantSheets)
			}
			if f := r.Freeze["Layout"]; f == nil || *f != "C2" {
				t.Errorf("freeze panes = %v, want C2", f)
			}
			if m := r.Merged["Layout"]; !slices.Equal(m, []string{"A5:C6"}) {
				t.Errorf("merged = %v", m)
			}
			if f := r.Filters["Layout"]; f == nil || *f != "A1:C2" {
				t.Errorf("autofilter = %v", f)
			}
			if h := r.HiddenCols["Layout"]; !slices.Equal(h, []string{"E"}) {
				t.Errorf("hidden columns = %v, want [E]", h)
			}
			if h := r.HiddenRows["Layout"]; !slices.Equal(h, []int{2}) {
				t.Errorf("hidden rows = %v, want [2]", h)
			}
			if h := r.Heights["Layout"]["1"]; h != 30 {
				t.Errorf("row 1 height = %v, want 30", h)
			}
			wantWidths := map[string]float64{"A": 30.7109375, "C": 12.7109375}
			for col, want := range wantWidths {
				if got, ok := r.Widths["Layout"][col]; !ok || got != want {
					t.Errorf("width of %s = %v, want %v (all: %v)", col, got, want, r.Widths["Layout"])
				}
			}
		},
	},
	{
		name: "escapes of characters XML cannot carry",
		build: func(t *testing.T, w *xlsx.Writer) {
			sh := addSheet(t, w, "Escapes", xlsx.SheetOptions{})
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.String("bell\x07 and nul\x00"), xlsx.String("cr\r\nlf"), xlsx.String("literal _x0041_ stays")}))
		},
		// openpyxl does not decode _xHHHH_ (it only drops "x005F_"), so
		// these are checked against python-calamine, which decodes them as
		// Excel does; see TestReadBack.
		want: map[string][][]*pyread.Value{"Escapes": {row(pyread.Str("bell\x07 and nul\x00"), pyread.Str("cr\r\nlf"), pyread.Str("literal _x0041_ stays"))}},
		// LibreOffice turns CR LF in text into its line break, LF.
		libreOffice: map[string]map[string]*pyread.Value{"Escapes": {"B1": pyread.Str("cr\nlf")}},
	},
	{
		name: "properties and defined names",
		opts: xlsx.Options{Properties: xlsx.Properties{Title: "Report", Creator: "sheetstream tests", Company: "ACME & Co",
			Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}},
		build: func(t *testing.T, w *xlsx.Writer) {
			sh := addSheet(t, w, "Sales 2026", xlsx.SheetOptions{})
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.Int(10), xlsx.Int(20), xlsx.Formula("SUM(Total)").WithValue(xlsx.Int(30))}))
			must(t, w.DefineName(xlsx.DefinedName{Name: "Total", RefersTo: "'Sales 2026'!$A$1:$B$1"}))
			must(t, w.DefineName(xlsx.DefinedName{Name: "Local", RefersTo: "'Sales 2026'!$A$1", Sheet: "Sales 2026"}))
		},
		want: map[string][][]*pyread.Value{"Sales 2026": {row(pyread.Num(10), pyread.Num(20), pyread.Num(30))}},
	},
	{
		name: "custom XML parts",
		build: func(t *testing.T, w *xlsx.Writer) {
			sh := addSheet(t, w, "Data", xlsx.SheetOptions{})
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.String("id"), xlsx.Int(1)}))
			must(t, w.AddCustomXML([]byte(`<schema xmlns="urn:example:schema"><column name="id" type="bigint"/></schema>`)))
			must(t, w.AddCustomXML([]byte(`<?xml version="1.0" encoding="UTF-8"?><notes xmlns="urn:example:notes">a &amp; b</notes>`)))
		},
		want: map[string][][]*pyread.Value{"Data": {row(pyread.Str("id"), pyread.Num(1))}},
	},
	{
		name:  "empty workbook gets a sheet",
		build: func(t *testing.T, w *xlsx.Writer) {},
		want:  map[string][][]*pyread.Value{"Sheet1": nil},
	},
}

// calamineOnly lists cases whose text openpyxl cannot decode.
var calamineOnly = map[string]bool{"escapes of characters XML cannot carry": true}

// writeCases writes each read-back case to a file in dir.
func writeCases(t *testing.T, dir string) []string {
	paths := make([]string, len(readbackCases))
	for i, c := range readbackCases {
		paths[i] = filepath.Join(dir, "case"+strconv.Itoa(i)+".xlsx")
		f, err := os.Create(paths[i])
		must(t, err)
		w, err := xlsx.NewWriter(f, c.opts)
		must(t, err)
		t.Run("build/"+c.name, func(t *testing.T) { c.build(t, w) })
		must(t, w.Close())
		must(t, f.Close())
	}
	return paths
}

// TestReadBack writes a workbook per case and checks it three ways: the
// Open XML validator reports no error, and openpyxl and python-calamine
// read the expected values and types.
func TestReadBack(t *testing.T) {
	pyread.Python(t)
	paths := writeCases(t, t.TempDir())
	results := pyread.Read(t, paths...)
	for i, c := range readbackCases {
		t.Run(c.name, func(t *testing.T) {
			r := results[paths[i]]
			if r == nil || r.Error != "" {
				t.Fatalf("readers failed: %+v", r)
			}
			if len(r.Audit) > 0 {
				t.Errorf("openxml-audit: %v", r.Audit)
			}
			if len(r.Warnings) > 0 {
				t.Logf("openxml-audit warnings: %v", r.Warnings)
			}
			for sheet, want := range c.want {
				if !calamineOnly[c.name] {
					compareRows(t, "openpyxl", sheet, r.Openpyxl[sheet], want, false)
				}
				compareRows(t, "calamine", sheet, r.Calamine[sheet], want, true)
			}
			if c.check != nil {
				c.check(t, r)
			}
		})
	}
}

func compareRows(t *testing.T, reader, sheet string, got, want [][]*pyread.Value, calamine bool) {
	t.Helper()
	if calamine {
		// python-calamine drops trailing rows it sees as empty.
		for len(want) > len(got) && allBlankToCalamine(want[len(want)-1]) {
			want = want[:len(want)-1]
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: sheet %q: %d rows, want %d: %v", reader, sheet, len(got), len(want), got)
		return
	}
	for r := range want {
		for c := range max(len(got[r]), len(want[r])) {
			var g, w *pyread.Value
			if c < len(got[r]) {
				g = got[r][c]
			}
			if c < len(want[r]) {
				w = want[r][c]
			}
			// python-calamine reports error cells and empty text as empty.
			if calamine && w != nil && g == nil && (w.Type == "e" || w.Type == "s" && w.V == "") {
				continue
			}
			if !g.Equal(w) {
				t.Errorf("%s: sheet %q cell %s: got %v, want %v", reader, sheet, xlsx.CellName(r+1, c+1), g, w)
			}
		}
	}
}

func allBlankToCalamine(r []*pyread.Value) bool {
	for _, v := range r {
		if v != nil && v.Type != "e" && !(v.Type == "s" && v.V == "") {
			return false
		}
	}
	return true
}

// TestLibreOffice has LibreOffice open every read-back workbook and save
// it again with its own writer; openpyxl and python-calamine must read the
// same values and types from LibreOffice's copies.
func TestLibreOffice(t *testing.T) {
	pyread.Python(t)
	dir := t.TempDir()
	paths := writeCases(t, dir)
	out := filepath.Join(dir, "lo")
	must(t, os.Mkdir(out, 0o755))
	resaved := pyread.Resave(t, out, paths...)
	results := pyread.ReadValues(t, resaved...)
	for i, c := range readbackCases {
		t.Run(c.name, func(t *testing.T) {
			r := results[resaved[i]]
			if r == nil || r.Error != "" {
				t.Fatalf("LibreOffice's copy: %+v", r)
			}
			for sheet, want := range c.want {
				want = libreOfficeView(want, c.libreOffice[sheet])
				if !calamineOnly[c.name] {
					compareRows(t, "LibreOffice+openpyxl", sheet, r.Openpyxl[sheet], want, false)
				}
				compareRows(t, "LibreOffice+calamine", sheet, r.Calamine[sheet], want, true)
			}
		})
	}
}

// libreOfficeView is want as LibreOffice keeps it: empty text becomes an
// empty cell, and the case's listed cells differ.
func libreOfficeView(want [][]*pyread.Value, differ map[string]*pyread.Value) [][]*pyread.Value {
	out := make([][]*pyread.Value, len(want))
	for r, cells := range want {
		out[r] = slices.Clone(cells)
		for c, v := range out[r] {
			if v != nil && v.Type == "s" && v.V == "" {
				out[r][c] = nil
			}
			if d, ok := differ[xlsx.CellName(r+1, c+1)]; ok {
				out[r][c] = d
			}
		}
		for c := len(cells); c < 20; c++ {
			if d, ok := differ[xlsx.CellName(r+1, c+1)]; ok {
				for len(out[r]) < c {
					out[r] = append(out[r], nil)
				}
				out[r] = append(out[r], d)
			}
		}
	}
	return out
}
