package xlsx_test

import (
	"errors"
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

// validationCases are one validation of each kind, on column after
// column of rows 2 on, the first declared before the rows and open-ended.
var validationCases = []struct {
	v                  xlsx.Validation
	typ, op, f1, f2    string
	allowBlank, hidden bool
}{
	{xlsx.Validation{Type: xlsx.ValidateList, List: []string{"open", "closed", `say "hi"`}, InputTitle: "Status", InputMessage: "Pick one"},
		"list", "", `"open,closed,say ""hi"""`, "", true, false},
	{xlsx.Validation{Type: xlsx.ValidateWhole, Value1: xlsx.Int(1), Value2: xlsx.Int(10), ErrorStyle: xlsx.ErrorStyleWarning, ErrorTitle: "Range", ErrorMessage: "1 to 10"},
		"whole", "between", "1", "10", true, false},
	{xlsx.Validation{Type: xlsx.ValidateDecimal, Operator: xlsx.GreaterThan, Value1: xlsx.Float(0.5), RejectBlank: true},
		"decimal", "greaterThan", "0.5", "", false, false},
	{xlsx.Validation{Type: xlsx.ValidateDate, Operator: xlsx.NotBetween, Value1: xlsx.Date(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)), Value2: xlsx.Formula("TODAY()")},
		"date", "notBetween", "45292", "TODAY()", true, false},
	{xlsx.Validation{Type: xlsx.ValidateTime, Operator: xlsx.LessThanOrEqualTo, Value1: xlsx.TimeOfDay(time.Date(1, 1, 1, 18, 0, 0, 0, time.UTC))},
		"time", "lessThanOrEqual", "0.75", "", true, false},
	{xlsx.Validation{Type: xlsx.ValidateTextLength, Operator: xlsx.LessThan, Value1: xlsx.Int(20)},
		"textLength", "lessThan", "20", "", true, false},
	{xlsx.Validation{Type: xlsx.ValidateCustom, Value1: xlsx.Formula("=ISNUMBER(G2)")},
		"custom", "", "ISNUMBER(G2)", "", true, false},
	{xlsx.Validation{Type: xlsx.ValidateList, Value1: xlsx.Formula("Lists!$A$1:$A$3"), HideDropDown: true, ErrorStyle: xlsx.ErrorStyleInformation},
		"list", "", "Lists!$A$1:$A$3", "", true, true},
}

