package xlsx_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

// sparklineBook has twelve months of three products and a sparkline group
// of each kind beside them, one with a date axis if dates is set.
func sparklineBook(t *testing.T, dates bool) []byte {
	return writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("Sales", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		header := []xlsx.Cell{xlsx.String("Product")}
		for m := range 12 {
			header = append(header, xlsx.Date(time.Date(2026, time.Month(m+1), 1, 0, 0, 0, 0, time.UTC)))
		}
		if err := sh.WriteRow(header); err != nil {
			return err
		}
		for p, name := range []string{"Apples", "Pears", "Plums"} {
			row := []xlsx.Cell{xlsx.String(name)}
			for m := range 12 {
				row = append(row, xlsx.Int(int64((m*7+p*5)%11-3)))
			}
			if err := sh.WriteRow(row); err != nil {
				return err
			}
		}
		groups := []xlsx.Sparklines{
			{Location: rng("N2:N4"), Data: "Sales!$B$2:$M$4", Markers: true, High: true, Low: true, SeriesColor: "C00000"},
			{Type: xlsx.SparklineColumn, Location: rng("O2:O4"), Data: "Sales!B2:M4", Negative: true, NegativeColor: "FF0000", SameMax: true, SameMin: true},
			{Type: xlsx.SparklineWinLoss, Location: rng("P2:P4"), Data: "=Sales!$B$2:$M$4", ShowAxis: true, First: true, Last: true},
			{Location: rng("Q2"), Data: "Sales!B2:M2", DateAxis: "Sales!B1:M1", Empty: xlsx.BlanksSpan, Min: ptr(-5.0), Max: ptr(10.0), LineWeight: 2.25, RightToLeft: true},
			{Location: rng("B5:M5"), Data: "Sales!B2:M4"},
		}
		for _, g := range groups {
			if g.DateAxis != "" && !dates {
				continue
			}
			if err := sh.AddSparklines(g); err != nil {
				return err
			}
		}
		return nil
	})
}

// TestSparklines writes a group of each kind and option, has the Open XML
// validator and both readers take the workbook, and checks the groups'
// cells and sources in the sheet's extension.
func TestSparklines(t *testing.T) {
	book := sparklineBook(t, true)
	auditBook(t, "sparklines.xlsx", book)
	x := part(t, book, "xl/worksheets/sheet1.xml")
	for _, want := range []string{
		`uri="{05C60535-1F16-4fd2-B633-F4F36F0B64E0}"`,
		`<x14:sparkline><xm:f>Sales!B3:M3</xm:f><xm:sqref>N3</xm:sqref></x14:sparkline>`,
		`type="column"`, `type="stacked"`, `negative="1"`, `minAxisType="group"`, `maxAxisType="custom"`,
		`<x14:colorSeries rgb="FFC00000"/>`, `<x14:colorNegative rgb="FFFF0000"/>`, `displayXAxis="1"`,
		`dateAxis="1"`, `<xm:f>Sales!B1:M1</xm:f>`, `displayEmptyCellsAs="span"`, `lineWeight="2.25"`, `manualMin="-5"`,
		// A row of cells over a block of rows: a sparkline a column.
		`<x14:sparkline><xm:f>Sales!E2:E4</xm:f><xm:sqref>E5</xm:sqref></x14:sparkline>`,
	} {
		if !strings.Contains(x, want) {
			t.Errorf("sheet lacks %s", want)
		}
	}
	if !strings.HasSuffix(x, "</extLst></worksheet>") {
		t.Error("the extension list is not the sheet's last element")
	}
}

// TestSparklinesResavedByLibreOffice: LibreOffice reads the sparklines
// and writes them back. (LibreOffice 7.4 aborts on a group with a date
// axis, which Excel and the validator take: that group is left out.)
func TestSparklinesResavedByLibreOffice(t *testing.T) {
	pyread.Python(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "sparklines.xlsx")
	if err := os.WriteFile(path, sparklineBook(t, false), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "resaved")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	resaved := pyread.Resave(t, out, path)
	saved, err := os.ReadFile(resaved[0])
	if err != nil {
		t.Fatal(err)
	}
	x := part(t, saved, "xl/worksheets/sheet1.xml")
	if n := strings.Count(x, "<x14:sparkline>"); n != 3+3+3+12 {
		t.Errorf("LibreOffice wrote %d sparklines back", n)
	}
	for _, want := range []string{"Sales!B4:M4", "P4", `type="stacked"`, `type="column"`} {
		if !strings.Contains(x, want) {
			t.Errorf("LibreOffice's sheet lacks %s", want)
		}
	}
}

// TestSparklineErrors: groups that cannot be drawn are refused, naming
// the cell.
func TestSparklineErrors(t *testing.T) {
	for _, g := range []xlsx.Sparklines{
		{Location: rng("A1:B2"), Data: "S!A1:B2"},
		{Location: rng("A1:A3"), Data: "S!B1:C2"},
		{Location: rng("A1"), Data: "B1:C1"},
		{Location: rng("A1"), Data: "S!B1:B"},
		{Location: rng("A1"), Data: "S!B1:C1", SeriesColor: "blue"},
		{Location: rng("A1"), Data: "S!B1:C1", LineWeight: -1},
		{Location: rng("A1"), Data: "S!B1:C1", Type: 9},
	} {
		err := writeErr(func(w *xlsx.Writer) error {
			sh, err := w.AddSheet("S", xlsx.SheetOptions{})
			if err != nil {
				return err
			}
			return sh.AddSparklines(g)
		})
		var ce *xlsx.CellError
		if !errors.Is(err, xlsx.ErrChart) || !errors.As(err, &ce) || ce.Sheet != "S" || ce.Row != 1 || ce.Col != 1 {
			t.Errorf("%+v: %v", g, err)
		}
	}
}

func writeErr(build func(w *xlsx.Writer) error) error {
	var buf strings.Builder
	w, err := xlsx.NewWriter(&nopWriter{&buf}, xlsx.Options{})
	if err != nil {
		return err
	}
	defer w.Abort()
	return build(w)
}
