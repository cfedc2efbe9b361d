package xlsx_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

// allChartTypes is every chart type with the series it is drawn from in
// chartData's sheet: dates in A, numbers in B..E.
var allChartTypes = []xlsx.ChartType{
	xlsx.ChartColumn, xlsx.ChartColumnStacked, xlsx.ChartColumnPercentStacked,
	xlsx.ChartBar, xlsx.ChartBarStacked, xlsx.ChartBarPercentStacked,
	xlsx.ChartLine, xlsx.ChartLineStacked, xlsx.ChartLinePercentStacked, xlsx.ChartLineWithMarkers,
	xlsx.ChartArea, xlsx.ChartAreaStacked, xlsx.ChartAreaPercentStacked,
	xlsx.ChartPie, xlsx.ChartDoughnut,
	xlsx.ChartScatter, xlsx.ChartScatterStraight, xlsx.ChartScatterStraightWithMarkers, xlsx.ChartScatterSmooth, xlsx.ChartScatterSmoothWithMarkers,
	xlsx.ChartRadar, xlsx.ChartRadarWithMarkers, xlsx.ChartRadarFilled,
	xlsx.ChartStock,
}

// chartTag is the element openpyxl reports for each type.
func chartTag(t xlsx.ChartType) string {
	name := t.String()
	kind, _, _ := strings.Cut(name, "-")
	switch kind {
	case "column", "bar":
		return "barChart"
	}
	return kind + "Chart"
}

// chartOfType is a chart of a type over the data sheet's rows 2..n.
func chartOfType(t xlsx.ChartType, n int) xlsx.Chart {
	r := func(col string) string { return fmt.Sprintf("Data!$%s$2:$%s$%d", col, col, n) }
	c := xlsx.Chart{Type: t, Title: xlsx.ChartTitle{Text: t.String()}}
	count := 2
	switch t {
	case xlsx.ChartPie, xlsx.ChartDoughnut:
		count = 1
	case xlsx.ChartStock:
		count = 3
	}
	for i := range count {
		col := string(rune('B' + i))
		c.Series = append(c.Series, xlsx.ChartSeries{Name: "=Data!$" + col + "$1", Categories: r("A"), Values: r(col)})
	}
	if t != xlsx.ChartPie && t != xlsx.ChartDoughnut {
		c.X.Title.Text, c.Y.Title.Text = "when", "how much"
	}
	return c
}

// writeChartData writes the data sheet: a header, then a date and four
// numbers a row.
func writeChartData(sh *xlsx.Sheet, rows int) error {
	if err := sh.WriteRow([]xlsx.Cell{xlsx.String("Day"), xlsx.String("High"), xlsx.String("Low"), xlsx.String("Close"), xlsx.String("Volume")}); err != nil {
		return err
	}
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range rows {
		v := float64(i%17) + 10
		if err := sh.WriteRow([]xlsx.Cell{xlsx.Date(day.AddDate(0, 0, i)), xlsx.Float(v + 5), xlsx.Float(v - 5), xlsx.Float(v), xlsx.Int(int64(1000 + i))}); err != nil {
			return err
		}
	}
	return nil
}

