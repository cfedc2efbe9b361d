package xlsx

import (
	"math"
	"strconv"
	"strings"
)

// The chart part, xl/charts/chartN.xml (ECMA-376 Part 1, 21.2): a chart
// space holding the plot area's chart groups and axes, the title and the
// legend. Elements go in the schema's order and, where Excel leaves out
// defaults, are left out as Excel leaves them, so that the part reads as
// an Excel-saved chart does (the twin tests compare them).

// chartGroup is one <c:xxxChart> of the plot area: a type and the series
// drawn with it, on the primary or the secondary axes.
type chartGroup struct {
	typ       ChartType
	opts      *Chart // where the group's options (gap, overlap...) come from
	series    []*chartSeries
	secondary bool
	combined  bool
}

type chartWriter struct {
	b  []byte
	w  *Writer
	sc *sheetChart
	// axis ids: primary X, Y and secondary X, Y
	ids [4]int
}

func (sc *sheetChart) xml(w *Writer) []byte {
	cw := &chartWriter{w: w, sc: sc}
	base := 50010000 + 100*sc.id
	cw.ids = [4]int{base + 1, base + 2, base + 3, base + 4}
	cw.raw(xmlHeader + `<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="` + nsRelations + `"><c:lang val="en-US"/>`)
	if sc.Style != 0 && sc.Style != 2 {
		cw.val("c:style", strconv.Itoa(sc.Style))
	}
	cw.raw("<c:chart>")
	switch {
	case sc.Title.Hidden:
		cw.raw(`<c:autoTitleDeleted val="1"/>`)
	case sc.Title.Text != "":
		cw.title(&sc.Title, sc.titleRefs[0], false)
	}
	groups := sc.groups()
	cw.raw("<c:plotArea>")
	cw.layout(sc.PlotLayout, "inner", true)
	for _, g := range groups {
		cw.group(g)
	}
	cw.axes(groups)
	if sc.DataTable != nil {
		cw.dataTable(sc.DataTable)
	}
	cw.spPr(sc.PlotArea)
	cw.raw("</c:plotArea>")
	cw.legend(groups)
	if !sc.ShowHidden {
		cw.raw(`<c:plotVisOnly val="1"/>`)
	}
	switch sc.Blanks {
	case BlanksGap:
		cw.raw(`<c:dispBlanksAs val="gap"/>`)
	case BlanksZero:
		cw.raw(`<c:dispBlanksAs val="zero"/>`)
	case BlanksSpan:
		cw.raw(`<c:dispBlanksAs val="span"/>`)
	}
	cw.raw("</c:chart>")
	cw.spPr(sc.ChartArea)
	if !sc.sheet.chartSheet {
		cw.raw(`<c:printSettings><c:headerFooter/><c:pageMargins b="0.75" l="0.7" r="0.7" t="0.75" header="0.3" footer="0.3"/><c:pageSetup/></c:printSettings>`)
	}
	cw.raw("</c:chartSpace>")
	return cw.b
}

// groups splits the series by type and axes: the chart's primary series,
// the combined chart's primary ones, then the secondary ones in the same
// order.
func (sc *sheetChart) groups() []chartGroup {
	var out []chartGroup
	for _, secondary := range []bool{false, true} {
		for _, combined := range []bool{false, true} {
			c := &sc.Chart
			if combined {
				if sc.Combine == nil {
					continue
				}
				c = sc.Combine
			}
			g := chartGroup{typ: c.Type, opts: c, secondary: secondary, combined: combined}
			for i := range sc.series {
				s := &sc.series[i]
				if s.combined == combined && s.Secondary == secondary {
					g.series = append(g.series, s)
				}
			}
			if len(g.series) > 0 {
				out = append(out, g)
			}
		}
	}
	return out
}

func (cw *chartWriter) raw(s string) { cw.b = append(cw.b, s...) }

// val writes <tag val="v"/>.
func (cw *chartWriter) val(tag, v string) {
	cw.b = append(cw.b, '<')
	cw.b = append(cw.b, tag...)
	cw.b = appendStringAttr(cw.b, "val", v)
	cw.b = append(cw.b, "/>"...)
}

func (cw *chartWriter) num(tag string, v float64) {
	cw.val(tag, strconv.FormatFloat(v, 'g', -1, 64))
}

