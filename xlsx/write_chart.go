package xlsx

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Charts are collected while rows stream and written when the workbook
// closes: a chart's series may read sheets written after it, and each
// series' cached values (what viewers that never recalculate show) are
// taken from the rows as the sheets write them, so the chart's part is
// the last thing it can be written after.

// ErrChart is the error of a chart that cannot be drawn as given.
var ErrChart = errors.New("chart")

// sheetChart is a chart and where it goes.
type sheetChart struct {
	Chart
	id       int // the workbook's chart part number, from 1
	row, col int // its cell, on a worksheet (0 on a chartsheet)
	top      rowTop
	series   []chartSeries // Chart.Series then Combine's
	// titleRefs are the chart's and the axes' (X, Y, X2, Y2) titles that
	// are cells.
	titleRefs [5]*chartRef
	sheet     *Sheet // the sheet it is drawn on
}

// chartSeries is a series with its ranges parsed.
type chartSeries struct {
	*ChartSeries
	combined       bool // from Chart.Combine
	name, cat, val *chartRef
	// labelRefs are the custom labels that are cells, by point.
	labelRefs map[int]*chartRef
}

// chartRef is a range of cells a chart reads: resolved when its sheet
// ends, and the values written there on the way.
type chartRef struct {
	sheet string
	rng   Range // LastRow is MaxRows while open
	open  bool
	cache *chartCache
	// final is the range once its sheet has ended (or the workbook
	// closed).
	final Range
	ended bool
}

// AddChart places a chart with its top-left corner in the cell at row and
// col (1-based), as a picture is placed (Chart.Width, Height, OffsetX,
// OffsetY, Placement). The cell's row must be the last row written or a
// later one. The chart's ranges may be on any sheet; the values of those
// on this sheet, or on sheets added after this call, are cached as they
// are written (up to Chart.CacheLimit points a series).
//
// Errors (in a *CellError, leaving the sheet as it was): ErrChart for a
// chart without series or with an unknown type, a series without
// values, a range that is not one row or one column, a name, title,
// label or number format XML cannot carry, or an option out of its
// range; ErrRange for a cell outside the sheet or on a row already
// passed.
func (s *Sheet) AddChart(row, col int, c Chart) error {
	if err := s.check(); err != nil {
		return err
	}
	refuse := func(err error) error { return s.refuse(row, col, err) }
	switch {
	case s.chartSheet:
		return refuse(fmt.Errorf("%w: a chartsheet holds one chart", ErrChart))
	case row < 1 || row > MaxRows || col < 1 || col > MaxColumns:
		return refuse(fmt.Errorf("%w: a chart outside the sheet", ErrRange))
	case row < s.row:
		return refuse(fmt.Errorf("%w: a chart goes on the last row written (%d) or a later one", ErrRange, s.row))
	case c.OffsetX < 0 || c.OffsetY < 0 || c.Width < 0 || c.Height < 0 || math.IsNaN(c.OffsetX+c.OffsetY+c.Width+c.Height):
		return refuse(fmt.Errorf("%w: chart offsets and sizes must be positive", ErrRange))
	case c.Placement > ChartAbsolute:
		return refuse(fmt.Errorf("%w: placement %d", ErrRange, c.Placement))
	}
	sc, err := s.w.newChart(c)
	if err != nil {
		return refuse(err)
	}
	sc.row, sc.col, sc.top, sc.sheet = row, col, s.topOf(row), s
	s.trackHeights(row)
	s.w.lockShared()
	if s.drawing == 0 {
		s.w.drawings++
		s.drawing = s.w.drawings
	}
	s.w.unlockShared()
	s.w.registerChart(sc)
	s.charts = append(s.charts, sc)
	return nil
}

