package xlsx

// PrintSetup is how a sheet prints: page, margins, scale, what repeats on
// every page, headers and footers, and page breaks. Set it in
// SheetOptions.Print; Sheet.AddPageBreak adds breaks while rows stream.
type PrintSetup struct {
	Landscape bool
	// PaperSize is Excel's paper code: 1 Letter (the default), 5 Legal,
	// 8 A3, 9 A4, 11 A5... (ECMA-376 Part 1, 18.3.1.63).
	PaperSize int
	// Margins in inches; nil leaves Excel's (0.7 left and right, 0.75 top
	// and bottom, 0.3 for the header and footer).
	Margins *PageMargins
	// Scale prints at this percentage, 10 to 400 (0: 100).
	Scale int
	// FitWide and FitTall shrink the sheet to that many pages across and
	// down; 0 in one of them leaves it free. Either one set fits the
	// sheet, and Scale is then ignored.
	FitWide, FitTall int
	// FirstPageNumber numbers the first page (0: automatic).
	FirstPageNumber int

	CenterHorizontally, CenterVertically bool
	Gridlines, Headings, BlackAndWhite   bool

	// Header and Footer are text with Excel's codes: &L, &C and &R start
	// the left, centre and right sections; &P is the page number, &N the
	// page count, &D the date, &T the time, &F the file, &A the sheet, &Z
	// the path; &B, &I, &U, &S, &X, &Y, &E toggle bold, italic,
	// underline, strikethrough, superscript, subscript and double
	// underline; &"Font,Style" and &12 set the font; &KRRGGBB its colour;
	// && is an ampersand. At most 255 characters each. Pictures (&G) are
	// not supported.
	Header, Footer string
	// HeaderFooterUnscaled keeps the header and footer's size when the
	// sheet is scaled; HeaderFooterUnaligned leaves them at the page's
	// edges instead of the margins.
	HeaderFooterUnscaled, HeaderFooterUnaligned bool

	// Area is the part of the sheet that prints (the zero Range: what has
	// cells). A Range with LastRow 0 ends with the sheet's last row
	// written; FirstCol 1 and LastCol MaxColumns make whole rows, FirstRow
	// 1 and LastRow MaxRows whole columns.
	Area Range
	// RepeatRows and RepeatColumns print on every page: rows 1 to 2 are
	// Lines{1, 2}; columns are numbered from 1 (A).
	RepeatRows, RepeatColumns Lines
	// RowBreaks and ColumnBreaks start a new page after these rows and
	// columns (numbered from 1); at most 1,023 of each.
	RowBreaks, ColumnBreaks []int
}

// PageMargins are a page's margins in inches.
type PageMargins struct {
	Left, Right, Top, Bottom, Header, Footer float64
}

// Lines are rows or columns First to Last (from 1); the zero Lines are
// none.
type Lines struct {
	First, Last int
}

// maxPageBreaks is how many manual breaks of each kind Excel keeps.
const maxPageBreaks = 1023