// TestChartsReadBack draws every chart type, a combined chart with a
// secondary axis and a chartsheet, has openpyxl, python-calamine and the
// Open XML validator read the workbook, and checks what openpyxl says of
// each chart: its kind, series references, title and axes.
func TestChartsReadBack(t *testing.T) {
	const rows = 30
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		dash, err := w.AddSheet("Dashboard", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		for i, typ := range allChartTypes {
			if err := dash.AddChart(1+(i/3)*16, 1+(i%3)*8, chartOfType(typ, rows+1)); err != nil {
				return err
			}
		}
		combo := xlsx.Chart{Type: xlsx.ChartColumn, Title: xlsx.ChartTitle{Text: "combined"},
			Series:  []xlsx.ChartSeries{{Name: "=Data!$E$1", Categories: "Data!$A$2:$A", Values: "Data!$E$2:$E"}},
			Combine: &xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{{Name: "=Data!$D$1", Categories: "Data!$A$2:$A", Values: "Data!$D$2:$D", Secondary: true}}},
			Y2:      xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: "close"}}}
		if err := dash.AddChart(200, 1, combo); err != nil {
			return err
		}
		if err := w.AddChartSheet("Overview", xlsx.SheetOptions{}, chartOfType(xlsx.ChartLine, rows+1)); err != nil {
			return err
		}
		data, err := w.AddSheet("Data", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		return writeChartData(data, rows)
	})
	_, res := auditBook(t, "charts.xlsx", book)
	got := res.Charts["Dashboard"]
	if len(got) != len(allChartTypes)+1 {
		t.Fatalf("openpyxl read %d charts on the dashboard, want %d", len(got), len(allChartTypes)+1)
	}
	for i, typ := range allChartTypes {
		c := got[i]
		if c.Type != chartTag(typ) {
			t.Errorf("%s: openpyxl read a %s", typ, c.Type)
		}
		if c.Title == nil || *c.Title != typ.String() {
			t.Errorf("%s: title %v", typ, c.Title)
		}
		if len(c.Series) == 0 || c.Series[0].Values == nil || *c.Series[0].Values != "Data!$B$2:$B$31" {
			t.Errorf("%s: series %+v", typ, c.Series)
			continue
		}
		if s := c.Series[0]; s.Categories == nil || *s.Categories != "Data!$A$2:$A$31" || s.Name == nil || *s.Name != "=Data!$B$1" {
			t.Errorf("%s: categories %v, name %v", typ, s.Categories, s.Name)
		}
		if typ == xlsx.ChartPie || typ == xlsx.ChartDoughnut || c.Type == "areaChart" {
			// Pies have no axes; openpyxl drops an area chart's axis
			// titles, even of Excel's own files (chart_axis07).
			continue
		}
		if c.XAxis == nil || c.XAxis.Title == nil || *c.XAxis.Title != "when" || c.YAxis == nil || c.YAxis.Title == nil || *c.YAxis.Title != "how much" {
			t.Errorf("%s: axes %+v %+v", typ, c.XAxis, c.YAxis)
		}
	}
	combo := got[len(got)-1]
	// The open-ended ranges end at the data's last row.
	if combo.Type != "barChart" || len(combo.Series) == 0 || *combo.Series[0].Values != "Data!$E$2:$E$31" {
		t.Errorf("combined chart: %+v", combo)
	}
	if over := res.Charts["Overview"]; len(over) != 1 || over[0].Type != "lineChart" {
		t.Errorf("chartsheet: %+v", over)
	}
	// The chart XML names the secondary axis and its line.
	x := chartPart(t, book, len(allChartTypes)+1)
	for _, want := range []string{"<c:lineChart>", `<c:axPos val="r"/>`, `<c:crosses val="max"/>`, "Data!$D$2:$D$31"} {
		if !strings.Contains(x, want) {
			t.Errorf("combined chart lacks %s", want)
		}
	}
}

// chartPart is chart n's XML.
func chartPart(t testing.TB, book []byte, n int) string {
	t.Helper()
	return part(t, book, "xl/charts/chart"+strconv.Itoa(n)+".xml")
}

var cachePoint = regexp.MustCompile(`<c:pt idx="(\d+)"><c:v>([^<]*)</c:v></c:pt>`)

// cacheOf returns a range's cached points, from the reference to the end
// of its cache (nil if it has none).
func cacheOf(x, ref string) map[int]string {
	i := strings.Index(x, "<c:f>"+ref+"</c:f>")
	if i < 0 {
		return nil
	}
	rest := x[i:]
	end := strings.Index(rest, "Ref>") // the closing </c:numRef> or </c:strRef>
	rest = rest[:end]
	if !strings.Contains(rest, "Cache>") {
		return nil
	}
	out := map[int]string{}
	for _, m := range cachePoint.FindAllStringSubmatch(rest, -1) {
		n, _ := strconv.Atoi(m[1])
		out[n] = m[2]
	}
	return out
}

