package xlsx

import (
	"fmt"
	"math"
	"strconv"
)

// Notes are written in two parts: comments.xml holds their text, and a
// VML drawing, which Excel still requires, their boxes. A box's place is
// given in rows and columns with pixel offsets, so it needs the heights
// of the rows around it: a streamed sheet records the heights of the
// rows that differ from the default (20 pixels) while it has notes.

const defaultRowPx = 20

// sheetNote is a note with what its box's place needs.
type sheetNote struct {
	Note
	row, col int // 1-based
	author   int
	top      rowTop // of the row above the note's, the box's first
}

// rowTop is where a row starts, in pixels from the sheet's top: known
// when it is added for a row near the last written, or from a row still
// to come whose top is known and the heights of the rows between, which
// the sheet records.
type rowTop struct {
	row   int
	from  int     // the first row not yet written when the top was asked for
	soFar float64 // the top of row from
}

// topOf is the top of a row no earlier than the one before the last
// written.
func (s *Sheet) topOf(row int) rowTop {
	switch {
	case row > s.row+1:
		return rowTop{row: row, from: s.row + 1, soFar: s.nextRowTop()}
	case row == s.row+1:
		return rowTop{row: row, from: row, soFar: s.nextRowTop()}
	case row == s.row:
		return rowTop{row: row, from: row, soFar: s.nextRowTop() - s.rowPx(s.row)}
	}
	return rowTop{row: row, from: row, soFar: s.nextRowTop() - s.rowPx(s.row) - s.rowPx(s.row-1)}
}

// px is the row's top in pixels, once the rows above it are written
// (rows never written have the default height).
func (t rowTop) px(s *Sheet) float64 {
	top := t.soFar
	for r := t.from; r < t.row; r++ {
		top += s.rowPx(r)
	}
	return top
}

// AddNote puts a note on the cell at row and col (1-based). The cell's
// row must be the last row written or a later one: the box's place
// depends on the heights of the rows from the one above it.
//
// Errors (in a *CellError, leaving the sheet and the Writer as they
// were): ErrRange for a cell outside the sheet or on a row already
// passed, text over 32,767 characters or holding a character XML cannot
// carry, and a size outside 0..4000 points.
func (s *Sheet) AddNote(row, col int, n Note) error {
	if err := s.check(); err != nil {
		return err
	}
	refuse := func(err error) error { return s.refuse(row, col, err) }
	switch {
	case row < 1 || row > MaxRows || col < 1 || col > MaxColumns:
		return refuse(fmt.Errorf("%w: a note outside the sheet", ErrRange))
	case row < s.row:
		return refuse(fmt.Errorf("%w: a note goes on the last row written (%d) or a later one", ErrRange, s.row))
	case !validAttrText(n.Text) || !validAttrText(n.Author) || checkTextLen(n.Text) != nil:
		return refuse(fmt.Errorf("%w: note text or author that a cell could not hold", ErrRange))
	case n.Width < 0 || n.Height < 0 || n.Width > 4000 || n.Height > 4000 || math.IsNaN(n.Width) || math.IsNaN(n.Height):
		return refuse(fmt.Errorf("%w: note size %gx%g points", ErrRange, n.Width, n.Height))
	}
	sn := sheetNote{Note: n, row: row, col: col, top: s.topOf(max(row-1, 1))}
	s.trackHeights(row)
	if s.notes == nil {
		s.w.lockShared()
		s.w.noteSheets++
		s.vmlIndex = s.w.noteSheets
		s.w.styles.noteFont = true
		s.w.unlockShared()
	}
	sn.author = -1
	for i, a := range s.noteAuthors {
		if a == n.Author {
			sn.author = i
		}
	}
	if sn.author < 0 {
		sn.author = len(s.noteAuthors)
		s.noteAuthors = append(s.noteAuthors, n.Author)
	}
	s.notes = append(s.notes, sn)
	// Excel counts a cell with a note as used, in the sheet's dimension.
	if s.minRow == 0 {
		s.minRow, s.minCol, s.maxCol = row, col, col
	}
	s.minRow, s.maxRow = min(s.minRow, row), max(s.maxRow, row)
	s.minCol, s.maxCol = min(s.minCol, col), max(s.maxCol, col)
	return nil
}

