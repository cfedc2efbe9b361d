package xlsx_test

import (
	"github.com/sheetstream/sheetstream/xlsx"
)

// Excel tables' twins: rust_xlsxwriter's table tests, as Excel saved
// them. Their tables use TableStyleMedium9 and 11-character columns.

const medium9 = "TableStyleMedium9"

// tableSheet adds a sheet whose columns first..last are 11 wide, as the
// table tests set them.
func tableSheet(w *xlsx.Writer, name string, first, last int) *sheetOf {
	return add(w, name).do(func(sh *xlsx.Sheet) error {
		return sh.SetColumn(first, last, xlsx.ColumnOptions{Width: inverseWidth(11)})
	})
}

func (s *sheetOf) table(ref string, t xlsx.Table) *sheetOf {
	if t.Style == "" {
		t.Style = medium9
	}
	return s.do(func(sh *xlsx.Sheet) error { return sh.AddTable(rng(ref), t) })
}

// tableData writes rows of the table tests' data from row 3, column C:
// a name and cols numbers.
func tableData(s *sheetOf, rowCount, cols int) *sheetOf {
	rows := [][3]int64{{1234, 2000, 4321}, {1256, 4000, 4320}, {2234, 3000, 4332}, {1324, 1000, 4333}}
	for i, name := range []string{"Foo", "Bar", "Baz", "Bop"}[:rowCount] {
		cells := []xlsx.Cell{str(name)}
		for c := range cols {
			cells = append(cells, num(rows[i][c]))
		}
		s.at(xlsx.CellName(3+i, 3), cells...)
	}
	return s
}

// totalsColumns are the ten columns of the totals tests: a label, then
// every function.
var totalsColumns = []xlsx.TableColumn{
	{TotalLabel: "Total"}, {}, {Total: xlsx.TotalAverage}, {Total: xlsx.TotalCount}, {Total: xlsx.TotalCountNums},
	{Total: xlsx.TotalMax}, {Total: xlsx.TotalMin}, {Total: xlsx.TotalSum}, {Total: xlsx.TotalStdDev}, {Total: xlsx.TotalVar},
}

// totalsTwin is table09 and its kin: a header row in row 1 outside the
// table, two rows of zeros, and a totals row.
func totalsTwin(w *xlsx.Writer, columns []xlsx.TableColumn, header []string, calculated bool) error {
	s := tableSheet(w, "Sheet1", 2, 11)
	var cells []xlsx.Cell
	for _, h := range header {
		cells = append(cells, str(h))
	}
	s.at("A1", cells...)
	s.table("B3:K6", xlsx.Table{TotalsRow: true, Columns: columns})
	zero := num(0)
	last := zero
	if calculated {
		last = xlsx.Cell{} // the table's formula
	}
	for _, ref := range []string{"B4", "B5"} {
		s.at(ref, zero, zero, zero, xlsx.Cell{}, xlsx.Cell{}, zero, zero, zero, zero, last)
	}
	return s.err
}

func columnNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = "Column" + string(rune('1'+i))
	}
	if n == 10 {
		names[9] = "Column10"
	}
	return names
}

