package xlsx

import (
	"slices"
	"strconv"
)

func (s *Sheet) appendHead(b []byte, final bool) []byte {
	b = append(b, xmlHeader...)
	b = append(b, `<worksheet xmlns="`+nsMain+`" xmlns:r="`+nsRelations+`">`...)
	fit := s.opts.Print != nil && (s.opts.Print.FitWide != 0 || s.opts.Print.FitTall != 0)
	summary := s.opts.OutlineSummaryAbove || s.opts.OutlineSummaryLeft
	if s.opts.TabColor != "" || fit || summary {
		b = append(b, `<sheetPr>`...)
		if s.opts.TabColor != "" {
			argb, _ := s.opts.TabColor.argb() // checked in AddSheet
			b = append(b, `<tabColor rgb="`...)
			b = append(b, argb...)
			b = append(b, `"/>`...)
		}
		if summary {
			b = append(b, `<outlinePr`...)
			if s.opts.OutlineSummaryAbove {
				b = append(b, ` summaryBelow="0"`...)
			}
			if s.opts.OutlineSummaryLeft {
				b = append(b, ` summaryRight="0"`...)
			}
			b = append(b, `/>`...)
		}
		if fit {
			b = append(b, `<pageSetUpPr fitToPage="1"/>`...)
		}
		b = append(b, `</sheetPr>`...)
	}
	switch {
	case final && s.minRow == 0:
		b = append(b, `<dimension ref="A1"/>`...)
	case final:
		b = append(b, `<dimension ref="`...)
		b = Range{s.minRow, s.minCol, s.maxRow, s.maxCol}.append(b, false)
		b = append(b, `"/>`...)
	case s.opts.Dimension != Range{}:
		b = append(b, `<dimension ref="`...)
		b = s.opts.Dimension.append(b, false)
		b = append(b, `"/>`...)
	}
	b = append(b, `<sheetViews><sheetView`...)
	if s.active {
		b = append(b, ` tabSelected="1"`...)
	}
	b = append(b, ` workbookViewId="0"`...)
	b = appendPane(b, s.opts.FreezeRows, s.opts.FreezeCols)
	b = append(b, `</sheetViews><sheetFormatPr defaultRowHeight="15"`...)
	s.rowOutline = max(s.rowOutline, s.opts.RowOutlineLevels)
	if s.rowOutline > 0 {
		b = appendIntAttr(b, "outlineLevelRow", int(s.rowOutline))
	}
	colOutline := 0
	for _, c := range s.cols {
		colOutline = max(colOutline, int(c.opts.OutlineLevel))
	}
	if colOutline > 0 {
		b = appendIntAttr(b, "outlineLevelCol", colOutline)
	}
	b = append(b, `/>`...)
	if cols := append(slices.Clone(s.cols), s.fittedColumns()...); len(cols) > 0 {
		slices.SortFunc(cols, func(a, b column) int { return a.first - b.first })
		b = append(b, "<cols>"...)
		for _, c := range cols {
			b = appendIntAttr(append(b, "<col"...), "min", c.first)
			b = appendIntAttr(b, "max", c.last)
			width := 8.43
			if c.opts.Width > 0 {
				width = c.opts.Width
			}
			if c.opts.Hidden && c.opts.Width == 0 {
				width = 0
			}
			b = appendFloatAttr(b, "width", columnWidth(width))
			if c.opts.Style != 0 {
				b = appendIntAttr(b, "style", int(c.opts.Style))
			}
			if c.opts.Hidden {
				b = append(b, ` hidden="1"`...)
			}
			if c.fitted {
				b = append(b, ` bestFit="1"`...)
			}
			if c.opts.Width > 0 || c.opts.Hidden {
				b = append(b, ` customWidth="1"`...)
			}
			if c.opts.OutlineLevel > 0 {
				b = appendIntAttr(b, "outlineLevel", int(c.opts.OutlineLevel))
			}
			if c.opts.Collapsed {
				b = append(b, ` collapsed="1"`...)
			}
			b = append(b, "/>"...)
		}
		b = append(b, "</cols>"...)
	}
	s.headWritten = true
	return append(b, "<sheetData>"...)
}

// appendPane writes the rest of <sheetView> with frozen panes as Excel
// writes them.
func appendPane(b []byte, rows, cols int) []byte {
	if rows == 0 && cols == 0 {
		return append(b, "/>"...)
	}
	b = append(b, "><pane"...)
	if cols > 0 {
		b = appendIntAttr(b, "xSplit", cols)
	}
	if rows > 0 {
		b = appendIntAttr(b, "ySplit", rows)
	}
	b = append(b, ` topLeftCell="`...)
	b = appendCellRef(b, rows+1, cols)
	b = append(b, '"')
	switch {
	case rows > 0 && cols > 0:
		b = append(b, ` activePane="bottomRight" state="frozen"/>`...)
		b = append(b, `<selection pane="topRight" activeCell="`...)
		b = appendCellRef(b, 1, cols)
		b = append(b, `" sqref="`...)
		b = appendCellRef(b, 1, cols)
		b = append(b, `"/><selection pane="bottomLeft" activeCell="`...)
		b = appendCellRef(b, rows+1, 0)
		b = append(b, `" sqref="`...)
		b = appendCellRef(b, rows+1, 0)
		b = append(b, `"/><selection pane="bottomRight"/>`...)
	case rows > 0:
		b = append(b, ` activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/>`...)
	default:
		b = append(b, ` activePane="topRight" state="frozen"/><selection pane="topRight"/>`...)
	}
	return append(b, "</sheetView>"...)
}

