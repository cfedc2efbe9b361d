package xlsx_test

import "github.com/sheetstream/sheetstream/xlsx"

// Notes' twins: rust_xlsxwriter's comment tests. Excel writes an empty
// <row> for each row with a note and no cells; the builders do too.

func (s *sheetOf) note(ref string, n xlsx.Note) *sheetOf {
	return s.do(func(sh *xlsx.Sheet) error {
		row, col, err := xlsx.ParseCellName(ref)
		if err != nil {
			return err
		}
		return sh.AddNote(row, col, n)
	})
}

// emptyRow writes the empty <row> Excel keeps for a row with notes.
func (s *sheetOf) emptyRow(row int) *sheetOf {
	return s.do(func(sh *xlsx.Sheet) error {
		if err := sh.SkipRows(row - sh.LastRow() - 1); err != nil {
			return err
		}
		return sh.WriteRowWith(nil, xlsx.RowOptions{})
	})
}

var john = xlsx.Note{Text: "Some text", Author: "John"}

func withNote(n xlsx.Note, f func(*xlsx.Note)) xlsx.Note {
	f(&n)
	return n
}

// notesInA writes rows 1..n with a note on each cell of column A.
func notesInA(w *xlsx.Writer, notes ...xlsx.Note) error {
	s := add(w, "Sheet1")
	for i, n := range notes {
		s.note(xlsx.CellName(i+1, 1), n).emptyRow(i + 1)
	}
	return s.err
}

var noteTwins = []twin{
	{file: "rust_xlsxwriter/comment01.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1").at("A1", str("Foo")).note("B2", john).emptyRow(2).err
	}},
	{file: "rust_xlsxwriter/comment02.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1").at("A1", str("Foo")).note("B2", john).emptyRow(2).
			note("D17", withNote(john, func(n *xlsx.Note) { n.Text = "More text" })).emptyRow(17).err
	}},
	{file: "rust_xlsxwriter/comment06.xlsx", build: func(w *xlsx.Writer) error {
		visible := withNote(john, func(n *xlsx.Note) { n.Visible = true })
		return notesInA(w, john, john, visible, john, john)
	}},
	{file: "rust_xlsxwriter/comment07.xlsx", build: func(w *xlsx.Writer) error {
		visible := withNote(john, func(n *xlsx.Note) { n.Visible = true })
		return notesInA(w, visible, visible, visible, visible, visible)
	}},
	{file: "rust_xlsxwriter/comment09.xlsx", build: func(w *xlsx.Writer) error {
		return notesInA(w, john, withNote(john, func(n *xlsx.Note) { n.Author = "Perl" }), john)
	}},
	{file: "rust_xlsxwriter/comment12.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1").do(func(sh *xlsx.Sheet) error {
			return sh.SetColumn(2, 2, xlsx.ColumnOptions{Width: inverseWidth(10.7109375)})
		}).note("A1", john).rowAt("A1", &xlsx.RowOptions{Height: 21}, str("Foo")).err
	}},
	{file: "rust_xlsxwriter/comment14.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1").do(func(sh *xlsx.Sheet) error {
			return sh.SetColumn(3, 3, xlsx.ColumnOptions{Width: inverseWidth(13.7109375)})
		}).at("A1", str("Foo")).note("B2", john).emptyRow(2).err
	}},
	{file: "rust_xlsxwriter/comment16.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1").note("A1", john).note("D1", john).at("A1", str("Foo")).
			note("C7", john).at("C7", str("Bar")).note("E10", john).emptyRow(10).note("G14", john).at("G14", str("Baz")).err
	}},
	{file: "rust_xlsxwriter/comment17.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1").at("A1", str("Foo")).note("B2", withNote(john, func(n *xlsx.Note) { n.Text = "Some text " })).emptyRow(2).err
	}},
	{file: "rust_xlsxwriter/comment18.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1").at("A1", str("Foo")).note("B2", withNote(john, func(n *xlsx.Note) { n.Text = " Some text" })).emptyRow(2).err
	}},
}
