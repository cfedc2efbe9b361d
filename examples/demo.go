package examples

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"time"
)

// CreateDemo fills db with a small shop: 500 customers and 50,000 orders,
// the same every time.
func CreateDemo(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, stmt := range []string{
		`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT NOT NULL, since DATE)`,
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id),
			ordered_at DATETIME, quantity INTEGER, unit_price NUMERIC(10,2), paid BOOLEAN, shipped_on DATE, note TEXT)`,
	} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	r := rand.New(rand.NewPCG(2026, 11))
	cities := []string{"Lisbon", "Oslo", "Québec", "Kraków", "São Paulo", "Zürich", "Osaka", "Nairobi", "Auckland", "Reykjavík"}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO customers VALUES (?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	for id := 1; id <= 500; id++ {
		since := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(3650)).Format("2006-01-02")
		if _, err := ins.ExecContext(ctx, id, fmt.Sprintf("Customer %03d", id), cities[r.IntN(len(cities))], since); err != nil {
			return err
		}
	}
	ins, err = tx.PrepareContext(ctx, `INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	notes := []any{nil, nil, nil, "gift wrap", "call before delivery", "fragile, handle with care"}
	prices := []float64{4.5, 12.99, 0.75, 149, 23.4, 1299.99}
	at := time.Date(2025, 1, 1, 8, 0, 0, 0, time.UTC)
	for id := 1; id <= 50_000; id++ {
		at = at.Add(time.Duration(r.IntN(600)+1) * time.Second)
		var shipped any
		if r.IntN(4) > 0 {
			shipped = at.AddDate(0, 0, 1+r.IntN(5)).Format("2006-01-02")
		}
		if _, err := ins.ExecContext(ctx, id, 1+r.IntN(500), at.Format("2006-01-02 15:04:05"), 1+r.IntN(12),
			prices[r.IntN(len(prices))], r.IntN(5) > 0, shipped, notes[r.IntN(len(notes))]); err != nil {
			return err
		}
	}
	return tx.Commit()
}