// AddChartSheet adds a sheet that is one chart, filling the window, as
// the next tab. Unlike AddSheet it leaves the sheet being written open: a
// chartsheet has no rows. Values are cached from the rows written after
// this call, on the open sheet and on sheets added later; a sheet already
// finished has let its rows go, and its series are left for Excel to
// compute.
//
// Errors: AddSheet's for the name and options, and AddChart's for the
// chart (in a *CellError naming the sheet).
func (w *Writer) AddChartSheet(name string, opts SheetOptions, c Chart) error {
	if err := w.loadErr(); err != nil {
		return err
	}
	if w.closed {
		return ErrClosed
	}
	sc, err := w.newChart(c)
	if err != nil {
		return &CellError{Sheet: name, Err: err}
	}
	s, err := w.addChartSheet(name, opts)
	if err != nil {
		return err
	}
	sc.sheet = s
	s.charts = []*sheetChart{sc}
	w.drawings++
	s.drawing = w.drawings
	w.registerChart(sc)
	return nil
}

// newChart checks a chart and parses its ranges.
func (w *Writer) newChart(c Chart) (*sheetChart, error) {
	if err := checkChart(&c, false); err != nil {
		return nil, err
	}
	sc := &sheetChart{Chart: c}
	sc.Series = slices.Clone(c.Series)
	if c.Combine != nil {
		combine := *c.Combine
		combine.Series = slices.Clone(combine.Series)
		sc.Combine = &combine
	}
	add := func(list []ChartSeries, combined bool) error {
		for i := range list {
			cs := chartSeries{ChartSeries: &list[i], combined: combined}
			var err error
			where := func(what string) string { return fmt.Sprintf("series %d %s", len(sc.series)+1, what) }
			if cs.val, err = parseChartRef(list[i].Values, where("values")); err != nil {
				return err
			}
			if list[i].Categories != "" {
				if cs.cat, err = parseChartRef(list[i].Categories, where("categories")); err != nil {
					return err
				}
			}
			if l := list[i].Labels; l != nil {
				for p, c := range l.Custom {
					if strings.HasPrefix(c.Text, "=") {
						if cs.labelRefs == nil {
							cs.labelRefs = map[int]*chartRef{}
						}
						if cs.labelRefs[p], err = parseChartRef(c.Text, where("label")); err != nil {
							return err
						}
					}
				}
			}
			if n := list[i].Name; strings.HasPrefix(n, "=") {
				if cs.name, err = parseChartRef(n, where("name")); err != nil {
					return err
				}
			}
			sc.series = append(sc.series, cs)
		}
		return nil
	}
	if err := add(sc.Series, false); err != nil {
		return nil, err
	}
	if sc.Combine != nil {
		if err := add(sc.Combine.Series, true); err != nil {
			return nil, err
		}
	}
	for i, t := range []ChartTitle{c.Title, c.X.Title, c.Y.Title, c.X2.Title, c.Y2.Title} {
		if strings.HasPrefix(t.Text, "=") {
			var err error
			if sc.titleRefs[i], err = parseChartRef(t.Text, "title"); err != nil {
				return nil, err
			}
		}
	}
	limit := c.CacheLimit
	if limit == 0 {
		limit = DefaultChartCacheLimit
	}
	for _, ref := range sc.refs() {
		if limit > 0 {
			ref.cache = &chartCache{limit: limit}
		}
	}
	return sc, nil
}

// refs are every range the chart reads.
func (sc *sheetChart) refs() []*chartRef {
	var out []*chartRef
	for _, cs := range sc.series {
		for _, r := range []*chartRef{cs.name, cs.cat, cs.val} {
			if r != nil {
				out = append(out, r)
			}
		}
		for p := range cs.Labels.customCount() {
			if r := cs.labelRefs[p]; r != nil {
				out = append(out, r)
			}
		}
	}
	for _, r := range sc.titleRefs {
		if r != nil {
			out = append(out, r)
		}
	}
	return out
}

