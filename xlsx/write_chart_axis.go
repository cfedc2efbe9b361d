package xlsx

import "strconv"

// The chart part's axes (ECMA-376 Part 1, 21.2.2: catAx, valAx, dateAx),
// in the order and with the defaults Excel writes.

// axes writes the plot's axes: the primary category (or X) and value
// axes, then the secondary value and category axes, as Excel orders them.
func (cw *chartWriter) axes(groups []chartGroup) {
	var primary, secondary *chartGroup
	for i := range groups {
		g := &groups[i]
		if isPie(g.typ) {
			continue
		}
		if !g.secondary && primary == nil {
			primary = g
		}
		if g.secondary && secondary == nil {
			secondary = g
		}
	}
	if primary != nil {
		hasCat := false
		for _, g := range groups {
			if !g.secondary {
				for _, s := range g.series {
					hasCat = hasCat || s.cat != nil && !s.cat.isText(false)
				}
			}
		}
		cw.axisPair(primary, false, hasCat, barsOn(groups, false))
	}
	if secondary != nil {
		hasCat := false
		for _, s := range secondary.series {
			hasCat = hasCat || s.cat != nil && !s.cat.isText(false)
		}
		cw.axisPair(secondary, true, hasCat, barsOn(groups, true))
	}
}

// axisPair writes a group's two axes: primary X then Y, secondary Y then
// X (hidden unless set).
// barsOn tells whether bars are drawn on the primary or secondary axes.
func barsOn(groups []chartGroup, secondary bool) bool {
	for _, g := range groups {
		if g.secondary == secondary && isBar(g.typ) {
			return true
		}
	}
	return false
}

func (cw *chartWriter) axisPair(g *chartGroup, secondary, hasCat, bars bool) {
	x, y, xID, yID := &cw.sc.X, &cw.sc.Y, cw.ids[0], cw.ids[1]
	if secondary {
		x, y, xID, yID = &cw.sc.X2, &cw.sc.Y2, cw.ids[2], cw.ids[3]
	}
	t := g.typ
	horizontal := isHorizontal(t)
	xPos, yPos := "b", "l"
	if horizontal {
		xPos, yPos = "l", "b"
	}
	xTitle, yTitle := cw.sc.titleRefs[1], cw.sc.titleRefs[2]
	if secondary {
		xTitle, yTitle = cw.sc.titleRefs[3], cw.sc.titleRefs[4]
		if horizontal {
			yPos = "t"
		} else {
			yPos = "r"
		}
	}
	// A reversed axis moves the other one to the far side.
	opposite := map[string]string{"b": "t", "t": "b", "l": "r", "r": "l"}
	if y.Reverse {
		xPos = opposite[xPos]
	}
	if x.Reverse && !secondary {
		yPos = opposite[yPos]
	}
	// An axis crossed at the other's maximum goes to that side.
	if y.CrossesMax {
		xPos = opposite[xPos]
	}
	if x.CrossesMax && !secondary {
		yPos = opposite[yPos]
	}
	writeX := func() {
		ax := axisSpec{axis: x, id: xID, cross: yID, pos: xPos, titleRef: xTitle, hasCat: hasCat, typ: t, other: x, perp: y}
		if secondary {
			ax.deleted = !x.isSet()
			ax.secondary = true
			ax.combinedSecondary = g.combined
		}
		if isScatter(t) {
			ax.valueX = true
		}
		cw.axis(ax)
	}
	writeY := func() {
		ax := axisSpec{axis: y, id: yID, cross: xID, pos: yPos, titleRef: yTitle, value: true, typ: t, secondary: secondary, other: x, perp: x, withBars: bars}
		cw.axis(ax)
	}
	if secondary && (!isScatter(t) || g.combined) {
		writeY()
		writeX()
	} else {
		writeX()
		writeY()
	}
}

func (a *ChartAxis) isSet() bool {
	return a.Title.Text != "" || a.Min != nil || a.Max != nil || a.NumFmt != "" || a.Reverse || a.Date || a.LogBase != 0 ||
		a.MajorGridlines != nil || a.MinorGridlines != nil || a.Labels != AxisLabelsNextTo || !a.Font.isZero() || !a.Format.isZero()
}