func (cw *chartWriter) flag(tag string, on bool) {
	if on {
		cw.val(tag, "1")
	} else {
		cw.val(tag, "0")
	}
}

// text writes <tag>text</tag>, escaped (checked when the chart was added).
func (cw *chartWriter) text(tag, text string) {
	cw.b = appendElem(cw.b, tag, text)
}

func isBar(t ChartType) bool  { return t >= ChartColumn && t <= ChartBarPercentStacked }
func isLine(t ChartType) bool { return t >= ChartLine && t <= ChartLineWithMarkers }
func isArea(t ChartType) bool { return t >= ChartArea && t <= ChartAreaPercentStacked }
func isScatter(t ChartType) bool {
	return t >= ChartScatter && t <= ChartScatterSmoothWithMarkers
}
func isRadar(t ChartType) bool { return t >= ChartRadar && t <= ChartRadarFilled }
func isPie(t ChartType) bool   { return t == ChartPie || t == ChartDoughnut }
func isHorizontal(t ChartType) bool {
	return t >= ChartBar && t <= ChartBarPercentStacked
}

func grouping(t ChartType) string {
	switch t {
	case ChartColumnStacked, ChartBarStacked, ChartLineStacked, ChartAreaStacked:
		return "stacked"
	case ChartColumnPercentStacked, ChartBarPercentStacked, ChartLinePercentStacked, ChartAreaPercentStacked:
		return "percentStacked"
	}
	if isBar(t) {
		return "clustered"
	}
	return "standard"
}

func (cw *chartWriter) group(g chartGroup) {
	t, o := g.typ, g.opts
	var tag string
	switch {
	case isBar(t):
		tag = "c:barChart"
	case isLine(t):
		tag = "c:lineChart"
	case isArea(t):
		tag = "c:areaChart"
	case t == ChartPie:
		tag = "c:pieChart"
	case t == ChartDoughnut:
		tag = "c:doughnutChart"
	case isScatter(t):
		tag = "c:scatterChart"
	case isRadar(t):
		tag = "c:radarChart"
	default:
		tag = "c:stockChart"
	}
	cw.raw("<" + tag + ">")
	switch {
	case isBar(t):
		if isHorizontal(t) {
			cw.val("c:barDir", "bar")
		} else {
			cw.val("c:barDir", "col")
		}
		cw.val("c:grouping", grouping(t))
	case isLine(t), isArea(t):
		cw.val("c:grouping", grouping(t))
	case isPie(t):
		cw.val("c:varyColors", "1")
	case isScatter(t):
		if t == ChartScatterSmooth || t == ChartScatterSmoothWithMarkers {
			cw.val("c:scatterStyle", "smoothMarker")
		} else {
			cw.val("c:scatterStyle", "lineMarker")
		}
	case isRadar(t):
		if t == ChartRadarFilled {
			cw.val("c:radarStyle", "filled")
		} else {
			cw.val("c:radarStyle", "marker")
		}
	}
	for i, s := range g.series {
		cw.series(g, s, i)
	}
	if o.DropLines != nil && (isLine(t) || isArea(t) || t == ChartStock) {
		cw.lineElem("c:dropLines", *o.DropLines)
	}
	if isLine(t) || t == ChartStock {
		if o.HighLowLines != nil {
			cw.lineElem("c:hiLowLines", *o.HighLowLines)
		} else if t == ChartStock && !g.secondary {
			cw.raw("<c:hiLowLines/>")
		}
		if o.UpDownBars != nil {
			cw.upDownBars(o.UpDownBars)
		}
	}
	switch {
	case isBar(t):
		if o.Gap != nil {
			cw.val("c:gapWidth", strconv.Itoa(*o.Gap))
		}
		if o.Overlap != nil {
			cw.val("c:overlap", strconv.Itoa(*o.Overlap))
		} else if grouping(t) != "clustered" {
			cw.val("c:overlap", "100")
		}
	case isLine(t):
		cw.val("c:marker", "1")
	case isPie(t):
		cw.val("c:firstSliceAng", strconv.Itoa(o.FirstSliceAngle))
		if t == ChartDoughnut {
			hole := o.HoleSize
			if hole == 0 {
				hole = 50
			}
			cw.val("c:holeSize", strconv.Itoa(hole))
		}
	}
	if !isPie(t) {
		x, y := cw.ids[0], cw.ids[1]
		if g.secondary {
			x, y = cw.ids[2], cw.ids[3]
		}
		cw.val("c:axId", strconv.Itoa(x))
		cw.val("c:axId", strconv.Itoa(y))
	}
	cw.raw("</" + tag + ">")
}