// registerChart numbers the chart and hands each of its ranges to the
// sheet it reads: its own sheet, or a sheet open in the same goroutine,
// collects the values from the next row on; a sheet not added yet, from
// its first row; a sheet already finished only tells where its rows end.
// Once sheets are written from several goroutines (AddConcurrentSheet),
// only the chart's own sheet is read as it streams: another may be being
// written elsewhere, and its ranges are left for Excel to compute.
func (w *Writer) registerChart(sc *sheetChart) {
	w.lockShared()
	defer w.unlockShared()
	w.chartCount++
	sc.id = w.chartCount
	w.charts = append(w.charts, sc)
	for _, ref := range sc.refs() {
		own := !sc.sheet.chartSheet && strings.EqualFold(ref.sheet, sc.sheet.name)
		var s *Sheet
		switch {
		case own:
			s = sc.sheet
		case w.concurrent:
			ref.cache = nil
			continue
		default:
			s = w.sheetByName(ref.sheet)
		}
		switch {
		case s == nil:
			if w.chartWatch == nil {
				w.chartWatch = map[string][]*chartRef{}
			}
			key := strings.ToLower(ref.sheet)
			w.chartWatch[key] = append(w.chartWatch[key], ref)
		case s.finished:
			ref.cache = nil // its rows are gone
		default:
			if ref.cache != nil && s.row >= ref.rng.FirstRow {
				ref.cache = nil // rows it covers are already written
			}
			s.chartRefs = append(s.chartRefs, ref)
		}
	}
}

func (w *Writer) sheetByName(name string) *Sheet {
	if i := w.sheetIndex(name); i >= 0 {
		return w.sheets[i]
	}
	return nil
}

// end resolves the range once its sheet has ended at lastRow.
func (r *chartRef) end(lastRow int) {
	if r.ended {
		return
	}
	r.ended = true
	r.final = r.rng
	if r.open {
		r.final.LastRow = max(lastRow, r.rng.FirstRow)
	}
}

// parseChartRef reads "Sheet1!$A$1:$A$5", "'My data'!B2:B" or a single
// cell, with an optional leading "=".
func parseChartRef(s, what string) (*chartRef, error) {
	ref, err := parseRangeRef(s, what)
	if err == nil && ref.rng.FirstRow != ref.rng.LastRow && ref.rng.FirstCol != ref.rng.LastCol {
		return nil, fmt.Errorf("%w: %s %q: a series' range is one row or one column", ErrChart, what, s)
	}
	return ref, err
}

// parseRangeRef reads a range on a named sheet, of any shape.
func parseRangeRef(s, what string) (*chartRef, error) {
	bad := func(why string) error { return fmt.Errorf("%w: %s %q: %s", ErrChart, what, s, why) }
	f := strings.TrimPrefix(strings.TrimSpace(s), "=")
	if f == "" {
		return nil, bad("a range is needed, as Sheet1!$B$2:$B$10")
	}
	bang := strings.LastIndexByte(f, '!')
	if bang <= 0 {
		return nil, bad("name the sheet, as Sheet1!$B$2:$B$10")
	}
	sheet, cells := f[:bang], strings.ReplaceAll(f[bang+1:], "$", "")
	if strings.HasPrefix(sheet, "'") {
		if len(sheet) < 3 || !strings.HasSuffix(sheet, "'") {
			return nil, bad("unbalanced quotes around the sheet name")
		}
		sheet = strings.ReplaceAll(sheet[1:len(sheet)-1], "''", "'")
	}
	if err := CheckSheetName(sheet); err != nil {
		return nil, bad(err.Error())
	}
	ref := &chartRef{sheet: sheet}
	first, last, isRange := strings.Cut(strings.ToUpper(cells), ":")
	r1, c1, err := ParseCellName(first)
	if err != nil {
		return nil, bad("not a cell or range")
	}
	r2, c2 := r1, c1
	if isRange {
		if lr, lc, err := ParseCellName(last); err == nil {
			r2, c2 = lr, lc
		} else if col, ok := columnNumber(last); ok {
			r2, c2, ref.open = MaxRows, col, true
		} else {
			return nil, bad("not a cell or range")
		}
	}
	ref.rng = Range{min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)}
	if ref.open && (r1 > r2 || c1 != c2) {
		return nil, bad("an open range is one column, as B2:B")
	}
	return ref, nil
}

