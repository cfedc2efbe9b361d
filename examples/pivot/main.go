// Command pivot writes a year of sales and three pivot tables over them,
// each computed while the sales rows stream and written, its cells filled
// in, on a sheet of its own:
//
//	go run ./examples/pivot pivot.xlsx
//
// "By region" nests cities under their regions, with the months across
// and a filter on the channel; "By product" sums and averages the amount
// and counts the orders; "Spread" shows each city's smallest, largest and
// standard deviation of an order.
package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/sheetstream/sheetstream/xlsx"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: pivot OUT.xlsx")
		os.Exit(2)
	}
	if err := run(os.Args[1], 20000); err != nil {
		fmt.Fprintln(os.Stderr, "pivot:", err)
		os.Exit(1)
	}
}

func run(path string, orders int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := xlsx.NewWriter(f, xlsx.Options{})
	if err != nil {
		return err
	}
	defer w.Abort()
	money := "#,##0.00"
	for _, p := range []xlsx.PivotTable{
		{Sheet: "By region", Source: "Sales", Rows: []string{"Region", "City"}, Columns: []string{"Quarter"}, Filters: []string{"Channel"},
			Values: []xlsx.PivotValue{{Column: "Amount", NumFormat: money}}},
		{Sheet: "By product", Source: "Sales", Rows: []string{"Product"},
			Values: []xlsx.PivotValue{{Column: "Amount", NumFormat: money}, {Column: "Amount", Func: xlsx.PivotAverage, NumFormat: money},
				{Column: "Order", Func: xlsx.PivotCount, Name: "Orders"}}},
		{Sheet: "Spread", Source: "Sales", Rows: []string{"City"},
			Values: []xlsx.PivotValue{{Column: "Amount", Func: xlsx.PivotMin, NumFormat: money}, {Column: "Amount", Func: xlsx.PivotMax, NumFormat: money},
				{Column: "Amount", Func: xlsx.PivotStdDev, NumFormat: money}}},
	} {
		if err := w.AddPivotTable(p); err != nil {
			return err
		}
	}
	sales, err := w.AddSheet("Sales", xlsx.SheetOptions{FreezeRows: 1, AutoFit: true})
	if err != nil {
		return err
	}
	header := []xlsx.Cell{xlsx.String("Order"), xlsx.String("Date"), xlsx.String("Quarter"), xlsx.String("Region"), xlsx.String("City"),
		xlsx.String("Channel"), xlsx.String("Product"), xlsx.String("Amount")}
	if err := sales.WriteRow(header); err != nil {
		return err
	}
	cities := []struct{ city, region string }{{"Oslo", "North"}, {"Bergen", "North"}, {"Lisbon", "South"}, {"Porto", "South"},
		{"Rome", "South"}, {"Berlin", "Middle"}, {"Zürich", "Middle"}}
	products := []string{"Tea", "Coffee", "Cocoa", "Juice"}
	rng := rand.New(rand.NewPCG(2026, 11))
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	row := make([]xlsx.Cell, len(header))
	for i := range orders {
		c := cities[rng.IntN(len(cities))]
		day := start.AddDate(0, 0, rng.IntN(365))
		channel := "Shop"
		if rng.IntN(3) == 0 {
			channel = "Online"
		}
		row[0] = xlsx.Int(int64(i + 1))
		row[1] = xlsx.Date(day)
		row[2] = xlsx.String(fmt.Sprintf("Q%d", (int(day.Month())-1)/3+1))
		row[3], row[4], row[5] = xlsx.String(c.region), xlsx.String(c.city), xlsx.String(channel)
		row[6] = xlsx.String(products[rng.IntN(len(products))])
		row[7] = xlsx.Float(float64(rng.IntN(20000)+100) / 100)
		if err := sales.WriteRow(row); err != nil {
			return err
		}
	}
	return w.Close()
}