func (cw *chartWriter) upDownBars(u *ChartUpDownBars) {
	cw.raw("<c:upDownBars>")
	gap := 150
	if u.Gap != nil {
		gap = *u.Gap
	}
	cw.val("c:gapWidth", strconv.Itoa(gap))
	for _, bar := range []struct {
		tag string
		f   ChartFormat
	}{{"c:upBars", u.Up}, {"c:downBars", u.Down}} {
		if bar.f.isZero() {
			cw.raw("<" + bar.tag + "/>")
			continue
		}
		cw.raw("<" + bar.tag + ">")
		cw.spPr(bar.f)
		cw.raw("</" + bar.tag + ">")
	}
	cw.raw("</c:upDownBars>")
}

func (cw *chartWriter) lineElem(tag string, l ChartLineFormat) {
	if l.isZero() {
		cw.raw("<" + tag + "/>")
		return
	}
	cw.raw("<" + tag + ">")
	cw.spPr(ChartFormat{Line: l})
	cw.raw("</" + tag + ">")
}

func (cw *chartWriter) series(g chartGroup, s *chartSeries, _ int) {
	t := g.typ
	idx := 0
	for i := range cw.sc.series {
		if &cw.sc.series[i] == s {
			idx = i
		}
	}
	cw.raw("<c:ser>")
	cw.val("c:idx", strconv.Itoa(idx))
	cw.val("c:order", strconv.Itoa(idx))
	if s.name != nil {
		cw.raw("<c:tx>")
		cw.ref(s.name, true)
		cw.raw("</c:tx>")
	} else if s.Name != "" {
		cw.raw("<c:tx>")
		cw.text("c:v", s.Name)
		cw.raw("</c:tx>")
	}
	format := s.Format
	// Scatter charts with markers only, and stock charts, draw no line.
	if format.Line.isZero() && (t == ChartScatter || t == ChartStock) {
		cw.raw(`<c:spPr><a:ln w="28575"><a:noFill/></a:ln></c:spPr>`)
	} else {
		cw.spPr(format)
	}
	if isBar(t) && s.InvertIfNegative {
		cw.val("c:invertIfNegative", "1")
	}
	if isLine(t) || isScatter(t) || isRadar(t) || t == ChartStock {
		switch {
		case s.Marker != nil:
			cw.marker(s.Marker)
		case t == ChartLine || t == ChartLineStacked || t == ChartLinePercentStacked ||
			t == ChartScatterStraight || t == ChartScatterSmooth || t == ChartRadar:
			cw.raw(`<c:marker><c:symbol val="none"/></c:marker>`)
		case t == ChartStock:
			if idx == len(cw.sc.series)-1 && len(cw.sc.series) == 3 {
				cw.raw(`<c:marker><c:symbol val="dot"/><c:size val="3"/></c:marker>`)
			} else {
				cw.raw(`<c:marker><c:symbol val="none"/></c:marker>`)
			}
		}
	}
	for i, p := range s.Points {
		if p.isZero() {
			continue
		}
		cw.raw("<c:dPt>")
		cw.val("c:idx", strconv.Itoa(i))
		if isLine(t) || isScatter(t) || isRadar(t) {
			// A point of a line is its marker.
			cw.raw("<c:marker>")
			cw.spPr(p)
			cw.raw("</c:marker>")
		} else {
			cw.spPr(p)
		}
		cw.raw("</c:dPt>")
	}
	if s.Labels != nil {
		cw.dataLabels(t, s)
	}
	if s.Trendline != nil && !isPie(t) && !isRadar(t) {
		cw.trendline(s.Trendline)
	}
	if isScatter(t) && s.XErrorBars != nil {
		cw.errorBars(s.XErrorBars, "x")
	}
	if s.YErrorBars != nil && !isPie(t) && !isRadar(t) {
		if isBar(t) {
			cw.errorBars(s.YErrorBars, "") // a bar's error bars go its own way
		} else {
			cw.errorBars(s.YErrorBars, "y")
		}
	}
	catTag, valTag := "c:cat", "c:val"
	if isScatter(t) {
		catTag, valTag = "c:xVal", "c:yVal"
	}
	if s.cat != nil {
		cw.raw("<" + catTag + ">")
		cw.ref(s.cat, false)
		cw.raw("</" + catTag + ">")
	}
	cw.raw("<" + valTag + ">")
	cw.numRef(s.val)
	cw.raw("</" + valTag + ">")
	if isScatter(t) && (t == ChartScatterSmooth || t == ChartScatterSmoothWithMarkers) || isLine(t) && s.Smooth {
		cw.val("c:smooth", "1")
	} else if isScatter(t) && s.Smooth {
		cw.val("c:smooth", "1")
	}
	cw.raw("</c:ser>")
}