func (s *Sheet) appendTail(b []byte) []byte {
	if s.minRow == 0 && s.row == 0 {
		b = b[:len(b)-len("<sheetData>")]
		b = append(b, "<sheetData/>"...)
	} else {
		b = append(b, "</sheetData>"...)
	}
	if s.protection != nil {
		b = s.protection.append(b)
	}
	if s.autoFilter != (Range{}) {
		b = append(b, `<autoFilter ref="`...)
		b = s.autoFilter.append(b, false)
		b = append(b, `"/>`...)
	}
	if len(s.merges) > 0 {
		b = appendIntAttr(append(b, "<mergeCells"...), "count", len(s.merges))
		b = append(b, '>')
		for _, m := range s.merges {
			b = append(b, `<mergeCell ref="`...)
			b = m.append(b, false)
			b = append(b, `"/>`...)
		}
		b = append(b, "</mergeCells>"...)
	}
	b = s.appendCondFormats(b)
	b = s.appendValidations(b)
	if len(s.links) > 0 {
		b = append(b, "<hyperlinks>"...)
		rid := 0
		for _, l := range s.links {
			b = append(b, `<hyperlink ref="`...)
			b = appendCellRef(b, l.row, l.col-1)
			b = append(b, '"')
			if l.internal {
				b = append(b, ` location="`...)
				b = appendAttr(b, l.target)
				b = append(b, '"')
			} else {
				rid++
				b = append(b, ` r:id="rId`...)
				b = strconv.AppendInt(b, int64(rid), 10)
				b = append(b, '"')
			}
			if l.display != "" {
				b = append(b, ` display="`...)
				b = appendAttr(b, l.display)
				b = append(b, '"')
			}
			b = append(b, "/>"...)
		}
		b = append(b, "</hyperlinks>"...)
	}
	b = s.appendPrint(b)
	rid := s.externalLinks()
	if s.drawing > 0 {
		rid++
		b = append(b, `<drawing r:id="rId`...)
		b = strconv.AppendInt(b, int64(rid), 10)
		b = append(b, `"/>`...)
	}
	if len(s.notes) > 0 {
		rid++
		b = append(b, `<legacyDrawing r:id="rId`...)
		b = strconv.AppendInt(b, int64(rid), 10)
		b = append(b, `"/>`...)
	}
	if len(s.tables) > 0 {
		b = appendIntAttr(append(b, "<tableParts"...), "count", len(s.tables))
		b = append(b, '>')
		for range s.tables {
			rid++
			b = append(b, `<tablePart r:id="rId`...)
			b = strconv.AppendInt(b, int64(rid), 10)
			b = append(b, `"/>`...)
		}
		b = append(b, "</tableParts>"...)
	}
	b = s.appendSparklines(b)
	return append(b, `</worksheet>`...)
}

// externalLinks counts the hyperlinks with a relationship: the first
// relationship ids are theirs.
func (s *Sheet) externalLinks() int {
	n := 0
	for _, l := range s.links {
		if !l.internal {
			n++
		}
	}
	return n
}

// parts returns the parts that go with the sheet: its relationships,
// if any, and its tables.
func (s *Sheet) parts() []packagePart {
	if s.externalLinks() == 0 && len(s.tables) == 0 && len(s.notes) == 0 && s.drawing == 0 && s.pivotTable == 0 {
		return nil
	}
	var rels relsWriter
	for _, l := range s.links {
		if !l.internal {
			rels.add("hyperlink", l.target, true)
		}
	}
	if s.drawing > 0 {
		rels.add("drawing", "../drawings/drawing"+strconv.Itoa(s.drawing)+".xml", false)
	}
	if len(s.notes) > 0 {
		rels.add("vmlDrawing", "../drawings/vmlDrawing"+strconv.Itoa(s.vmlIndex)+".vml", false)
	}
	for _, t := range s.tables {
		rels.add("table", "../tables/table"+strconv.Itoa(t.id)+".xml", false)
	}
	if len(s.notes) > 0 {
		rels.add("comments", "../comments"+strconv.Itoa(s.vmlIndex)+".xml", false)
	}
	if s.pivotTable > 0 {
		rels.add("pivotTable", "../pivotTables/pivotTable"+strconv.Itoa(s.pivotTable)+".xml", false)
	}
	parts := []packagePart{{"xl/worksheets/_rels/sheet" + strconv.Itoa(s.part) + ".xml.rels", rels.bytes()}}
	for _, t := range s.tables {
		parts = append(parts, packagePart{tablePartName(t.id), t.xml()})
	}
	if s.drawing > 0 {
		parts = append(parts, s.drawingParts()...)
	}
	if len(s.notes) > 0 {
		parts = append(parts, s.noteParts()...)
	}
	return parts
}
