package xlsx

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/internal/testenv"
)

// legacyFiles lists the legacy corpus from its MANIFEST.tsv, whose
// second column is the file.
func legacyFiles(t *testing.T, dir string) []string {
	b, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for i, line := range strings.Split(string(b), "\n") {
		if f := strings.Split(line, "\t"); i > 0 && len(f) > 2 {
			files = append(files, f[1])
		}
	}
	return files
}

// legacyFailure is a legacy corpus file that is expected not to read.
type legacyFailure struct {
	err    error
	reason string
}

// legacyFailures reads testdata/legacy-failures.tsv: file, sentinel,
// reason.
func legacyFailures(t *testing.T) map[string]legacyFailure {
	b, err := os.ReadFile(filepath.Join("testdata", "legacy-failures.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]legacyFailure{}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 || sentinels[f[1]] == nil || f[2] == "" {
			t.Fatalf("legacy-failures.tsv: bad line %q (want file, sentinel, reason)", line)
		}
		out[f[0]] = legacyFailure{sentinels[f[1]], f[2]}
	}
	return out
}

// TestLegacyCorpus reads every sheet of every .xls, .xlsb and .ods file
// of the legacy corpus: each one reads, in the format its bytes say, or
// fails as legacy-failures.tsv says; none panics, and the heap stays
// bounded.
func TestLegacyCorpus(t *testing.T) {
	dir := testenv.LegacyCorpus(t)
	files := legacyFiles(t, dir)
	expected := legacyFailures(t)
	start := time.Now()
	// The heap the files add, over what earlier tests left.
	var peak uint64
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	formats := map[Format]int{}
	for _, name := range files {
		err := readWhole(filepath.Join(dir, name), ReadOptions{}, func(wb *Workbook, rows *Rows) {
			if rows.Sheet().Index == 0 {
				formats[wb.Format()]++
				if ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(name), ".")); ext != wb.Format().String() {
					t.Logf("%s: read as %s", name, wb.Format())
				}
			}
		})
		want, shouldFail := expected[name]
		switch {
		case err != nil && strings.HasPrefix(err.Error(), "PANIC"):
			t.Errorf("%s: %v", name, err)
		case shouldFail && err == nil:
			t.Errorf("%s: read without error; legacy-failures.tsv expects %v", name, want.err)
		case shouldFail && !errors.Is(err, want.err):
			t.Errorf("%s: %v; legacy-failures.tsv expects %v", name, err, want.err)
		case !shouldFail && err != nil:
			t.Errorf("%s: %v", name, err)
		}
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse-min(base, ms.HeapInuse))
	}
	if len(files) < 700 {
		t.Errorf("the manifest lists %d files; expected the whole legacy corpus", len(files))
	}
	if peak > 256<<20 {
		t.Errorf("heap reached %d MiB", peak>>20)
	}
	t.Logf("%d files (%d expected failures; read as %v) in %v, heap peak %d MiB", len(files), len(expected), formats, time.Since(start).Round(time.Millisecond), peak>>20)
}

// TestLegacyCalamine compares every cell of every legacy corpus file that
// reads with python-calamine's reading.
func TestLegacyCalamine(t *testing.T) {
	dir := testenv.LegacyCorpus(t)
	paths := legacyReadable(t, dir, "")
	compareLegacy(t, dir, "python-calamine", pyread.Calamine(t, paths...), calamineWrong, calamineExcuse, 600)
}

// TestLegacyXlrd compares every cell of every .xls file that reads with
// xlrd's reading.
func TestLegacyXlrd(t *testing.T) {
	dir := testenv.LegacyCorpus(t)
	paths := legacyReadable(t, dir, ".xls")
	compareLegacy(t, dir, "xlrd", pyread.Xlrd(t, paths...), xlrdWrong, xlrdExcuse, 150)
}

// legacyReadable lists the legacy files expected to read, with the
// given extension (any case) or all.
func legacyReadable(t *testing.T, dir, ext string) []string {
	expected := legacyFailures(t)
	var paths []string
	for _, f := range legacyFiles(t, dir) {
		if _, fails := expected[f]; !fails && (ext == "" || strings.EqualFold(filepath.Ext(f), ext)) {
			paths = append(paths, filepath.Join(dir, f))
		}
	}
	return paths
}