// TestChartCacheFromStream: the values of open-ended ranges are cached
// as the rows stream, on the chart's sheet and on a sheet added after it,
// and the ranges end at the sheets' last rows.
func TestChartCacheFromStream(t *testing.T) {
	const rows = 2000
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("Sales", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		c := xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{
			{Name: "=Sales!$B$1", Categories: "Sales!$A$2:$A", Values: "Sales!$B$2:$B"},
			{Name: "=Other!$A$1", Values: "Other!$A$2:$A"},
		}}
		if err := sh.AddChart(1, 4, c); err != nil {
			return err
		}
		if err := sh.WriteRow([]xlsx.Cell{xlsx.String("Month"), xlsx.String("Revenue")}); err != nil {
			return err
		}
		for i := range rows {
			if err := sh.WriteRow([]xlsx.Cell{xlsx.String("m" + strconv.Itoa(i)), xlsx.Float(float64(i) * 1.5)}); err != nil {
				return err
			}
		}
		other, err := w.AddSheet("Other", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		if err := other.WriteRow([]xlsx.Cell{xlsx.String("Other")}); err != nil {
			return err
		}
		for i := range 10 {
			if err := other.WriteRow([]xlsx.Cell{xlsx.Int(int64(i * i))}); err != nil {
				return err
			}
		}
		return nil
	})
	x := chartPart(t, book, 1)
	cats := cacheOf(x, "Sales!$A$2:$A$2001")
	vals := cacheOf(x, "Sales!$B$2:$B$2001")
	if len(cats) != rows || cats[0] != "m0" || cats[rows-1] != "m1999" {
		t.Errorf("categories cache: %d points, first %q, last %q", len(cats), cats[0], cats[rows-1])
	}
	if len(vals) != rows || vals[3] != "4.5" || vals[rows-1] != "2998.5" {
		t.Errorf("values cache: %d points, [3]=%q, last %q", len(vals), vals[3], vals[rows-1])
	}
	if !strings.Contains(x, `<c:strRef><c:f>Sales!$A$2:$A$2001</c:f>`) {
		t.Error("text categories are not a string reference")
	}
	if name := cacheOf(x, "Sales!$B$1"); name[0] != "Revenue" {
		t.Errorf("series name cache: %v", name)
	}
	if other := cacheOf(x, "Other!$A$2:$A$11"); len(other) != 10 || other[9] != "81" {
		t.Errorf("other sheet's cache: %v", other)
	}
	_, res := auditBook(t, "stream.xlsx", book)
	if c := res.Charts["Sales"]; len(c) != 1 || *c[0].Series[0].Values != "Sales!$B$2:$B$2001" {
		t.Errorf("openpyxl: %+v", c)
	}
}

