package main

import (
	"context"
	"database/sql"

	"github.com/sheetstream/sheetstream/examples"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// demoQueries are what --demo exports when no query is given.
var demoQueries = []sqlsheet.Query{
	{Sheet: "Orders", SQL: `SELECT o.id AS order_id, o.ordered_at, c.name AS customer, c.city, o.quantity,
		o.unit_price, o.quantity * o.unit_price AS total, o.paid, o.shipped_on, o.note
		FROM orders o JOIN customers c ON c.id = o.customer_id ORDER BY o.id`},
	{Sheet: "By city", SQL: `SELECT c.city, COUNT(*) AS orders, SUM(o.quantity * o.unit_price) AS revenue,
		MIN(o.ordered_at) AS first_order, MAX(o.ordered_at) AS last_order
		FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.city ORDER BY revenue DESC`,
		Charts: []sqlsheet.Chart{{Type: xlsx.ChartColumn, Categories: "city", Values: []string{"revenue"}}}},
}

// createDemo fills db with the demo shop (examples.CreateDemo).
func createDemo(ctx context.Context, db *sql.DB) error { return examples.CreateDemo(ctx, db) }