// TestValidations writes a validation of every kind and reads them back
// with openpyxl, checks the file with the Open XML validator, and has
// LibreOffice save it again with the validations still there.
func TestValidations(t *testing.T) {
	const rows = 50
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("Form", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		for i, tc := range validationCases {
			r := xlsx.Range{FirstRow: 2, FirstCol: i + 1, LastCol: i + 1} // open-ended
			if i > 0 {
				r.LastRow = rows + 1
			}
			if i == 1 {
				// Declared after the rows: the validations go after them.
				continue
			}
			if err := sh.AddValidation(r, tc.v); err != nil {
				return err
			}
		}
		header := make([]xlsx.Cell, len(validationCases))
		for i := range header {
			header[i] = xlsx.String("field " + string(rune('A'+i)))
		}
		if err := sh.WriteRow(header); err != nil {
			return err
		}
		for range rows {
			if err := sh.WriteRow([]xlsx.Cell{xlsx.String("open"), xlsx.Int(5)}); err != nil {
				return err
			}
		}
		if err := sh.AddValidation(xlsx.Range{FirstRow: 2, FirstCol: 2, LastRow: rows + 1, LastCol: 2}, validationCases[1].v); err != nil {
			return err
		}
		lists, err := w.AddSheet("Lists", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		for _, v := range []string{"red", "green", "blue"} {
			if err := lists.WriteRow([]xlsx.Cell{xlsx.String(v)}); err != nil {
				return err
			}
		}
		return nil
	})
	path, res := auditBook(t, "validations.xlsx", book)
	dir := filepath.Dir(path)
	got := map[string]*pyread.Validation{}
	for _, v := range res.Validations["Form"] {
		got[v.Sqref] = v
	}
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	for i, tc := range validationCases {
		col := string(rune('A' + i))
		sqref := col + "2:" + col + "51"
		v := got[sqref]
		if v == nil {
			t.Errorf("no validation over %s: %v", sqref, got)
			continue
		}
		op := str(v.Operator)
		if op == "" && tc.op == "between" {
			op = "between" // the default, left out
		}
		if str(v.Type) != tc.typ || op != tc.op || str(v.Formula1) != tc.f1 || str(v.Formula2) != tc.f2 ||
			v.AllowBlank != tc.allowBlank || v.HideDropDown != tc.hidden {
			t.Errorf("%s: %+v\n  want %s %s %q %q blank %v hidden %v", sqref, *v, tc.typ, tc.op, tc.f1, tc.f2, tc.allowBlank, tc.hidden)
		}
	}
	if v := got["A2:A51"]; v != nil && (str(v.PromptTitle) != "Status" || str(v.Prompt) != "Pick one") {
		t.Errorf("input message: %+v", *v)
	}
	if v := got["B2:B51"]; v != nil && (str(v.ErrorStyle) != "warning" || str(v.Error) != "1 to 10") {
		t.Errorf("error message: %+v", *v)
	}

	resaved := pyread.Resave(t, filepath.Join(dir, "lo"), path)[0]
	again := pyread.Read(t, resaved)[resaved]
	if again == nil || again.Error != "" {
		t.Fatalf("LibreOffice's copy: %+v", again)
	}
	kept := map[string]string{}
	for _, v := range again.Validations["Form"] {
		kept[v.Sqref] = str(v.Type)
	}
	for i, tc := range validationCases {
		col := string(rune('A' + i))
		if kept[col+"2:"+col+"51"] != tc.typ {
			t.Errorf("LibreOffice kept %v; want %s over column %s", kept, tc.typ, col)
		}
	}
}

// TestValidationErrors: what AddValidation refuses, naming the sheet and
// cell, with the Writer still usable.
func TestValidationErrors(t *testing.T) {
	for name, v := range map[string]xlsx.Validation{
		"unknown type":           {Type: 99},
		"unknown operator":       {Type: xlsx.ValidateWhole, Operator: 42, Value1: xlsx.Int(1)},
		"no value":               {Type: xlsx.ValidateWhole, Operator: xlsx.GreaterThan},
		"between without Value2": {Type: xlsx.ValidateDecimal, Value1: xlsx.Int(1)},
		"Value2 with one value":  {Type: xlsx.ValidateDecimal, Operator: xlsx.EqualTo, Value1: xlsx.Int(1), Value2: xlsx.Int(2)},
		"text compared":          {Type: xlsx.ValidateWhole, Operator: xlsx.EqualTo, Value1: xlsx.String("x")},
		"comma in a choice":      {Type: xlsx.ValidateList, List: []string{"a,b"}},
		"long list":              {Type: xlsx.ValidateList, List: strings.Split(strings.Repeat("abcdefghi,", 30), ",")},
		"list without a source":  {Type: xlsx.ValidateList, Value1: xlsx.Int(3)},
		"custom without formula": {Type: xlsx.ValidateCustom, Value1: xlsx.Int(1)},
		"long input title":       {InputTitle: strings.Repeat("t", 33)},
		"long error message":     {ErrorMessage: strings.Repeat("m", 256)},
		"NaN":                    {Type: xlsx.ValidateDecimal, Operator: xlsx.LessThan, Value1: xlsx.Float(math.NaN())},
	} {
		t.Run(name, func(t *testing.T) {
			w, err := xlsx.NewWriter(io.Discard, xlsx.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			sh, _ := w.AddSheet("Sheet1", xlsx.SheetOptions{})
			err = sh.AddValidation(rng("B2:B9"), v)
			var ce *xlsx.CellError
			if !errors.Is(err, xlsx.ErrValidation) || !errors.As(err, &ce) || ce.Sheet != "Sheet1" || ce.Row != 2 || ce.Col != 2 {
				t.Errorf("error %v", err)
			}
			if err := sh.WriteRow([]xlsx.Cell{xlsx.Int(1)}); err != nil {
				t.Errorf("the Writer stopped: %v", err)
			}
		})
	}
}