// columnNumber reads column letters, "B" or "XFD".
func columnNumber(s string) (int, bool) {
	if s == "" || len(s) > 3 {
		return 0, false
	}
	col := 0
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return 0, false
		}
		col = col*26 + int(s[i]-'A'+1)
	}
	return col, col <= MaxColumns
}

// formula is the range as the chart's XML refers to it.
func (r *chartRef) formula() string {
	rng := r.rng
	if r.ended {
		rng = r.final
	}
	b := []byte(quoteSheetName(r.sheet))
	b = append(b, '!')
	return string(rng.append(b, true))
}

// checkChart checks what the XML will carry; inner is a Combine chart.
func checkChart(c *Chart, inner bool) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrChart}, a...)...)
	}
	if c.Type == 0 || int(c.Type) >= len(chartTypeNames) {
		return bad("unknown chart type %d", c.Type)
	}
	if len(c.Series) == 0 {
		return bad("a %s chart needs a series", c.Type)
	}
	if c.Type == ChartStock && len(c.Series) != 3 && len(c.Series) != 4 && !inner {
		return bad("a stock chart has 3 series (high, low, close) or 4 (open, high, low, close), not %d", len(c.Series))
	}
	if c.Style < 0 || c.Style > 48 {
		return bad("style %d outside 1..48", c.Style)
	}
	if c.HoleSize != 0 && (c.HoleSize < 10 || c.HoleSize > 90) {
		return bad("hole size %d outside 10..90", c.HoleSize)
	}
	if c.FirstSliceAngle < 0 || c.FirstSliceAngle > 360 {
		return bad("first slice angle %d outside 0..360", c.FirstSliceAngle)
	}
	if c.Gap != nil && (*c.Gap < 0 || *c.Gap > 500) {
		return bad("gap %d outside 0..500", *c.Gap)
	}
	if c.Overlap != nil && (*c.Overlap < -100 || *c.Overlap > 100) {
		return bad("overlap %d outside -100..100", *c.Overlap)
	}
	if c.Blanks > BlanksSpan || c.Legend.Position > LegendNone {
		return bad("unknown option")
	}
	if !validAttrText(c.Name) || !validAttrText(c.AltText) {
		return bad("name or alt text XML cannot carry")
	}
	if c.Combine != nil {
		if inner {
			return bad("a combined chart cannot combine another")
		}
		if isPie(c.Type) != isPie(c.Combine.Type) {
			return bad("a %s chart cannot be combined with a %s chart", c.Type, c.Combine.Type)
		}
		if err := checkChart(c.Combine, true); err != nil {
			return err
		}
	}
	if err := checkTitle(c.Title, "title"); err != nil {
		return err
	}
	for _, l := range []*ChartLayout{c.PlotLayout, c.Title.Layout, c.Legend.Layout, c.X.Title.Layout, c.Y.Title.Layout, c.X2.Title.Layout, c.Y2.Title.Layout} {
		if l != nil && (math.IsNaN(l.X+l.Y+l.W+l.H) || math.IsInf(l.X+l.Y+l.W+l.H, 0)) {
			return bad("a layout's position is not a number")
		}
	}
	if err := checkFormat(c.ChartArea, "chart area"); err != nil {
		return err
	}
	if err := checkFormat(c.PlotArea, "plot area"); err != nil {
		return err
	}
	if err := checkFont(c.Legend.Font, "legend"); err != nil {
		return err
	}
	for name, a := range map[string]*ChartAxis{"X axis": &c.X, "Y axis": &c.Y, "X2 axis": &c.X2, "Y2 axis": &c.Y2} {
		if err := checkAxis(a, name); err != nil {
			return err
		}
	}
	for i := range c.Series {
		if err := checkSeries(&c.Series[i], i+1); err != nil {
			return err
		}
	}
	return nil
}

