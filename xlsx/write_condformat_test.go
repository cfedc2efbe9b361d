package xlsx_test

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

// condCases are one conditional format of each type, each over its own
// column of rows 2 on, and what openpyxl must read back: type, operator
// and formulas.
var condCases = []struct {
	f        xlsx.ConditionalFormat
	typ, op  string
	formulas []string
}{
	{xlsx.ConditionalFormat{Type: xlsx.CondCell, Operator: xlsx.Between, Value1: xlsx.Int(10), Value2: xlsx.Float(20.5), Format: lightRed}, "cellIs", "between", []string{"10", "20.5"}},
	{xlsx.ConditionalFormat{Type: xlsx.CondCell, Operator: xlsx.EqualTo, Value1: xlsx.String(`say "hi"`), Format: yellow}, "cellIs", "equal", []string{`"say ""hi"""`}},
	{xlsx.ConditionalFormat{Type: xlsx.CondFormula, Value1: xlsx.Formula("=MOD(ROW(),2)=0"), Format: green, StopIfTrue: true}, "expression", "", []string{"MOD(ROW(),2)=0"}},
	{xlsx.ConditionalFormat{Type: xlsx.CondColorScale, MinColor: "FFFFFF", MidColor: "FFEB84", MaxColor: "63BE7B"}, "colorScale", "", nil},
	{xlsx.ConditionalFormat{Type: xlsx.CondDataBar, BarColor: "5B9BD5"}, "dataBar", "", nil},
	{xlsx.ConditionalFormat{Type: xlsx.CondIconSet, Icons: "5Rating", ReverseIcons: true, IconsOnly: true}, "iconSet", "", nil},
	{xlsx.ConditionalFormat{Type: xlsx.CondTop, Rank: 5, Percent: true, Format: redFill}, "top10", "", nil},
	{xlsx.ConditionalFormat{Type: xlsx.CondBottom, Rank: 3, Format: redFill}, "top10", "", nil},
	{xlsx.ConditionalFormat{Type: xlsx.CondAboveAverage, Format: green}, "aboveAverage", "", nil},
	{xlsx.ConditionalFormat{Type: xlsx.CondBelowAverage, Format: redFill}, "aboveAverage", "", nil},
	{xlsx.ConditionalFormat{Type: xlsx.CondDuplicate, Format: yellow}, "duplicateValues", "", nil},
	{xlsx.ConditionalFormat{Type: xlsx.CondUnique, Format: green}, "uniqueValues", "", nil},
	{xlsx.ConditionalFormat{Type: xlsx.CondContains, Text: "ok", Format: green}, "containsText", "containsText", []string{`NOT(ISERROR(SEARCH("ok",M2)))`}},
	{xlsx.ConditionalFormat{Type: xlsx.CondNotContains, Text: "ok", Format: redFill}, "notContainsText", "notContains", []string{`ISERROR(SEARCH("ok",N2))`}},
	{xlsx.ConditionalFormat{Type: xlsx.CondBeginsWith, Text: "A", Format: green}, "beginsWith", "beginsWith", []string{`LEFT(O2,LEN("A"))="A"`}},
	{xlsx.ConditionalFormat{Type: xlsx.CondEndsWith, Text: "z", Format: green}, "endsWith", "endsWith", []string{`RIGHT(P2,LEN("z"))="z"`}},
	{xlsx.ConditionalFormat{Type: xlsx.CondBlanks, Format: redFill}, "containsBlanks", "", []string{"LEN(TRIM(Q2))=0"}},
	{xlsx.ConditionalFormat{Type: xlsx.CondNoBlanks, Format: green}, "notContainsBlanks", "", []string{"LEN(TRIM(R2))>0"}},
	{xlsx.ConditionalFormat{Type: xlsx.CondErrors, Format: redFill}, "containsErrors", "", []string{"ISERROR(S2)"}},
	{xlsx.ConditionalFormat{Type: xlsx.CondNoErrors, Format: xlsx.Style{Font: xlsx.Font{Bold: true}, NumFmt: "0.000"}}, "notContainsErrors", "", []string{"NOT(ISERROR(T2))"}},
}

