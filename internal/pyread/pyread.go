// Package pyread reads workbooks back with independent readers for tests:
// openpyxl and python-calamine for values, openxml-audit (a port of
// Microsoft's Open XML SDK validator) for conformance, and LibreOffice,
// which re-saves them. The test command
// installs them in a virtualenv and names its interpreter in
// SHEETSTREAM_PYTHON.
package pyread

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sheetstream/sheetstream/internal/testenv"
)

// Python returns the interpreter that has the readers. Without one the test
// is skipped, except under CI, where it fails.
func Python(t testing.TB) string {
	t.Helper()
	return testenv.Get(t, "SHEETSTREAM_PYTHON", "installs openpyxl, python-calamine and openxml-audit")
}

// Value is one cell as a reader saw it.
type Value struct {
	Type string // n, s, b, d, t, dur, e
	V    any
}

// UnmarshalJSON reads the [type, value] pairs readback.py writes.
func (v *Value) UnmarshalJSON(b []byte) error {
	var pair [2]any
	if err := json.Unmarshal(b, &pair); err != nil {
		return err
	}
	t, ok := pair[0].(string)
	if !ok {
		return fmt.Errorf("pyread: bad value %s", b)
	}
	v.Type, v.V = t, pair[1]
	return nil
}

func (v *Value) String() string {
	if v == nil {
		return "<empty>"
	}
	return fmt.Sprintf("%s:%v", v.Type, v.V)
}

// Expected values, as the readers report them.
func Num(v float64) *Value            { return &Value{Type: "n", V: v} }
func Str(v string) *Value             { return &Value{Type: "s", V: v} }
func Bool(v bool) *Value              { return &Value{Type: "b", V: v} }
func DateTime(iso string) *Value      { return &Value{Type: "d", V: iso} }
func TimeOfDay(iso string) *Value     { return &Value{Type: "t", V: iso} }
func Duration(seconds float64) *Value { return &Value{Type: "dur", V: seconds} }
func Error(code string) *Value        { return &Value{Type: "e", V: code} }

// Equal compares two values; numbers compare as doubles.
func (v *Value) Equal(o *Value) bool {
	if v == nil || o == nil {
		return v == nil && o == nil
	}
	if v.Type != o.Type {
		return false
	}
	a, aok := v.V.(float64)
	b, bok := o.V.(float64)
	if aok && bok {
		return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
	}
	return v.V == o.V
}

// Result is what the readers found in one file.
type Result struct {
	Error              string                          `json:"error"`
	Audit              []string                        `json:"audit"`
	Warnings           []string                        `json:"warnings"`
	Sheets             [][2]string                     `json:"sheets"`
	Openpyxl           map[string][][]*Value           `json:"openpyxl"`
	Calamine           map[string][][]*Value           `json:"calamine"`
	Formulas           map[string]map[string]string    `json:"formulas"`
	Arrays             map[string]map[string][2]string `json:"arrays"`
	Merged             map[string][]string             `json:"merged"`
	Links              map[string]map[string]string    `json:"links"`
	Freeze             map[string]*string              `json:"freeze"`
	Widths             map[string]map[string]float64   `json:"widths"`
	Filters            map[string]*string              `json:"dims"`
	HiddenCols         map[string][]string             `json:"hidden_cols"`
	HiddenRows         map[string][]int                `json:"hidden_rows"`
	Heights            map[string]map[string]float64   `json:"heights"`
	Tables             map[string][]*Table             `json:"tables"`
	Validations        map[string][]*Validation        `json:"validations"`
	Print              map[string]*Print               `json:"print"`
	Protection         map[string]*SheetProtection     `json:"protection"`
	WorkbookProtection *WorkbookProtection             `json:"workbook_protection"`
	Outline            map[string]*Outline             `json:"outline"`
	CondFormats        map[string][]*CondRule          `json:"cond_formats"`
	Notes              map[string]map[string][2]string `json:"notes"`
	Images             map[string][]*Picture           `json:"images"`
	Charts             map[string][]*Chart             `json:"charts"`
}

// Chart is a chart as openpyxl read it: its kind (barChart, lineChart...),
// title, series and axes.
type Chart struct {
	Type     string         `json:"type"`
	Title    *string        `json:"title"`
	Style    *int           `json:"style"`
	Series   []*ChartSeries `json:"series"`
	XAxis    *ChartAxis     `json:"x_axis"`
	YAxis    *ChartAxis     `json:"y_axis"`
	Combined []string       `json:"combined"`
}

// ChartSeries is a series' references and name ("=Sheet1!$B$1" for a
// cell).
type ChartSeries struct {
	Values     *string `json:"values"`
	Categories *string `json:"categories"`
	Name       *string `json:"name"`
	Trendline  *string `json:"trendline"`
}

// ChartAxis is an axis: catAx, valAx or dateAx, its title and scale.
type ChartAxis struct {
	Kind   string   `json:"kind"`
	Title  *string  `json:"title"`
	Min    *float64 `json:"min"`
	Max    *float64 `json:"max"`
	Delete bool     `json:"delete"`
}