// recordRowHeight records a row's height in pixels when it is not the
// default, for the notes' and pictures' places.
func (s *Sheet) recordRowHeight(row int, o *RowOptions) {
	px := defaultRowPx
	switch {
	case o.Hidden:
		px = 0
	case o.Height > 0:
		px = int(math.Round(o.Height * 4 / 3))
	}
	if px == defaultRowPx {
		return
	}
	s.heightDelta += px - defaultRowPx
	s.prevCustom, s.lastCustom = s.lastCustom, customRow{row, px}
	if s.rowHeights != nil && row <= s.heightsUntil {
		s.rowHeights[row] = px
	}
}

// boxRows is how far below its first row a note's or picture's box is
// measured: further rows count at the default height, so that the
// recorded heights stay few however long the sheet.
const boxRows = 1000

// trackHeights records the heights of the rows a note's or picture's
// box starting at row may cover.
func (s *Sheet) trackHeights(row int) {
	if s.rowHeights == nil {
		s.rowHeights = map[int]int{}
	}
	s.heightsUntil = max(s.heightsUntil, row+boxRows)
}

type customRow struct{ row, px int }

// rowPx is the height of row (one of the last two written, or a later
// one once written) in pixels.
func (s *Sheet) rowPx(row int) float64 {
	switch {
	case row < 1:
		return 0
	case s.lastCustom.row == row:
		return float64(s.lastCustom.px)
	case s.prevCustom.row == row:
		return float64(s.prevCustom.px)
	}
	if px, ok := s.rowHeights[row]; ok {
		return float64(px)
	}
	return defaultRowPx
}

// nextRowTop is the pixel offset of the row after the last written.
func (s *Sheet) nextRowTop() float64 {
	return float64(s.row*defaultRowPx + s.heightDelta)
}

// columnPx is a column's width in pixels (1-based).
func (s *Sheet) columnPx(col int) float64 {
	for _, c := range s.cols {
		if col >= c.first && col <= c.last {
			if c.opts.Hidden {
				return 0
			}
			if c.opts.Width > 0 {
				return widthPx(c.opts.Width)
			}
		}
	}
	return 64
}

// widthPx is the pixel width of a column width in characters.
func widthPx(chars float64) float64 {
	if chars < 1 {
		return math.Floor(chars*12 + 0.5)
	}
	return math.Floor(chars*7+0.5) + 5
}

// noteBox is where a note's box goes: its anchor (first column and row,
// 0-based, with pixel offsets, and last ones) and its place in points.
type noteBox struct {
	anchor                   [8]int
	left, top, width, height float64
}

func (s *Sheet) noteBox(n *sheetNote) noteBox {
	wPx, hPx := float64(noteWidthPx), float64(noteHeightPx)
	if n.Width > 0 {
		wPx = math.Round(n.Width * 4 / 3)
	}
	if n.Height > 0 {
		hPx = math.Round(n.Height * 4 / 3)
	}
	// One column right of the cell, 15 pixels in; from the row above,
	// 10 pixels down (2 for the first row).
	col, colOffset := min(n.col+1, MaxColumns-3), 15.0
	row, rowOffset := n.row-1, 10.0
	if n.row == 1 {
		row, rowOffset = 1, 2
	}
	top := n.top.px(s)
	left := 0.0
	for c := 1; c < col; c++ {
		left += s.columnPx(c)
	}
	box := noteBox{left: (left + colOffset) * 0.75, top: (top + rowOffset) * 0.75, width: wPx * 0.75, height: hPx * 0.75}
	endCol, x := col, colOffset+wPx
	for endCol < MaxColumns && x >= s.columnPx(endCol) {
		x -= s.columnPx(endCol)
		endCol++
	}
	endRow, y := row, rowOffset+hPx
	for endRow < MaxRows && y >= s.rowPx(endRow) {
		y -= s.rowPx(endRow)
		endRow++
	}
	box.anchor = [8]int{col - 1, int(colOffset), row - 1, int(rowOffset), endCol - 1, int(x), endRow - 1, int(y)}
	return box
}

