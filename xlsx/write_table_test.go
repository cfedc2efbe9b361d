package xlsx_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

// writeTables writes the tables of TestTables: an open-ended sales table
// with a calculated column and a totals row, streamed over rows rows; a
// fixed one beside a title whose header row the table writes; and a
// header-less one on a second sheet.
func writeTables(t testing.TB, rows int) []byte {
	t.Helper()
	return writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("Sales", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		if err := sh.WriteRow([]xlsx.Cell{xlsx.String("Quarterly sales")}); err != nil {
			return err
		}
		if err := sh.SkipRows(1); err != nil {
			return err
		}
		err = sh.AddTable(xlsx.Range{FirstRow: 3, FirstCol: 1, LastCol: 5}, xlsx.Table{
			Name: "Sales", Style: "TableStyleMedium2", BandedColumns: true,
			TotalsRow: true,
			Columns: []xlsx.TableColumn{
				{TotalLabel: "Total"}, {}, {Total: xlsx.TotalSum}, {Total: xlsx.TotalAverage},
				{Name: "Amount", Formula: "[@Price]*[@Quantity]", Total: xlsx.TotalSum},
			},
		})
		if err != nil {
			return err
		}
		// The header row: a duplicate name and an empty cell, which the
		// table names.
		if err := sh.WriteRow([]xlsx.Cell{xlsx.String("Region"), xlsx.String("region"), xlsx.String("Quantity"), xlsx.String("Price")}); err != nil {
			return err
		}
		for i := range rows {
			if err := sh.WriteRow([]xlsx.Cell{xlsx.String([]string{"North", "South"}[i%2]), xlsx.String("x"), xlsx.Int(int64(i)), xlsx.Float(1.5)}); err != nil {
				return err
			}
		}
		// Below the data, on rows not written yet: the table writes its
		// header row when the sheet ends.
		below := xlsx.Range{FirstRow: rows + 6, FirstCol: 8, LastRow: rows + 8, LastCol: 9}
		if err := sh.AddTable(below, xlsx.Table{Columns: []xlsx.TableColumn{{Name: "Key"}, {Name: "Value"}}}); err != nil {
			return err
		}
		other, err := w.AddSheet("Plain", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		if err := other.AddTable(rng("B2:C3"), xlsx.Table{NoHeaderRow: true, Style: xlsx.TableStyleNone}); err != nil {
			return err
		}
		for _, r := range [][]xlsx.Cell{{{}, xlsx.Int(1), xlsx.Int(2)}, {{}, xlsx.Int(3), xlsx.Int(4)}} {
			if err := other.WriteRow(r); err != nil {
				return err
			}
		}
		return nil
	})
}

