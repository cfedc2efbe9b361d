package sqlsheet_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// mergeRows is a sheet edited after an export of people: row 1 as it
// was, row 2 with a new score, row 4 new, row 3 as it was.
func mergeRows(extra ...[]xlsx.Cell) [][]xlsx.Cell {
	s, n := xlsx.String, xlsx.Int
	return append([][]xlsx.Cell{
		{s("id"), s("name"), s("score"), s("note")},
		{n(1), s("Ana"), xlsx.Float(1.5)},
		{n(2), s("Bo"), xlsx.Float(2.5), s("x")},
		{n(4), s("Di"), n(4), s("y")},
		{n(3), s("Cy"), n(3)},
	}, extra...)
}

// testMerge checks merging on a key and dry runs on the database at url:
// the counts, the rows, a duplicate key named by both rows, an empty key,
// rejects, rollback on failure; a dry run leaves the table (and, for
// SQLite, the file: unchanged is the hash of the files in the database's
// folder) as it was.
func testMerge(t *testing.T, url string, unchanged func() string) {
	db := openDB(t, url)
	ctx := context.Background()
	double := "DOUBLE PRECISION"
	if sqlsheet.EngineOf(db) == sqlsheet.EngineMySQL {
		double = "DOUBLE"
	}
	seed := func() {
		t.Helper()
		mustExec(t, db,
			`DROP TABLE IF EXISTS people`,
			`CREATE TABLE people (id BIGINT PRIMARY KEY, name VARCHAR(40), score `+double+`, note VARCHAR(40))`,
			`INSERT INTO people VALUES (1, 'Ana', 1.5, NULL), (2, 'Bo', 2, 'x'), (3, 'Cy', 3, NULL)`,
		)
	}
	before := []string{"1|Ana|1.5|NULL", "2|Bo|2|x", "3|Cy|3|NULL"}
	merge := sqlsheet.ImportOptions{Table: "people", Mode: sqlsheet.Merge, Key: []string{"ID"}}
	counts := func(st sqlsheet.ImportStats) [3]int64 { return [3]int64{st.Inserted, st.Updated, st.Unchanged} }

	seed()
	hash := unchanged()
	dry := merge
	dry.DryRun = true
	st, err := sqlsheet.Import(ctx, db, importBook(t, mergeRows()), 0, dry)
	if err != nil || counts(st) != [3]int64{1, 1, 2} || st.Rows != 4 {
		t.Fatalf("dry run: %+v, %v", st, err)
	}
	if got := dump(t, db, "people"); !slices.Equal(got, before) || unchanged() != hash {
		t.Errorf("a dry run changed the database: %q", got)
	}

	st, err = sqlsheet.Import(ctx, db, importBook(t, mergeRows()), 0, merge)
	if err != nil || counts(st) != [3]int64{1, 1, 2} {
		t.Fatalf("merge: %+v, %v", st, err)
	}
	after := []string{"1|Ana|1.5|NULL", "2|Bo|2.5|x", "3|Cy|3|NULL", "4|Di|4|y"}
	if got := dump(t, db, "people"); !slices.Equal(got, after) {
		t.Errorf("merged: %q", got)
	}
	// Merging the same sheet again changes nothing.
	if st, err = sqlsheet.Import(ctx, db, importBook(t, mergeRows()), 0, merge); err != nil || counts(st) != [3]int64{0, 0, 4} {
		t.Errorf("merge again: %+v, %v", st, err)
	}

	// A key twice in the sheet: an error naming both rows; nothing changes.
	s, n := xlsx.String, xlsx.Int
	_, err = sqlsheet.Import(ctx, db, importBook(t, mergeRows([]xlsx.Cell{n(2), s("Bob")})), 0, merge)
	var ie *sqlsheet.ImportError
	if !errors.Is(err, sqlsheet.ErrDuplicateKey) || !errors.As(err, &ie) || ie.Row != 6 || ie.Col != 1 || !strings.Contains(err.Error(), "row 3") {
		t.Errorf("duplicate key: %v", err)
	}
	// A bad cell after good rows: the whole merge rolls back.
	_, err = sqlsheet.Import(ctx, db, importBook(t, mergeRows([]xlsx.Cell{n(9), s("Ed"), s("lots")})), 0, merge)
	if !errors.Is(err, sqlsheet.ErrBadCell) {
		t.Errorf("bad cell: %v", err)
	}
	if got := dump(t, db, "people"); !slices.Equal(got, after) {
		t.Errorf("after failed merges: %q", got)
	}

	// Rows without a key, or with a bad cell, rejected under MaxErrors.
	var rejects bytes.Buffer
	some := merge
	some.MaxErrors, some.Rejects = 2, &rejects
	st, err = sqlsheet.Import(ctx, db, importBook(t, mergeRows([]xlsx.Cell{{}, s("Nobody")}, []xlsx.Cell{n(5), s("Eve"), s("lots")}, []xlsx.Cell{n(6), s("Fay")})), 0, some)
	if err != nil || st.Rejected != 2 || counts(st) != [3]int64{1, 0, 4} {
		t.Errorf("rejects: %+v, %v", st, err)
	}
	wantRejects := "row,error,id,name,score,note\n" +
		"6,column id: value does not fit the column: a key column is empty,,Nobody,,\n" +
		`7,"column score: value does not fit the column: string ""lots"" into a column of type float",5,Eve,lots,` + "\n"
	if rejects.String() != wantRejects {
		t.Errorf("rejects file:\n%s\nwant\n%s", rejects.String(), wantRejects)
	}
	some.MaxErrors = 1
	if _, err := sqlsheet.Import(ctx, db, importBook(t, mergeRows([]xlsx.Cell{{}, s("Nobody")}, []xlsx.Cell{n(5), s("Eve"), s("lots")})), 0, some); !errors.Is(err, sqlsheet.ErrBadCell) {
		t.Errorf("too many rejects: %v", err)
	}

	// Dry runs of the other modes.
	seed()
	hash = unchanged()
	rows := [][]xlsx.Cell{{s("id"), s("name")}, {n(7), s("Gus")}}
	for mode, want := range map[sqlsheet.ImportMode][2]int64{sqlsheet.Append: {1, 0}, sqlsheet.Replace: {1, 3}} {
		st, err := sqlsheet.Import(ctx, db, importBook(t, rows), 0, sqlsheet.ImportOptions{Table: "people", Mode: mode, DryRun: true})
		if err != nil || [2]int64{st.Inserted, st.Removed} != want {
			t.Errorf("dry run of mode %d: %+v, %v", mode, st, err)
		}
	}
	st, err = sqlsheet.Import(ctx, db, importBook(t, rows), 0, sqlsheet.ImportOptions{Table: "fresh", DryRun: true})
	if err != nil || st.Inserted != 1 {
		t.Errorf("dry run of create: %+v, %v", st, err)
	}
	if _, err := db.Exec(`SELECT * FROM fresh`); err == nil {
		t.Error("a dry run created its table")
	}
	if got := dump(t, db, "people"); !slices.Equal(got, before) || unchanged() != hash {
		t.Errorf("dry runs changed the database: %q", got)
	}

	// Without a key given (a file edited elsewhere, its schema part
	// gone), the table's primary key; a table without one is an error.
	st, err = sqlsheet.Import(ctx, db, importBook(t, mergeRows()), 0, sqlsheet.ImportOptions{Table: "people", Mode: sqlsheet.Merge})
	if err != nil || !slices.Equal(st.MergeKey, []string{"id"}) || counts(st) != [3]int64{1, 1, 2} {
		t.Errorf("merge on the primary key: %+v, %v", st, err)
	}
	mustExec(t, db, `DROP TABLE IF EXISTS nokey`, `CREATE TABLE nokey (id BIGINT, name VARCHAR(40))`)
	if _, err := sqlsheet.Import(ctx, db, importBook(t, rows), 0, sqlsheet.ImportOptions{Table: "nokey", Mode: sqlsheet.Merge}); err == nil || !strings.Contains(err.Error(), "no primary key") {
		t.Errorf("a merge without a key into a table without one: %v", err)
	}
}

