package xlsx_test

import (
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

// TestPrintSetup streams a report with every print setting, a print area
// that ends with the sheet and page breaks added between rows, and reads
// it back with openpyxl, the Open XML validator and a LibreOffice
// re-save, which keeps the area and the titles.
func TestPrintSetup(t *testing.T) {
	const rows = 120
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("Report", xlsx.SheetOptions{Print: &xlsx.PrintSetup{
			Landscape: true, PaperSize: 9, Scale: 80, FitWide: 1, FirstPageNumber: 3,
			Margins:            &xlsx.PageMargins{Left: 0.5, Right: 0.5, Top: 1, Bottom: 1, Header: 0.4, Footer: 0.4},
			CenterHorizontally: true, Gridlines: true, Headings: true, BlackAndWhite: true,
			Header:        `&L&"Arial,Bold"Sales &A&RPrinted &D &T`,
			Footer:        "&CPage &P of &N &KFF0000&&",
			Area:          xlsx.Range{FirstRow: 1, FirstCol: 1, LastCol: 3}, // to the last row
			RepeatRows:    xlsx.Lines{First: 1, Last: 2},
			RepeatColumns: xlsx.Lines{First: 1, Last: 1},
			ColumnBreaks:  []int{2},
		}})
		if err != nil {
			return err
		}
		for i := range rows {
			if err := sh.WriteRow([]xlsx.Cell{xlsx.Int(int64(i)), xlsx.String("x"), xlsx.Float(1.5)}); err != nil {
				return err
			}
			if (i+1)%50 == 0 {
				if err := sh.AddPageBreak(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	path, res := auditBook(t, "print.xlsx", book)
	dir := filepath.Dir(path)
	p := res.Print["Report"]
	str := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	num := func(n *int) int {
		if n == nil {
			return -1
		}
		return *n
	}
	if p == nil || str(p.Area) != "'Report'!$A$1:$C$120" || str(p.TitleRows) != "$1:$2" || str(p.TitleCols) != "$A:$A" ||
		str(p.Orientation) != "landscape" || num(p.Paper) != 9 || num(p.Scale) != 80 || !p.Fit || num(p.FitTall) != 0 ||
		num(p.FirstPage) != 3 || !p.BlackAndWhite || !p.Gridlines || !p.Headings || p.Center != [2]bool{true, false} ||
		!slices.Equal(p.Margins, []float64{0.5, 0.5, 1, 1, 0.4, 0.4}) ||
		!slices.Equal(p.RowBreaks, []int{50, 100}) || !slices.Equal(p.ColBreaks, []int{2}) {
		t.Errorf("print setup: %+v", p)
	}
	if p != nil && (str(p.Header[0]) != `Sales &A` || !strings.Contains(str(p.Footer[1]), "Page &P of &N")) {
		t.Errorf("header %q %q %q, footer %q", str(p.Header[0]), str(p.Header[1]), str(p.Header[2]), str(p.Footer[1]))
	}
	resaved := pyread.Resave(t, filepath.Join(dir, "lo"), path)[0]
	again := pyread.Read(t, resaved)[resaved]
	if again == nil || again.Error != "" {
		t.Fatalf("LibreOffice's copy: %+v", again)
	}
	if q := again.Print["Report"]; q == nil || str(q.TitleRows) != "$1:$2" || !strings.HasSuffix(str(q.Area), "$A$1:$C$120") || str(q.Orientation) != "landscape" {
		t.Errorf("LibreOffice kept %+v", q)
	}
}

// TestPrintSetupErrors: AddSheet refuses a bad print setup, naming what
// is wrong; AddPageBreak needs a row above it.
func TestPrintSetupErrors(t *testing.T) {
	for name, p := range map[string]xlsx.PrintSetup{
		"scale":             {Scale: 5},
		"paper":             {PaperSize: 500},
		"margin":            {Margins: &xlsx.PageMargins{Left: -1}},
		"header picture":    {Header: "&L&G"},
		"unknown code":      {Header: "&Q"},
		"lone ampersand":    {Footer: "Smith &"},
		"long header":       {Header: strings.Repeat("h", 256)},
		"bad colour":        {Header: "&KZZ0000x"},
		"unclosed font":     {Header: `&"Arial`},
		"area":              {Area: xlsx.Range{FirstRow: 5, FirstCol: 1, LastRow: 2, LastCol: 1}},
		"repeated rows":     {RepeatRows: xlsx.Lines{First: 3, Last: 1}},
		"break after 0":     {RowBreaks: []int{0}},
		"too many breaks":   {ColumnBreaks: make([]int, 1024)},
		"fit":               {FitWide: -1},
		"control character": {Footer: "a\x01b"},
	} {
		t.Run(name, func(t *testing.T) {
			w, err := xlsx.NewWriter(io.Discard, xlsx.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			_, err = w.AddSheet("S", xlsx.SheetOptions{Print: &p})
			if !errors.Is(err, xlsx.ErrPrint) {
				t.Errorf("error %v, want ErrPrint", err)
			}
		})
	}
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	defer w.Close()
	sh, _ := w.AddSheet("S", xlsx.SheetOptions{})
	if err := sh.AddPageBreak(); !errors.Is(err, xlsx.ErrPrint) {
		t.Errorf("a break before any row: %v", err)
	}
}
