package xlsx_test

import "github.com/sheetstream/sheetstream/xlsx"

// Protection's twins: rust_xlsxwriter's protect tests without passwords
// (those with one carry Excel 2007's 16-bit hash, which sheetstream does
// not write: it writes the SHA-512 hash Excel writes today, salted at
// random, which no saved file can match).

// protectedCells writes 1, 2 (unlocked) and 3 (unlocked, hidden) in A1:A3.
func protectedCells(w *xlsx.Writer, opts xlsx.SheetOptions) error {
	unlocked := st(w, xlsx.Style{Protection: xlsx.CellProtection{Unlocked: true}})
	hidden := st(w, xlsx.Style{Protection: xlsx.CellProtection{Unlocked: true, Hidden: true}})
	return add(w, "Sheet1", opts).at("A1", num(1)).at("A2", num(2).WithStyle(unlocked)).at("A3", num(3).WithStyle(hidden)).err
}

var protectTwins = []twin{
	{file: "rust_xlsxwriter/protect01.xlsx", build: func(w *xlsx.Writer) error {
		return protectedCells(w, xlsx.SheetOptions{})
	}},
	{file: "rust_xlsxwriter/protect02.xlsx", build: func(w *xlsx.Writer) error {
		return protectedCells(w, xlsx.SheetOptions{Protect: &xlsx.SheetProtection{}})
	}},
	{file: "rust_xlsxwriter/protect04.xlsx", build: func(w *xlsx.Writer) error {
		return protectedCells(w, xlsx.SheetOptions{Protect: &xlsx.SheetProtection{EditableRanges: []xlsx.EditableRange{{Range: rng("A1")}}}})
	}},
	{file: "rust_xlsxwriter/protect05.xlsx", build: func(w *xlsx.Writer) error {
		return protectedCells(w, xlsx.SheetOptions{Protect: &xlsx.SheetProtection{EditableRanges: []xlsx.EditableRange{
			{Range: rng("A1")}, {Range: rng("C1:C3")}, {Name: "MyRange", Range: rng("G4:I6")}, {Range: rng("K7")},
		}}})
	}},
	{file: "rust_xlsxwriter/protect08.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1", xlsx.SheetOptions{Protect: &xlsx.SheetProtection{
			FormatCells: true, FormatColumns: true, FormatRows: true, InsertColumns: true, InsertRows: true, InsertHyperlinks: true,
			DeleteColumns: true, DeleteRows: true, Sort: true, AutoFilter: true, PivotTables: true, EditObjects: true, EditScenarios: true,
			NoSelectLockedCells: true, NoSelectUnlockedCells: true,
		}}).err
	}},
}