// ref writes a range as a string reference if it holds text (or, with no
// cache to tell, if it is a name), a number reference otherwise.
func (cw *chartWriter) ref(r *chartRef, name bool) {
	if r.isText(name) {
		cw.strRef(r)
	} else {
		cw.numRef(r)
	}
}

// isText tells whether a range is written as a string reference: if its
// cache holds text or, without a cache to tell, if it is a name or
// categories (text is what category labels usually are).
func (r *chartRef) isText(name bool) bool {
	c := r.cache
	if c == nil || c.over {
		return true
	}
	for _, p := range c.pts {
		if p.isText {
			return true
		}
	}
	return len(c.pts) == 0 && name
}

// count is the number of cells the range covers.
func (r *chartRef) count() int {
	f := r.final
	return (f.LastRow - f.FirstRow + 1) * (f.LastCol - f.FirstCol + 1)
}

func (cw *chartWriter) numRef(r *chartRef) {
	cw.raw("<c:numRef>")
	cw.text("c:f", r.formula())
	if c := r.cache; c != nil && !c.over {
		cw.raw("<c:numCache>")
		code := c.fmtCode
		if code == "" {
			code = "General"
		}
		cw.text("c:formatCode", code)
		cw.val("c:ptCount", strconv.Itoa(r.count()))
		for _, p := range c.pts {
			if int(p.idx) >= r.count() {
				continue
			}
			// Text among numbers counts as zero, as Excel draws it.
			cw.b = appendIntAttr(append(cw.b, "<c:pt"...), "idx", int(p.idx))
			cw.b = append(cw.b, "><c:v>"...)
			cw.b, _ = appendXMLNumber(cw.b, p.num, false)
			cw.b = append(cw.b, "</c:v></c:pt>"...)
		}
		cw.raw("</c:numCache>")
	}
	cw.raw("</c:numRef>")
}

func (cw *chartWriter) strRef(r *chartRef) {
	cw.raw("<c:strRef>")
	cw.text("c:f", r.formula())
	if c := r.cache; c != nil && !c.over {
		cw.raw("<c:strCache>")
		cw.val("c:ptCount", strconv.Itoa(r.count()))
		for _, p := range c.pts {
			if int(p.idx) >= r.count() {
				continue
			}
			cw.b = appendIntAttr(append(cw.b, "<c:pt"...), "idx", int(p.idx))
			cw.b = append(cw.b, "><c:v>"...)
			if p.isText {
				cw.b, _ = appendText(cw.b, string(c.text[p.off:p.off+p.size]))
			} else {
				cw.b, _ = appendXMLNumber(cw.b, p.num, false)
			}
			cw.b = append(cw.b, "</c:v></c:pt>"...)
		}
		cw.raw("</c:strCache>")
	}
	cw.raw("</c:strRef>")
}

func (cw *chartWriter) marker(m *ChartMarker) {
	if *m == (ChartMarker{}) {
		return // Excel's automatic marker is no element at all
	}
	cw.raw("<c:marker>")
	if m.Type != MarkerAutomatic {
		cw.val("c:symbol", markerNames[m.Type])
	}
	if m.Size != 0 {
		cw.val("c:size", strconv.Itoa(m.Size))
	}
	cw.spPr(m.Format)
	cw.raw("</c:marker>")
}