// Print is a sheet's print setup as openpyxl read it.
type Print struct {
	Area          *string    `json:"area"`
	TitleRows     *string    `json:"title_rows"`
	TitleCols     *string    `json:"title_cols"`
	Orientation   *string    `json:"orientation"`
	Paper         *int       `json:"paper"`
	Scale         *int       `json:"scale"`
	Fit           bool       `json:"fit"`
	FitWide       *int       `json:"fit_wide"`
	FitTall       *int       `json:"fit_tall"`
	FirstPage     *int       `json:"first_page"`
	BlackAndWhite bool       `json:"black_and_white"`
	Gridlines     bool       `json:"gridlines"`
	Headings      bool       `json:"headings"`
	Center        [2]bool    `json:"center"`
	Margins       []float64  `json:"margins"`
	Header        [3]*string `json:"header"`
	Footer        [3]*string `json:"footer"`
	RowBreaks     []int      `json:"row_breaks"`
	ColBreaks     []int      `json:"col_breaks"`
}

// Validation is a data validation as openpyxl read it.
type Validation struct {
	Type         *string `json:"type"`
	Operator     *string `json:"operator"`
	Formula1     *string `json:"formula1"`
	Formula2     *string `json:"formula2"`
	Sqref        string  `json:"sqref"`
	AllowBlank   bool    `json:"allow_blank"`
	HideDropDown bool    `json:"hide_drop_down"`
	PromptTitle  *string `json:"prompt_title"`
	Prompt       *string `json:"prompt"`
	ErrorTitle   *string `json:"error_title"`
	Error        *string `json:"error"`
	ErrorStyle   *string `json:"error_style"`
}

// Table is an Excel table as openpyxl read it.
type Table struct {
	Name       string         `json:"name"`
	Ref        string         `json:"ref"`
	HeaderRows *int           `json:"header_rows"`
	TotalsRows int            `json:"totals_rows"`
	Filter     *string        `json:"filter"`
	Style      *string        `json:"style"`
	Stripes    []bool         `json:"stripes"`
	Columns    []*TableColumn `json:"columns"`
}

// TableColumn is one of a Table's columns.
type TableColumn struct {
	Name     string  `json:"name"`
	Function *string `json:"function"`
	Label    *string `json:"label"`
	Formula  *string `json:"formula"`
}

// Cell is one non-empty cell as openpyxl read it.
type Cell struct {
	Row, Col int
	Value    *Value
}

// UnmarshalJSON reads the [row, col, value] triples of --cells.
func (c *Cell) UnmarshalJSON(b []byte) error {
	var triple [3]json.RawMessage
	if err := json.Unmarshal(b, &triple); err != nil {
		return err
	}
	if err := json.Unmarshal(triple[0], &c.Row); err != nil {
		return err
	}
	if err := json.Unmarshal(triple[1], &c.Col); err != nil {
		return err
	}
	return json.Unmarshal(triple[2], &c.Value)
}

// CellsResult is openpyxl's reading of one file: cells by sheet, or why
// it could not read the file.
type CellsResult struct {
	Error string            `json:"error"`
	Cells map[string][]Cell `json:"cells"`
}

// Cells reads every non-empty cell of each file with openpyxl (cached
// formula values), in one Python process.
func Cells(t testing.TB, paths ...string) map[string]*CellsResult {
	t.Helper()
	res := map[string]*CellsResult{}
	run(t, append([]string{"--cells"}, paths...), &res)
	return res
}

// BookCells is one reader's reading of a workbook in any format: its
// sheets (name and visibility as the reader words it) and their
// non-empty cells, or why it could not read the file.
type BookCells struct {
	Error  string            `json:"error"`
	Sheets [][2]string       `json:"sheets"`
	Cells  map[string][]Cell `json:"cells"`
}

// Calamine reads every non-empty cell of each file (.xlsx, .xlsb, .xls,
// .ods) with python-calamine, in one Python process.
func Calamine(t testing.TB, paths ...string) map[string]*BookCells {
	t.Helper()
	res := map[string]*BookCells{}
	run(t, append([]string{"--calamine"}, paths...), &res)
	return res
}

// Xlrd reads every non-empty cell of each .xls file with xlrd.
func Xlrd(t testing.TB, paths ...string) map[string]*BookCells {
	t.Helper()
	res := map[string]*BookCells{}
	run(t, append([]string{"--xlrd"}, paths...), &res)
	return res
}

// run runs readback.py with args and decodes its JSON output into res.
func run(t testing.TB, args []string, res any) {
	t.Helper()
	cmd := exec.Command(Python(t), append([]string{script()}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("readback.py %s: %v\n%s", args[0], err, stderr.Bytes())
	}
	if err := json.Unmarshal(out, res); err != nil {
		t.Fatalf("readback.py %s: output: %v", args[0], err)
	}
}

func script() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "readback.py")
}