func checkTitle(t ChartTitle, what string) error {
	if !validAttrText(t.Text) || len(t.Text) > 255*4 {
		return fmt.Errorf("%w: %s text XML cannot carry", ErrChart, what)
	}
	if strings.HasPrefix(t.Text, "=") {
		if _, err := parseChartRef(t.Text, what); err != nil {
			return err
		}
	}
	if err := checkFont(t.Font, what); err != nil {
		return err
	}
	return checkFormat(t.Format, what)
}

func checkAxis(a *ChartAxis, what string) error {
	if err := checkTitle(a.Title, what+" title"); err != nil {
		return err
	}
	for _, v := range []*float64{a.Min, a.Max, a.MajorUnit, a.MinorUnit, a.CrossesAt} {
		if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0)) {
			return fmt.Errorf("%w: %s: a scale value is not a number", ErrChart, what)
		}
	}
	if a.Min != nil && a.Max != nil && *a.Min >= *a.Max {
		return fmt.Errorf("%w: %s: min %g is not below max %g", ErrChart, what, *a.Min, *a.Max)
	}
	if a.LogBase != 0 && (a.LogBase < 2 || a.LogBase > 1000) {
		return fmt.Errorf("%w: %s: log base %g outside 2..1000", ErrChart, what, a.LogBase)
	}
	if !validAttrText(a.NumFmt) || len(a.NumFmt) > 255 {
		return fmt.Errorf("%w: %s: number format XML cannot carry", ErrChart, what)
	}
	if a.MajorTicks > TicksCross || a.MinorTicks > TicksCross || a.Labels > AxisLabelsNone || a.DisplayUnits > UnitsTrillions {
		return fmt.Errorf("%w: %s: unknown option", ErrChart, what)
	}
	for _, g := range []*ChartGridlines{a.MajorGridlines, a.MinorGridlines} {
		if g != nil {
			if err := checkLine(g.Line, what+" gridlines"); err != nil {
				return err
			}
		}
	}
	if a.Categories > CategoriesBetween || a.LabelAlign > LabelAlignRight || a.LabelInterval < 0 || a.TickInterval < 0 {
		return fmt.Errorf("%w: %s: unknown option", ErrChart, what)
	}
	for _, u := range []string{a.MajorTimeUnit, a.MinorTimeUnit} {
		if u != "" && u != "days" && u != "months" && u != "years" {
			return fmt.Errorf("%w: %s: time unit %q is days, months or years", ErrChart, what, u)
		}
	}
	if err := checkFont(a.Font, what); err != nil {
		return err
	}
	return checkFormat(a.Format, what)
}