// compareLegacy compares each file's cells with another reader's: empty
// strings are left out, since the Python readers give them as empty
// cells. wrong lists files the reader misreads; excuse explains cell
// differences where the reader decides.
func compareLegacy(t *testing.T, dir, reader string, want map[string]*pyread.BookCells, wrong map[string]string, excuse func(got, want *pyread.Value) string, atLeast int) {
	compared, cells := 0, 0
	for path, py := range want {
		name, _ := filepath.Rel(dir, path)
		if py == nil || py.Error != "" {
			t.Logf("%s: %s cannot read it (%v); not compared", name, reader, py)
			continue
		}
		if why, ok := wrong[name]; ok {
			t.Logf("%s: not compared with %s: %s", name, reader, why)
			continue
		}
		err := readWhole(path, ReadOptions{}, func(wb *Workbook, rows *Rows) {
			var got []pyread.Cell
			for rows.Next() {
				row := rows.Row()
				for j := range row.Cells {
					c := &row.Cells[j]
					if pv := pyValue(c); pv != nil && !(pv.Type == "s" && pv.V == "") {
						got = append(got, pyread.Cell{Row: row.Num, Col: c.Col(), Value: pv})
					}
				}
			}
			sheet := rows.Sheet().Name
			want := py.Cells[sheet]
			cells += len(want)
			if d := diffCells(got, want, excuses{reader: reader, other: excuse}); d != "" {
				t.Errorf("%s, sheet %q: %s", name, sheet, d)
			}
		})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		compared++
	}
	if compared < atLeast {
		t.Errorf("compared %d files with %s; want at least %d", compared, reader, atLeast)
	}
	t.Logf("%d files, %d cells agree with %s", compared, cells, reader)
}

// calamineExcuse says why got and python-calamine's value may differ,
// or "".
func calamineExcuse(got, want *pyread.Value) string {
	if got != nil && got.Type == "e" && (want == nil || want.Type == "n" && want.V == 0.0) {
		return "python-calamine gives error cells as empty, or as the 0 under an .ods formula's error"
	}
	if got == nil || want == nil {
		return ""
	}
	if got.Type == "t" && want.Type == "t" {
		a, err1 := time.Parse("15:04:05.999999", got.V.(string))
		b, err2 := time.Parse("15:04:05.999999", want.V.(string))
		if err1 == nil && err2 == nil && a.Sub(b).Abs() < time.Millisecond {
			return "sheetstream rounds times to the millisecond, as Excel shows them"
		}
	}
	serial, isNum := want.V.(float64)
	if got.Type == "d" && want.Type == "n" && isNum {
		// Checked by hand: m/d/yyyy (built-in 14), dd/mm/yyyy;@,
		// mm/dd/yy, dd\/mm\/yyyy in .xlsb files; the date is the serial's.
		if d := DateFromSerial(serial, false).Format("2006-01-02T15:04:05"); d == got.V || DateFromSerial(serial, true).Format("2006-01-02T15:04:05") == got.V {
			return "python-calamine misses the date format of some .xlsb cells"
		}
	}
	if n, ok := got.V.(float64); ok && got.Type == "n" && n < 0 && (want.Type == "t" || want.Type == "d") {
		return "python-calamine shows negative numbers in date formats as times; Excel shows ####"
	}
	if got.Type == "dur" && (want.Type == "d" || want.Type == "t") {
		return "python-calamine makes dates of elapsed times ([h]:mm)"
	}
	if text, ok := want.V.(string); ok && want.Type == "s" && (got.Type == "dur" || got.Type == "t") {
		days, ok := odsDuration(text)
		seconds, _ := got.V.(float64)
		if clock, isClock := got.V.(string); isClock {
			t, err := time.Parse("15:04:05.999999", clock)
			seconds = float64(t.Hour()*3600+t.Minute()*60+t.Second()) + float64(t.Nanosecond())/1e9
			ok = ok && err == nil
		}
		if ok && math.Abs(days*86400-seconds) < 1e-3 {
			return "python-calamine gives ODF time values as their ISO 8601 text"
		}
	}
	return ""
}