// noteParts are the sheet's comments part and VML drawing.
func (s *Sheet) noteParts() []packagePart {
	n := strconv.Itoa(s.vmlIndex)
	b := []byte(xmlHeader + `<comments xmlns="` + nsMain + `"><authors>`)
	for _, a := range s.noteAuthors {
		b = appendElem(b, "author", a)
	}
	b = append(b, "</authors><commentList>"...)
	for _, note := range s.notes {
		b = append(b, `<comment ref="`...)
		b = appendCellRef(b, note.row, note.col-1)
		b = append(b, '"')
		b = appendIntAttr(b, "authorId", note.author)
		b = append(b, `><text><r><rPr><sz val="8"/><color indexed="81"/><rFont val="Tahoma"/><family val="2"/></rPr>`...)
		b = appendT(b, note.Text)
		b = append(b, "</r></text></comment>"...)
	}
	b = append(b, "</commentList></comments>"...)
	return []packagePart{
		{"xl/comments" + n + ".xml", b},
		{"xl/drawings/vmlDrawing" + n + ".vml", s.vml()},
	}
}

// vml is the notes' VML drawing, laid out as Excel writes it (the
// layout is text in some of its elements).
func (s *Sheet) vml() []byte {
	b := []byte(`<xml xmlns:v="urn:schemas-microsoft-com:vml"
 xmlns:o="urn:schemas-microsoft-com:office:office"
 xmlns:x="urn:schemas-microsoft-com:office:excel">
 <o:shapelayout v:ext="edit">
  <o:idmap v:ext="edit" data="`)
	b = strconv.AppendInt(b, int64(s.vmlIndex), 10)
	b = append(b, `"/>
 </o:shapelayout><v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202"
  path="m,l,21600r21600,l21600,xe">
  <v:stroke joinstyle="miter"/>
  <v:path gradientshapeok="t" o:connecttype="rect"/>
 </v:shapetype>`...)
	for i := range s.notes {
		note := &s.notes[i]
		box := s.noteBox(note)
		b = append(b, `<v:shape id="_x0000_s`...)
		b = strconv.AppendInt(b, int64(1024*s.vmlIndex+1+i), 10)
		b = append(b, `" type="#_x0000_t202" style='position:absolute;
  margin-left:`...)
		b = appendPoints(b, box.left)
		b = append(b, "pt;margin-top:"...)
		b = appendPoints(b, box.top)
		b = append(b, "pt;width:"...)
		b = appendPoints(b, box.width)
		b = append(b, "pt;height:"...)
		b = appendPoints(b, box.height)
		b = append(b, "pt;z-index:"...)
		b = strconv.AppendInt(b, int64(i+1), 10)
		if note.Visible {
			b = append(b, ";\n  visibility:visible'"...)
		} else {
			b = append(b, ";\n  visibility:hidden'"...)
		}
		b = append(b, ` fillcolor="#ffffe1" o:insetmode="auto">
  <v:fill color2="#ffffe1"/>
  <v:shadow on="t" color="black" obscured="t"/>
  <v:path o:connecttype="none"/>
  <v:textbox style='mso-direction-alt:auto'>
   <div style='text-align:left'></div>
  </v:textbox>
  <x:ClientData ObjectType="Note">
   <x:MoveWithCells/>
   <x:SizeWithCells/>
   <x:Anchor>
    `...)
		for j, v := range box.anchor {
			if j > 0 {
				b = append(b, ", "...)
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, `</x:Anchor>
   <x:AutoFill>False</x:AutoFill>
   <x:Row>`...)
		b = strconv.AppendInt(b, int64(note.row-1), 10)
		b = append(b, "</x:Row>\n   <x:Column>"...)
		b = strconv.AppendInt(b, int64(note.col-1), 10)
		b = append(b, "</x:Column>\n"...)
		if note.Visible {
			b = append(b, "   <x:Visible/>\n"...)
		}
		b = append(b, "  </x:ClientData>\n </v:shape>"...)
	}
	return append(b, "</xml>"...)
}

// appendPoints writes a length in points as Excel does: up to two
// decimals, no trailing zeros.
func appendPoints(b []byte, pt float64) []byte {
	return strconv.AppendFloat(b, math.Round(pt*100)/100, 'f', -1, 64)
}
