// Command structs writes a slice of orders to a workbook with
// xlsx.StructWriter, reads the file back into structs with
// xlsx.StructReader, and prints them as JSON lines:
//
//	go run ./examples/structs orders.xlsx
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Decimal is an exact decimal amount, as decimal libraries keep them: its
// text is the number. A type named Decimal becomes a number cell written
// from that text, with no trip through a float.
type Decimal struct{ text string }

func (d Decimal) String() string                { return d.text }
func (d Decimal) MarshalJSON() ([]byte, error)  { return []byte(d.text), nil }
func (d *Decimal) UnmarshalText(b []byte) error { d.text = string(b); return nil }

// Customer fields are embedded: they become columns of the order's row.
type Customer struct {
	Name  string `xlsx:"Customer"`
	Email string `xlsx:",width=24"`
}

// Order is one row: tags name the columns, set widths and formats, and
// leave out what the sheet must not show.
type Order struct {
	ID     int64     `xlsx:"Order ID"`
	Placed time.Time `xlsx:",date,format=yyyy-mm-dd"`
	Customer
	Total    Decimal       `xlsx:",format=#,##0.00"`
	Quantity int           `xlsx:"Qty"`
	Shipped  *time.Time    `xlsx:",omitempty"`
	Coupon   *string       `xlsx:",omitempty"`
	Weight   *float64      `xlsx:"Weight (kg)"`
	Lead     time.Duration `xlsx:"Lead time"`
	Notes    string        `xlsx:"-"` // internal: never exported
}

func orders() []Order {
	day := func(d int) time.Time { return time.Date(2026, 3, d, 0, 0, 0, 0, time.UTC) }
	shipped, coupon, weight := day(4), "SPRING10", 2.5
	return []Order{
		{ID: 1001, Placed: day(1), Customer: Customer{"Ada Lovelace", "ada@example.com"}, Total: Decimal{"1250.5"}, Quantity: 3,
			Shipped: &shipped, Coupon: &coupon, Weight: &weight, Lead: 36 * time.Hour, Notes: "VIP"},
		{ID: 1002, Placed: day(2), Customer: Customer{"Bo Diddley", "bo@example.com"}, Total: Decimal{"19.99"}, Quantity: 1,
			Lead: 90 * time.Minute},
		{ID: 1003, Placed: day(3), Customer: Customer{"Cy Twombly", ""}, Total: Decimal{"0.1"}, Quantity: 12,
			Notes: "call before delivery"},
	}
}

func write(path string, values []Order) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := xlsx.NewWriter(f, xlsx.Options{})
	if err != nil {
		return err
	}
	bold, err := w.AddStyle(xlsx.Style{Font: xlsx.Font{Bold: true}})
	if err != nil {
		return err
	}
	sheet, err := w.AddSheet("Orders", xlsx.SheetOptions{FreezeRows: 1})
	if err != nil {
		return err
	}
	sw, err := xlsx.NewStructWriter[Order](sheet, xlsx.StructOptions{HeaderStyle: bold})
	if err != nil {
		return err
	}
	for _, o := range values {
		if err := sw.Write(o); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}

// readBack prints the orders in path as JSON lines.
func readBack(path string, out io.Writer) error {
	wb, err := xlsx.Open(path, xlsx.ReadOptions{})
	if err != nil {
		return err
	}
	defer wb.Close()
	rows, err := wb.Rows(context.Background(), 0)
	if err != nil {
		return err
	}
	defer rows.Close()
	sr, err := xlsx.NewStructReader[Order](rows, xlsx.StructOptions{Strict: true})
	if err != nil {
		return err
	}
	enc := json.NewEncoder(out)
	for o, err := range sr.All() {
		if err != nil {
			return err
		}
		if err := enc.Encode(o); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./examples/structs OUT.xlsx")
		os.Exit(2)
	}
	if err := write(os.Args[1], orders()); err != nil {
		fmt.Fprintln(os.Stderr, "structs:", err)
		os.Exit(1)
	}
	if err := readBack(os.Args[1], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "structs:", err)
		os.Exit(1)
	}
}
