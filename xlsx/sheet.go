package xlsx

// SheetState is a sheet's visibility.
type SheetState uint8

// Sheet visibility.
const (
	SheetVisible SheetState = iota
	SheetHidden
	// SheetVeryHidden sheets can only be shown again by a macro.
	SheetVeryHidden
)

func (s SheetState) String() string {
	switch s {
	case SheetHidden:
		return "hidden"
	case SheetVeryHidden:
		return "veryHidden"
	}
	return "visible"
}

// SheetKind tells worksheets from the other kinds of sheet a workbook
// lists. Only worksheets hold rows the reader returns.
type SheetKind uint8

// Kinds of sheet.
const (
	SheetKindWorksheet SheetKind = iota
	SheetKindChartsheet
	SheetKindDialogsheet
	SheetKindMacrosheet
)

func (k SheetKind) String() string {
	return [...]string{"worksheet", "chartsheet", "dialogsheet", "macrosheet"}[k]
}