// TestChartCacheLimit: past its limit a series is written without a
// cache (Excel computes it on open), and the file is still whole; a
// negative limit never caches; rows written before the chart was added,
// and a sheet finished before it, give no cache either.
func TestChartCacheLimit(t *testing.T) {
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		done, err := w.AddSheet("Done", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		for i := range 5 {
			if err := done.WriteRow([]xlsx.Cell{xlsx.Int(int64(i))}); err != nil {
				return err
			}
		}
		sh, err := w.AddSheet("Data", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		if err := sh.WriteRow([]xlsx.Cell{xlsx.Int(-1)}); err != nil {
			return err
		}
		charts := []xlsx.Chart{
			{Type: xlsx.ChartColumn, CacheLimit: 100, Series: []xlsx.ChartSeries{{Values: "Data!$A$2:$A"}}},
			{Type: xlsx.ChartColumn, CacheLimit: -1, Series: []xlsx.ChartSeries{{Values: "Data!$A$2:$A"}}},
			{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{{Values: "Data!$A$1:$A$10"}}},
			{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{{Values: "Done!$A$1:$A"}}},
			{Type: xlsx.ChartColumn, CacheLimit: 1000, Series: []xlsx.ChartSeries{{Values: "Data!$A$2:$A"}}},
		}
		for i, c := range charts {
			if err := sh.AddChart(2, 3+8*i, c); err != nil {
				return err
			}
		}
		for i := range 500 {
			if err := sh.WriteRow([]xlsx.Cell{xlsx.Int(int64(i))}); err != nil {
				return err
			}
		}
		return nil
	})
	for n, want := range []struct {
		ref    string
		points int // -1: no cache
	}{{"Data!$A$2:$A$501", -1}, {"Data!$A$2:$A$501", -1}, {"Data!$A$1:$A$10", -1}, {"Done!$A$1:$A$5", -1}, {"Data!$A$2:$A$501", 500}} {
		x := chartPart(t, book, n+1)
		if !strings.Contains(x, "<c:f>"+want.ref+"</c:f>") {
			t.Errorf("chart %d: no reference %s", n+1, want.ref)
			continue
		}
		c := cacheOf(x, want.ref)
		switch {
		case want.points < 0 && c != nil:
			t.Errorf("chart %d: a cache of %d points", n+1, len(c))
		case want.points >= 0 && len(c) != want.points:
			t.Errorf("chart %d: %d cached points, want %d", n+1, len(c), want.points)
		}
	}
	auditBook(t, "limit.xlsx", book)
}

// TestChartErrors: a chart that cannot be drawn is refused at AddChart
// with ErrChart (or ErrRange for its place), naming the sheet and cell,
// and the sheet goes on; a series on a sheet the workbook never gets
// fails Close, naming it.
func TestChartErrors(t *testing.T) {
	good := xlsx.ChartSeries{Values: "Data!$B$2:$B$10"}
	bad := []struct {
		name string
		c    xlsx.Chart
		want string
	}{
		{"no type", xlsx.Chart{Series: []xlsx.ChartSeries{good}}, "unknown chart type"},
		{"no series", xlsx.Chart{Type: xlsx.ChartColumn}, "needs a series"},
		{"no values", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{{Name: "x"}}}, "series 1 has no values"},
		{"no sheet", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{{Values: "B2:B10"}}}, "name the sheet"},
		{"block", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{{Values: "Data!B2:C10"}}}, "one row or one column"},
		{"garbage", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{{Values: "Data!$$B2:ZZZZ"}}}, "not a cell or range"},
		{"stock", xlsx.Chart{Type: xlsx.ChartStock, Series: []xlsx.ChartSeries{good, good}}, "3 series"},
		{"title", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{good}, Title: xlsx.ChartTitle{Text: "a\x00b"}}, "title text"},
		{"name", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{{Name: "\ufffe", Values: good.Values}}}, "name XML cannot carry"},
		{"label", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{{Values: good.Values, Labels: &xlsx.ChartDataLabels{Custom: []xlsx.ChartCustomLabel{{Text: "\x01"}}}}}}, "label text"},
		{"numfmt", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{good}, Y: xlsx.ChartAxis{NumFmt: "\x02"}}, "number format"},
		{"colour", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{{Values: good.Values, Format: xlsx.ChartFormat{Fill: xlsx.ChartFill{Color: "red"}}}}}, "colour"},
		{"scale", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{good}, Y: xlsx.ChartAxis{Min: ptr(5.0), Max: ptr(1.0)}}, "not below max"},
		{"hole", xlsx.Chart{Type: xlsx.ChartDoughnut, Series: []xlsx.ChartSeries{good}, HoleSize: 95}, "hole size"},
		{"pie combined", xlsx.Chart{Type: xlsx.ChartPie, Series: []xlsx.ChartSeries{good}, Combine: &xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{good}}}, "cannot be combined"},
		{"trend", xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{{Values: good.Values, Trendline: &xlsx.ChartTrendline{Type: xlsx.TrendPolynomial, Order: 9}}}}, "order is 2..6"},
		{"pattern", xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{{Values: good.Values, Format: xlsx.ChartFormat{Fill: xlsx.ChartFill{Pattern: &xlsx.ChartPattern{Pattern: "stripes"}}}}}}, "unknown pattern"},
	}
	var buf strings.Builder
	w, err := xlsx.NewWriter(&nopWriter{&buf}, xlsx.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sh, err := w.AddSheet("Data", xlsx.SheetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		err := sh.AddChart(3, 4, b.c)
		var ce *xlsx.CellError
		if !errors.Is(err, xlsx.ErrChart) || !errors.As(err, &ce) || ce.Sheet != "Data" || ce.Row != 3 || ce.Col != 4 || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: %v, want ErrChart at Data!D3 saying %q", b.name, err, b.want)
		}
	}
	if err := sh.WriteRow([]xlsx.Cell{xlsx.Int(1)}); err != nil {
		t.Fatalf("the sheet stopped after refused charts: %v", err)
	}
	if err := sh.AddChart(0, 1, xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{good}}); !errors.Is(err, xlsx.ErrRange) {
		t.Errorf("row 0: %v", err)
	}
	if err := sh.WriteRow([]xlsx.Cell{xlsx.Int(2)}); err != nil {
		t.Fatal(err)
	}
	if err := sh.AddChart(1, 1, xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{good}}); !errors.Is(err, xlsx.ErrRange) || !strings.Contains(err.Error(), "last row written") {
		t.Errorf("a passed row: %v", err)
	}
	if err := sh.AddChart(5, 1, xlsx.Chart{Type: xlsx.ChartColumn, Series: []xlsx.ChartSeries{{Values: "'Never added'!$A$1:$A$3"}}}); err != nil {
		t.Fatal(err)
	}
	err = w.Close()
	if !errors.Is(err, xlsx.ErrChart) || !strings.Contains(err.Error(), `"Never added"`) || !strings.Contains(err.Error(), "Data") {
		t.Errorf("Close with a missing sheet: %v", err)
	}
}

