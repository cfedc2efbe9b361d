package xlsx

import (
	"fmt"
	"math"
)

// sheetSparklines is a group with its cells and sources worked out.
type sheetSparklines struct {
	Sparklines
	cells   []Range // each sparkline's cell
	sources []string
	dates   string
}

// AddSparklines adds a group of sparklines. It can be called at any
// time before the sheet ends: the group is written after the rows.
//
// Errors (in a *CellError, leaving the sheet as it was): ErrChart for a
// Location that is not a cell, a row or a column, a Data or DateAxis
// that is not a range on a sheet, Data whose rows or columns do not
// match Location's cells, an unknown type, a bad colour, a line weight
// outside 0..1584 or a scale that is not a number.
func (s *Sheet) AddSparklines(g Sparklines) error {
	if err := s.check(); err != nil {
		return err
	}
	refuse := func(format string, a ...any) error {
		return s.refuse(g.Location.FirstRow, g.Location.FirstCol, fmt.Errorf("%w: sparklines: "+format, append([]any{ErrChart}, a...)...))
	}
	loc := g.Location
	switch {
	case !loc.valid():
		return refuse("location %v is not a range", loc)
	case loc.FirstRow != loc.LastRow && loc.FirstCol != loc.LastCol:
		return refuse("location %v is one cell, one row or one column", loc)
	case g.Type > SparklineWinLoss || g.Empty > BlanksSpan:
		return refuse("unknown option")
	case g.LineWeight < 0 || g.LineWeight > 1584 || math.IsNaN(g.LineWeight):
		return refuse("line weight %g outside 0..1584", g.LineWeight)
	}
	for _, v := range []*float64{g.Min, g.Max} {
		if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0)) {
			return refuse("a scale value is not a number")
		}
	}
	for _, c := range []Color{g.SeriesColor, g.NegativeColor, g.AxisColor, g.MarkersColor, g.FirstColor, g.LastColor, g.HighColor, g.LowColor} {
		if c != "" {
			if _, err := c.argb(); err != nil {
				return refuse("%v", err)
			}
		}
	}
	data, err := parseRangeRef(g.Data, "sparkline data")
	if err != nil {
		return s.refuse(loc.FirstRow, loc.FirstCol, err)
	}
	if data.open {
		return refuse("data %q: give the range's last row", g.Data)
	}
	sg := &sheetSparklines{Sparklines: g}
	n := (loc.LastRow - loc.FirstRow + 1) * (loc.LastCol - loc.FirstCol + 1)
	d := data.rng
	rows, cols := d.LastRow-d.FirstRow+1, d.LastCol-d.FirstCol+1
	byRow := rows == n
	if !byRow && cols != n {
		return refuse("data %s has %d rows and %d columns for %d sparklines", d, rows, cols, n)
	}
	prefix := quoteSheetName(data.sheet) + "!"
	for i := range n {
		cell := Range{loc.FirstRow, loc.FirstCol, loc.FirstRow, loc.FirstCol}
		if loc.FirstRow == loc.LastRow {
			cell.FirstCol, cell.LastCol = loc.FirstCol+i, loc.FirstCol+i
		} else {
			cell.FirstRow, cell.LastRow = loc.FirstRow+i, loc.FirstRow+i
		}
		src := d
		if byRow {
			src.FirstRow, src.LastRow = d.FirstRow+i, d.FirstRow+i
		} else {
			src.FirstCol, src.LastCol = d.FirstCol+i, d.FirstCol+i
		}
		sg.cells = append(sg.cells, cell)
		sg.sources = append(sg.sources, prefix+string(src.append(nil, false)))
	}
	if g.DateAxis != "" {
		dates, err := parseChartRef(g.DateAxis, "sparkline date axis")
		if err != nil {
			return s.refuse(loc.FirstRow, loc.FirstCol, err)
		}
		if dates.open {
			return refuse("date axis %q: give the range's last row", g.DateAxis)
		}
		sg.dates = quoteSheetName(dates.sheet) + "!" + string(dates.rng.append(nil, false))
	}
	s.sparklines = append(s.sparklines, sg)
	return nil
}

