package xlsx_test

import "github.com/sheetstream/sheetstream/xlsx"

// Conditional formats' twins: rust_xlsxwriter's cond_format tests whose
// differential formats Excel numbered in the order of their rules (in
// 03, 04 and 07 it numbered them backwards), without icon thresholds of
// their own (18, 20) and without Excel's printer settings (21).

// tens writes 10, 20, 30, 40 down column A.
func tens(w *xlsx.Writer) *sheetOf {
	return add(w, "Sheet1").at("A1", num(10)).at("A2", num(20)).at("A3", num(30)).at("A4", num(40))
}

// hello writes "Hello" in a style (the conditional format's, in these
// tests) and 10-40 in B3:B6.
func hello(w *xlsx.Writer, style xlsx.Style) *sheetOf {
	return add(w, "Sheet1").at("A1", str("Hello").WithStyle(st(w, style))).at("B3", num(10)).at("B4", num(20)).at("B5", num(30)).at("B6", num(40))
}

func (s *sheetOf) cond(ref string, f xlsx.ConditionalFormat) *sheetOf {
	return s.do(func(sh *xlsx.Sheet) error { return sh.AddConditionalFormat(rng(ref), f) })
}

// Excel's "Light red fill with dark red text" and "Yellow fill with dark
// yellow text".
var (
	lightRed = xlsx.Style{Font: xlsx.Font{Color: "9C0006"}, Fill: xlsx.Fill{Pattern: xlsx.PatternSolid, Color: "FFC7CE"}}
	yellow   = xlsx.Style{Font: xlsx.Font{Color: "9C6500"}, Fill: xlsx.Fill{Pattern: xlsx.PatternSolid, Color: "FFEB9C"}}
	redFill  = xlsx.Style{Fill: xlsx.Fill{Pattern: xlsx.PatternSolid, Color: "FF0000"}}
	green    = xlsx.Style{Fill: xlsx.Fill{Pattern: xlsx.PatternSolid, Color: "92D050"}}
)

func cellIs(op xlsx.Operator, v int64, format xlsx.Style) xlsx.ConditionalFormat {
	return xlsx.ConditionalFormat{Type: xlsx.CondCell, Operator: op, Value1: num(v), Format: format}
}

var condFormatTwins = []twin{
	{file: "rust_xlsxwriter/cond_format01.xlsx", build: func(w *xlsx.Writer) error {
		return tens(w).cond("A1", cellIs(xlsx.GreaterThan, 5, lightRed)).err
	}},
	{file: "rust_xlsxwriter/cond_format02.xlsx", build: func(w *xlsx.Writer) error {
		return tens(w).cond("A1", cellIs(xlsx.LessThan, 5, xlsx.Style{})).err
	}},
	{file: "rust_xlsxwriter/cond_format05.xlsx", build: func(w *xlsx.Writer) error {
		thin := xlsx.BorderLine{Style: xlsx.LineThin}
		return tens(w).cond("A1", cellIs(xlsx.EqualTo, 7, xlsx.Style{Border: xlsx.Border{Left: thin, Right: thin, Top: thin, Bottom: thin}})).err
	}},
	{file: "rust_xlsxwriter/cond_format06.xlsx", build: func(w *xlsx.Writer) error {
		return tens(w).cond("A1", cellIs(xlsx.GreaterThan, 7, xlsx.Style{Fill: xlsx.Fill{Pattern: xlsx.PatternLightGrid, Color: "FF0000", Background: "FFFF00"}})).err
	}},
	{file: "rust_xlsxwriter/cond_format08.xlsx", build: func(w *xlsx.Writer) error {
		return tens(w).cond("A1", cellIs(xlsx.GreaterThan, 5, yellow)).err
	}},
	{file: "rust_xlsxwriter/cond_format10.xlsx", build: func(w *xlsx.Writer) error {
		boldItalic := xlsx.Style{Font: xlsx.Font{Bold: true, Italic: true}}
		return hello(w, boldItalic).cond("B3:B6", cellIs(xlsx.GreaterThan, 20, boldItalic)).err
	}},
	{file: "rust_xlsxwriter/cond_format12.xlsx", build: func(w *xlsx.Writer) error {
		pattern := xlsx.Style{Fill: xlsx.Fill{Pattern: xlsx.PatternLightVertical, Color: "FF0000", Background: "FFFF00"}}
		return hello(w, pattern).cond("B3:B6", cellIs(xlsx.GreaterThan, 20, pattern)).err
	}},
	{file: "rust_xlsxwriter/cond_format14.xlsx", build: func(w *xlsx.Writer) error {
		f := cellIs(xlsx.GreaterThan, 5, redFill)
		f.StopIfTrue = true
		return tens(w).cond("A1", f).err
	}},
	{file: "rust_xlsxwriter/cond_format15.xlsx", build: func(w *xlsx.Writer) error {
		first, second := cellIs(xlsx.LessThan, 5, redFill), cellIs(xlsx.GreaterThan, 20, green)
		first.StopIfTrue, second.StopIfTrue = true, true
		return tens(w).cond("A1", first).cond("A1", second).err
	}},
	{file: "rust_xlsxwriter/cond_format16.xlsx", build: func(w *xlsx.Writer) error {
		second := cellIs(xlsx.GreaterThan, 20, green)
		second.StopIfTrue = true
		return tens(w).cond("A1", cellIs(xlsx.LessThan, 5, redFill)).cond("A1", second).err
	}},
	{file: "rust_xlsxwriter/cond_format19.xlsx", build: func(w *xlsx.Writer) error {
		return tens(w).cond("A1", xlsx.ConditionalFormat{Type: xlsx.CondCell, Operator: xlsx.EqualTo, Value1: str("X"), Format: lightRed}).err
	}},
	{file: "rust_xlsxwriter/cond_format22.xlsx", build: func(w *xlsx.Writer) error {
		return tens(w).cond("A4", cellIs(xlsx.GreaterThan, 4, xlsx.Style{})).cond("A1", cellIs(xlsx.GreaterThan, 1, xlsx.Style{})).err
	}},
}

// condFormatIconTwins: XlsxWriter's icon set with every default.
var condFormatIconTwins = []twin{
	{file: "XlsxWriter/cond_format17.xlsx", build: func(w *xlsx.Writer) error {
		return tens(w).cond("A1:A4", xlsx.ConditionalFormat{Type: xlsx.CondIconSet}).err
	}},
}