// Read runs the validator and the readers over paths in one Python
// process.
func Read(t testing.TB, paths ...string) map[string]*Result {
	t.Helper()
	return read(t, paths)
}

// ReadValues runs only the readers: the validator is pure Python and takes
// minutes on large sheets (six for 50,000 rows of ten columns), so large
// workbooks are checked for values while small ones of the same shape go
// through the validator.
func ReadValues(t testing.TB, paths ...string) map[string]*Result {
	t.Helper()
	return read(t, append([]string{"--no-audit"}, paths...))
}

func read(t testing.TB, args []string) map[string]*Result {
	t.Helper()
	res := map[string]*Result{}
	run(t, args, &res)
	return res
}

// Resave opens each workbook in LibreOffice (headless) and saves it again
// with LibreOffice's own writer into dir, returning the new paths in
// order. Whatever LibreOffice misread shows when the copies are read.
func Resave(t testing.TB, dir string, paths ...string) []string {
	t.Helper()
	soffice := testenv.Get(t, "SHEETSTREAM_SOFFICE", "installs LibreOffice")
	profile := filepath.Join(dir, "lo-profile")
	args := append([]string{"-env:UserInstallation=file://" + profile, "--headless", "--norestore",
		"--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", dir}, paths...)
	out, err := exec.Command(soffice, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	resaved := make([]string, len(paths))
	for i, p := range paths {
		resaved[i] = filepath.Join(dir, filepath.Base(p))
	}
	return resaved
}

// Unprotected is what LibreOffice says of a protection: on, lifted by a
// wrong password (it must not be), lifted by the right one.
type Unprotected struct {
	Protected    bool `json:"protected"`
	WrongUnlocks bool `json:"wrong_unlocks"`
	RightUnlocks bool `json:"right_unlocks"`
}

// Unprotect has LibreOffice open path and try password, and a wrong
// one, on the first sheet's protection: an independent check of the
// password hash. It runs the system's python3 with its UNO bridge
// (python3-uno).
func Unprotect(t testing.TB, path, password string) Unprotected {
	t.Helper()
	soffice := testenv.Get(t, "SHEETSTREAM_SOFFICE", "installs LibreOffice and python3-uno")
	cmd := exec.Command("/usr/bin/python3", filepath.Join(filepath.Dir(script()), "unprotect.py"), soffice, path, password)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("unprotect.py: %v\n%s", err, stderr.Bytes())
	}
	var res Unprotected
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("unprotect.py: %v: %s", err, out)
	}
	return res
}

// SheetProtection is a sheet's protection as openpyxl read it: what it
// allows and the cells its styles unlock or hide (openpyxl does not read
// editable ranges).
type SheetProtection struct {
	Sheet       bool     `json:"sheet"`
	Algorithm   *string  `json:"algorithm"`
	SpinCount   *int     `json:"spin_count"`
	HasHash     bool     `json:"has_hash"`
	FormatCells bool     `json:"format_cells"`
	InsertRows  bool     `json:"insert_rows"`
	Sort        bool     `json:"sort"`
	Unlocked    []string `json:"unlocked"`
	Hidden      []string `json:"hidden"`
}

// WorkbookProtection is a workbook's structure protection as openpyxl
// read it.
type WorkbookProtection struct {
	Structure bool    `json:"structure"`
	Windows   bool    `json:"windows"`
	Algorithm *string `json:"algorithm"`
}

// Outline is a sheet's outline as openpyxl read it: rows by number with
// their level, hidden and collapsed flags; columns by letters with level
// and collapsed; the levels the sheet declares; where summaries go.
type Outline struct {
	Rows         map[string][3]any `json:"rows"`
	Cols         map[string][2]any `json:"cols"`
	LevelRow     int               `json:"level_row"`
	LevelCol     int               `json:"level_col"`
	SummaryBelow bool              `json:"summary_below"`
	SummaryRight bool              `json:"summary_right"`
}

// CondRule is one conditional format rule as openpyxl read it.
type CondRule struct {
	Sqref        string   `json:"sqref"`
	Type         string   `json:"type"`
	Priority     int      `json:"priority"`
	Operator     *string  `json:"operator"`
	Formula      []string `json:"formula"`
	Text         *string  `json:"text"`
	Rank         *int     `json:"rank"`
	Percent      bool     `json:"percent"`
	Bottom       bool     `json:"bottom"`
	AboveAverage bool     `json:"above_average"`
	Stop         bool     `json:"stop"`
	Dxf          *struct {
		Bold      bool    `json:"bold"`
		FontColor *string `json:"font_color"`
		Fill      *string `json:"fill"`
		NumFmt    *string `json:"num_fmt"`
	} `json:"dxf"`
	Colors []*string `json:"colors"`
	Icons  []any     `json:"icons"`
}

// Picture is a picture as openpyxl read it: its format, size in pixels,
// anchor (column, offset, row, offset in EMU, 0-based) and placement.
type Picture struct {
	Format string  `json:"format"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	From   []int   `json:"from"`
	To     []int   `json:"to"`
	EditAs *string `json:"edit_as"`
}