type nopWriter struct{ b *strings.Builder }

func (n *nopWriter) Write(p []byte) (int, error) { return n.b.Write(p) }

// TestChartResavedByLibreOffice: LibreOffice opens a workbook of every
// chart kind and saves it with the charts kept.
func TestChartResavedByLibreOffice(t *testing.T) {
	pyread.Python(t)
	dir := t.TempDir()
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		dash, err := w.AddSheet("Dashboard", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		for i, typ := range allChartTypes {
			if err := dash.AddChart(1+(i/3)*16, 1+(i%3)*8, chartOfType(typ, 21)); err != nil {
				return err
			}
		}
		data, err := w.AddSheet("Data", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		return writeChartData(data, 20)
	})
	path := filepath.Join(dir, "charts.xlsx")
	if err := os.WriteFile(path, book, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "resaved")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	resaved := pyread.Resave(t, out, path)
	res := pyread.ReadValues(t, resaved...)[resaved[0]]
	if res == nil || res.Error != "" {
		t.Fatalf("reading LibreOffice's file: %+v", res)
	}
	// openpyxl cannot read LibreOffice's stock chart (its date cache is
	// text), so each chart part is looked at too.
	saved, err := os.ReadFile(resaved[0])
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for n := 1; n <= len(allChartTypes); n++ {
		x := chartPart(t, saved, n)
		for _, typ := range allChartTypes {
			if tag := chartTag(typ); strings.Contains(x, "<c:"+tag+">") {
				kinds[tag]++
				break
			}
		}
	}
	for _, typ := range allChartTypes {
		if kinds[chartTag(typ)] == 0 {
			t.Errorf("no %s after LibreOffice's save: %v", chartTag(typ), kinds)
		}
	}
	if got := len(res.Charts["Dashboard"]); got < len(allChartTypes)-1 {
		t.Errorf("openpyxl read %d charts of LibreOffice's file", got)
	}
}

