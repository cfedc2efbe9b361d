package server_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/sheetstream/sheetstream/server"
	"github.com/sheetstream/sheetstream/sqlsheet"
)

// A service of one parametrised export over a SQLite database: the API
// lists it, a download streams it, and a query string it cannot read
// whole is refused, naming the parameter.
func Example() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "shop.db")
	db, _ := sqlsheet.Open("sqlite:" + path)
	db.Exec(`CREATE TABLE orders (id INTEGER, city TEXT)`)
	db.Exec(`INSERT INTO orders VALUES (1, 'Oslo'), (2, 'Lisbon')`)
	db.Close()

	cfg, err := server.ParseConfig([]byte(`
database: sqlite:` + path + `
exports:
  - name: orders
    params: [{name: city, type: text}]
    sheets:
      - name: Orders
        sql: SELECT id, city FROM orders WHERE :city = '' OR city = :city ORDER BY id
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	srv, err := server.New(cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ts := httptest.NewServer(srv)
	defer ts.Close()

	for _, path := range []string{"/api/exports", "/exports/orders.xlsx?city=Oslo", "/exports/orders.xlsx?city=Os%zzlo"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 && resp.Header.Get("Content-Disposition") != "" {
			fmt.Println(resp.StatusCode, resp.Header.Get("Content-Disposition"), len(body) > 0)
		} else {
			fmt.Print(resp.StatusCode, " ", string(body))
		}
	}
	// Output:
	// 200 {"exports":[{"name":"orders","title":"orders","description":"","params":[{"name":"city","type":"text","required":false}],"sheets":[{"name":"Orders"}],"preview":true}],"jobs":false}
	// 200 attachment; filename="orders.xlsx" true
	// 400 {"error":"parameter \"city\": the value \"Os%zzlo\" is not a valid URL escape"}
}
