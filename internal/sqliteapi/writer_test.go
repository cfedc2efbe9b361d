package sqliteapi

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
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