// TestPeersCacheNoChartInConstantMemory writes the same chart with
// XlsxWriter's constant_memory mode, the streaming mode of the peers that
// have one: its chart carries no cached values, where sheetstream's does.
func TestPeersCacheNoChartInConstantMemory(t *testing.T) {
	python := pyread.Python(t)
	dir := t.TempDir()
	peer := filepath.Join(dir, "peer.xlsx")
	script := `import sys, xlsxwriter
wb = xlsxwriter.Workbook(sys.argv[1], {"constant_memory": True})
ws = wb.add_worksheet("Data")
for i in range(100):
    ws.write_number(i, 0, i * 1.5)
ch = wb.add_chart({"type": "line"})
ch.add_series({"values": "=Data!$A$1:$A$100"})
ws.insert_chart("C2", ch)
wb.close()
`
	if out, err := exec.Command(python, "-c", script, peer).CombinedOutput(); err != nil {
		t.Fatalf("XlsxWriter: %v\n%s", err, out)
	}
	peerBook, err := os.ReadFile(peer)
	if err != nil {
		t.Fatal(err)
	}
	// XlsxWriter writes an empty cache: a viewer that does not
	// recalculate draws nothing.
	if c := cacheOf(chartPart(t, peerBook, 1), "Data!$A$1:$A$100"); len(c) != 0 {
		t.Errorf("XlsxWriter's constant_memory chart caches %d points now: update the docs", len(c))
	}
	ours := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("Data", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		if err := sh.AddChart(2, 3, xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{{Values: "Data!$A$1:$A$100"}}}); err != nil {
			return err
		}
		for i := range 100 {
			if err := sh.WriteRow([]xlsx.Cell{xlsx.Float(float64(i) * 1.5)}); err != nil {
				return err
			}
		}
		return nil
	})
	if c := cacheOf(chartPart(t, ours, 1), "Data!$A$1:$A$100"); len(c) != 100 {
		t.Errorf("our cache has %d points", len(c))
	}
}

// TestChartConcurrentSheets: sheets written at once from their own
// goroutines each cache their own charts' ranges; a range on another
// sheet is left for Excel to compute; run with -race.
func TestChartConcurrentSheets(t *testing.T) {
	const sheets, rows = 4, 3000
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		list := make([]*xlsx.Sheet, sheets)
		for i := range list {
			sh, err := w.AddConcurrentSheet("Part"+strconv.Itoa(i), xlsx.SheetOptions{})
			if err != nil {
				return err
			}
			list[i] = sh
		}
		errs := make(chan error, sheets)
		for i, sh := range list {
			go func() {
				errs <- func() error {
					name := sh.Name()
					other := "Part" + strconv.Itoa((i+1)%sheets)
					c := xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{
						{Values: name + "!$A$1:$A"}, {Values: other + "!$A$1:$A"}}}
					if err := sh.AddChart(1, 3, c); err != nil {
						return err
					}
					for r := range rows {
						if err := sh.WriteRow([]xlsx.Cell{xlsx.Int(int64(r * (i + 1)))}); err != nil {
							return err
						}
					}
					return sh.Close()
				}()
			}()
		}
		for range sheets {
			if err := <-errs; err != nil {
				return err
			}
		}
		return nil
	})
	for i := range sheets {
		x := chartPart(t, book, i+1)
		own := regexp.MustCompile(`<c:f>(Part\d)!\$A\$1:\$A\$3000</c:f>`).FindAllStringSubmatch(x, -1)
		if len(own) != 2 {
			t.Fatalf("chart %d: references %v in %.600s", i+1, own, x)
		}
		ownSheet := own[0][1]
		if c := cacheOf(x, ownSheet+"!$A$1:$A$3000"); len(c) != rows {
			t.Errorf("chart %d: its own sheet's cache has %d points", i+1, len(c))
		}
		if c := cacheOf(x, own[1][1]+"!$A$1:$A$3000"); c != nil {
			t.Errorf("chart %d: another sheet's range has a cache", i+1)
		}
	}
}
