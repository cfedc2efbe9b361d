package xlsx

import "strconv"

// A chart's cached values: what each series' range held when its sheet
// wrote it, so that the chart shows without a recalculation. The sheet
// hands every row it writes to the ranges that cover it; a range keeps
// at most its cache limit of points and drops the cache past it.

// chartCache is what a range's cells held.
type chartCache struct {
	limit int
	pts   []chartPoint
	text  []byte // the text points' bytes, one after another
	over  bool   // more points than the limit: no cache
	// fmtCode is the number format of the range's first number.
	fmtCode string
	fmtSet  bool
}

// chartPoint is one cell's value: a number, or text in the cache's text.
type chartPoint struct {
	idx       int32 // from the range's first cell
	isText    bool
	num       float64
	off, size int32
}

// watchRow gives a row just written to the chart ranges on this sheet.
// A range past its last row or its cache limit is done with and leaves
// the list, so that a sheet whose charts are all done pays nothing more a
// row.
func (s *Sheet) watchRow(row int, cells []Cell) {
	refs := s.chartRefs
	for i := 0; i < len(refs); i++ {
		ref := refs[i]
		c := ref.cache
		r := ref.rng
		if c == nil || c.over || row >= r.LastRow {
			// Done: this row is its last, or it caches no more.
			refs[i] = refs[len(refs)-1]
			refs = refs[:len(refs)-1]
			i--
			if c == nil || c.over || row > r.LastRow {
				continue
			}
		}
		if row < r.FirstRow {
			continue
		}
		if r.FirstCol == r.LastCol {
			if r.FirstCol <= len(cells) {
				s.cachePoint(c, int32(row-r.FirstRow), &cells[r.FirstCol-1])
			}
			continue
		}
		for col := r.FirstCol; col <= min(r.LastCol, len(cells)); col++ {
			s.cachePoint(c, int32(col-r.FirstCol), &cells[col-1])
		}
	}
	s.chartRefs = refs
}

func (s *Sheet) cachePoint(c *chartCache, idx int32, cell *Cell) {
	k := cell.kind
	textOf := cell.s
	if k == kindFormula {
		k, textOf = cell.cached, cell.cachedText()
	}
	var p chartPoint
	p.idx = idx
	switch k {
	case kindInt:
		p.num = float64(cell.i)
	case kindUint:
		p.num = float64(cell.uint())
	case kindFloat, kindFloat32:
		p.num = cell.num
	case kindDecimal:
		v, err := strconv.ParseFloat(textOf, 64)
		if err != nil {
			return
		}
		p.num = v
	case kindBool:
		p.num = float64(cell.i)
	case kindDateTime, kindDate, kindTimeOfDay, kindDuration:
		v, err := s.w.timeValue(k, cell)
		if err != nil {
			return
		}
		p.num = v
	case kindString:
		p.isText = true
	case kindRich:
		p.isText = true
		textOf = ""
		start := len(c.text)
		for _, r := range cell.runs {
			c.text = append(c.text, r.Text...)
		}
		p.off, p.size = int32(start), int32(len(c.text)-start)
	default:
		return // blank, error, empty
	}
	if len(c.pts) >= c.limit {
		c.over, c.pts, c.text = true, nil, nil
		return
	}
	if p.isText && k == kindString {
		p.off = int32(len(c.text))
		c.text = append(c.text, textOf...)
		p.size = int32(len(textOf))
	}
	if !p.isText && !c.fmtSet {
		c.fmtSet = true
		c.fmtCode = s.cellFormatCode(cell, k)
	}
	c.pts = append(c.pts, p)
}

// cellFormatCode is the number format a cell is shown in, "General" if
// none.
func (s *Sheet) cellFormatCode(cell *Cell, k cellKind) string {
	id := cell.style
	w := s.w
	w.lockShared()
	defer w.unlockShared()
	if k >= kindDateTime && k <= kindDuration && (int(id) >= len(w.styles.styles) || w.styles.styles[id].NumFmt == "") {
		id = w.styles.dateStyle(id, k)
	}
	if int(id) < len(w.styles.styles) && w.styles.styles[id].NumFmt != "" {
		return w.styles.styles[id].NumFmt
	}
	return "General"
}
