package xlsx_test

import (
	"errors"
	"strconv"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Outlines' twins: rust_xlsxwriter's outline tests whose shared strings
// are in the order rows write them (outline01, 02, 05 and 06 wrote
// column A first).

var outlineTwins = []twin{
	{file: "rust_xlsxwriter/outline04.xlsx", build: func(w *xlsx.Writer) error {
		s := add(w, "Outline levels")
		for i, level := range []uint8{1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1} {
			s.rowAt(xlsx.CellName(i+1, 1), &xlsx.RowOptions{OutlineLevel: level}, str("Level "+string(rune('0'+level))))
		}
		return s.err
	}},
	{file: "rust_xlsxwriter/outline03.xlsx", build: func(w *xlsx.Writer) error {
		b := st(w, xlsx.Style{Font: bold})
		s := add(w, "Outline Columns").do(func(sh *xlsx.Sheet) error {
			return errors.Join(
				sh.SetColumn(1, 1, xlsx.ColumnOptions{Width: inverseWidth(10.7109375), Style: b}),
				sh.SetColumn(2, 7, xlsx.ColumnOptions{Width: inverseWidth(6.7109375), OutlineLevel: 1}),
				sh.SetColumn(8, 8, xlsx.ColumnOptions{Width: inverseWidth(10.7109375)}))
		})
		header := []xlsx.Cell{str("Month").WithStyle(b)}
		for _, m := range []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Total"} {
			header = append(header, str(m).WithStyle(b))
		}
		rowStyle := xlsx.RowOptions{}.WithStyle(b)
		s.rowAt("A1", &rowStyle, header...)
		for i, r := range []struct {
			region string
			sales  [6]int64
			total  int64
		}{{"North", [6]int64{50, 20, 15, 25, 65, 80}, 255}, {"South", [6]int64{10, 20, 30, 50, 50, 50}, 210},
			{"East", [6]int64{45, 75, 50, 15, 75, 100}, 360}, {"West", [6]int64{15, 15, 55, 35, 20, 50}, 190}} {
			cells := []xlsx.Cell{str(r.region).WithStyle(b)}
			for _, v := range r.sales {
				cells = append(cells, num(v))
			}
			n := strconv.Itoa(i + 2)
			cells = append(cells, xlsx.Formula("SUM(B"+n+":G"+n+")").WithValue(num(r.total)))
			s.at("A"+n, cells...)
		}
		return s.at("H6", xlsx.Formula("SUM(H2:H5)").WithValue(num(1015)).WithStyle(b)).err
	}},
}
