package xlsx_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/sheetstream/sheetstream/xlsx"
)

// A chart declared before the rows it reads: its ranges end where the
// sheet does, and each series' values are cached as the rows stream.
func ExampleSheet_AddChart() {
	var buf bytes.Buffer
	w, err := xlsx.NewWriter(&buf, xlsx.Options{})
	if err != nil {
		log.Fatal(err)
	}
	sh, err := w.AddSheet("Sales", xlsx.SheetOptions{})
	if err != nil {
		log.Fatal(err)
	}
	err = sh.AddChart(1, 4, xlsx.Chart{
		Type:  xlsx.ChartColumn,
		Title: xlsx.ChartTitle{Text: "Revenue by month"},
		Series: []xlsx.ChartSeries{{
			Name:       "=Sales!$B$1",
			Categories: "Sales!$A$2:$A", // open-ended: to the last row
			Values:     "Sales!$B$2:$B",
			Labels:     &xlsx.ChartDataLabels{Value: true},
		}},
		Y:      xlsx.ChartAxis{NumFmt: "#,##0", MajorGridlines: &xlsx.ChartGridlines{Line: xlsx.ChartLineFormat{Color: "D9D9D9"}}},
		Legend: xlsx.ChartLegend{Position: xlsx.LegendNone},
	})
	if err != nil {
		log.Fatal(err)
	}
	_ = sh.WriteRow([]xlsx.Cell{xlsx.String("Month"), xlsx.String("Revenue")})
	for i, m := range []string{"Jan", "Feb", "Mar"} {
		_ = sh.WriteRow([]xlsx.Cell{xlsx.String(m), xlsx.Int(int64(100 + 10*i))})
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Println("charts:", bytes.Count(buf.Bytes(), []byte("xl/charts/chart1.xml")) > 0)
	// Output: charts: true
}

// A column chart with a line over it on a secondary axis.
func ExampleChart_combined() {
	c := xlsx.Chart{
		Type:   xlsx.ChartColumn,
		Series: []xlsx.ChartSeries{{Name: "Revenue", Categories: "Data!$A$2:$A$13", Values: "Data!$B$2:$B$13"}},
		Combine: &xlsx.Chart{Type: xlsx.ChartLine, Series: []xlsx.ChartSeries{
			{Name: "Margin", Categories: "Data!$A$2:$A$13", Values: "Data!$C$2:$C$13", Secondary: true},
		}},
		Y2: xlsx.ChartAxis{NumFmt: "0%", Title: xlsx.ChartTitle{Text: "margin"}},
	}
	fmt.Println(c.Type, "with", c.Combine.Type)
	// Output: column with line
}

// A chartsheet added while its data sheet is open: it takes the next tab,
// and the rows written after it are cached in it.
func ExampleWriter_AddChartSheet() {
	var buf bytes.Buffer
	w, _ := xlsx.NewWriter(&buf, xlsx.Options{})
	data, _ := w.AddSheet("Data", xlsx.SheetOptions{})
	err := w.AddChartSheet("Chart", xlsx.SheetOptions{Active: true}, xlsx.Chart{
		Type:   xlsx.ChartLine,
		Series: []xlsx.ChartSeries{{Values: "Data!$A$1:$A"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	for i := range 10 {
		_ = data.WriteRow([]xlsx.Cell{xlsx.Int(int64(i * i))})
	}
	fmt.Println(w.Close())
	// Output: <nil>
}

// Sparklines beside each row of numbers: one group, one sparkline a row.
func ExampleSheet_AddSparklines() {
	var buf bytes.Buffer
	w, _ := xlsx.NewWriter(&buf, xlsx.Options{})
	sh, _ := w.AddSheet("Sheet1", xlsx.SheetOptions{})
	for r := range 3 {
		_ = sh.WriteRow([]xlsx.Cell{xlsx.Int(int64(r)), xlsx.Int(5), xlsx.Int(int64(3 - r)), xlsx.Int(8)})
	}
	err := sh.AddSparklines(xlsx.Sparklines{
		Type:     xlsx.SparklineColumn,
		Location: xlsx.Range{FirstRow: 1, FirstCol: 5, LastRow: 3, LastCol: 5}, // E1:E3
		Data:     "Sheet1!A1:D3",
		High:     true, HighColor: "C00000",
	})
	fmt.Println(err, w.Close())
	// Output: <nil> <nil>
}
