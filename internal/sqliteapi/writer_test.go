package sqliteapi

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	sqlite3 "modernc.org/sqlite/lib"
)

// TestLoad inserts rows of every type through a prepared statement,
// rebinding growing and shrinking texts, and reads them back; a
// constraint violation is an error naming it, and a rollback undoes the
// rows.
func TestLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "load.db")
	c, err := OpenReadWrite(path, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Exec("BEGIN; CREATE TABLE t (i INTEGER PRIMARY KEY, f REAL, s TEXT)"); err != nil {
		t.Fatal(err)
	}
	ins, err := c.Prepare("INSERT INTO t VALUES (?, ?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"short", strings.Repeat("long é ", 1000), "", "x"}
	for i, s := range texts {
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		must(ins.BindInt64(0, int64(i)))
		if i == 2 {
			must(ins.BindNull(1))
		} else {
			must(ins.BindFloat64(1, float64(i)+0.5))
		}
		must(ins.BindText(2, []byte(s)))
		must(ins.Exec())
	}
	ins.BindInt64(0, 1)
	if err := ins.Exec(); err == nil || !strings.Contains(err.Error(), "UNIQUE") {
		t.Errorf("duplicate key: %v", err)
	}
	ins.Close()
	if err := c.Exec("COMMIT"); err != nil {
		t.Fatal(err)
	}
	rows, err := c.Query(context.Background(), "SELECT i, f, s FROM t ORDER BY i", nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for ; rows.Next(); n++ {
		if rows.Int64(0) != int64(n) || string(rows.Text(2)) != texts[n] || (n == 2) != (rows.Type(1) == Null) {
			t.Errorf("row %d: %d %q %v", n, rows.Int64(0), rows.Text(2), rows.Type(1))
		}
	}
	rows.Close()
	if n != len(texts) {
		t.Errorf("%d rows", n)
	}
	if err := c.Exec("BEGIN; DELETE FROM t; ROLLBACK"); err != nil {
		t.Fatal(err)
	}
}

// TestBindInPlace binds every kind of value into the same parameters
// row after row, so that each cell is overwritten by every other kind,
// on a UTF-8 database (bound in place) and a UTF-16 one (bound through
// SQLite's calls), and reads back each value and its storage class.
func TestBindInPlace(t *testing.T) {
	type bound struct {
		kind string // int, float, text, null
		i    int64
		f    float64
		s    string
	}
	rows := [][2]bound{
		{{kind: "int", i: -7}, {kind: "text", s: "héllo"}},
		{{kind: "text", s: "x"}, {kind: "int", i: 1 << 62}},
		{{kind: "null"}, {kind: "float", f: 2.5}},
		{{kind: "float", f: math.NaN()}, {kind: "text", s: ""}},
		{{kind: "float", f: -0.125}, {kind: "null"}},
		{{kind: "text", s: strings.Repeat("long ", 300)}, {kind: "text", s: "short"}},
	}
	for _, encoding := range []string{"UTF-8", "UTF-16le"} {
		t.Run(encoding, func(t *testing.T) {
			c, err := OpenReadWrite(filepath.Join(t.TempDir(), "bind.db"), "PRAGMA encoding = '"+encoding+"'")
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Exec("CREATE TABLE t (n INTEGER PRIMARY KEY, a, b)"); err != nil {
				t.Fatal(err)
			}
			ins, err := c.Prepare("INSERT INTO t VALUES (?, ?, ?)")
			if err != nil {
				t.Fatal(err)
			}
			defer ins.Close()
			if want := encoding == "UTF-8"; ins.inPlace != want {
				t.Errorf("binds in place: %v, want %v", ins.inPlace, want)
			}
			for n, row := range rows {
				if err := ins.BindInt64(0, int64(n)); err != nil {
					t.Fatal(err)
				}
				for j, v := range row {
					var err error
					switch v.kind {
					case "int":
						err = ins.BindInt64(j+1, v.i)
					case "float":
						err = ins.BindFloat64(j+1, v.f)
					case "text":
						err = ins.BindText(j+1, []byte(v.s))
					default:
						err = ins.BindNull(j + 1)
					}
					if err != nil {
						t.Fatal(err)
					}
				}
				if err := ins.Exec(); err != nil {
					t.Fatal(err)
				}
			}
			got, err := c.Query(context.Background(), "SELECT a, b FROM t ORDER BY n", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Close()
			for n := 0; got.Next(); n++ {
				for j, v := range rows[n] {
					typ := got.Type(j)
					var ok bool
					switch {
					case v.kind == "int":
						ok = typ == Integer && got.Int64(j) == v.i
					case v.kind == "float" && math.IsNaN(v.f), v.kind == "null":
						ok = typ == Null
					case v.kind == "float":
						ok = typ == Float && got.Float64(j) == v.f
					default:
						ok = typ == Text && string(got.Text(j)) == v.s
					}
					if !ok {
						t.Errorf("row %d column %d: bound %+v, read %v %q", n, j, v, typ, got.Text(j))
					}
				}
			}
			if err := got.Err(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestBindAfterFailure binds in place after a statement failed, and
// binding a parameter the statement does not have is an error, as SQLite
// reports it.
func TestBindAfterFailure(t *testing.T) {
	c, err := OpenReadWrite(filepath.Join(t.TempDir(), "fail.db"), "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Exec("CREATE TABLE t (k INTEGER PRIMARY KEY, s TEXT NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	ins, err := c.Prepare("INSERT INTO t VALUES (?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	defer ins.Close()
	if err := errors.Join(ins.BindInt64(0, 1), ins.BindNull(1)); err != nil {
		t.Fatal(err)
	}
	if err := ins.Exec(); err == nil {
		t.Fatal("NULL into NOT NULL: no error")
	}
	if err := errors.Join(ins.BindInt64(0, 1), ins.BindText(1, []byte("ok")), ins.Exec()); err != nil {
		t.Fatalf("after the failure: %v", err)
	}
	for _, i := range []int{-1, 2} {
		if err := ins.BindInt64(i, 5); err == nil || !strings.Contains(err.Error(), "range") {
			t.Errorf("parameter %d: %v", i, err)
		}
		if err := ins.BindText(i, []byte("x")); err == nil || !strings.Contains(err.Error(), "range") {
			t.Errorf("text for parameter %d: %v", i, err)
		}
	}
	// Text over the connection's length limit is refused when it runs.
	sqlite3.Xsqlite3_limit(c.tls, c.db, sqlite3.SQLITE_LIMIT_LENGTH, 30) // its least
	if err := errors.Join(ins.BindInt64(0, 2), ins.BindText(1, []byte(strings.Repeat("x", 31)))); err != nil {
		t.Fatal(err)
	}
	if err := ins.Exec(); err == nil || !strings.Contains(err.Error(), "too big") {
		t.Errorf("text over the length limit: %v", err)
	}
	rows, err := c.Query(context.Background(), "SELECT k, s FROM t", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if !rows.Next() || rows.Int64(0) != 1 || string(rows.Text(1)) != "ok" || rows.Next() {
		t.Errorf("the row inserted after the failure is not the only row: %d %q", rows.Int64(0), rows.Text(1))
	}
}
