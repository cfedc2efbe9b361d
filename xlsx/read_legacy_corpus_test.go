package xlsx

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
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
	var peak uint64
	var ms runtime.MemStats
	formats := map[Format]int{}
	for _, name := range files {
		err := readWhole(filepath.Join(dir, name), ReadOptions{}, func(wb *Workbook, rows *Rows) {
			if rows.Sheet().Index == 0 {
				formats[wb.Format()]++
				if ext := strings.TrimPrefix(filepath.Ext(name), "."); ext != wb.Format().String() {
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
		peak = max(peak, ms.HeapInuse)
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
// reads with python-calamine's reading (and xlrd's for .xls).
func TestLegacyCalamine(t *testing.T) {
	dir := testenv.LegacyCorpus(t)
	expected := legacyFailures(t)
	var paths []string
	for _, f := range legacyFiles(t, dir) {
		if _, fails := expected[f]; !fails {
			paths = append(paths, filepath.Join(dir, f))
		}
	}
	want := pyread.Calamine(t, paths...)
	compared, cells := 0, 0
	for _, path := range paths {
		name, _ := filepath.Rel(dir, path)
		py := want[path]
		if py == nil || py.Error != "" {
			t.Logf("%s: python-calamine cannot read it (%v); not compared", name, py)
			continue
		}
		if why, ok := calamineWrong[name]; ok {
			t.Logf("%s: not compared: %s", name, why)
			continue
		}
		err := readWhole(path, ReadOptions{}, func(wb *Workbook, rows *Rows) {
			var got []pyread.Cell
			for rows.Next() {
				row := rows.Row()
				for j := range row.Cells {
					c := &row.Cells[j]
					// python-calamine gives error cells and empty strings
					// as empty cells.
					if pv := pyValue(c); pv != nil && pv.Type != "e" && !(pv.Type == "s" && pv.V == "") {
						got = append(got, pyread.Cell{Row: row.Num, Col: c.Col(), Value: pv})
					}
				}
			}
			sheet := rows.Sheet().Name
			want := py.Cells[sheet]
			cells += len(want)
			if d := diffCells(got, want, excuses{other: calamineExcuse}); d != "" {
				t.Errorf("%s, sheet %q: %s", name, sheet, d)
			}
		})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		compared++
	}
	t.Logf("%d files, %d cells agree with python-calamine", compared, cells)
}

// calamineExcuse says why got and python-calamine's value may differ,
// or "".
func calamineExcuse(got, want *pyread.Value) string {
	if got == nil || want == nil {
		return ""
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
	return ""
}

// calamineWrong lists legacy files python-calamine misreads, and why.
var calamineWrong = map[string]string{}
