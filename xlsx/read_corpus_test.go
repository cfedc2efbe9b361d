package xlsx

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/internal/testenv"
)

func corpusFiles(t *testing.T, dir string) []string {
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var files []string
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		if name, _, _ := strings.Cut(sc.Text(), "\t"); name != "" {
			files = append(files, name)
		}
	}
	return files
}

var sentinels = map[string]error{
	"ErrNotXLSX": ErrNotXLSX, "ErrEncrypted": ErrEncrypted, "ErrLegacyXLS": ErrLegacyXLS,
	"ErrODF": ErrODF, "ErrMissingPart": ErrMissingPart, "ErrDuplicatePart": ErrDuplicatePart,
	"ErrLimit": ErrLimit, "ErrMalformed": ErrMalformed, "ErrUnsupportedEncryption": ErrUnsupportedEncryption,
}

// expectedFailures reads testdata/corpus-failures.tsv: file -> sentinel.
func expectedFailures(t *testing.T) map[string]error {
	b, err := os.ReadFile(filepath.Join("testdata", "corpus-failures.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]error{}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 || sentinels[f[1]] == nil {
			t.Fatalf("corpus-failures.tsv: bad line %q", line)
		}
		out[f[0]] = sentinels[f[1]]
	}
	return out
}

// readWhole reads every sheet of a workbook, handing each one's rows to
// each (nil: just read them), and turns a panic into an error so that one
// bad file names itself.
func readWhole(path string, opts ReadOptions, each func(wb *Workbook, rows *Rows)) (err error) {
	defer func() {
		if r := recover(); r != nil {
			buf := make([]byte, 4096)
			buf = buf[:runtime.Stack(buf, false)]
			err = fmt.Errorf("PANIC: %v\n%s", r, buf)
		}
	}()
	wb, err := Open(path, opts)
	if err != nil {
		return err
	}
	defer wb.Close()
	for _, s := range wb.Sheets() {
		rows, err := wb.Rows(context.Background(), s.Index)
		if err != nil {
			return err
		}
		if each != nil {
			each(wb, rows)
		}
		for rows.Next() {
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

// TestCorpus reads every sheet of every corpus file: each one either
// reads, or fails with the error its line in corpus-failures.tsv names.
func TestCorpus(t *testing.T) {
	dir := testenv.Corpus(t)
	files := corpusFiles(t, dir)
	expected := expectedFailures(t)
	start := time.Now()
	var peak uint64
	var ms runtime.MemStats
	for i, name := range files {
		err := readWhole(filepath.Join(dir, name), ReadOptions{}, nil)
		want, shouldFail := expected[name]
		switch {
		case err != nil && strings.HasPrefix(err.Error(), "PANIC"):
			t.Errorf("%s: %v", name, err)
		case shouldFail && err == nil:
			t.Errorf("%s: read without error; corpus-failures.tsv expects %v", name, want)
		case shouldFail && !errors.Is(err, want):
			t.Errorf("%s: %v; corpus-failures.tsv expects %v", name, err, want)
		case !shouldFail && err != nil:
			t.Errorf("%s: %v", name, err)
		}
		if i%50 == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapSys)
		}
	}
	if len(files) < 2000 {
		t.Errorf("the manifest lists %d files; expected the whole corpus", len(files))
	}
	if peak > 1<<30 {
		t.Errorf("heap reached %d MiB", peak>>20)
	}
	t.Logf("%d files (%d expected failures) in %v, heap peak %d MiB", len(files), len(expected), time.Since(start).Round(time.Millisecond), peak>>20)
}

// openpyxlSample picks files from every producer: all sources but the two
// largest whole, and every tenth of those two (Excel 2007 files made by
// one author for the XlsxWriter tests).
func openpyxlSample(files []string, expected map[string]error) []string {
	var out []string
	n := 0
	for _, f := range files {
		if expected[f] != nil {
			continue
		}
		if strings.HasPrefix(f, "rust_xlsxwriter/") || strings.HasPrefix(f, "XlsxWriter/") {
			n++
			if n%10 != 0 {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

// pyValue is a cell as readback.py types openpyxl's values.
func pyValue(v *Value) *pyread.Value {
	switch v.Type() {
	case TypeNumber:
		if v.Elapsed() {
			return pyread.Duration(v.Duration().Seconds())
		}
		return pyread.Num(v.Float())
	case TypeString:
		return pyread.Str(string(v.Bytes()))
	case TypeBool:
		return pyread.Bool(v.Bool())
	case TypeError:
		return pyread.Error(string(v.Bytes()))
	case TypeDate:
		t := v.Time()
		frac := ""
		if t.Nanosecond() != 0 {
			frac = ".000000"
		}
		// openpyxl gives a time for any date under one day, a datetime
		// otherwise.
		if v.Float() < 1 {
			return pyread.TimeOfDay(t.Format("15:04:05" + frac))
		}
		return pyread.DateTime(t.Format("2006-01-02T15:04:05" + frac))
	}
	return nil
}

// TestCorpusOpenpyxl compares every cell with openpyxl's reading (read-only,
// cached values) over a sample of the corpus from every producer.
func TestCorpusOpenpyxl(t *testing.T) {
	dir := testenv.Corpus(t)
	files := openpyxlSample(corpusFiles(t, dir), expectedFailures(t))
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = filepath.Join(dir, f)
	}
	want := pyread.Cells(t, paths...)
	compared, cells := 0, 0
	for i, path := range paths {
		py := want[path]
		if py == nil || py.Error != "" {
			t.Logf("%s: openpyxl cannot read it (%v); not compared", files[i], py)
			continue
		}
		if why, ok := openpyxlWrong[files[i]]; ok {
			t.Logf("%s: not compared: %s", files[i], why)
			continue
		}
		strict := false
		err := readWhole(path, ReadOptions{}, func(wb *Workbook, rows *Rows) {
			if strict = wb.strict; strict {
				return // openpyxl reads no Strict OOXML
			}
			var got []pyread.Cell
			styles := map[[2]int]int{}
			for rows.Next() {
				row := rows.Row()
				for j := range row.Cells {
					c := &row.Cells[j]
					if pv := pyValue(c); pv != nil {
						got = append(got, pyread.Cell{Row: row.Num, Col: c.Col(), Value: pv})
						styles[[2]int{row.Num, c.Col()}] = c.Style()
					}
				}
			}
			sheet := rows.Sheet().Name
			want := py.Cells[sheet]
			cells += len(want)
			ex := excuses{styles: wb.styles, cellStyle: styles, merges: rows.MergedCells(), links: rows.Hyperlinks()}
			if d := diffCells(got, want, ex); d != "" {
				t.Errorf("%s, sheet %q: %s", files[i], sheet, d)
			}
		})
		if err != nil {
			t.Errorf("%s: %v", files[i], err)
			continue
		}
		if strict {
			t.Logf("%s: not compared: Strict OOXML, which openpyxl does not read", files[i])
			continue
		}
		compared++
	}
	if compared < 300 {
		t.Errorf("compared %d files with openpyxl; want at least 300", compared)
	}
	t.Logf("%d files, %d cells agree with openpyxl", compared, cells)
}

// openpyxlWrong lists files openpyxl misreads, and why.
var openpyxlWrong = map[string]string{
	"poi/spreadsheet/sample-beta.xlsx":                "shared strings in Excel 2007 beta's <sstItem> form, which openpyxl does not know",
	"poi/spreadsheet/52575_main.xlsx":                 "an inline string in <v t=\"inlineStr\">, which openpyxl drops",
	"PhpSpreadsheet/writer/issue.3843a.template.xlsx": "openpyxl strips ideographic spaces (U+3000) from text",
	"sheetjs_test_files/LONumbers.xlsx":               "formats such as [HH] and A/P, which openpyxl reads case-sensitively or not as times",
	"sheetjs_test_files/LONumbers-2010.xlsx":          "formats such as [HH] and A/P, which openpyxl reads case-sensitively or not as times",
	"sheetjs_test_files/LONumbers-2011.xlsx":          "formats such as [HH] and A/P, which openpyxl reads case-sensitively or not as times",
	"fastexcel/xlsx/LONumbers.xlsx":                   "formats such as [HH] and A/P, which openpyxl reads case-sensitively or not as times",
	"fastexcel/xlsx/LONumbers-2010.xlsx":              "formats such as [HH] and A/P, which openpyxl reads case-sensitively or not as times",
	"fastexcel/xlsx/LONumbers-2011.xlsx":              "formats such as [HH] and A/P, which openpyxl reads case-sensitively or not as times",
}

// excuses are the differences where openpyxl, not the file, decides.
type excuses struct {
	reader    string                               // the other reader's name, when not openpyxl
	other     func(got, want *pyread.Value) string // its excuses, in place of openpyxl's
	styles    *readStyles
	cellStyle map[[2]int]int
	merges    []Range
	links     []Hyperlink
}

// explain says why got and openpyxl's value may differ at row, col, or "".
func (e excuses) explain(row, col int, got, want *pyread.Value) string {
	if e.other != nil {
		return e.other(got, want)
	}
	isEmptyText := func(v *pyread.Value) bool { return v == nil || (v.Type == "s" && v.V == "") }
	if isEmptyText(got) && isEmptyText(want) {
		return "openpyxl drops empty strings"
	}
	if want == nil {
		for _, m := range e.merges {
			if row >= m.FirstRow && row <= m.LastRow && col >= m.FirstCol && col <= m.LastCol && (row != m.FirstRow || col != m.FirstCol) {
				return "openpyxl empties merged cells but the first"
			}
		}
	}
	if got == nil && want != nil && want.Type == "s" {
		for _, l := range e.links {
			if l.Range.FirstRow == row && l.Range.FirstCol == col && (want.V == l.URL || want.V == l.Location) {
				return "openpyxl puts a link's target in an empty cell"
			}
		}
	}
	style, ok := e.cellStyle[[2]int{row, col}]
	if !ok || got == nil || want == nil {
		return ""
	}
	class := e.styles.class(style)
	if got.Type == "n" && class.isDate() && (want.Type == "e" || want.Type == "d" && want.V.(string) < "1900") {
		return "openpyxl makes dates of numbers Excel cannot show as dates"
	}
	if id := e.styles.ids[style]; got.Type == "d" && want.Type == "n" && (id >= 27 && id <= 36 || id >= 50 && id <= 58) {
		return "openpyxl does not know the East Asian built-in date formats"
	}
	return ""
}

func diffCells(got, want []pyread.Cell, ex excuses) string {
	type key struct{ r, c int }
	g := map[key]*pyread.Value{}
	for _, c := range got {
		g[key{c.Row, c.Col}] = c.Value
	}
	var diffs []string
	note := func(k key, gv, wv *pyread.Value) {
		if !sameValue(gv, wv) && ex.explain(k.r, k.c, gv, wv) == "" {
			diffs = append(diffs, fmt.Sprintf("%s: got %v, %s %v", CellName(k.r, k.c), gv, cmp.Or(ex.reader, "openpyxl"), wv))
		}
	}
	for _, w := range want {
		k := key{w.Row, w.Col}
		gv := g[k]
		delete(g, k)
		note(k, gv, w.Value)
	}
	for k, v := range g {
		note(k, v, nil)
	}
	if len(diffs) == 0 {
		return ""
	}
	sort.Strings(diffs)
	if len(diffs) > 5 {
		diffs = append(diffs[:5], fmt.Sprintf("... %d more", len(diffs)-5))
	}
	return strings.Join(diffs, "; ")
}

func sameValue(a, b *pyread.Value) bool {
	if a.Equal(b) {
		return true
	}
	if a == nil || b == nil || a.Type != b.Type {
		return false
	}
	// openpyxl leaves the _xHHHH_ escapes of inline strings and of runs
	// Excel wrote as _x005F_xHHHH_ undecoded; Excel decodes them.
	if s, ok := b.V.(string); ok && a.Type == "s" {
		return a.V == string(unescapeX([]byte(s)))
	}
	// Durations and times: readers round to the millisecond differently.
	x, ok1 := a.V.(float64)
	y, ok2 := b.V.(float64)
	if ok1 && ok2 {
		return math.Abs(x-y) < 1e-3
	}
	return reflect.DeepEqual(a.V, b.V)
}