// TestConditionalFormats writes a conditional format of every type over
// open-ended ranges and reads them back with openpyxl (rules, priorities,
// differential formats, scales, bars, icons), checks the file with the
// validator and has LibreOffice save it again with the formats kept.
func TestConditionalFormats(t *testing.T) {
	const rows = 30
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("Scores", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		for i, tc := range condCases {
			if err := sh.AddConditionalFormat(xlsx.Range{FirstRow: 2, FirstCol: i + 1, LastCol: i + 1}, tc.f); err != nil {
				return fmt.Errorf("case %d: %w", i, err)
			}
		}
		row := make([]xlsx.Cell, len(condCases))
		for r := range rows {
			for c := range row {
				row[c] = xlsx.Int(int64(r * (c + 1) % 37))
			}
			if err := sh.WriteRow(row); err != nil {
				return err
			}
		}
		return nil
	})
	path, res := auditBook(t, "cond.xlsx", book)
	dir := filepath.Dir(path)
	rules := res.CondFormats["Scores"]
	if len(rules) != len(condCases) {
		t.Fatalf("%d rules, want %d", len(rules), len(condCases))
	}
	byPriority := map[int]*pyread.CondRule{}
	for _, r := range rules {
		byPriority[r.Priority] = r
	}
	for i, tc := range condCases {
		r := byPriority[i+1]
		col := xlsx.ColumnName(i + 1)
		if r == nil || r.Sqref != col+"2:"+col+fmt.Sprint(rows) || r.Type != tc.typ || deref(r.Operator) != tc.op ||
			strings.Join(r.Formula, "|") != strings.Join(tc.formulas, "|") {
			t.Errorf("rule %d: %+v, want %s %s %q over column %s", i+1, r, tc.typ, tc.op, tc.formulas, col)
		}
	}
	if r := byPriority[1]; r != nil && (r.Dxf == nil || deref(r.Dxf.FontColor) != "FF9C0006" || deref(r.Dxf.Fill) != "FFFFC7CE") {
		t.Errorf("rule 1's format: %+v", r.Dxf)
	}
	if r := byPriority[3]; r != nil && !r.Stop {
		t.Errorf("rule 3 does not stop")
	}
	if r := byPriority[4]; r != nil && (len(r.Colors) != 3 || deref(r.Colors[1]) != "FFFFEB84") {
		t.Errorf("colour scale: %v", r.Colors)
	}
	if r := byPriority[6]; r != nil && fmt.Sprint(r.Icons) != "[5Rating true true]" {
		t.Errorf("icons: %v", r.Icons)
	}
	if r := byPriority[7]; r != nil && (r.Rank == nil || *r.Rank != 5 || !r.Percent || r.Bottom) {
		t.Errorf("top 5%%: %+v", r)
	}
	if r := byPriority[10]; r != nil && r.AboveAverage {
		t.Errorf("below average reads as above")
	}
	if r := byPriority[20]; r != nil && (r.Dxf == nil || !r.Dxf.Bold || deref(r.Dxf.NumFmt) != "0.000") {
		t.Errorf("rule 20's format: %+v", r.Dxf)
	}

	resaved := pyread.Resave(t, filepath.Join(dir, "lo"), path)[0]
	again := pyread.Read(t, resaved)[resaved]
	if again == nil || again.Error != "" {
		t.Fatalf("LibreOffice's copy: %+v", again)
	}
	kept := map[string]bool{}
	for _, r := range again.CondFormats["Scores"] {
		kept[r.Type] = true
	}
	for _, want := range []string{"cellIs", "expression", "colorScale", "dataBar", "iconSet", "top10", "aboveAverage", "duplicateValues"} {
		if !kept[want] {
			t.Errorf("LibreOffice dropped %s rules: kept %v", want, kept)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestConditionalFormatErrors: what AddConditionalFormat refuses, with
// the Writer still usable.
func TestConditionalFormatErrors(t *testing.T) {
	for name, f := range map[string]xlsx.ConditionalFormat{
		"unknown type":         {Type: 99},
		"unknown operator":     {Type: xlsx.CondCell, Operator: 99, Value1: xlsx.Int(1)},
		"no value":             {Type: xlsx.CondCell, Operator: xlsx.GreaterThan},
		"between without two":  {Type: xlsx.CondCell, Value1: xlsx.Int(1)},
		"formula without one":  {Type: xlsx.CondFormula, Value1: xlsx.Int(1)},
		"text rule empty":      {Type: xlsx.CondContains},
		"unknown icons":        {Type: xlsx.CondIconSet, Icons: "7Smileys"},
		"bad colour":           {Type: xlsx.CondColorScale, MinColor: "red"},
		"bad format colour":    {Type: xlsx.CondBlanks, Format: xlsx.Style{Font: xlsx.Font{Color: "nope"}}},
		"rank":                 {Type: xlsx.CondTop, Rank: 200, Percent: true},
		"control char in text": {Type: xlsx.CondContains, Text: "a\x02"},
	} {
		t.Run(name, func(t *testing.T) {
			w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
			defer w.Close()
			sh, _ := w.AddSheet("S", xlsx.SheetOptions{})
			err := sh.AddConditionalFormat(rng("A1:A9"), f)
			if !errors.Is(err, xlsx.ErrCondFormat) && !errors.Is(err, xlsx.ErrStyle) {
				t.Errorf("error %v", err)
			}
			if err := sh.WriteRow([]xlsx.Cell{xlsx.Int(1)}); err != nil {
				t.Errorf("the Writer stopped: %v", err)
			}
		})
	}
}