// appendSparklines writes the sheet's sparkline groups in its extension
// list (MS-XLSX 2.6.76), the last groups added first as Excel lists them.
func (s *Sheet) appendSparklines(b []byte) []byte {
	if len(s.sparklines) == 0 {
		return b
	}
	b = append(b, `<extLst><ext xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main" uri="{05C60535-1F16-4fd2-B633-F4F36F0B64E0}"><x14:sparklineGroups xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">`...)
	for i := len(s.sparklines) - 1; i >= 0; i-- {
		g := s.sparklines[i]
		b = append(b, "<x14:sparklineGroup"...)
		if g.Max != nil {
			b = appendFloatAttr(b, "manualMax", *g.Max)
		}
		if g.Min != nil {
			b = appendFloatAttr(b, "manualMin", *g.Min)
		}
		if g.LineWeight != 0 {
			b = appendFloatAttr(b, "lineWeight", g.LineWeight)
		}
		switch g.Type {
		case SparklineColumn:
			b = append(b, ` type="column"`...)
		case SparklineWinLoss:
			b = append(b, ` type="stacked"`...)
		}
		if g.dates != "" {
			b = append(b, ` dateAxis="1"`...)
		}
		b = append(b, ` displayEmptyCellsAs="`...)
		b = append(b, [...]string{"gap", "gap", "zero", "span"}[g.Empty]...)
		b = append(b, '"')
		for _, f := range []struct {
			on   bool
			name string
		}{{g.Markers, "markers"}, {g.High, "high"}, {g.Low, "low"}, {g.First, "first"}, {g.Last, "last"},
			{g.Negative, "negative"}, {g.ShowAxis, "displayXAxis"}, {g.ShowHidden, "displayHidden"}} {
			if f.on {
				b = append(b, ' ')
				b = append(b, f.name...)
				b = append(b, `="1"`...)
			}
		}
		switch {
		case g.Min != nil:
			b = append(b, ` minAxisType="custom"`...)
		case g.SameMin:
			b = append(b, ` minAxisType="group"`...)
		}
		switch {
		case g.Max != nil:
			b = append(b, ` maxAxisType="custom"`...)
		case g.SameMax:
			b = append(b, ` maxAxisType="group"`...)
		}
		if g.RightToLeft {
			b = append(b, ` rightToLeft="1"`...)
		}
		b = append(b, '>')
		// Excel's default style: dark accent 1 and accent 2 for
		// negatives, the markers in tints of accent 1.
		const dark, light = "-0.499984740745262", "0.39997558519241921"
		for _, c := range []struct {
			tag, theme, tint string
			rgb              Color
		}{{"colorSeries", "4", dark, g.SeriesColor}, {"colorNegative", "5", "", g.NegativeColor}, {"colorAxis", "", "", g.AxisColor},
			{"colorMarkers", "4", dark, g.MarkersColor}, {"colorFirst", "4", light, g.FirstColor}, {"colorLast", "4", light, g.LastColor},
			{"colorHigh", "4", "", g.HighColor}, {"colorLow", "4", "", g.LowColor}} {
			b = append(b, "<x14:"...)
			b = append(b, c.tag...)
			switch {
			case c.rgb != "":
				argb, _ := c.rgb.argb()
				b = appendStringAttr(b, "rgb", argb)
			case c.theme == "":
				b = append(b, ` rgb="FF000000"`...)
			default:
				b = appendStringAttr(b, "theme", c.theme)
				if c.tint != "" {
					b = appendStringAttr(b, "tint", c.tint)
				}
			}
			b = append(b, "/>"...)
		}
		if g.dates != "" {
			b = appendElem(b, "xm:f", g.dates)
		}
		b = append(b, "<x14:sparklines>"...)
		for j, cell := range g.cells {
			b = append(b, "<x14:sparkline>"...)
			b = appendElem(b, "xm:f", g.sources[j])
			b = append(b, "<xm:sqref>"...)
			b = cell.append(b, false)
			b = append(b, "</xm:sqref></x14:sparkline>"...)
		}
		b = append(b, "</x14:sparklines></x14:sparklineGroup>"...)
	}
	return append(b, `</x14:sparklineGroups></ext></extLst>`...)
}
