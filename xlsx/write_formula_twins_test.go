package xlsx_test

import "github.com/sheetstream/sheetstream/xlsx"

// Array and dynamic array formulas' twins: rust_xlsxwriter's tests.

// arraySheet writes array_formula01's sheet: an array formula over
// A1:A3 (or A1 alone), in a style, beside zeros in B1:C3 (or none).
func arraySheet(w *xlsx.Writer, ref string, style xlsx.Style, zeros bool) error {
	id := st(w, style)
	zero := num(0)
	formula := xlsx.ArrayFormula("{=SUM(B1:C1*B2:C2)}", rng(ref)).WithValue(zero).WithStyle(id)
	rows := [][]xlsx.Cell{{formula, zero, zero}, {zero.WithStyle(id), zero, zero}, {zero.WithStyle(id), zero, zero}}
	s := add(w, "Sheet1")
	for i, r := range rows {
		if ref == "A1" && i > 0 {
			r[0] = xlsx.Cell{}
		}
		if !zeros {
			r = r[:1]
		}
		s.at(xlsx.CellName(i+1, 1), r...)
	}
	return s.err
}

var formulaTwins = []twin{
	{file: "rust_xlsxwriter/array_formula01.xlsx", build: func(w *xlsx.Writer) error {
		return arraySheet(w, "A1:A3", xlsx.Style{}, true)
	}},
	{file: "rust_xlsxwriter/array_formula02.xlsx", build: func(w *xlsx.Writer) error {
		return arraySheet(w, "A1:A3", xlsx.Style{Font: bold}, true)
	}},
	{file: "rust_xlsxwriter/array_formula03.xlsx", build: func(w *xlsx.Writer) error {
		return arraySheet(w, "A1", xlsx.Style{}, true)
	}},
	{file: "rust_xlsxwriter/array_formula04.xlsx", build: func(w *xlsx.Writer) error {
		return arraySheet(w, "A1:A3", xlsx.Style{}, false)
	}},
	{file: "rust_xlsxwriter/dynamic_array01.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1").at("A1", xlsx.DynamicFormula("AVERAGE(TIMEVALUE(B1:B2))").WithValue(num(0)), str("12:00")).
			at("B2", str("12:00")).err
	}},
	{file: "rust_xlsxwriter/dynamic_array02.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1").at("A1", num(0), xlsx.DynamicFormula("_xlfn.UNIQUE(A1)").WithValue(num(0))).err
	}},
	{file: "rust_xlsxwriter/dynamic_array03.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1").at("A1", xlsx.Formula("1+_xlfn.XOR(1)").WithValue(num(2))).err
	}},
	{file: "rust_xlsxwriter/dynamic_array04.xlsx", build: func(w *xlsx.Writer) error {
		b := st(w, xlsx.Style{Font: bold})
		return add(w, "Sheet1").at("A1", xlsx.DynamicFormula("AVERAGE(TIMEVALUE(B1:B2))").WithValue(xlsx.Float(0.5)).WithStyle(b), str("12:00")).
			at("B2", str("12:00")).err
	}},
}