type axisSpec struct {
	axis              *ChartAxis
	other             *ChartAxis // the category axis, whose Categories a value axis follows
	withBars          bool       // bars are drawn against the axis
	perp              *ChartAxis // the perpendicular axis, which says where it crosses this one
	id, cross         int
	pos               string
	titleRef          *chartRef
	value             bool // a value axis
	valueX            bool // a scatter chart's X: a value axis in the category's place
	hasCat            bool
	typ               ChartType
	secondary         bool
	deleted           bool
	combinedSecondary bool
}

func (cw *chartWriter) axis(s axisSpec) {
	a := s.axis
	t := s.typ
	tag := "c:catAx"
	switch {
	case s.value || s.valueX:
		tag = "c:valAx"
	case a.Date || t == ChartStock:
		tag = "c:dateAx"
	}
	cw.raw("<" + tag + ">")
	cw.val("c:axId", strconv.Itoa(s.id))
	cw.raw("<c:scaling>")
	if a.LogBase != 0 {
		cw.num("c:logBase", a.LogBase)
	}
	if a.Reverse {
		cw.val("c:orientation", "maxMin")
	} else {
		cw.val("c:orientation", "minMax")
	}
	if a.Max != nil {
		cw.num("c:max", *a.Max)
	}
	if a.Min != nil {
		cw.num("c:min", *a.Min)
	}
	cw.raw("</c:scaling>")
	if a.Hidden || s.deleted {
		cw.val("c:delete", "1")
	}
	pos := s.pos
	cw.val("c:axPos", pos)
	major := a.MajorGridlines
	if major == nil && (s.value && !s.secondary || isRadar(t) && !s.value) {
		major = &ChartGridlines{}
	}
	if major != nil && !major.Hidden {
		cw.lineElem("c:majorGridlines", major.Line)
	}
	if g := a.MinorGridlines; g != nil && !g.Hidden {
		cw.lineElem("c:minorGridlines", g.Line)
	}
	if a.Title.Text != "" {
		// A vertical axis' title is turned, except a column chart's
		// value axis', as Excel makes them.
		vertical := (pos == "l" || pos == "r") && !(s.value && t >= ChartColumn && t <= ChartColumnPercentStacked)
		cw.title(&a.Title, s.titleRef, vertical)
	}
	switch {
	case a.NumFmt != "":
		cw.raw("<c:numFmt")
		cw.b = appendStringAttr(cw.b, "formatCode", a.NumFmt)
		if a.NumFmtLinked {
			cw.raw(` sourceLinked="1"/>`)
		} else {
			cw.raw(` sourceLinked="0"/>`)
		}
	case s.value && grouping(t) == "percentStacked":
		cw.raw(`<c:numFmt formatCode="0%" sourceLinked="1"/>`)
	case s.value || s.valueX:
		cw.raw(`<c:numFmt formatCode="General" sourceLinked="1"/>`)
	case s.hasCat && !isRadar(t):
		code := "General"
		if c := cw.firstCatCache(s.secondary); c != nil && c.fmtCode != "" {
			code = c.fmtCode
		}
		cw.raw("<c:numFmt")
		cw.b = appendStringAttr(cw.b, "formatCode", code)
		cw.raw(` sourceLinked="1"/>`)
	}
	cw.axisTicks(s)
	cw.spPr(a.Format)
	cw.txPr(a.Font, true)
	cw.axisCrossing(s)
	if s.value || s.valueX {
		cw.valueAxisTail(s)
	} else {
		cw.categoryAxisTail(s, tag)
	}
	cw.raw("</" + tag + ">")
}

