package csvsheet_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/internal/pyread"
)

// openpyxlFormats reads a workbook's first sheet with openpyxl: each
// cell's value (as text) and number format.
func openpyxlFormats(t *testing.T, book []byte) [][][2]string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "book.xlsx")
	if err := os.WriteFile(path, book, 0o644); err != nil {
		t.Fatal(err)
	}
	script := `import json, sys, openpyxl
ws = openpyxl.load_workbook(sys.argv[1]).worksheets[0]
print(json.dumps([[[repr(c.value), c.number_format] for c in row] for row in ws.iter_rows()]))`
	out, err := exec.Command(pyread.Python(t), "-c", script, path).Output()
	if err != nil {
		t.Fatalf("openpyxl: %v", err)
	}
	var rows [][][2]string
	if err := json.Unmarshal(out, &rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestNumbersAsWritten: numbers written with trailing zeros (10.50,
// 2.0) or grouped thousands get the format that shows them so, per cell;
// others show as written in General; a column in which
// two texts read as one number stays text, in the first rows or past
// them; decimal commas read with Decimal ',', thousands grouped.
func TestNumbersAsWritten(t *testing.T) {
	book, _, err := convert(t, "price,version,count,sci,long\n10.50,1.10,3,1e3,0.14285714285714285\n2.0,1.1,4,2.5E-3,1.5\n3.125,2.0,5,7,2\n", csvsheet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := openpyxlFormats(t, book)
	want := [][][2]string{
		{{"'price'", "General"}, {"'version'", "General"}, {"'count'", "General"}, {"'sci'", "General"}, {"'long'", "General"}},
		{{"10.5", "0.00"}, {"'1.10'", "General"}, {"3", "General"}, {"1000", "General"}, {"0.14285714285714285", "General"}},
		{{"2", "0.0"}, {"'1.1'", "General"}, {"4", "General"}, {"0.0025", "General"}, {"1.5", "General"}},
		{{"3.125", "General"}, {"'2.0'", "General"}, {"5", "General"}, {"7", "General"}, {"2", "General"}},
	}
	if js, wjs := mustJSON(got), mustJSON(want); js != wjs {
		t.Errorf("cells and formats:\n got %s\nwant %s", js, wjs)
	}

	// Past the first 5,000 rows: a later 1.10 beside an early 1.1 makes
	// the column text (a second pass), fields as written.
	var b []byte
	b = append(b, "v\n"...)
	for range 6000 {
		b = append(b, "1.1\n"...)
	}
	b = append(b, "1.10\n"...)
	_, _, err = convert(t, string(b), csvsheet.Options{})
	var retype *csvsheet.RetypeError
	if !errors.As(err, &retype) || retype.Line != 6002 || retype.Kinds[0] != csvsheet.KindText {
		t.Fatalf("a later 1.10: %v", err)
	}
	book, st, err := convert(t, string(b), csvsheet.Options{Kinds: retype.Kinds})
	if err != nil || st.Rows != 6001 {
		t.Fatalf("%v %+v", err, st)
	}
	rows := readCells(t, book)
	if rows[1][0] != "s:1.1" || rows[6001][0] != "s:1.10" {
		t.Errorf("the version column past the guess: %q ... %q", rows[1], rows[6001])
	}
	if f := openpyxlFormats(t, book); f[1][0][0] != "'1.1'" || f[6001][0][0] != "'1.10'" {
		t.Errorf("not text: %v %v", f[1], f[6001])
	}

	// Decimal commas.
	book, _, err = convert(t, "region;price;units;code\nNorth;1.234,56;10;1.5\nSouth;7,5;1.000;2\nEast;-0,25;1 234 567;3\n", csvsheet.Options{Comma: ';', Decimal: ','})
	if err != nil {
		t.Fatal(err)
	}
	got = openpyxlFormats(t, book)
	want = [][][2]string{
		{{"'region'", "General"}, {"'price'", "General"}, {"'units'", "General"}, {"'code'", "General"}},
		{{"'North'", "General"}, {"1234.56", "#,##0.00"}, {"10", "General"}, {"'1.5'", "General"}},
		{{"'South'", "General"}, {"7.5", "General"}, {"1000", "#,##0"}, {"'2'", "General"}},
		{{"'East'", "General"}, {"-0.25", "General"}, {"1234567", "#,##0"}, {"'3'", "General"}},
	}
	if js, wjs := mustJSON(got), mustJSON(want); js != wjs {
		t.Errorf("decimal commas:\n got %s\nwant %s", js, wjs)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
