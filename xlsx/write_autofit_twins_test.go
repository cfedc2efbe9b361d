package xlsx_test

import "github.com/sheetstream/sheetstream/xlsx"

// Autofit's twins: rust_xlsxwriter's autofit tests that Excel's own
// widths and ours agree on (see TestAutofitWidths).

func fitted(w *xlsx.Writer) *sheetOf {
	return add(w, "Sheet1", xlsx.SheetOptions{AutoFit: true})
}

var autofitTwins = []twin{
	{file: "rust_xlsxwriter/autofit02.xlsx", build: func(w *xlsx.Writer) error {
		return fitted(w).at("A1", str("A")).err
	}},
	{file: "rust_xlsxwriter/autofit03.xlsx", build: func(w *xlsx.Writer) error {
		return fitted(w).do(func(sh *xlsx.Sheet) error {
			return sh.SetColumn(2, 2, xlsx.ColumnOptions{Width: inverseWidth(2.28515625)})
		}).at("A1", str("A"), str("A")).err
	}},
	{file: "rust_xlsxwriter/autofit04.xlsx", build: func(w *xlsx.Writer) error {
		return fitted(w).at("A1", str("Hello"), str("World"), num(123), num(1234567)).err
	}},
	{file: "rust_xlsxwriter/autofit06.xlsx", build: func(w *xlsx.Writer) error {
		return fitted(w).at("A1", xlsx.Bool(true), xlsx.Bool(false)).err
	}},
	{file: "rust_xlsxwriter/autofit08.xlsx", build: func(w *xlsx.Writer) error {
		return fitted(w).at("A1", str("a")).at("A2", str("aaa")).at("A3", str("a")).at("A4", str("aaaa")).at("A5", str("a")).err
	}},
	{file: "rust_xlsxwriter/autofit11.xlsx", build: func(w *xlsx.Writer) error {
		return fitted(w).at("A1", xlsx.Formula("9999+1").WithValue(num(10000))).err
	}},
}