func (cw *chartWriter) dataLabels(t ChartType, s *chartSeries) {
	l := s.Labels
	cw.raw("<c:dLbls>")
	for i, c := range l.Custom {
		if c == (ChartCustomLabel{}) {
			continue
		}
		cw.raw("<c:dLbl>")
		cw.val("c:idx", strconv.Itoa(i))
		switch {
		case c.Delete:
			cw.raw(`<c:delete val="1"/>`)
		case c.Text != "" || c.Position != LabelDefault:
			cw.raw("<c:layout/>")
			switch {
			case s.labelRefs[i] != nil:
				cw.raw("<c:tx>")
				cw.strRef(s.labelRefs[i])
				cw.raw("</c:tx>")
				if !c.Format.isZero() || !c.Font.isZero() {
					cw.spPrOrEmpty(c.Format)
					cw.textPropsWith(c.Font, false, false)
				}
			case c.Text != "":
				cw.raw("<c:tx><c:rich><a:bodyPr/><a:lstStyle/>")
				for _, line := range strings.Split(c.Text, "\n") {
					cw.raw("<a:p>")
					if !c.Format.isZero() {
						cw.raw("<a:pPr><a:defRPr/></a:pPr>")
					}
					cw.raw("<a:r>")
					cw.fontAttrs("a:rPr", c.Font, "en-US", false)
					cw.text("a:t", line)
					cw.raw("</a:r></a:p>")
				}
				cw.raw("</c:rich></c:tx>")
				cw.spPr(c.Format)
			default:
				cw.spPr(c.Format)
				cw.txPr(c.Font, false)
			}
			pos := c.Position
			if pos == LabelDefault {
				pos = l.Position
			}
			cw.labelFlags(t, l, pos)
		default:
			cw.spPrOrEmpty(c.Format)
			cw.textPropsWith(c.Font, false, false)
		}
		cw.raw("</c:dLbl>")
	}
	if l.NumFmt != "" {
		cw.raw("<c:numFmt")
		cw.b = appendStringAttr(cw.b, "formatCode", l.NumFmt)
		cw.raw(` sourceLinked="0"/>`)
	}
	cw.spPr(l.Format)
	cw.txPr(l.Font, false)
	cw.labelFlags(t, l, l.Position)
	cw.raw("</c:dLbls>")
}

// spPrOrEmpty writes an element's shape properties, <c:spPr/> if none.
func (cw *chartWriter) spPrOrEmpty(f ChartFormat) {
	if f.isZero() {
		cw.raw("<c:spPr/>")
		return
	}
	cw.spPr(f)
}

func (cw *chartWriter) labelFlags(t ChartType, l *ChartDataLabels, pos ChartLabelPosition) {
	if pos != LabelDefault {
		cw.val("c:dLblPos", labelPosNames[pos])
	}
	if l.LegendKey {
		cw.val("c:showLegendKey", "1")
	}
	if l.Value {
		cw.val("c:showVal", "1")
	}
	if l.Category {
		cw.val("c:showCatName", "1")
	}
	if l.SeriesName {
		cw.val("c:showSerName", "1")
	}
	if l.Percentage {
		cw.val("c:showPercent", "1")
	}
	if l.Separator != "" {
		sep := l.Separator
		if sep != "\n" && sep != " " {
			sep += " "
		}
		cw.text("c:separator", sep)
	}
	if l.LeaderLines && isPie(t) {
		cw.val("c:showLeaderLines", "1")
	}
}

func (cw *chartWriter) trendline(tl *ChartTrendline) {
	cw.raw("<c:trendline>")
	if tl.Name != "" {
		cw.text("c:name", tl.Name)
	}
	cw.spPr(ChartFormat{Line: tl.Line})
	cw.val("c:trendlineType", trendNames[tl.Type])
	if tl.Type == TrendPolynomial {
		cw.val("c:order", strconv.Itoa(tl.Order))
	}
	if tl.Type == TrendMovingAverage {
		cw.val("c:period", strconv.Itoa(tl.Period))
	}
	if tl.Forward != 0 {
		cw.num("c:forward", tl.Forward)
	}
	if tl.Backward != 0 {
		cw.num("c:backward", tl.Backward)
	}
	if tl.Intercept != nil {
		cw.num("c:intercept", *tl.Intercept)
	}
	if tl.ShowRSquared {
		cw.val("c:dispRSqr", "1")
	}
	if tl.ShowEquation || tl.ShowRSquared {
		cw.flag("c:dispEq", tl.ShowEquation)
		cw.raw(`<c:trendlineLbl><c:layout/><c:numFmt formatCode="General" sourceLinked="0"/>`)
		cw.spPr(tl.LabelFormat)
		cw.txPr(tl.LabelFont, true)
		cw.raw(`</c:trendlineLbl>`)
	}
	cw.raw("</c:trendline>")
}