var tableTwins = []twin{
	{file: "rust_xlsxwriter/table01.xlsx", build: func(w *xlsx.Writer) error {
		return tableSheet(w, "Sheet1", 3, 6).table("C3:F13", xlsx.Table{}).err
	}},
	{file: "rust_xlsxwriter/table02.xlsx", build: func(w *xlsx.Writer) error {
		one := tableSheet(w, "Sheet1", 2, 10).table("B3:E11", xlsx.Table{}).table("G10:J16", xlsx.Table{}).table("C18:F25", xlsx.Table{})
		two := tableSheet(w, "Sheet2", 3, 12).table("I4:L11", xlsx.Table{}).table("C16:H23", xlsx.Table{})
		return firstErr(one, two)
	}},
	{file: "rust_xlsxwriter/table03.xlsx", build: func(w *xlsx.Writer) error {
		return tableSheet(w, "Sheet1", 3, 6).table("C3:F13", xlsx.Table{}).
			at("A16", xlsx.Link("http://perl.com/", "")).err
	}},
	{file: "rust_xlsxwriter/table07.xlsx", build: func(w *xlsx.Writer) error {
		return tableSheet(w, "Sheet1", 3, 6).at("A1", str("Foo")).table("C3:F13", xlsx.Table{NoHeaderRow: true}).err
	}},
	{file: "rust_xlsxwriter/table08.xlsx", build: func(w *xlsx.Writer) error {
		return tableSheet(w, "Sheet1", 3, 6).table("C3:F14", xlsx.Table{TotalsRow: true, Columns: []xlsx.TableColumn{
			{TotalLabel: "Total"}, {}, {}, {Total: xlsx.TotalCount}}}).err
	}},
	{file: "rust_xlsxwriter/table09.xlsx", build: func(w *xlsx.Writer) error {
		return totalsTwin(w, totalsColumns, append(columnNames(10), "Total"), false)
	}},
	{file: "rust_xlsxwriter/table10.xlsx", build: func(w *xlsx.Writer) error {
		columns := append([]xlsx.TableColumn{}, totalsColumns...)
		columns[9].Formula = "SUM(Table1[@[Column1]:[Column3]])"
		return totalsTwin(w, columns, append(columnNames(10), "Total"), true)
	}, uncached: []string{"K4", "K5", "K6"}},
	{file: "rust_xlsxwriter/table11.xlsx", build: func(w *xlsx.Writer) error {
		s := tableSheet(w, "Sheet1", 3, 6).table("C2:F6", xlsx.Table{})
		return tableData(s, 4, 3).err
	}},
	{file: "rust_xlsxwriter/table12.xlsx", build: func(w *xlsx.Writer) error {
		s := tableSheet(w, "Sheet1", 3, 6).table("C2:F6", xlsx.Table{})
		return tableData(s, 3, 2).err
	}},
	{file: "rust_xlsxwriter/table18.xlsx", build: func(w *xlsx.Writer) error {
		wrap := st(w, xlsx.Style{Alignment: xlsx.Alignment{Wrap: true}})
		s := tableSheet(w, "Sheet1", 3, 6).table("C3:F13", xlsx.Table{Columns: []xlsx.TableColumn{{}, {}, {}, {Name: "Column\n4"}}})
		s.rowAt("C3", &xlsx.RowOptions{Height: 39}, xlsx.Cell{}, xlsx.Cell{}, xlsx.Cell{}, xlsx.Cell{}.WithStyle(wrap))
		return s.at("A16", str("hello")).err
	}},
	{file: "rust_xlsxwriter/table19.xlsx", build: func(w *xlsx.Writer) error {
		return tableSheet(w, "Sheet1", 3, 6).table("C3:F13", xlsx.Table{Columns: []xlsx.TableColumn{{}, {}, {}, {Name: " Column4 "}}}).err
	}},
	{file: "rust_xlsxwriter/table21.xlsx", build: func(w *xlsx.Writer) error {
		return tableSheet(w, "Sheet1", 3, 4).at("A1", str("Column")).
			table("C3:D13", xlsx.Table{Columns: []xlsx.TableColumn{{Name: "Column"}, {}}}).err
	}},
	{file: "rust_xlsxwriter/table22.xlsx", build: func(w *xlsx.Writer) error {
		return tableSheet(w, "Sheet1", 2, 3).table("B2:C3", xlsx.Table{NoHeaderRow: true}).
			at("B2", str("apple"), str("pie")).at("B3", str("pine"), str("tree")).err
	}},
	{file: "rust_xlsxwriter/table23.xlsx", build: func(w *xlsx.Writer) error {
		sum := xlsx.TableColumn{Total: xlsx.TotalSum}
		columns := []xlsx.TableColumn{{TotalLabel: "Total"}, sum, sum, sum, sum}
		for i, name := range []string{"Column1", "Column'", "Column#", "Column[", "Column]"} {
			columns[i].Name = name
		}
		s := tableSheet(w, "Sheet1", 2, 6).at("A1", str("Column1"), str("Total"), str("Column'"), str("Column#"), str("Column["), str("Column]"))
		return s.table("B3:F9", xlsx.Table{TotalsRow: true, Columns: columns}).err
	}},
	{file: "rust_xlsxwriter/table24.xlsx", build: func(w *xlsx.Writer) error {
		return tableSheet(w, "Sheet1", 3, 6).table("C3:F13", xlsx.Table{Style: "TableStyleMedium10"}).err
	}},
	{file: "rust_xlsxwriter/table25.xlsx", build: func(w *xlsx.Writer) error {
		return tableSheet(w, "Sheet1", 3, 6).table("C3:F13", xlsx.Table{Style: xlsx.TableStyleNone}).err
	}},
	{file: "rust_xlsxwriter/table32.xlsx", build: func(w *xlsx.Writer) error {
		return tableSheet(w, "Sheet1", 3, 6).table("C3:F14", xlsx.Table{TotalsRow: true, Columns: []xlsx.TableColumn{
			{TotalLabel: "Total"}, {Total: xlsx.TotalCustom, TotalFormula: "D5+D9"},
			{Total: xlsx.TotalCustom, TotalFormula: "SUM([Column3])"}, {Total: xlsx.TotalCount}}}).err
	}},
	{file: "rust_xlsxwriter/table36.xlsx", build: func(w *xlsx.Writer) error {
		s := tableSheet(w, "Sheet1", 3, 6).at("A1", str("Column1"), str("Column2"), str("Column3"), str("Column4"), str("Total"))
		return s.table("C3:F14", xlsx.Table{TotalsRow: true, Columns: []xlsx.TableColumn{
			{TotalLabel: "Total"}, {Total: xlsx.TotalCustom, TotalFormula: "_xlfn.BASE(0,2)"},
			{Total: xlsx.TotalCustom, TotalFormula: "SUM([Column3])"}, {Total: xlsx.TotalCount}}}).err
	}},
}