// dirHash is a hash of every file in dir, names and bytes.
func dirHash(t *testing.T, dir string) string {
	h := sha256.New()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		h.Write([]byte(e.Name()))
		h.Write(b)
	}
	return string(h.Sum(nil))
}

func TestMergeSQLite(t *testing.T) {
	dir := t.TempDir()
	testMerge(t, "sqlite:"+filepath.Join(dir, "merge.db"), func() string { return dirHash(t, dir) })
}

func TestMergePostgres(t *testing.T) {
	url := postgresURL(t)
	testMerge(t, url, func() string { return tableHash(t, url) })
}

func TestMergeMySQL(t *testing.T) {
	url := testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server")
	testMerge(t, url, func() string { return tableHash(t, url) })
}

// tableHash lists the server's tables with their row counts: what a dry
// run must not change (the rows themselves are compared besides).
func tableHash(t *testing.T, url string) string {
	db := openDB(t, url)
	q := `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`
	if sqlsheet.EngineOf(db) == sqlsheet.EngineMySQL {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY 1`
	}
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var name string
		rows.Scan(&name)
		names = append(names, name)
	}
	rows.Close()
	var out strings.Builder
	for _, name := range names {
		var count int64
		quoted := `"` + name + `"`
		if sqlsheet.EngineOf(db) == sqlsheet.EngineMySQL {
			quoted = "`" + name + "`"
		}
		if err := db.QueryRow(`SELECT COUNT(*) FROM ` + quoted).Scan(&count); err != nil && !errors.Is(err, sql.ErrNoRows) {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "%s: %d rows\n", name, count)
	}
	return out.String()
}

// TestImportReadOnlySQLite: a database opened read-only is not written
// by an import, whichever way it loads.
func TestImportReadOnlySQLite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ro.db")
	rw, err := sqlsheet.Open("sqlite:" + path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rw.Exec(`CREATE TABLE kept (v INTEGER)`); err != nil {
		t.Fatal(err)
	}
	rw.Close()
	before := dirHash(t, dir)
	ro, err := sqlsheet.OpenReadOnly("sqlite:" + path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	rows := [][]xlsx.Cell{{xlsx.String("v")}, {xlsx.Int(1)}}
	if _, err := sqlsheet.Import(context.Background(), ro, importBook(t, rows), 0, sqlsheet.ImportOptions{Table: "t"}); err == nil {
		t.Error("an import into a read-only database succeeded")
	}
	if dirHash(t, dir) != before {
		t.Error("the read-only database changed")
	}
}

// testMergeRollsBack: a merge whose update went through and whose insert
// the table refuses (a CHECK constraint no cell check knows) leaves the
// table as it was.
func testMergeRollsBack(t *testing.T, url string) {
	db := openDB(t, url)
	mustExec(t, db, `DROP TABLE IF EXISTS checked`, `CREATE TABLE checked (id BIGINT PRIMARY KEY, v BIGINT CHECK (v < 100))`,
		`INSERT INTO checked VALUES (1, 1), (2, 2)`)
	merge := sqlsheet.ImportOptions{Table: "checked", Mode: sqlsheet.Merge, Key: []string{"id"}}
	text := "id,v\n1,50\n3,500\n4,4\n"
	_, err := sqlsheet.ImportFrom(context.Background(), db, csvTable(t, text, csvsheet.Options{}), merge)
	var ie *sqlsheet.ImportError
	if !errors.As(err, &ie) || ie.Row != 3 {
		t.Errorf("a merge the CHECK constraint refuses: %v, want an error naming row 3", err)
	}
	if got, want := dump(t, db, "checked"), []string{"1|1", "2|2"}; !slices.Equal(got, want) {
		t.Errorf("after the failed merge: %q, want %q", got, want)
	}
	// Under MaxErrors the refused row is rejected, the rest merged.
	var rejects bytes.Buffer
	merge.MaxErrors, merge.Rejects = 1, &rejects
	st, err := sqlsheet.ImportFrom(context.Background(), db, csvTable(t, text, csvsheet.Options{}), merge)
	if err != nil || st.Rejected != 1 || st.Rows != 2 || st.Updated != 1 || st.Inserted != 1 {
		t.Errorf("merge under MaxErrors: %+v, %v", st, err)
	}
	if got, want := dump(t, db, "checked"), []string{"1|50", "2|2", "4|4"}; !slices.Equal(got, want) {
		t.Errorf("after the merge: %q, want %q", got, want)
	}
	if lines := strings.Split(strings.TrimSpace(rejects.String()), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], "3,") || !strings.HasSuffix(lines[1], ",3,500") {
		t.Errorf("rejects:\n%s", rejects.String())
	}
}

func TestMergeRollsBackSQLite(t *testing.T) {
	testMergeRollsBack(t, "sqlite:"+filepath.Join(t.TempDir(), "checked.db"))
}

func TestMergeRollsBackPostgres(t *testing.T) { testMergeRollsBack(t, postgresURL(t)) }

func TestMergeRollsBackMySQL(t *testing.T) {
	testMergeRollsBack(t, testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server"))
}