func (cw *chartWriter) errorBars(e *ChartErrorBars, dir string) {
	cw.raw("<c:errBars>")
	if dir != "" {
		cw.val("c:errDir", dir)
	}
	cw.val("c:errBarType", [...]string{"both", "plus", "minus"}[e.Direction])
	cw.val("c:errValType", errorTypeNames[e.Type])
	if e.NoEndCap {
		cw.val("c:noEndCap", "1")
	}
	if e.Type != ErrorStdErr {
		cw.num("c:val", e.Value)
	}
	cw.spPr(ChartFormat{Line: e.Line})
	cw.raw("</c:errBars>")
}

func (cw *chartWriter) legend(groups []chartGroup) {
	l := cw.sc.Legend
	if l.Position == LegendNone {
		return
	}
	cw.raw("<c:legend>")
	cw.val("c:legendPos", [...]string{"r", "t", "b", "l", "tr"}[l.Position])
	for _, d := range l.Delete {
		cw.raw("<c:legendEntry>")
		cw.val("c:idx", strconv.Itoa(d))
		cw.raw(`<c:delete val="1"/></c:legendEntry>`)
	}
	cw.layout(l.Layout, "", true)
	if l.Overlay {
		cw.val("c:overlay", "1")
	}
	cw.spPr(l.Format)
	pie := len(groups) > 0 && isPie(groups[0].typ)
	if pie {
		// Excel writes a pie's legend left to right, and its font without
		// a baseline.
		cw.raw(`<c:txPr><a:bodyPr/><a:lstStyle/><a:p><a:pPr rtl="0">`)
		cw.fontAttrs("a:defRPr", l.Font, "", false)
		cw.raw(`</a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr>`)
	} else if !l.Font.isZero() {
		cw.txPr(l.Font, false)
	}
	cw.raw("</c:legend>")
}

// title writes a chart's or an axis' title: rich text, or a cell's.
func (cw *chartWriter) title(t *ChartTitle, ref *chartRef, vertical bool) {
	cw.raw("<c:title>")
	if ref != nil {
		cw.raw("<c:tx>")
		cw.strRef(ref)
		cw.raw("</c:tx>")
		cw.layout(t.Layout, "", false)
		if t.Overlay {
			cw.val("c:overlay", "1")
		}
		cw.spPr(t.Format)
		cw.textProps(t.Font, vertical)
	} else {
		cw.raw("<c:tx>")
		cw.richText(t.Text, t.Font, vertical)
		cw.raw("</c:tx>")
		cw.layout(t.Layout, "", false)
		if t.Overlay {
			cw.val("c:overlay", "1")
		}
		cw.spPr(t.Format)
	}
	cw.raw("</c:title>")
}

// richText writes <c:rich> holding text in a font, one paragraph a line.
func (cw *chartWriter) richText(text string, f ChartFont, vertical bool) {
	cw.raw("<c:rich>")
	cw.bodyPr(f, vertical)
	cw.raw("<a:lstStyle/>")
	for _, line := range strings.Split(text, "\n") {
		cw.raw("<a:p><a:pPr>")
		cw.fontElem("a:defRPr", f, "")
		cw.raw("</a:pPr><a:r>")
		cw.fontElem("a:rPr", f, "en-US")
		cw.text("a:t", line)
		cw.raw("</a:r></a:p>")
	}
	cw.raw("</c:rich>")
}

// bodyPr turns text by the font's rotation (in 60,000ths of a degree),
// or as a vertical axis' title is turned.
func (cw *chartWriter) bodyPr(f ChartFont, vertical bool) {
	switch {
	case f.Rotation != 0:
		cw.b = appendIntAttr(append(cw.b, "<a:bodyPr"...), "rot", f.Rotation*60000)
		cw.raw(` vert="horz"/>`)
	case vertical:
		cw.raw(`<a:bodyPr rot="-5400000" vert="horz"/>`)
	default:
		cw.raw("<a:bodyPr/>")
	}
}

