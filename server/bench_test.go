package server

import (
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/sheetstream/sheetstream/sqlsheet"
)

// BenchmarkPreview: the preview of 1,000 rows of six typed columns, as
// the page asks for it (the rows to JSON, through the handler).
func BenchmarkPreview(b *testing.B) {
	dbPath := filepath.Join(b.TempDir(), "shop.db")
	db, err := sqlsheet.Open("sqlite:" + dbPath)
	if err != nil {
		b.Fatal(err)
	}
	db.Exec(`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, price NUMERIC(10,2), day DATE, ok BOOLEAN, at TIMESTAMP)`)
	tx, _ := db.Begin()
	for i := 1; i <= 5000; i++ {
		tx.Exec(`INSERT INTO items VALUES (?, ?, ?, ?, ?, ?)`, i, fmt.Sprintf("item %d", i), float64(i)/4,
			fmt.Sprintf("2025-%02d-%02d", 1+i%12, 1+i%28), i%2, fmt.Sprintf("2025-01-02 %02d:%02d:00", i%24, i%60))
	}
	tx.Commit()
	db.Close()
	cfg, err := ParseConfig([]byte("database: sqlite:" + dbPath + "\nexports: [{name: items, sheets: [{sql: SELECT * FROM items ORDER BY id}]}]"))
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for b.Loop() {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1:8080/api/exports/items/preview?limit=1000", nil))
		if rec.Code != 200 || rec.Body.Len() < 100_000 {
			b.Fatalf("%d %.300s", rec.Code, rec.Body.String())
		}
	}
}
