package sqlsheet_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// TestExportExcelTable exports queries as Excel tables: every sheet of a
// query split over sheets gets its own, named after the sheet or, when
// that cannot be a table's name, Table1...; a query without the option
// keeps its autofilter. openpyxl and the validator read the file.
func TestExportExcelTable(t *testing.T) {
	pyread.Python(t)
	dir := t.TempDir()
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(dir, "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, amount NUMERIC(10,2));
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 25)
		INSERT INTO orders SELECT i, 'c' || i, i * 1.5 FROM n`); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "tables.xlsx")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := xlsx.NewWriter(f, xlsx.Options{})
	if err != nil {
		t.Fatal(err)
	}
	queries := []sqlsheet.Query{
		{SQL: "SELECT * FROM orders", Sheet: "Orders", ExcelTable: true}, // 25 rows, 10 a sheet: three sheets
		{SQL: "SELECT customer, customer FROM orders WHERE id < 3", Sheet: "A1", ExcelTable: true},
		{SQL: "SELECT id FROM orders WHERE id < 3", Sheet: "Plain"},
	}
	st, err := sqlsheet.Export(context.Background(), db, w, queries, sqlsheet.Options{RowsPerSheet: 11})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if want := []string{"Orders", "Orders (2)", "Orders (3)", "A1", "Plain"}; !slices.Equal(st.Sheets, want) {
		t.Fatalf("sheets %q, want %q", st.Sheets, want)
	}
	res := pyread.Read(t, path)[path]
	if res == nil || res.Error != "" || len(res.Audit) > 0 {
		t.Fatalf("%+v", res)
	}
	want := map[string][2]string{ // sheet: table name, range
		"Orders":     {"Orders", "A1:C11"},
		"Orders (2)": {"Orders__2_", "A1:C11"},
		"Orders (3)": {"Orders__3_", "A1:C6"},
		"A1":         {"Table4", "A1:B3"}, // "A1" is a cell
	}
	for sheet, nameRef := range want {
		tables := res.Tables[sheet]
		if len(tables) != 1 || tables[0].Name != nameRef[0] || tables[0].Ref != nameRef[1] || tables[0].Style == nil || *tables[0].Style != "TableStyleMedium2" {
			t.Errorf("%s: tables %+v, want %v", sheet, tables, nameRef)
			continue
		}
		if f := res.Filters[sheet]; f != nil {
			t.Errorf("%s: a sheet autofilter %q as well as the table's", sheet, *f)
		}
	}
	if cols := res.Tables["A1"]; len(cols) == 1 && (cols[0].Columns[0].Name != "customer" || cols[0].Columns[1].Name != "customer2") {
		t.Errorf("repeated column names: %+v %+v", cols[0].Columns[0], cols[0].Columns[1])
	}
	if len(res.Tables["Plain"]) != 0 || res.Filters["Plain"] == nil || *res.Filters["Plain"] != "A1:A3" {
		t.Errorf("Plain: tables %+v, autofilter %v", res.Tables["Plain"], res.Filters["Plain"])
	}
}
