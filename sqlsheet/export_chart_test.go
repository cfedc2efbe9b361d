package sqlsheet_test

import (
	"archive/zip"
	"context"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// chartsOf reads the chart parts of a workbook file.
func chartsOf(t *testing.T, path string) []string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var out []string
	for i := 1; ; i++ {
		f, err := zr.Open("xl/charts/chart" + strconv.Itoa(i) + ".xml")
		if err != nil {
			return out
		}
		b, _ := io.ReadAll(f)
		f.Close()
		out = append(out, string(b))
	}
}

var points = regexp.MustCompile(`<c:pt idx=`)

// TestExportCharts: charts named by columns are drawn beside the rows of
// each sheet the query fills, their series over every row written and
// cached, titled from the columns.
func TestExportCharts(t *testing.T) {
	db := openEngine(t, sqlsheet.EngineSQLite)
	mustExec(t, db, `CREATE TABLE sales (month TEXT, revenue REAL, cost REAL)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 250)
		 INSERT INTO sales SELECT 'm' || i, i * 10.5, i * 4 FROM n`)
	col, err := sqlsheet.ParseChart("column:month:revenue,cost")
	if err != nil {
		t.Fatal(err)
	}
	line, err := sqlsheet.ParseChart("line::Revenue")
	if err != nil {
		t.Fatal(err)
	}
	path, st := export(t, db, []sqlsheet.Query{{SQL: "SELECT * FROM sales", Sheet: "Sales Q1", Charts: []sqlsheet.Chart{col, line}}},
		sqlsheet.Options{RowsPerSheet: 201})
	if len(st.Sheets) != 2 {
		t.Fatalf("sheets %v", st.Sheets)
	}
	charts := chartsOf(t, path)
	if len(charts) != 4 {
		t.Fatalf("%d charts, want 2 a sheet", len(charts))
	}
	for i, want := range []struct{ sheet, last string }{{"'Sales Q1'", "201"}, {"'Sales Q1 (2)'", "51"}} {
		c := charts[2*i]
		for _, s := range []string{
			"<c:barChart>", "<c:f>" + want.sheet + "!$A$2:$A$" + want.last + "</c:f>", "<c:f>" + want.sheet + "!$C$2:$C$" + want.last + "</c:f>",
			"<c:f>" + want.sheet + "!$B$1</c:f>", "<a:t>revenue, cost by month</a:t>",
		} {
			if !strings.Contains(c, s) {
				t.Errorf("sheet %s's column chart lacks %s", want.sheet, s)
			}
		}
		rows := 200
		if i == 1 {
			rows = 50
		}
		// Each series' categories and values, and the two names.
		if n := len(points.FindAllString(c, -1)); n != 4*rows+2 {
			t.Errorf("sheet %s: %d cached points, want %d", want.sheet, n, 4*rows+2)
		}
		if l := charts[2*i+1]; !strings.Contains(l, "<c:lineChart>") || !strings.Contains(l, "<a:t>revenue</a:t>") || strings.Contains(l, "<c:cat>") {
			t.Errorf("sheet %s's line chart: %.300s", want.sheet, l)
		}
	}
}

// TestExportChartErrors: a chart naming a column the query lacks fails
// before any row, naming the sheet, the column and the columns there are;
// ParseChart says what it wants.
func TestExportChartErrors(t *testing.T) {
	db := openEngine(t, sqlsheet.EngineSQLite)
	mustExec(t, db, `CREATE TABLE t (a INTEGER, b INTEGER)`, `INSERT INTO t VALUES (1, 2)`)
	w, err := xlsx.NewWriter(io.Discard, xlsx.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	c, _ := sqlsheet.ParseChart("bar:a:c")
	_, err = sqlsheet.Export(context.Background(), db, w, []sqlsheet.Query{{SQL: "SELECT * FROM t", Sheet: "T", Charts: []sqlsheet.Chart{c}}}, sqlsheet.Options{})
	if err == nil || !strings.Contains(err.Error(), `sheet "T"`) || !strings.Contains(err.Error(), `no column "c"`) || !strings.Contains(err.Error(), "a, b") {
		t.Errorf("missing column: %v", err)
	}
	stock, _ := sqlsheet.ParseChart("stock:a:b")
	w2, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	defer w2.Abort()
	if _, err := sqlsheet.Export(context.Background(), db, w2, []sqlsheet.Query{{SQL: "SELECT * FROM t", Charts: []sqlsheet.Chart{stock}}}, sqlsheet.Options{}); err == nil || !strings.Contains(err.Error(), "3 value columns") {
		t.Errorf("stock with one value column: %v", err)
	}
	for _, bad := range []string{"column", "column:a", "pizza:a:b", "line:a:", "line:a:b,,c"} {
		if _, err := sqlsheet.ParseChart(bad); err == nil {
			t.Errorf("ParseChart(%q) took it", bad)
		}
	}
	if _, err := sqlsheet.ParseChart("pizza:a:b"); !strings.Contains(err.Error(), "scatter-smooth") {
		t.Errorf("an unknown type does not list the types: %v", err)
	}
}