// calamineWrong lists legacy files python-calamine misreads, and why;
// xlrd reads the .xls ones as sheetstream does.
var calamineWrong = map[string]string{
	"calamine/biff5-rich-text-string.xls":            "drops the UTF-16 characters U+25A0, U+2022 and U+2019 of a shared string",
	"calamine/sheet_name_parsing.xls":                "reads BIFF5 text in code page 1200 as single bytes (T i t e l)",
	"readxl/testthat__sheets__mtcars.xls":            "reads BIFF5 text in code page 1200 as single bytes (m p g)",
	"sheetjs_test_files/CRLFR9.XLS":                  "reads BIFF5 text in code page 1200 as single bytes (N o r m a l)",
	"calamine/any_sheets.xls":                        "gives a chart sheet's cached series values as its cells (xlrd, Excel and the .xlsx copy have none)",
	"sheetjs_test_files/1_NumberFormatCondition.xls": "takes [Red] in a number format for a day code and makes dates of plain numbers",
}

// xlrdWrong lists .xls files xlrd misreads, and why.
var xlrdWrong = map[string]string{
	"sheetjs_test_files/LONumbers.xls":      "formats such as [HH] and A/P, which xlrd reads case-sensitively or not as times (as openpyxl does for the .xlsx copies)",
	"sheetjs_test_files/LONumbers-2010.xls": "formats such as [HH] and A/P, which xlrd reads case-sensitively or not as times (as openpyxl does for the .xlsx copies)",
	"sheetjs_test_files/LONumbers-2011.xls": "formats such as [HH] and A/P, which xlrd reads case-sensitively or not as times (as openpyxl does for the .xlsx copies)",
}

// xlrdExcuse says why got and xlrd's value may differ, or "".
func xlrdExcuse(got, want *pyread.Value) string {
	if got == nil || want == nil {
		return ""
	}
	gotNum, _ := got.V.(float64)
	wantNum, _ := want.V.(float64)
	wantText, _ := want.V.(string)
	switch {
	case got.Type == "dur" && want.Type == "n" && math.Abs(gotNum-wantNum*86400) < 1e-3:
		return "xlrd gives elapsed times ([h]:mm) as numbers of days"
	case got.Type == "dur" && (want.Type == "d" || want.Type == "t"):
		return "xlrd makes dates of elapsed times ([h]:mm)"
	case got.Type == "n" && gotNum < 0 && want.Type == "d":
		return "xlrd makes dates before 1900 of negative numbers in date formats; Excel shows ####"
	case got.Type == "t" && want.Type == "d" && wantText == "1899-12-31T"+got.V.(string):
		return "xlrd gives times of day as datetimes on 1899-12-31"
	}
	return ""
}

