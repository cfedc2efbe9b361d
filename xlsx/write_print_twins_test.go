package xlsx_test

import (
	"strings"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Print setup's twins: rust_xlsxwriter's print area, options, page break
// and repeat tests, and XlsxWriter's start page and header tests (those
// without Excel's binary printer settings part).

// printed adds a sheet with a print setup and "Foo" in A1, as most of
// these tests have.
func printed(w *xlsx.Writer, name string, p xlsx.PrintSetup) *sheetOf {
	return add(w, name, xlsx.SheetOptions{Print: &p}).at("A1", str("Foo"))
}

// a4 are the margins Excel gives an A4 page in a metric locale (1.8,
// 1.9 and 0.8 cm, as Excel rounds them to inches), as XlsxWriter's files
// have them.
var a4 = &xlsx.PageMargins{Left: 0.70866141732283472, Right: 0.70866141732283472, Top: 0.74803149606299213,
	Bottom: 0.74803149606299213, Header: 0.31496062992125984, Footer: 0.31496062992125984}

func breaks(n ...int) []int { return n }

var printTwins = []twin{
	{file: "rust_xlsxwriter/print_area01.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{Area: rng("A1")}).err
	}},
	{file: "rust_xlsxwriter/print_area02.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{Area: rng("A1:G1")}).err
	}},
	{file: "rust_xlsxwriter/print_area03.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{Area: xlsx.Range{FirstRow: 1, FirstCol: 1, LastRow: 1, LastCol: xlsx.MaxColumns}}).err
	}},
	{file: "rust_xlsxwriter/print_area04.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{Area: rng("A1:A8")}).err
	}},
	{file: "rust_xlsxwriter/print_area05.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{Area: xlsx.Range{FirstRow: 1, FirstCol: 1, LastRow: xlsx.MaxRows, LastCol: 1}}).err
	}},
	{file: "rust_xlsxwriter/print_area06.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{Area: rng("A1:F9")}).err
	}},
	{file: "rust_xlsxwriter/print_area08.xlsx", build: func(w *xlsx.Writer) error {
		return firstErr(printed(w, "Sheet1", xlsx.PrintSetup{Area: rng("A1")}), printed(w, "Sheet2", xlsx.PrintSetup{Area: rng("A1")}))
	}},
	{file: "rust_xlsxwriter/print_options01.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{Gridlines: true}).err
	}},
	{file: "rust_xlsxwriter/print_options02.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{CenterHorizontally: true}).err
	}},
	{file: "rust_xlsxwriter/print_options03.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{CenterVertically: true}).err
	}},
	{file: "rust_xlsxwriter/print_options04.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{Headings: true}).err
	}},
	{file: "rust_xlsxwriter/print_options05.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{CenterHorizontally: true, CenterVertically: true, Headings: true, Gridlines: true}).err
	}},
	{file: "rust_xlsxwriter/print_options06.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{Area: rng("A1:G20"), RepeatRows: xlsx.Lines{First: 1, Last: 1}}).err
	}},
	{file: "rust_xlsxwriter/print_options07.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{PaperSize: 9, BlackAndWhite: true}).err
	}},
	{file: "rust_xlsxwriter/page_breaks01.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{RowBreaks: breaks(1)}).err
	}},
	{file: "rust_xlsxwriter/page_breaks02.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{RowBreaks: breaks(15, 7, 3, 0+3)}).err // unsorted, one twice
	}},
	{file: "rust_xlsxwriter/page_breaks03.xlsx", build: func(w *xlsx.Writer) error {
		var rows []int
		for i := range 1023 {
			rows = append(rows, i+1)
		}
		return printed(w, "Sheet1", xlsx.PrintSetup{RowBreaks: rows}).err
	}},
	{file: "rust_xlsxwriter/page_breaks04.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{ColumnBreaks: breaks(1)}).err
	}},
	{file: "rust_xlsxwriter/page_breaks05.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{ColumnBreaks: breaks(1, 3, 8)}).err
	}},
	{file: "rust_xlsxwriter/page_breaks06.xlsx", build: func(w *xlsx.Writer) error {
		// Row breaks while streaming: after rows 1, 5, 8 and 13.
		s := add(w, "Sheet1", xlsx.SheetOptions{Print: &xlsx.PrintSetup{ColumnBreaks: breaks(8, 3, 1)}}).at("A1", str("Foo"))
		s.do(func(sh *xlsx.Sheet) error { return sh.AddPageBreak() })
		for _, after := range []int{5, 8, 13} {
			s.do(func(sh *xlsx.Sheet) error {
				if err := sh.SkipRows(after - sh.LastRow()); err != nil {
					return err
				}
				return sh.AddPageBreak()
			})
		}
		return s.err
	}},
	{file: "rust_xlsxwriter/repeat01.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{RepeatRows: xlsx.Lines{First: 1, Last: 1}}).err
	}},
	{file: "rust_xlsxwriter/repeat02.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{RepeatColumns: xlsx.Lines{First: 1, Last: 1}}).err
	}},
	{file: "rust_xlsxwriter/repeat03.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{RepeatRows: xlsx.Lines{First: 1, Last: 1}, RepeatColumns: xlsx.Lines{First: 1, Last: 1}}).err
	}},
	{file: "rust_xlsxwriter/repeat04.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet 1", xlsx.PrintSetup{RepeatRows: xlsx.Lines{First: 1, Last: 1}}).err
	}},
	{file: "XlsxWriter/print_options07.xlsx", build: func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{PaperSize: 9, Margins: a4, BlackAndWhite: true}).err
	}},
	{file: "XlsxWriter/header01.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1", xlsx.SheetOptions{Print: &xlsx.PrintSetup{PaperSize: 9, Margins: a4, Header: "&L&P", HeaderFooterUnscaled: true}}).err
	}},
	{file: "XlsxWriter/header02.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1", xlsx.SheetOptions{Print: &xlsx.PrintSetup{PaperSize: 9, Margins: a4, Header: "&L&P", HeaderFooterUnaligned: true}}).err
	}},
	{file: "XlsxWriter/header03.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1", xlsx.SheetOptions{Print: &xlsx.PrintSetup{PaperSize: 9, Margins: a4, Footer: "&L&P",
			HeaderFooterUnscaled: true, HeaderFooterUnaligned: true}}).err
	}},
	{file: "XlsxWriter/header04.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1", xlsx.SheetOptions{Print: &xlsx.PrintSetup{PaperSize: 9, Header: "&C" + strings.Repeat("Ž", 253)}}).err
	}},
}

func startPage(first int) func(w *xlsx.Writer) error {
	return func(w *xlsx.Writer) error {
		return printed(w, "Sheet1", xlsx.PrintSetup{PaperSize: 9, Margins: a4, FirstPageNumber: first}).err
	}
}

// startPageTwins: XlsxWriter's first page numbers.
var startPageTwins = []twin{
	{file: "XlsxWriter/set_start_page01.xlsx", build: startPage(1)},
	{file: "XlsxWriter/set_start_page02.xlsx", build: startPage(2)},
	{file: "XlsxWriter/set_start_page03.xlsx", build: startPage(101)},
}