// txPr is the text properties of an element whose text comes from
// elsewhere (axis labels, legend, data labels).
func (cw *chartWriter) txPr(f ChartFont, baseline bool) {
	if f.isZero() {
		return
	}
	cw.textPropsWith(f, false, baseline)
}

// textProps writes <c:txPr> whatever the font; vertical turns the text
// as a vertical axis' title.
func (cw *chartWriter) textProps(f ChartFont, vertical bool) {
	cw.textPropsWith(f, vertical, true)
}

func (cw *chartWriter) textPropsWith(f ChartFont, vertical, baseline bool) {
	cw.raw("<c:txPr>")
	cw.bodyPr(f, vertical)
	cw.raw("<a:lstStyle/><a:p><a:pPr>")
	cw.fontAttrs("a:defRPr", f, "", baseline)
	cw.raw(`</a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr>`)
}

// fontElem writes a run's properties: <a:defRPr> or <a:rPr lang>.
func (cw *chartWriter) fontElem(tag string, f ChartFont, lang string) {
	cw.fontAttrs(tag, f, lang, true)
}

func (cw *chartWriter) fontAttrs(tag string, f ChartFont, lang string, baseline bool) {
	cw.raw("<" + tag)
	if lang != "" {
		cw.b = appendStringAttr(cw.b, "lang", lang)
	}
	if f.Size != 0 {
		cw.b = appendIntAttr(cw.b, "sz", int(math.Round(f.Size*100)))
	}
	switch {
	case f.Bold:
		cw.raw(` b="1"`)
	case f.NotBold:
		cw.raw(` b="0"`)
	}
	switch {
	case f.Italic:
		cw.raw(` i="1"`)
	case f.NotItalic:
		cw.raw(` i="0"`)
	}
	if f.Underline {
		cw.raw(` u="sng"`)
	}
	if baseline && !f.isZero() && (f.Underline || f.Size != 0 || f.Italic || f.NotItalic || f.Name != "" || f.Color != "") {
		cw.raw(` baseline="0"`)
	}
	if f.Color == "" && f.Name == "" {
		cw.raw("/>")
		return
	}
	cw.raw(">")
	if f.Color != "" {
		cw.solidFill(f.Color, 0)
	}
	if f.Name != "" {
		cw.raw("<a:latin")
		cw.b = appendStringAttr(cw.b, "typeface", f.Name)
		if f.PitchFamily != 0 {
			cw.b = appendIntAttr(cw.b, "pitchFamily", f.PitchFamily)
			cw.b = appendIntAttr(cw.b, "charset", f.Charset)
		}
		cw.raw("/>")
	}
	cw.raw("</" + tag + ">")
}

// spPr writes an element's shape properties: fill, then line.
func (cw *chartWriter) spPr(f ChartFormat) {
	if f.isZero() {
		return
	}
	cw.raw("<c:spPr>")
	cw.fill(f.Fill)
	l := f.Line
	if !l.isZero() {
		cw.raw("<a:ln")
		if l.Width != 0 {
			cw.b = appendIntAttr(cw.b, "w", int(math.Round(l.Width*12700)))
		}
		cw.raw(">")
		if l.None {
			cw.raw("<a:noFill/>")
		} else if l.Color != "" {
			cw.solidFill(l.Color, l.Transparency)
		}
		if l.Dash != DashSolid {
			cw.val("a:prstDash", dashNames[l.Dash])
		}
		cw.raw("</a:ln>")
	}
	cw.raw("</c:spPr>")
}