// TestTables streams tables and reads them back: sheetstream's reader
// for the cells the tables wrote, openpyxl for the tables, the Open XML
// validator, and LibreOffice, which must keep them when it saves again.
func TestTables(t *testing.T) {
	const rows = 1000
	book := writeTables(t, rows)
	wb, err := xlsx.NewReader(bytes.NewReader(book), int64(len(book)), xlsx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := wb.Rows(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for rs.Next() {
		var texts []string
		for _, c := range rs.Row().Cells {
			texts = append(texts, c.String())
		}
		got = append(got, texts)
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	header := []string{"Region", "region2", "Quantity", "Price", "Amount"}
	if len(got) != rows+4 || !slices.Equal(got[1], header) || !slices.Equal(got[rows+3], []string{"Key", "Value"}) {
		t.Fatalf("%d rows; header %q, want %q; last %q", len(got), got[1], header, got[len(got)-1])
	}
	// The totals carry their values, computed as the rows went by; the
	// calculated column ([@Price]*[@Quantity]) carries its own, and its
	// total theirs.
	if f := got[rows+2]; !slices.Equal(f, []string{"Total", "499500", "1.5", "749250"}) {
		t.Errorf("totals row %q", f)
	}
	for i := 0; i < rows; i += 97 {
		if amount := got[2+i][4]; amount != strconv.FormatFloat(float64(i)*1.5, 'g', -1, 64) {
			t.Errorf("row %d: Amount %q, want %v", i, amount, float64(i)*1.5)
		}
	}

	pyread.Python(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "tables.xlsx")
	if err := os.WriteFile(path, book, 0o644); err != nil {
		t.Fatal(err)
	}
	res := pyread.Read(t, path)[path]
	if res == nil || res.Error != "" || len(res.Audit) > 0 {
		t.Fatalf("openpyxl/validator: %+v", res)
	}
	sales := res.Tables["Sales"]
	if len(sales) != 2 {
		t.Fatalf("tables on Sales: %+v", sales)
	}
	byName := map[string]*pyread.Table{}
	for _, tb := range append(sales, res.Tables["Plain"]...) {
		byName[tb.Name] = tb
	}
	s := byName["Sales"]
	wantRef := "A3:E" + itoa(3+rows+1)
	if s == nil || s.Ref != wantRef || s.TotalsRows != 1 || s.Filter == nil || *s.Filter != "A3:E"+itoa(3+rows) ||
		s.Style == nil || *s.Style != "TableStyleMedium2" || !slices.Equal(s.Stripes, []bool{true, true}) {
		t.Fatalf("Sales: %+v, want ref %s", s, wantRef)
	}
	var names []string
	for _, c := range s.Columns {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, header[:5]) || s.Columns[2].Function == nil || *s.Columns[2].Function != "sum" ||
		s.Columns[0].Label == nil || *s.Columns[0].Label != "Total" ||
		s.Columns[4].Formula == nil || *s.Columns[4].Formula != "Sales[[#This Row],[Price]]*Sales[[#This Row],[Quantity]]" {
		t.Errorf("Sales columns: %q", names)
		for _, c := range s.Columns {
			t.Logf("  %+v", *c)
		}
	}
	formulas := res.Formulas["Sales"]
	if f := formulas["E4"]; f != "=Sales[[#This Row],[Price]]*Sales[[#This Row],[Quantity]]" {
		t.Errorf("E4 = %q", f)
	}
	if f := formulas["C"+itoa(3+rows+1)]; f != "=SUBTOTAL(109,[Quantity])" {
		t.Errorf("totals under Quantity = %q", f)
	}
	if k := byName["Table2"]; k == nil || k.Ref != "H"+itoa(rows+6)+":I"+itoa(rows+8) {
		t.Errorf("Table2: %+v", k)
	}
	if p := byName["Table3"]; p == nil || p.Ref != "B2:C3" || p.HeaderRows == nil || *p.HeaderRows != 0 || p.Style != nil {
		t.Errorf("Table3: %+v", p)
	}

	resaved := pyread.Resave(t, filepath.Join(dir, "lo"), path)[0]
	again := pyread.Read(t, resaved)[resaved]
	if again == nil || again.Error != "" {
		t.Fatalf("LibreOffice's copy: %+v", again)
	}
	var kept []string
	for _, tb := range again.Tables["Sales"] {
		kept = append(kept, tb.Ref)
	}
	slices.Sort(kept)
	if !slices.Equal(kept, []string{wantRef, "H" + itoa(rows+6) + ":I" + itoa(rows+8)}) {
		t.Errorf("LibreOffice kept tables %q", kept)
	}
	// LibreOffice recalculates on load (fullCalcOnLoad): its totals are
	// the ones the writer cached. (It reads the calculated column's
	// [#This Row] references as #NAME?, cached or not.)
	totals := again.Openpyxl["Sales"][3+rows]
	if len(totals) < 4 || totals[2].String() != "n:499500" || totals[3].String() != "n:1.5" {
		t.Errorf("LibreOffice's totals row: %v", totals)
	}
	if e := again.Openpyxl["Sales"][4][4]; e.String() != "n:1.5" || totals[len(totals)-1].String() != "n:749250" {
		t.Errorf("LibreOffice: E5 %v, the calculated column's total %v", e, totals[len(totals)-1])
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestTableNameFromSheet: a table takes its sheet's name when that can
// be a table's name and is free, and TableN otherwise.
func TestTableNameFromSheet(t *testing.T) {
	sheets := []string{"Sales 2024", "A1", "Sales-2024", "Orders"}
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		for _, name := range sheets {
			sh, err := w.AddSheet(name, xlsx.SheetOptions{})
			if err != nil {
				return err
			}
			if err := sh.AddTable(rng("A1:B3"), xlsx.Table{NameFromSheet: true}); err != nil {
				return err
			}
			if name == "Orders" {
				// A given name wins over the sheet's.
				if err := sh.AddTable(rng("D1:E3"), xlsx.Table{Name: "Lines", NameFromSheet: true}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	// "A1" is a cell reference and "Sales-2024" becomes the taken
	// Sales_2024: both fall back to TableN, N being the table's number.
	want := []string{"Sales_2024", "Table2", "Table3", "Orders", "Lines"}
	for i, name := range want {
		table := part(t, book, "xl/tables/table"+itoa(i+1)+".xml")
		if !strings.Contains(table, ` name="`+name+`" displayName="`+name+`"`) {
			t.Errorf("table %d: want the name %s in %.200s", i+1, name, table)
		}
	}
}

// TestTableErrors: what AddTable and the rows refuse, each naming the
// sheet.
func TestTableErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(w *xlsx.Writer, sh *xlsx.Sheet) error
	}{
		{"bad name", func(w *xlsx.Writer, sh *xlsx.Sheet) error {
			return sh.AddTable(rng("A1:B3"), xlsx.Table{Name: "A1"})
		}},
		{"R1C1 name", func(w *xlsx.Writer, sh *xlsx.Sheet) error {
			return sh.AddTable(rng("A1:B3"), xlsx.Table{Name: "r2c3"})
		}},
		{"name with a space", func(w *xlsx.Writer, sh *xlsx.Sheet) error {
			return sh.AddTable(rng("A1:B3"), xlsx.Table{Name: "My table"})
		}},
		{"duplicate name", func(w *xlsx.Writer, sh *xlsx.Sheet) error {
			if err := sh.AddTable(rng("A1:B3"), xlsx.Table{Name: "T"}); err != nil {
				return nil
			}
			return sh.AddTable(rng("D1:E3"), xlsx.Table{Name: "t"})
		}},
		{"a defined name's", func(w *xlsx.Writer, sh *xlsx.Sheet) error {
			if err := w.DefineName(xlsx.DefinedName{Name: "Sales", RefersTo: "Sheet1!$A$1"}); err != nil {
				return nil
			}
			return sh.AddTable(rng("A1:B3"), xlsx.Table{Name: "Sales"})
		}},
		{"overlap", func(w *xlsx.Writer, sh *xlsx.Sheet) error {
			if err := sh.AddTable(xlsx.Range{FirstRow: 1, FirstCol: 1, LastCol: 2}, xlsx.Table{}); err != nil {
				return nil
			}
			return sh.AddTable(rng("B10:C12"), xlsx.Table{})
		}},
		{"one row", func(w *xlsx.Writer, sh *xlsx.Sheet) error {
			return sh.AddTable(rng("A1:B1"), xlsx.Table{})
		}},
		{"label and function", func(w *xlsx.Writer, sh *xlsx.Sheet) error {
			return sh.AddTable(rng("A1:B4"), xlsx.Table{TotalsRow: true, Columns: []xlsx.TableColumn{{Total: xlsx.TotalSum, TotalLabel: "x"}}})
		}},
		{"total without a totals row", func(w *xlsx.Writer, sh *xlsx.Sheet) error {
			return sh.AddTable(rng("A1:B4"), xlsx.Table{Columns: []xlsx.TableColumn{{Total: xlsx.TotalSum}}})
		}},
		{"custom without formula", func(w *xlsx.Writer, sh *xlsx.Sheet) error {
			return sh.AddTable(rng("A1:B4"), xlsx.Table{TotalsRow: true, Columns: []xlsx.TableColumn{{Total: xlsx.TotalCustom}}})
		}},
		{"too many columns", func(w *xlsx.Writer, sh *xlsx.Sheet) error {
			return sh.AddTable(rng("A1:A4"), xlsx.Table{Columns: make([]xlsx.TableColumn, 2)})
		}},
		{"header differs from the name", func(w *xlsx.Writer, sh *xlsx.Sheet) error {
			if err := sh.AddTable(rng("A1:B4"), xlsx.Table{Columns: []xlsx.TableColumn{{Name: "Id"}}}); err != nil {
				return nil
			}
			return sh.WriteRow([]xlsx.Cell{xlsx.String("Key")})
		}},
		{"date in the header", func(w *xlsx.Writer, sh *xlsx.Sheet) error {
			if err := sh.AddTable(rng("A1:B4"), xlsx.Table{}); err != nil {
				return nil
			}
			return sh.WriteRow([]xlsx.Cell{xlsx.Date(xlsx.DateFromSerial(1, false))})
		}},
		{"a cell in the totals row", func(w *xlsx.Writer, sh *xlsx.Sheet) error {
			if err := sh.AddTable(rng("A1:B3"), xlsx.Table{TotalsRow: true, Columns: []xlsx.TableColumn{{TotalLabel: "Total"}}}); err != nil {
				return nil
			}
			if err := sh.SkipRows(2); err != nil {
				return nil
			}
			return sh.WriteRow([]xlsx.Cell{xlsx.String("mine")})
		}},
		{"header row written before", func(w *xlsx.Writer, sh *xlsx.Sheet) error {
			if err := sh.WriteRow([]xlsx.Cell{xlsx.String("a")}); err != nil {
				return nil
			}
			return sh.AddTable(rng("A1:B3"), xlsx.Table{})
		}},
		{"totals row written before", func(w *xlsx.Writer, sh *xlsx.Sheet) error {
			if err := sh.SkipRows(5); err != nil {
				return nil
			}
			return sh.AddTable(rng("A1:B3"), xlsx.Table{TotalsRow: true})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			w, err := xlsx.NewWriter(&buf, xlsx.Options{})
			if err != nil {
				t.Fatal(err)
			}
			sh, err := w.AddSheet("Sheet1", xlsx.SheetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			err = tc.build(w, sh)
			var ce *xlsx.CellError
			if !errors.Is(err, xlsx.ErrTable) && !errors.Is(err, xlsx.ErrRange) || !errors.As(err, &ce) || ce.Sheet != "Sheet1" {
				t.Errorf("error %v", err)
			}
		})
	}
}

// TestCalculatedColumns: a calculated column's formula of arithmetic over
// the row carries the value Excel computes, by Excel's rules (worked out
// here by hand): precedence, left-to-right powers, unary minus before
// powers, percent, text read as a number or #VALUE!, empty as 0, TRUE as
// 1, errors through, #DIV/0!; a formula with a function or another
// reference carries none.
func TestCalculatedColumns(t *testing.T) {
	formulas := map[string]string{
		"Sum":      "[@A]+[@B]*2",
		"Paren":    "([@A]+[@B])*2",
		"Pow":      "2^3^2",
		"Neg":      "-[@A]^2",
		"Pct":      "[@A]*50%",
		"Div":      "[@A]/[@B]",
		"Spaced":   "= [@[A]] - 0.5 ",
		"Function": "SUM([@A],[@B])",
		"Other":    "[@A]+C1",
	}
	names := []string{"A", "B", "Sum", "Paren", "Pow", "Neg", "Pct", "Div", "Spaced", "Function", "Other"}
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("S", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		var cols []xlsx.TableColumn
		for _, n := range names {
			cols = append(cols, xlsx.TableColumn{Name: n, Formula: formulas[n]})
		}
		if err := sh.AddTable(xlsx.Range{FirstRow: 1, FirstCol: 1, LastCol: len(names)}, xlsx.Table{Columns: cols}); err != nil {
			return err
		}
		if err := sh.WriteRow(nil); err != nil {
			return err
		}
		for _, r := range [][]xlsx.Cell{
			{xlsx.Int(3), xlsx.Int(2)},
			{xlsx.String(" 4 "), xlsx.Bool(true)},
			{xlsx.String("four"), xlsx.Int(0)},
			{xlsx.Cell{}, xlsx.Error(xlsx.ErrorNA)},
			{xlsx.Int(1), xlsx.Int(0)},
		} {
			if err := sh.WriteRow(r); err != nil {
				return err
			}
		}
		return nil
	})
	wb, _ := xlsx.NewReader(bytes.NewReader(book), int64(len(book)), xlsx.ReadOptions{})
	rs, _ := wb.Rows(context.Background(), 0)
	var got []map[string]string
	for rs.Next() {
		if rs.Row().Num == 1 {
			continue
		}
		m := map[string]string{}
		for _, c := range rs.Row().Cells {
			m[names[c.Col()-1]] = c.String()
		}
		got = append(got, m)
	}
	want := []map[string]string{
		{"Sum": "7", "Paren": "10", "Pow": "64", "Neg": "9", "Pct": "1.5", "Div": "1.5", "Spaced": "2.5", "Function": "", "Other": ""},
		{"Sum": "6", "Paren": "10", "Pow": "64", "Neg": "16", "Pct": "2", "Div": "4", "Spaced": "3.5", "Function": "", "Other": ""},
		{"Sum": "#VALUE!", "Paren": "#VALUE!", "Pow": "64", "Neg": "#VALUE!", "Pct": "#VALUE!", "Div": "#VALUE!", "Spaced": "#VALUE!", "Function": "", "Other": ""},
		{"Sum": "#N/A", "Paren": "#N/A", "Pow": "64", "Neg": "0", "Pct": "0", "Div": "#N/A", "Spaced": "-0.5", "Function": "", "Other": ""},
		{"Sum": "1", "Div": "#DIV/0!", "Neg": "1"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows", len(got))
	}
	for i := range want {
		for k, v := range want[i] {
			if got[i][k] != v {
				t.Errorf("row %d %s = %s: %q, want %q", i+2, k, formulas[k], got[i][k], v)
			}
		}
	}
}
