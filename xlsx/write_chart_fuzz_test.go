package xlsx_test

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/xlsx"
)

// FuzzChartText sends any text through every string of a chart that
// reaches its XML: the chart's and the axes' titles, a series' name and
// the categories it reads, a custom label's text, number formats, the
// chart's name and alt text, a sheet name in a range. Each is refused with
// ErrChart at AddChart (leaving the Writer usable), or is written into
// parts that are well-formed XML, the titles and names read back as given.
func FuzzChartText(f *testing.F) {
	for _, seed := range []string{"Revenue", `<&>"'`, "a\nb", "\x00", "]]>", "\u2028\ufffe", strings.Repeat("é", 300), "=Data!$A$1", "'It''s'!A1:A", "0.00%;[Red]-0.00%"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var buf bytes.Buffer
		w, err := xlsx.NewWriter(&buf, xlsx.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		sh, err := w.AddSheet("Data", xlsx.SheetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		c := xlsx.Chart{Type: xlsx.ChartColumn, Name: text, AltText: text,
			Title: xlsx.ChartTitle{Text: text},
			X:     xlsx.ChartAxis{Title: xlsx.ChartTitle{Text: text}, NumFmt: text},
			Y:     xlsx.ChartAxis{NumFmt: text},
			Series: []xlsx.ChartSeries{{Name: text, Categories: "Data!$A$1:$A$3", Values: "Data!$B$1:$B$3",
				Labels: &xlsx.ChartDataLabels{Value: true, NumFmt: text, Custom: []xlsx.ChartCustomLabel{{Text: text}}}}},
		}
		plain := err == nil
		if err := sh.AddChart(5, 5, c); err != nil {
			if !strings.Contains(err.Error(), "chart") {
				t.Fatalf("refused without ErrChart: %v", err)
			}
			plain = false
		}
		// A range on a sheet named by the text.
		_ = sh.AddChart(20, 5, xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{{Values: text}}})
		for i := range 3 {
			if err := sh.WriteRow([]xlsx.Cell{xlsx.String("c" + strconv.Itoa(i)), xlsx.Int(int64(i))}); err != nil {
				t.Fatalf("a row after the charts: %v", err)
			}
		}
		if err := w.Close(); err != nil {
			// Only a range on a sheet the workbook lacks fails Close.
			if !strings.Contains(err.Error(), "does not have") {
				t.Fatalf("Close: %v", err)
			}
			return
		}
		zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range zr.File {
			rc, _ := file.Open()
			data, _ := io.ReadAll(rc)
			rc.Close()
			dec := xml.NewDecoder(bytes.NewReader(data))
			var texts []string
			inT := false
			for {
				tok, err := dec.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s: %v (text %q)", file.Name, err, text)
				}
				switch tk := tok.(type) {
				case xml.StartElement:
					inT = tk.Name.Local == "t" && tk.Name.Space == "http://schemas.openxmlformats.org/drawingml/2006/main"
				case xml.CharData:
					if inT {
						texts = append(texts, string(tk))
					}
				case xml.EndElement:
					inT = false
				}
			}
			if file.Name == "xl/charts/chart1.xml" && plain && !strings.HasPrefix(text, "=") && text != "" && !strings.Contains(text, "\n") && !strings.Contains(text, "\r") {
				if len(texts) == 0 || texts[0] != text {
					t.Errorf("the title reads back as %q, not %q", texts, text)
				}
			}
		}
	})
}