func checkSeries(s *ChartSeries, n int) error {
	what := "series " + strconv.Itoa(n)
	if strings.TrimSpace(s.Values) == "" {
		return fmt.Errorf("%w: %s has no values", ErrChart, what)
	}
	if !validAttrText(s.Name) || len(s.Name) > 255*4 {
		return fmt.Errorf("%w: %s name XML cannot carry", ErrChart, what)
	}
	if err := checkFormat(s.Format, what); err != nil {
		return err
	}
	for _, p := range s.Points {
		if err := checkFormat(p, what+" point"); err != nil {
			return err
		}
	}
	if m := s.Marker; m != nil {
		if m.Type > MarkerPlus || m.Size != 0 && (m.Size < 2 || m.Size > 72) {
			return fmt.Errorf("%w: %s marker", ErrChart, what)
		}
		if err := checkFormat(m.Format, what+" marker"); err != nil {
			return err
		}
	}
	if l := s.Labels; l != nil {
		for _, c := range l.Custom {
			if c.Position > LabelBestFit {
				return fmt.Errorf("%w: %s labels: unknown position", ErrChart, what)
			}
			if err := checkFormat(c.Format, what+" label"); err != nil {
				return err
			}
		}
		if l.Position > LabelBestFit || !slices.Contains([]string{"", ",", ";", ".", "\n", " "}, l.Separator) {
			return fmt.Errorf("%w: %s labels: unknown position or separator", ErrChart, what)
		}
		if !validAttrText(l.NumFmt) || len(l.NumFmt) > 255 {
			return fmt.Errorf("%w: %s labels: number format XML cannot carry", ErrChart, what)
		}
		if err := checkFont(l.Font, what+" labels"); err != nil {
			return err
		}
		for _, c := range l.Custom {
			if !validAttrText(c.Text) || len(c.Text) > 255*4 {
				return fmt.Errorf("%w: %s label text XML cannot carry", ErrChart, what)
			}
			if strings.HasPrefix(c.Text, "=") {
				if _, err := parseChartRef(c.Text, what+" label"); err != nil {
					return err
				}
			}
			if err := checkFont(c.Font, what+" label"); err != nil {
				return err
			}
		}
	}
	if t := s.Trendline; t != nil {
		switch {
		case t.Type > TrendMovingAverage:
			return fmt.Errorf("%w: %s trendline type %d", ErrChart, what, t.Type)
		case t.Type == TrendPolynomial && (t.Order < 2 || t.Order > 6):
			return fmt.Errorf("%w: %s trendline: a polynomial's order is 2..6, not %d", ErrChart, what, t.Order)
		case t.Type == TrendMovingAverage && t.Period < 2:
			return fmt.Errorf("%w: %s trendline: a moving average's period is 2 or more", ErrChart, what)
		case !validAttrText(t.Name), math.IsNaN(t.Forward + t.Backward):
			return fmt.Errorf("%w: %s trendline name", ErrChart, what)
		}
		if err := checkLine(t.Line, what+" trendline"); err != nil {
			return err
		}
	}
	for _, e := range []*ChartErrorBars{s.XErrorBars, s.YErrorBars} {
		if e != nil {
			if e.Type > ErrorStdErr || e.Direction > ErrorMinus || math.IsNaN(e.Value) || math.IsInf(e.Value, 0) {
				return fmt.Errorf("%w: %s error bars", ErrChart, what)
			}
			if err := checkLine(e.Line, what+" error bars"); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkFont(f ChartFont, what string) error {
	if len(f.Name) > 31 || !validAttrText(f.Name) || f.Size < 0 || f.Size > 400 || math.IsNaN(f.Size) ||
		f.Rotation < -90 || f.Rotation > 90 {
		return fmt.Errorf("%w: %s font", ErrChart, what)
	}
	return checkColor(f.Color, what+" font")
}

func checkFormat(f ChartFormat, what string) error {
	if err := checkLine(f.Line, what+" line"); err != nil {
		return err
	}
	fill := f.Fill
	if fill.Transparency < 0 || fill.Transparency > 100 {
		return fmt.Errorf("%w: %s fill transparency %d outside 0..100", ErrChart, what, fill.Transparency)
	}
	if err := checkColor(fill.Color, what+" fill"); err != nil {
		return err
	}
	if g := fill.Gradient; g != nil {
		if len(g.Stops) < 2 || len(g.Stops) > 10 || g.Type > GradientPath || g.Angle < 0 || g.Angle > 359 {
			return fmt.Errorf("%w: %s gradient: 2..10 stops, angle 0..359", ErrChart, what)
		}
		for i, st := range g.Stops {
			if st.Position < 0 || st.Position > 100 || i > 0 && st.Position < g.Stops[i-1].Position {
				return fmt.Errorf("%w: %s gradient stop positions rise within 0..100", ErrChart, what)
			}
			if err := checkColor(st.Color, what+" gradient"); err != nil {
				return err
			}
		}
	}
	if p := fill.Pattern; p != nil {
		if !slices.Contains(chartPatterns, p.Pattern) {
			return fmt.Errorf("%w: %s: unknown pattern %q", ErrChart, what, p.Pattern)
		}
		if err := errors.Join(checkColor(p.Foreground, what+" pattern"), checkColor(p.Background, what+" pattern")); err != nil {
			return err
		}
	}
	return nil
}

func checkLine(l ChartLineFormat, what string) error {
	if l.Width < 0 || l.Width > 1584 || math.IsNaN(l.Width) || l.Transparency < 0 || l.Transparency > 100 || l.Dash > DashLongDashDotDot {
		return fmt.Errorf("%w: %s: width 0..1584, transparency 0..100", ErrChart, what)
	}
	return checkColor(l.Color, what)
}

// chartPatterns are DrawingML's preset patterns (ECMA-376 20.1.10.51).
var chartPatterns = strings.Fields(`pct5 pct10 pct20 pct25 pct30 pct40 pct50 pct60 pct70 pct75 pct80 pct90
	horz vert ltHorz ltVert dkHorz dkVert narHorz narVert dashHorz dashVert cross dnDiag upDiag ltDnDiag ltUpDiag
	dkDnDiag dkUpDiag wdDnDiag wdUpDiag dashDnDiag dashUpDiag diagCross smCheck lgCheck smGrid lgGrid dotGrid
	smConfetti lgConfetti horzBrick diagBrick solidDmnd openDmnd dotDmnd plaid sphere weave divot shingle wave trellis zigZag`)

var schemeColors = []string{"accent1", "accent2", "accent3", "accent4", "accent5", "accent6", "dk1", "lt1", "dk2", "lt2", "tx1", "tx2", "bg1", "bg2", "hlink", "folHlink"}

// parseColor splits a ChartColor into RGB or a scheme colour with its
// luminance changes (in percent; 0 when not given).
func parseColor(c ChartColor) (rgb, scheme string, lumMod, lumOff int, err error) {
	s := string(c)
	name, mods, _ := strings.Cut(s, ":")
	if slices.Contains(schemeColors, name) {
		if mods != "" {
			mod, off, _ := strings.Cut(mods, "+")
			if lumMod, err = strconv.Atoi(mod); err != nil || lumMod < 0 || lumMod > 100 {
				return "", "", 0, 0, fmt.Errorf("%w: colour %q: luminance is 0..100", ErrChart, s)
			}
			if off != "" {
				if lumOff, err = strconv.Atoi(off); err != nil || lumOff < 0 || lumOff > 100 {
					return "", "", 0, 0, fmt.Errorf("%w: colour %q: luminance is 0..100", ErrChart, s)
				}
			}
		}
		return "", name, lumMod, lumOff, nil
	}
	argb, e := Color(s).argb()
	if e != nil || !strings.HasPrefix(argb, "FF") {
		return "", "", 0, 0, fmt.Errorf("%w: colour %q is not RRGGBB hex or a theme colour (accent1...)", ErrChart, s)
	}
	return argb[2:], "", 0, 0, nil
}

func checkColor(c ChartColor, what string) error {
	if c == "" {
		return nil
	}
	if _, _, _, _, err := parseColor(c); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// chartParts are the workbook's charts, written at Close once every
// sheet has ended. A range on a sheet that the workbook does not have is
// an error: Excel would show the chart empty and ask to repair.
func (w *Writer) chartParts() ([]packagePart, error) {
	var parts []packagePart
	for _, sc := range w.charts {
		for _, ref := range sc.refs() {
			if !ref.ended {
				s := w.sheetByName(ref.sheet)
				if s == nil {
					return nil, &CellError{Sheet: sc.sheet.name, Row: sc.row, Col: sc.col,
						Err: fmt.Errorf("%w: a series reads sheet %q, which the workbook does not have", ErrChart, ref.sheet)}
				}
				ref.end(s.row)
			}
		}
		parts = append(parts, packagePart{"xl/charts/chart" + strconv.Itoa(sc.id) + ".xml", sc.xml(w)})
	}
	return parts, nil
}

// Excel's default chart size, in pixels.
const chartWidth, chartHeight = 480, 288

// appendChartAnchor writes the chart's frame in the sheet's drawing: on a
// worksheet from its cell, as pictures are placed; on a chartsheet over
// the whole window.
func (s *Sheet) appendChartAnchor(b []byte, sc *sheetChart, id, n, rid int) []byte {
	if s.chartSheet {
		b = append(b, `<xdr:absoluteAnchor><xdr:pos x="0" y="0"/><xdr:ext cx="9308969" cy="6078325"/>`...)
	} else {
		width, height := sc.Width, sc.Height
		if width == 0 {
			width = chartWidth
		}
		if height == 0 {
			height = chartHeight
		}
		editAs := [...]string{ChartMoveAndSize: "", ChartMove: "oneCell", ChartAbsolute: "absolute"}[sc.Placement]
		b = s.appendTwoCellAnchor(b, editAs, anchor{sc.row, sc.col, sc.OffsetX, sc.OffsetY, width, height})
	}
	b = append(b, `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr>`...)
	b = appendIntAttr(append(b, `<xdr:cNvPr`...), "id", id)
	name := sc.Name
	if name == "" {
		name = "Chart " + strconv.Itoa(n)
	}
	b = appendStringAttr(b, "name", name)
	if sc.AltText != "" {
		b = appendStringAttr(b, "descr", sc.AltText)
	}
	b = append(b, `/>`...)
	if s.chartSheet {
		b = append(b, `<xdr:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></xdr:cNvGraphicFramePr>`...)
	} else {
		b = append(b, `<xdr:cNvGraphicFramePr/>`...)
	}
	b = append(b, `</xdr:nvGraphicFramePr><xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="`+nsRelations+`" r:id="rId`...)
	b = strconv.AppendInt(b, int64(rid), 10)
	b = append(b, `"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/>`...)
	if s.chartSheet {
		return append(b, `</xdr:absoluteAnchor>`...)
	}
	return append(b, `</xdr:twoCellAnchor>`...)
}

// addChartSheet adds a chartsheet to the workbook's tabs. It has no rows
// and takes no turn in the archive: its parts are written at Close.
func (w *Writer) addChartSheet(name string, opts SheetOptions) (*Sheet, error) {
	if err := CheckSheetName(name); err != nil {
		return nil, err
	}
	if w.sheetIndex(name) >= 0 {
		return nil, fmt.Errorf("%w: %q is already used (names ignore case)", ErrSheetName, name)
	}
	if opts.TabColor != "" {
		if _, err := opts.TabColor.argb(); err != nil {
			return nil, err
		}
	}
	w.chartSheets++
	s := &Sheet{w: w, name: name, index: len(w.sheets), opts: SheetOptions{State: opts.State, TabColor: opts.TabColor, Active: opts.Active},
		chartSheet: true, part: w.chartSheets, finished: true}
	if err := w.takeActive(s); err != nil {
		w.chartSheets--
		return nil, err
	}
	w.sheets = append(w.sheets, s)
	return s, nil
}

// chartSheetParts are a chartsheet's part, its relationships and its
// drawing.
func (s *Sheet) chartSheetParts() []packagePart {
	n := strconv.Itoa(s.part)
	b := []byte(xmlHeader + `<chartsheet xmlns="` + nsMain + `" xmlns:r="` + nsRelations + `"><sheetPr`)
	if s.opts.TabColor != "" {
		argb, _ := s.opts.TabColor.argb()
		b = append(b, `><tabColor rgb="`...)
		b = append(b, argb...)
		b = append(b, `"/></sheetPr>`...)
	} else {
		b = append(b, `/>`...)
	}
	b = append(b, `<sheetViews><sheetView`...)
	if s.active {
		b = append(b, ` tabSelected="1"`...)
	}
	b = append(b, ` workbookViewId="0"/></sheetViews><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/><drawing r:id="rId1"/></chartsheet>`...)
	var rels relsWriter
	rels.add("drawing", "../drawings/drawing"+strconv.Itoa(s.drawing)+".xml", false)
	parts := []packagePart{{"xl/chartsheets/sheet" + n + ".xml", b}, {"xl/chartsheets/_rels/sheet" + n + ".xml.rels", rels.bytes()}}
	return append(parts, s.drawingParts()...)
}

// customCount is how many custom labels there are (nil: none).
func (l *ChartDataLabels) customCount() []ChartCustomLabel {
	if l == nil {
		return nil
	}
	return l.Custom
}