// axisTicks writes an axis' tick marks and where its labels go.
func (cw *chartWriter) axisTicks(s axisSpec) {
	a, t := s.axis, s.typ
	if a.MajorTicks != TicksDefault {
		cw.val("c:majorTickMark", tickNames[a.MajorTicks])
	} else if isRadar(t) && s.value {
		cw.val("c:majorTickMark", "cross")
	}
	if a.MinorTicks != TicksDefault {
		cw.val("c:minorTickMark", tickNames[a.MinorTicks])
	}
	switch {
	case a.Labels != AxisLabelsNextTo:
		cw.val("c:tickLblPos", [...]string{"nextTo", "high", "low", "none"}[a.Labels])
	case s.deleted && !s.combinedSecondary:
		cw.val("c:tickLblPos", "none")
	default:
		cw.val("c:tickLblPos", "nextTo")
	}
}

// axisCrossing writes the axis it crosses and where.
func (cw *chartWriter) axisCrossing(s axisSpec) {
	t := s.typ
	cw.val("c:crossAx", strconv.Itoa(s.cross))
	switch {
	case s.secondary && s.value:
		cw.val("c:crosses", "max")
	case s.deleted && (s.combinedSecondary || isArea(t) || t == ChartStock):
	case s.perp.CrossesMax:
		cw.val("c:crosses", "max")
	case s.perp.CrossesMin:
		cw.val("c:crosses", "min")
	case s.perp.CrossesAt != nil:
		cw.num("c:crossesAt", *s.perp.CrossesAt)
	default:
		cw.val("c:crosses", "autoZero")
	}
}

// valueAxisTail ends a value axis: where categories sit, its units.
func (cw *chartWriter) valueAxisTail(s axisSpec) {
	a, t := s.axis, s.typ
	// Area and scatter charts put categories on the ticks, unless
	// bars share the axes.
	onTick := (isArea(t) || isScatter(t)) && !s.withBars
	switch s.other.Categories {
	case CategoriesOnTick:
		onTick = true
	case CategoriesBetween:
		onTick = false
	}
	if onTick {
		cw.val("c:crossBetween", "midCat")
	} else {
		cw.val("c:crossBetween", "between")
	}
	if a.MajorUnit != nil {
		cw.num("c:majorUnit", *a.MajorUnit)
	}
	if a.MinorUnit != nil {
		cw.num("c:minorUnit", *a.MinorUnit)
	}
	if a.DisplayUnits != UnitsNone {
		cw.raw("<c:dispUnits>")
		cw.val("c:builtInUnit", unitNames[a.DisplayUnits])
		if a.ShowUnitsLabel {
			cw.raw("<c:dispUnitsLbl><c:layout/></c:dispUnitsLbl>")
		}
		cw.raw("</c:dispUnits>")
	}
}

// categoryAxisTail ends a category or date axis: label placement and
// skips, a date axis' units.
func (cw *chartWriter) categoryAxisTail(s axisSpec, tag string) {
	a := s.axis
	cw.val("c:auto", "1")
	if tag == "c:catAx" {
		cw.val("c:lblAlgn", [...]string{"ctr", "l", "r"}[a.LabelAlign])
	}
	cw.val("c:lblOffset", "100")
	if a.LabelInterval > 0 {
		cw.val("c:tickLblSkip", strconv.Itoa(a.LabelInterval))
	}
	if a.TickInterval > 0 {
		cw.val("c:tickMarkSkip", strconv.Itoa(a.TickInterval))
	}
	if tag == "c:dateAx" {
		unit := func(u string) string {
			if u == "" {
				return "days"
			}
			return u
		}
		if a.MajorUnit != nil {
			cw.num("c:majorUnit", *a.MajorUnit)
			cw.val("c:majorTimeUnit", unit(a.MajorTimeUnit))
		}
		if a.MinorUnit != nil {
			cw.num("c:minorUnit", *a.MinorUnit)
			cw.val("c:minorTimeUnit", unit(a.MinorTimeUnit))
		}
	}
}

var tickNames = [...]string{"", "none", "in", "out", "cross"}

// firstCatCache is the cache of the first series' categories on the
// axes.
func (cw *chartWriter) firstCatCache(secondary bool) *chartCache {
	for _, s := range cw.sc.series {
		if s.Secondary == secondary && s.cat != nil && s.cat.cache != nil && !s.cat.cache.over {
			return s.cat.cache
		}
	}
	return nil
}