func (cw *chartWriter) fill(f ChartFill) {
	switch {
	case f.None:
		cw.raw("<a:noFill/>")
	case f.Gradient != nil:
		g := f.Gradient
		cw.raw("<a:gradFill")
		if g.Type != GradientLinear {
			cw.raw(` flip="none" rotWithShape="1"`)
		}
		cw.raw("><a:gsLst>")
		for _, st := range g.Stops {
			cw.b = appendIntAttr(append(cw.b, "<a:gs"...), "pos", st.Position*1000)
			cw.raw(">")
			cw.color(st.Color, 0)
			cw.raw("</a:gs>")
		}
		cw.raw("</a:gsLst>")
		switch g.Type {
		case GradientLinear:
			cw.b = appendIntAttr(append(cw.b, "<a:lin"...), "ang", g.Angle*60000)
			cw.raw(` scaled="0"/>`)
		case GradientPath:
			cw.raw(`<a:path path="shape"><a:fillToRect l="50000" t="50000" r="50000" b="50000"/></a:path><a:tileRect/>`)
		default:
			path := [...]string{"", "circle", "rect"}[g.Type]
			cw.raw(`<a:path path="` + path + `"><a:fillToRect l="100000" t="100000"/></a:path><a:tileRect r="-100000" b="-100000"/>`)
		}
		cw.raw("</a:gradFill>")
	case f.Pattern != nil:
		p := f.Pattern
		cw.raw("<a:pattFill")
		cw.b = appendStringAttr(cw.b, "prst", p.Pattern)
		cw.raw("><a:fgClr>")
		fg, bg := p.Foreground, p.Background
		if fg == "" {
			fg = "000000"
		}
		if bg == "" {
			bg = "FFFFFF"
		}
		cw.color(fg, 0)
		cw.raw("</a:fgClr><a:bgClr>")
		cw.color(bg, 0)
		cw.raw("</a:bgClr></a:pattFill>")
	case f.Color != "":
		cw.solidFill(f.Color, f.Transparency)
	}
}

func (cw *chartWriter) solidFill(c ChartColor, transparency int) {
	cw.raw("<a:solidFill>")
	cw.color(c, transparency)
	cw.raw("</a:solidFill>")
}

// color writes an RGB or scheme colour, with its luminance changes and
// transparency.
func (cw *chartWriter) color(c ChartColor, transparency int) {
	rgb, scheme, lumMod, lumOff, _ := parseColor(c)
	tag := "a:srgbClr"
	v := rgb
	if scheme != "" {
		tag, v = "a:schemeClr", scheme
	}
	cw.raw("<" + tag)
	cw.b = appendStringAttr(cw.b, "val", v)
	if lumMod == 0 && lumOff == 0 && transparency == 0 {
		cw.raw("/>")
		return
	}
	cw.raw(">")
	if lumMod != 0 {
		cw.b = appendIntAttr(append(cw.b, "<a:lumMod"...), "val", lumMod*1000)
		cw.raw("/>")
	}
	if lumOff != 0 {
		cw.b = appendIntAttr(append(cw.b, "<a:lumOff"...), "val", lumOff*1000)
		cw.raw("/>")
	}
	if transparency != 0 {
		cw.b = appendIntAttr(append(cw.b, "<a:alpha"...), "val", (100-transparency)*1000)
		cw.raw("/>")
	}
	cw.raw("</" + tag + ">")
}

// layout writes <c:layout>, manual if l is set: a target (the plot
// area's inner part), the corner and, if sized, the size.
func (cw *chartWriter) layout(l *ChartLayout, target string, sized bool) {
	if l == nil {
		cw.raw("<c:layout/>")
		return
	}
	cw.raw("<c:layout><c:manualLayout>")
	if target != "" {
		cw.val("c:layoutTarget", target)
	}
	cw.raw(`<c:xMode val="edge"/><c:yMode val="edge"/>`)
	cw.num("c:x", l.X)
	cw.num("c:y", l.Y)
	if sized {
		cw.num("c:w", l.W)
		cw.num("c:h", l.H)
	}
	cw.raw("</c:manualLayout></c:layout>")
}

func (cw *chartWriter) dataTable(d *ChartDataTable) {
	cw.raw("<c:dTable>")
	if !d.NoHorizontalBorder {
		cw.val("c:showHorzBorder", "1")
	}
	if !d.NoVerticalBorder {
		cw.val("c:showVertBorder", "1")
	}
	if !d.NoOutline {
		cw.val("c:showOutline", "1")
	}
	if d.ShowLegendKeys {
		cw.val("c:showKeys", "1")
	}
	if !d.Font.isZero() {
		cw.raw(`<c:txPr><a:bodyPr/><a:lstStyle/><a:p><a:pPr rtl="0">`)
		cw.fontAttrs("a:defRPr", d.Font, "", false)
		cw.raw(`</a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr>`)
	}
	cw.raw("</c:dTable>")
}