// TestLegacySameAsXLSX compares SheetJS's .xls, .xlsb and .ods copies of
// a workbook with its .xlsx (or .xlsm) copy in the main corpus: the same
// sheets, and in each the same cells, where the formats can hold the
// same content (sameAsXLSXExcept lists where they cannot).
func TestLegacySameAsXLSX(t *testing.T) {
	legacy := testenv.LegacyCorpus(t)
	modern := testenv.Corpus(t)
	expected := legacyFailures(t)
	compared, cells, names := 0, 0, 0
	for _, name := range legacyFiles(t, legacy) {
		if !strings.HasPrefix(name, "sheetjs_test_files/") || expected[name].err != nil {
			continue
		}
		base := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
		twin := ""
		for _, ext := range []string{".xlsx", ".xlsm"} {
			if p := filepath.Join(modern, "sheetjs_test_files", base+ext); fileExists(p) {
				twin = p
			}
		}
		if twin == "" {
			continue
		}
		if why, ok := sameAsXLSXExcept[name]; ok {
			t.Logf("%s: not compared: %s", name, why)
			continue
		}
		if ext := strings.ToLower(filepath.Ext(name)); ext == ".xls" || ext == ".xlsb" {
			names += sameNames(t, filepath.Join(legacy, name), twin)
		}
		want, err := sheetCells(twin)
		if err != nil {
			t.Errorf("%s: %v", twin, err)
			continue
		}
		got, err := sheetCells(filepath.Join(legacy, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for sheet, w := range want {
			g, ok := got[sheet]
			if !ok {
				t.Errorf("%s: no sheet %q (the .xlsx has it)", name, sheet)
				continue
			}
			cells += len(w)
			if d := diffCells(g, w, excuses{reader: "the .xlsx", other: twinExcuse}); d != "" {
				t.Errorf("%s, sheet %q: %s", name, sheet, d)
			}
		}
		compared++
	}
	if compared < 60 {
		t.Errorf("compared %d files with their .xlsx copies; want at least 60", compared)
	}
	if names < 20 {
		t.Errorf("compared %d defined names with the .xlsx copies; want at least 20", names)
	}
	t.Logf("%d files, %d cells and %d defined names the same as in their .xlsx copies", compared, cells, names)
}

// sameNames checks that each defined name read from a .xls or .xlsb is in its
// .xlsx copy, the same, and returns how many it compared. (Names the
// reader leaves out, and the .xlsx's structured references, are not
// compared.)
func sameNames(t *testing.T, xls, twin string) int {
	open := func(path string) []DefinedName {
		wb, err := Open(path, ReadOptions{})
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		defer wb.Close()
		return wb.DefinedNames()
	}
	got, want := open(xls), open(twin)
	for _, n := range got {
		i := slices.IndexFunc(want, func(w DefinedName) bool { return w.Name == n.Name && w.Sheet == n.Sheet })
		switch {
		case i < 0:
			t.Errorf("%s: defined name %q (sheet %q) is not in the .xlsx copy", xls, n.Name, n.Sheet)
		case want[i].RefersTo != n.RefersTo && !strings.Contains(want[i].RefersTo, "["):
			t.Errorf("%s: defined name %q refers to %q; the .xlsx copy says %q", xls, n.Name, n.RefersTo, want[i].RefersTo)
		}
	}
	return len(got)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// sheetCells reads every sheet's cells, as pyValue types them, by sheet
// name; empty strings are left out.
func sheetCells(path string) (map[string][]pyread.Cell, error) {
	out := map[string][]pyread.Cell{}
	err := readWhole(path, ReadOptions{}, func(wb *Workbook, rows *Rows) {
		var cells []pyread.Cell
		for rows.Next() {
			row := rows.Row()
			for j := range row.Cells {
				c := &row.Cells[j]
				if pv := pyValue(c); pv != nil && !(pv.Type == "s" && pv.V == "") {
					cells = append(cells, pyread.Cell{Row: row.Num, Col: c.Col(), Value: pv})
				}
			}
		}
		out[rows.Sheet().Name] = cells
	})
	return out, err
}

// twinExcuse says why a legacy copy's cell may differ from the .xlsx
// copy's for a reason of the formats, or "".
func twinExcuse(got, want *pyread.Value) string {
	if got != nil && want != nil && got.Type == "dur" && (want.Type == "d" || want.Type == "t") {
		return "an ODF time value is an elapsed time; the .xlsx shows the number in a date format"
	}
	return ""
}

// sameAsXLSXExcept lists legacy copies whose content differs from their
// .xlsx copies (checked in the files), or that a format cannot hold.
var sameAsXLSXExcept = map[string]string{
	"sheetjs_test_files/AutoFilter.ods":           "sheet names with _ for the .xlsx's spaces (No_Filter, No Filter)",
	"sheetjs_test_files/BlankSheetTypes.ods":      "ODF has no dialog sheets",
	"sheetjs_test_files/LONumbers.xls":            "holds values in row 38 the .xlsx copy does not",
	"sheetjs_test_files/comments_stress_test.xls": "formula cells (a custom Comment function) cached as #NAME? where the .xlsx cached text",
	"sheetjs_test_files/comments_stress_test.ods": "the cached text of a Comment() formula keeps the comment's paragraph breaks, which the .xlsx's does not",
	"sheetjs_test_files/number_format.xls":        "TEXT() results and number formats saved differently by the two copies",
	"sheetjs_test_files/number_format.ods":        "dates saved without their milliseconds, TEXT() results and formats differ",
	"sheetjs_test_files/phonetic_text.xls":        "Mac Excel's BIFF5 text in Shift-JIS under code page 10000; the encoding is its font's character set, which no reader here follows (python-calamine reads it the same way)",
	"sheetjs_test_files/sushi.xls":                "BIFF5 holds the code page's ? for 🍣",
	"sheetjs_test_files/text_and_numbers.xls":     "BIFF5 holds the code page's ? for the Hebrew text",
	"sheetjs_test_files/formula_stress_test.ods":  "volatile formulas (RAND, NOW) cached at other times; functions LibreOffice computes differently",
	"sheetjs_test_files/formula_stress_test.xls":  "volatile formulas (RAND, NOW) cached at other times",
	"sheetjs_test_files/formula_stress_test.xlsb": "volatile formulas (RAND, NOW) cached at other times",
}
