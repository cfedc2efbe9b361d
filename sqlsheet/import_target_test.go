package sqlsheet_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// What the target table takes: column names (TestImportHeaderNames) and
// values within its columns' declared limits (TestImportLimits).

// Headers as surveys and reports have them: questions longer than a
// column name may be, alike in their first 63 bytes, a name ending in a
// space where MySQL would cut it, one name twice in other case.
var (
	longX     = strings.Repeat("é", 70) + " x" // 2-byte characters: PostgreSQL cuts bytes
	longY     = strings.Repeat("é", 70) + " y"
	spaceAt64 = strings.Repeat("a", 63) + " b"
	lineAt64  = strings.Repeat("b", 63) + "\nc"
	spaceAt63 = strings.Repeat("c", 62) + " d" // PostgreSQL's cut leaves a space
	emoji     = "sushi 🍣"                      // MySQL's names hold only the Basic Multilingual Plane
)

// testImportHeaderNames creates a table from such a header, checks the
// names the database gave its columns are those the import reports
// (want), then appends the same text, whose header must find the same
// columns.
func testImportHeaderNames(t *testing.T, url string, want []string) {
	db := openDB(t, url)
	ctx := context.Background()
	text := "id," + longX + "," + longY + "," + spaceAt64 + ",Name,name,\"" + lineAt64 + "\"," + emoji + "," + spaceAt63 + "\n1,2,3,4,5,6,7,8,9\n"
	db.Exec(`DROP TABLE IF EXISTS long_names`)
	for range 2 {
		mode := sqlsheet.Create
		if _, err := db.Exec(`SELECT 1 FROM long_names WHERE 1=0`); err == nil {
			mode = sqlsheet.Append
		}
		st, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, text, csvsheet.Options{}), sqlsheet.ImportOptions{Table: "long_names", Mode: mode})
		if err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		var names []string
		for _, c := range st.Columns {
			names = append(names, c.Name)
		}
		if !slices.Equal(names, want) {
			t.Errorf("mode %v: columns\n %q\nwant %q", mode, names, want)
		}
	}
	rows, err := db.Query(`SELECT * FROM long_names WHERE 1=0`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := rows.Columns()
	rows.Close()
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("the table's columns %q (%v), want %q", got, err, want)
	}
	if got := dump(t, db, "long_names"); !slices.Equal(got, []string{"1|2|3|4|5|6|7|8|9", "1|2|3|4|5|6|7|8|9"}) {
		t.Errorf("rows %q", got)
	}
	// Exported and imported again, the table keeps its names.
	path, _ := export(t, db, []sqlsheet.Query{{SQL: "SELECT * FROM long_names", Table: "long_names"}}, sqlsheet.Options{})
	wb, err := xlsx.Open(path, xlsx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer wb.Close()
	db.Exec(`DROP TABLE IF EXISTS long_names_again`)
	st, err := sqlsheet.Import(ctx, db, wb, 0, sqlsheet.ImportOptions{Table: "long_names_again"})
	var again []string
	for _, c := range st.Columns {
		again = append(again, c.Name)
	}
	if err != nil || !slices.Equal(again, want) {
		t.Errorf("exported and imported again: columns %q (%v), want %q", again, err, want)
	}

	// No database takes a NUL in a column name: an error naming the cell,
	// not the server's complaint about the statement.
	_, err = sqlsheet.ImportFrom(ctx, db, csvTable(t, "id,na\x00me\n1,2\n", csvsheet.Options{}), sqlsheet.ImportOptions{Table: "nul_name"})
	var ie *sqlsheet.ImportError
	if !errors.As(err, &ie) || ie.Row != 1 || ie.Col != 2 || !strings.Contains(err.Error(), "NUL") {
		t.Errorf("a NUL in the header: %v", err)
	}
}

func TestImportHeaderNamesSQLite(t *testing.T) {
	testImportHeaderNames(t, "sqlite:"+filepath.Join(t.TempDir(), "names.db"),
		[]string{"id", longX, longY, spaceAt64, "Name", "name_2", lineAt64, emoji, spaceAt63})
}

func TestImportHeaderNamesPostgres(t *testing.T) {
	// 63 bytes at most, cut between characters.
	testImportHeaderNames(t, postgresURL(t), []string{"id", strings.Repeat("é", 31), strings.Repeat("é", 30) + "_2",
		strings.Repeat("a", 63), "Name", "name_2", strings.Repeat("b", 63), emoji, strings.Repeat("c", 62)})
}

func TestImportHeaderNamesMySQL(t *testing.T) {
	// 64 characters at most, no space at the end.
	testImportHeaderNames(t, testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server"), []string{"id",
		strings.Repeat("é", 64), strings.Repeat("é", 62) + "_2", strings.Repeat("a", 63), "Name", "name_2", strings.Repeat("b", 63), "sushi _", spaceAt63})
}

// testImportLimits appends into a table whose columns are narrower than
// their kinds (VARCHAR(3), NUMERIC(5,2), SMALLINT): a cell over the limit
// is an error naming its cell, or with MaxErrors a rejected row, where
// the server's refusal would have named no row and taken every row with
// it. ddl creates the table in the server's dialect.
func testImportLimits(t *testing.T, url, ddl string) {
	db := openDB(t, url)
	ctx := context.Background()
	db.Exec(`DROP TABLE IF EXISTS limited`)
	if _, err := db.Exec(ddl); err != nil {
		t.Fatal(err)
	}
	text := "id,amount,code,small\n" +
		"1,999.99,abc,32767\n" +
		"2,999.995,abc,1\n" + // rounds to 1000.00
		"3,1,abcd,1\n" +
		"4,1,ab,32768\n" +
		"5,-999.99,ab,-32768\n"
	_, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, text, csvsheet.Options{}), sqlsheet.ImportOptions{Table: "limited", Mode: sqlsheet.Append})
	var ie *sqlsheet.ImportError
	if !errors.As(err, &ie) || ie.Row != 3 || ie.Col != 2 || ie.Column != "amount" || !errors.Is(err, sqlsheet.ErrBadCell) {
		t.Errorf("999.995 into NUMERIC(5,2): %v", err)
	}
	if got := dump(t, db, "limited"); len(got) != 0 {
		t.Errorf("a failed append left rows %q", got)
	}
	var rejects strings.Builder
	st, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, text, csvsheet.Options{}),
		sqlsheet.ImportOptions{Table: "limited", Mode: sqlsheet.Append, MaxErrors: 3, Rejects: &rejects})
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != 2 || st.Rejected != 3 {
		t.Errorf("%d rows loaded, %d rejected; want 2 and 3", st.Rows, st.Rejected)
	}
	for _, want := range []string{"\n3,\"column amount: value does not fit the column: 999.995 has more than 3 digits",
		"\n4,\"column code: value does not fit the column: 4 characters", "\n5,column small: value does not fit the column: 32768 is out of"} {
		if !strings.Contains(rejects.String(), want) {
			t.Errorf("rejects lack %q:\n%s", want, rejects.String())
		}
	}
	if got := dump(t, db, "limited"); !slices.Equal(got, []string{"1|999.99|abc|32767", "5|-999.99|ab|-32768"}) {
		t.Errorf("rows %q", got)
	}
}

func TestImportLimitsPostgres(t *testing.T) {
	url := postgresURL(t)
	testImportLimits(t, url, `CREATE TABLE limited (id integer PRIMARY KEY, amount numeric(5,2), code varchar(3), small smallint)`)

	// PostgreSQL's text holds no NUL: the cell is named, in a new table too.
	db := openDB(t, url)
	db.Exec(`DROP TABLE IF EXISTS nul_text`)
	_, err := sqlsheet.ImportFrom(context.Background(), db, csvTable(t, "id,name\n1,ab\n2,a\x00b\n", csvsheet.Options{}), sqlsheet.ImportOptions{Table: "nul_text"})
	var ie *sqlsheet.ImportError
	if !errors.As(err, &ie) || ie.Row != 3 || ie.Col != 2 || !strings.Contains(err.Error(), "NUL") {
		t.Errorf("a NUL in text: %v", err)
	}
}

func TestImportLimitsMySQL(t *testing.T) {
	testImportLimits(t, testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server"),
		`CREATE TABLE limited (id integer PRIMARY KEY, amount decimal(5,2), code varchar(3), small smallint)`)
}

// TestImportZonedTextPostgres: a timestamptz column takes instants as
// databases and ISO 8601 write them in text (PostgreSQL's own \copy
// CSV writes "2024-01-01 08:00:00+00"), at their offset; a timestamp
// without a zone refuses one rather than drop it.
func TestImportZonedTextPostgres(t *testing.T) {
	db := openDB(t, postgresURL(t))
	ctx := context.Background()
	mustExec(t, db, `DROP TABLE IF EXISTS zoned`, `CREATE TABLE zoned (id integer, at timestamptz, plain timestamp)`)
	text := "id,at\n1,2024-01-01 08:00:00+00\n2,2024-01-01T10:30:00+02:30\n3,2024-01-01T08:00:00Z\n4,2024-01-01 01:00:00.5-0700\n5,2024-01-01 08:00:00\n"
	if _, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, text, csvsheet.Options{}), sqlsheet.ImportOptions{Table: "zoned", Mode: sqlsheet.Append}); err != nil {
		t.Fatal(err)
	}
	got := queryRows(t, db, `SELECT id, extract(epoch FROM at)::text FROM zoned ORDER BY id`)
	// 2024-01-01 08:00 UTC is 1704096000; a text without an offset is read
	// in UTC, as the sheet's wall clock is.
	if want := []string{"1|1704096000.000000", "2|1704096000.000000", "3|1704096000.000000", "4|1704096000.500000", "5|1704096000.000000"}; !slices.Equal(got, want) {
		t.Errorf("instants %q, want %q", got, want)
	}
	_, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, "id,plain\n9,2024-01-01 08:00:00+00\n", csvsheet.Options{}), sqlsheet.ImportOptions{Table: "zoned", Mode: sqlsheet.Append})
	if !errors.Is(err, sqlsheet.ErrBadCell) {
		t.Errorf("an offset into a timestamp without a zone: %v", err)
	}
}

// TestImportZonedInfer: a new PostgreSQL table gets timestamptz for a
// column of text timestamps with UTC offsets (PostgreSQL's own COPY
// output), at their instants; a column where one is not such text stays
// text, as it is. SQLite, which keeps no offset, keeps the text.
func TestImportZonedInfer(t *testing.T) {
	text := "id,at,mixed\n1,2024-01-01 08:00:00+00,2024-01-01 08:00:00+00\n2,2024-01-01T10:30:00.5+02:30,soon\n3,,\n"
	for _, url := range []string{postgresURL(t), "sqlite:" + filepath.Join(t.TempDir(), "zoned.db")} {
		db := openDB(t, url)
		db.Exec(`DROP TABLE IF EXISTS zoned_new`)
		st, err := sqlsheet.ImportFrom(context.Background(), db, csvTable(t, text, csvsheet.Options{}), sqlsheet.ImportOptions{Table: "zoned_new"})
		if err != nil {
			t.Fatal(err)
		}
		types := []sqlsheet.ColumnType{st.Columns[0].Type, st.Columns[1].Type, st.Columns[2].Type}
		query := `SELECT id, extract(epoch FROM at)::text, mixed FROM zoned_new ORDER BY id`
		want := []string{"1|1704096000.000000|2024-01-01 08:00:00+00", "2|1704096000.500000|soon", "3|NULL|NULL"}
		wantTypes := []sqlsheet.ColumnType{sqlsheet.ColumnInteger, sqlsheet.ColumnTimestampTZ, sqlsheet.ColumnText}
		if sqlsheet.EngineOf(db) == sqlsheet.EngineSQLite {
			query = `SELECT id, at, mixed FROM zoned_new ORDER BY id`
			want = []string{"1|2024-01-01 08:00:00+00|2024-01-01 08:00:00+00", "2|2024-01-01T10:30:00.5+02:30|soon", "3|NULL|NULL"}
			wantTypes[1] = sqlsheet.ColumnText
		}
		if !slices.Equal(types, wantTypes) {
			t.Errorf("%s: types %v, want %v", sqlsheet.EngineOf(db), types, wantTypes)
		}
		if got := queryRows(t, db, query); !slices.Equal(got, want) {
			t.Errorf("%s: rows %q, want %q", sqlsheet.EngineOf(db), got, want)
		}
	}
}

// testImportDottedTable loads into a table named with its schema
// (PostgreSQL), database (MySQL) or attached name (SQLite), as exports
// read such names: create, append, merge on its key, replace, and the
// rows are in that table, not in one named with a dot.
func testImportDottedTable(t *testing.T, url, setup, qualified string) {
	db := openDB(t, url)
	ctx := context.Background()
	if setup != "" {
		mustExec(t, db, setup)
	}
	db.Exec(`DROP TABLE IF EXISTS ` + qualified)
	for _, c := range []struct {
		mode sqlsheet.ImportMode
		text string
		rows int64
	}{
		{sqlsheet.Create, "id,v\n1,a\n2,b\n", 2},
		{sqlsheet.Append, "id,v\n3,c\n", 3},
		{sqlsheet.Merge, "id,v\n3,C\n4,d\n", 4},
		{sqlsheet.Replace, "id,v\n9,z\n", 1},
	} {
		opts := sqlsheet.ImportOptions{Table: qualified, Mode: c.mode}
		if c.mode == sqlsheet.Merge {
			opts.Key = []string{"id"}
		}
		if _, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, c.text, csvsheet.Options{}), opts); err != nil {
			t.Fatalf("mode %v: %v", c.mode, err)
		}
		var n int64
		if err := db.QueryRow(`SELECT COUNT(*) FROM ` + qualified).Scan(&n); err != nil || n != c.rows {
			t.Errorf("mode %v: %d rows in %s (%v), want %d", c.mode, n, qualified, err, c.rows)
		}
	}
}

func TestImportDottedTableSQLite(t *testing.T) {
	testImportDottedTable(t, "sqlite:"+filepath.Join(t.TempDir(), "dotted.db"), "", "main.dotted")
}

func TestImportDottedTablePostgres(t *testing.T) {
	testImportDottedTable(t, postgresURL(t), `CREATE SCHEMA IF NOT EXISTS analytics`, "analytics.dotted")
}

func TestImportDottedTableMySQL(t *testing.T) {
	url := testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server")
	testImportDottedTable(t, url, `CREATE DATABASE IF NOT EXISTS analytics`, "analytics.dotted")
}

// testImportNotNull appends rows with an empty cell in a NOT NULL column:
// an error naming the cell, or a row MaxErrors skips, where the server
// would refuse the whole load; a NULL into the column that numbers rows
// itself (ddl's id on SQLite and MySQL; PostgreSQL's identity columns
// refuse NULL, so there id may be NULL) is taken. want is the rows.
func testImportNotNull(t *testing.T, url, ddl string, want []string) {
	db := openDB(t, url)
	ctx := context.Background()
	mustExec(t, db, `DROP TABLE IF EXISTS required`, ddl)
	text := "id,name,v\n,a,1\n,,2\n,c,3\n"
	_, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, text, csvsheet.Options{}), sqlsheet.ImportOptions{Table: "required", Mode: sqlsheet.Append})
	var ie *sqlsheet.ImportError
	if !errors.As(err, &ie) || ie.Row != 3 || ie.Col != 2 || ie.Column != "name" || !strings.Contains(err.Error(), "NOT NULL") {
		t.Errorf("an empty NOT NULL cell: %v", err)
	}
	st, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, text, csvsheet.Options{}), sqlsheet.ImportOptions{Table: "required", Mode: sqlsheet.Append, MaxErrors: 1})
	if err != nil || st.Rows != 2 || st.Rejected != 1 {
		t.Errorf("under MaxErrors: %+v, %v", st, err)
	}
	if got := dump(t, db, "required"); !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
}

func TestImportNotNullSQLite(t *testing.T) {
	testImportNotNull(t, "sqlite:"+filepath.Join(t.TempDir(), "required.db"),
		`CREATE TABLE required (id INTEGER PRIMARY KEY, name TEXT NOT NULL, v INTEGER)`, []string{"1|a|1", "2|c|3"})
}

func TestImportNotNullPostgres(t *testing.T) {
	testImportNotNull(t, postgresURL(t), `CREATE TABLE required (id integer, name text NOT NULL, v integer)`, []string{"NULL|a|1", "NULL|c|3"})
}

func TestImportNotNullMySQL(t *testing.T) {
	testImportNotNull(t, testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server"),
		`CREATE TABLE required (id integer AUTO_INCREMENT PRIMARY KEY, name varchar(20) NOT NULL, v integer)`, []string{"1|a|1", "2|c|3"})
}

// TestImportSchemaLimitsPostgres: a new table typed by an export's schema
// part (NUMERIC(5,2)) has that type's limits checked per cell too, as a
// file edited after the export may break them.
func TestImportSchemaLimitsPostgres(t *testing.T) {
	db := openDB(t, postgresURL(t))
	ctx := context.Background()
	mustExec(t, db, `DROP TABLE IF EXISTS small_src`, `CREATE TABLE small_src (id integer PRIMARY KEY, amount numeric(5,2))`,
		`INSERT INTO small_src VALUES (1, 1.5)`)
	exported, _ := writeBook(t, func(w *xlsx.Writer) error {
		_, err := sqlsheet.Export(ctx, db, w, []sqlsheet.Query{{SQL: "SELECT * FROM small_src", Sheet: "small", Table: "small_src"}}, sqlsheet.Options{})
		return err
	})
	edited := resave(t, exported, "small",
		[]xlsx.Cell{xlsx.String("id"), xlsx.String("amount")},
		[]xlsx.Cell{xlsx.Int(1), xlsx.Float(1.5)},
		[]xlsx.Cell{xlsx.Int(2), xlsx.Float(1000.25)})
	db.Exec(`DROP TABLE IF EXISTS small_dst`)
	_, err := sqlsheet.Import(ctx, db, edited, 0, sqlsheet.ImportOptions{Table: "small_dst"})
	var ie *sqlsheet.ImportError
	if !errors.As(err, &ie) || ie.Row != 3 || ie.Col != 2 || !strings.Contains(err.Error(), "numeric(5,2)") {
		t.Errorf("1000.25 into the schema part's NUMERIC(5,2): %v", err)
	}
}

// refusedRows is a sheet whose row 8 holds a cell no integer column
// takes (id 7), whose row 42 is blank, and whose row 43 repeats the key
// of row 4 (id 3), among rows before and after it: past the blank row,
// inside a multi-row INSERT, the refused row is still named by its own.
func refusedRows(badCell bool) [][]xlsx.Cell {
	rows := [][]xlsx.Cell{{xlsx.String("id"), xlsx.String("v")}}
	for id := 1; id <= 40; id++ {
		v := xlsx.Int(int64(id))
		if id == 7 && badCell {
			v = xlsx.String("x")
		}
		rows = append(rows, []xlsx.Cell{xlsx.Int(int64(id)), v})
	}
	rows = append(rows, nil, []xlsx.Cell{xlsx.Int(3), xlsx.Int(99)})
	for id := 41; id <= 60; id++ {
		rows = append(rows, []xlsx.Cell{xlsx.Int(int64(id)), xlsx.Int(int64(id))})
	}
	return rows
}

// testImportRefusedRow appends rows the table's key refuses. Without
// MaxErrors, the error names the row (MySQL, which names no row for a
// key, wantRow 0: the key) and the table is left as it was. Under
// MaxErrors, the refused row is rejected like the bad cell, with the
// database's reason and its values, and the others load; one reject too
// many fails, naming the refused row.
func testImportRefusedRow(t *testing.T, url, ddl string, wantRow int, wantText string) {
	db := openDB(t, url)
	ctx := context.Background()
	mustExec(t, db, `DROP TABLE IF EXISTS refused`, ddl)
	_, err := sqlsheet.Import(ctx, db, importBook(t, refusedRows(false)), 0, sqlsheet.ImportOptions{Table: "refused", Mode: sqlsheet.Append})
	var ie *sqlsheet.ImportError
	if wantRow > 0 && (!errors.As(err, &ie) || ie.Row != wantRow || ie.Col != 0 || ie.Sheet != "Data") {
		t.Errorf("want an ImportError naming row %d: %v", wantRow, err)
	}
	if err == nil || !strings.Contains(err.Error(), wantText) {
		t.Errorf("want an error saying %q: %v", wantText, err)
	}
	if got := dump(t, db, "refused"); len(got) != 0 {
		t.Errorf("the failed load left %d rows", len(got))
	}

	var rejects bytes.Buffer
	st, err := sqlsheet.Import(ctx, db, importBook(t, refusedRows(true)), 0,
		sqlsheet.ImportOptions{Table: "refused", Mode: sqlsheet.Append, MaxErrors: 2, Rejects: &rejects})
	if err != nil || st.Rows != 59 || st.Rejected != 2 || st.Inserted != 59 {
		t.Errorf("under MaxErrors 2: %+v, %v", st, err)
	}
	if got := dump(t, db, "refused"); len(got) != 59 || got[2] != "3|3" || slices.Contains(got, "7|x") {
		t.Errorf("loaded %d rows: %q", len(got), got)
	}
	lines := strings.Split(strings.TrimSpace(rejects.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "8,") || !strings.HasPrefix(lines[2], "43,") ||
		!strings.Contains(lines[2], wantText) || !strings.HasSuffix(lines[2], ",3,99") {
		t.Errorf("rejects:\n%s", rejects.String())
	}

	// A new table (no key: the repeated id loads), made twice over.
	db.Exec(`DROP TABLE IF EXISTS refused_new`)
	for range 2 {
		st, err := sqlsheet.Import(ctx, db, importBook(t, refusedRows(false)), 0, sqlsheet.ImportOptions{Table: "refused_new", Mode: sqlsheet.Replace, MaxErrors: 2})
		if got := dump(t, db, "refused_new"); err != nil || st.Rows != 61 || st.Rejected != 0 || len(got) != 61 {
			t.Errorf("replace under MaxErrors 2: %+v, %v; %d rows", st, err, len(got))
		}
	}

	mustExec(t, db, `DELETE FROM refused`)
	_, err = sqlsheet.Import(ctx, db, importBook(t, refusedRows(true)), 0, sqlsheet.ImportOptions{Table: "refused", Mode: sqlsheet.Append, MaxErrors: 1})
	if !errors.As(err, &ie) || ie.Row != 43 || !strings.Contains(err.Error(), "more than 1 rejected rows") {
		t.Errorf("one reject too many: %v", err)
	}
	if got := dump(t, db, "refused"); len(got) != 0 {
		t.Errorf("the failed load left %d rows", len(got))
	}
}

func TestImportRefusedRowSQLite(t *testing.T) {
	testImportRefusedRow(t, "sqlite:"+filepath.Join(t.TempDir(), "refused.db"),
		`CREATE TABLE refused (id INTEGER PRIMARY KEY, v INTEGER)`, 43, "UNIQUE constraint failed: refused.id")
}

func TestImportRefusedRowPostgres(t *testing.T) {
	testImportRefusedRow(t, postgresURL(t), `CREATE TABLE refused (id integer PRIMARY KEY, v integer)`, 43, "Key (id)=(3) already exists")
}

// TestImportRefusedRowMySQL: LOAD DATA names no row for a duplicate key,
// so the error names the key; a warning that names the load's row (a
// TIMESTAMP out of its range) is put as the source's row.
func TestImportRefusedRowMySQL(t *testing.T) {
	url := testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server")
	testImportRefusedRow(t, url, `CREATE TABLE refused (id integer PRIMARY KEY, v integer)`, 0, "Duplicate entry '3'")

	db := openDB(t, url)
	mustExec(t, db, `DROP TABLE IF EXISTS refused_at`, `CREATE TABLE refused_at (id integer, at timestamp NULL)`)
	text := "id,at\n1,2001-01-01 10:00:00\n2,x\n3,2002-01-01 00:00:00\n4,1960-01-01 00:00:00\n"
	_, err := sqlsheet.ImportFrom(context.Background(), db, csvTable(t, text, csvsheet.Options{}),
		sqlsheet.ImportOptions{Table: "refused_at", Mode: sqlsheet.Append, MaxErrors: 1})
	var ie *sqlsheet.ImportError
	if !errors.As(err, &ie) || ie.Row != 5 || strings.Contains(err.Error(), "at row") {
		t.Errorf("a TIMESTAMP before 1970 on row 5: %v", err)
	}
	if got := dump(t, db, "refused_at"); len(got) != 0 {
		t.Errorf("the failed load left %d rows", len(got))
	}
}

// testImportDryRunKeys: a dry run says which rows a real load would see
// refused for a unique key, one the table has or one an earlier row has,
// changing nothing; under MaxErrors it counts and writes them.
func testImportDryRunKeys(t *testing.T, url, ddl string) {
	db := openDB(t, url)
	ctx := context.Background()
	mustExec(t, db, `DROP TABLE IF EXISTS refused`, ddl)
	dry := sqlsheet.ImportOptions{Table: "refused", Mode: sqlsheet.Append, DryRun: true}
	_, err := sqlsheet.Import(ctx, db, importBook(t, refusedRows(false)), 0, dry)
	var ie *sqlsheet.ImportError
	if !errors.Is(err, sqlsheet.ErrDuplicateKey) || !errors.As(err, &ie) || ie.Row != 43 || !strings.Contains(err.Error(), "repeats row 4's") {
		t.Errorf("a dry run of rows repeating a key: %v", err)
	}

	mustExec(t, db, `INSERT INTO refused (id, v) VALUES (5, 5), (50, 50)`)
	var rejects bytes.Buffer
	some := dry
	some.MaxErrors, some.Rejects = 4, &rejects
	st, err := sqlsheet.Import(ctx, db, importBook(t, refusedRows(true)), 0, some)
	// Row 8 holds a bad cell; 6 and 53 keys the table has (5, 50); 43 the key of row 4.
	if err != nil || st.Rows != 57 || st.Rejected != 4 || st.Inserted != 57 {
		t.Errorf("a dry run under MaxErrors 4: %+v, %v", st, err)
	}
	var rows []string
	for _, line := range strings.Split(strings.TrimSpace(rejects.String()), "\n")[1:] {
		row, _, _ := strings.Cut(line, ",")
		rows = append(rows, row)
	}
	if !slices.Equal(rows, []string{"8", "6", "43", "53"}) || !strings.Contains(rejects.String(), "the table has the key (id) already") {
		t.Errorf("rejects of the dry run:\n%s", rejects.String())
	}
	some.MaxErrors, some.Rejects = 3, nil
	if _, err := sqlsheet.Import(ctx, db, importBook(t, refusedRows(true)), 0, some); !errors.As(err, &ie) || ie.Row != 53 ||
		!strings.Contains(err.Error(), "more than 3 rejected rows") {
		t.Errorf("a dry run with a reject too many: %v", err)
	}
	if got := dump(t, db, "refused"); len(got) != 2 {
		t.Errorf("dry runs changed the table: %q", got)
	}
}

func TestImportDryRunKeysSQLite(t *testing.T) {
	testImportDryRunKeys(t, "sqlite:"+filepath.Join(t.TempDir(), "refused.db"), `CREATE TABLE refused (id INTEGER PRIMARY KEY, v INTEGER)`)
}

func TestImportDryRunKeysPostgres(t *testing.T) {
	testImportDryRunKeys(t, postgresURL(t), `CREATE TABLE refused (n serial, id integer UNIQUE, v integer)`)
}

func TestImportDryRunKeysMySQL(t *testing.T) {
	testImportDryRunKeys(t, testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server"),
		`CREATE TABLE refused (n integer AUTO_INCREMENT PRIMARY KEY, id integer, v integer, UNIQUE KEY (id))`)
}

// testImportMissingRequired: an append whose rows lack a column the
// table requires (NOT NULL, no default) is refused before any row, naming
// it; NOT NULL columns with a default, or that number themselves, may be
// left out.
func testImportMissingRequired(t *testing.T, url, ddl string) {
	db := openDB(t, url)
	mustExec(t, db, `DROP TABLE IF EXISTS required2`, ddl)
	ctx := context.Background()
	_, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, "note\nx\n", csvsheet.Options{}), sqlsheet.ImportOptions{Table: "required2", Mode: sqlsheet.Append, MaxErrors: 5})
	if err == nil || !strings.Contains(err.Error(), `requires a value in "name"`) || strings.Contains(err.Error(), `"kind"`) {
		t.Errorf("an append without the required column: %v", err)
	}
	st, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, "name,note\na,x\n", csvsheet.Options{}), sqlsheet.ImportOptions{Table: "required2", Mode: sqlsheet.Append})
	if err != nil || st.Rows != 1 {
		t.Errorf("an append with it: %+v, %v", st, err)
	}
}

func TestImportMissingRequiredSQLite(t *testing.T) {
	testImportMissingRequired(t, "sqlite:"+filepath.Join(t.TempDir(), "required.db"),
		`CREATE TABLE required2 (id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL DEFAULT 'a', note TEXT)`)
}

func TestImportMissingRequiredPostgres(t *testing.T) {
	testImportMissingRequired(t, postgresURL(t),
		`CREATE TABLE required2 (id integer GENERATED ALWAYS AS IDENTITY, n serial, name text NOT NULL, kind text NOT NULL DEFAULT 'a', note text)`)
}

func TestImportMissingRequiredMySQL(t *testing.T) {
	testImportMissingRequired(t, testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server"),
		`CREATE TABLE required2 (id integer AUTO_INCREMENT PRIMARY KEY, name varchar(20) NOT NULL, kind varchar(5) NOT NULL DEFAULT 'a', note text)`)
}

// testImportSchemaKeyRefused: a new table made with the primary key an
// export recorded refuses a key the edited file repeats: a dry run names
// the row, and a load under MaxErrors rejects it and loads the rest.
func testImportSchemaKeyRefused(t *testing.T, url string) {
	db := openDB(t, url)
	ctx := context.Background()
	mustExec(t, db, `DROP TABLE IF EXISTS keyed_src`, `CREATE TABLE keyed_src (id integer PRIMARY KEY, v integer)`, `INSERT INTO keyed_src VALUES (1, 1)`)
	exported, _ := writeBook(t, func(w *xlsx.Writer) error {
		_, err := sqlsheet.Export(ctx, db, w, []sqlsheet.Query{{SQL: "SELECT * FROM keyed_src", Sheet: "keyed", Table: "keyed_src"}}, sqlsheet.Options{})
		return err
	})
	n := xlsx.Int
	edited := resave(t, exported, "keyed", []xlsx.Cell{xlsx.String("id"), xlsx.String("v")},
		[]xlsx.Cell{n(1), n(1)}, []xlsx.Cell{n(2), n(2)}, []xlsx.Cell{n(1), n(3)}, []xlsx.Cell{n(3), n(3)})
	db.Exec(`DROP TABLE IF EXISTS keyed_dst`)
	_, err := sqlsheet.Import(ctx, db, edited, 0, sqlsheet.ImportOptions{Table: "keyed_dst", DryRun: true})
	var ie *sqlsheet.ImportError
	if !errors.Is(err, sqlsheet.ErrDuplicateKey) || !errors.As(err, &ie) || ie.Row != 4 {
		t.Errorf("a dry run of a repeated schema key: %v", err)
	}
	st, err := sqlsheet.Import(ctx, db, edited, 0, sqlsheet.ImportOptions{Table: "keyed_dst", MaxErrors: 1})
	if err != nil || st.Rows != 3 || st.Rejected != 1 {
		t.Errorf("under MaxErrors: %+v, %v", st, err)
	}
	if got, want := dump(t, db, "keyed_dst"), []string{"1|1", "2|2", "3|3"}; !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
}

func TestImportSchemaKeyRefusedSQLite(t *testing.T) {
	testImportSchemaKeyRefused(t, "sqlite:"+filepath.Join(t.TempDir(), "keyed.db"))
}

func TestImportSchemaKeyRefusedPostgres(t *testing.T) { testImportSchemaKeyRefused(t, postgresURL(t)) }

func TestImportSchemaKeyRefusedMySQL(t *testing.T) {
	testImportSchemaKeyRefused(t, testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server"))
}

// testImportEnum appends to an enum column a value it does not list: the
// cell is named, or the row rejected under MaxErrors, where the server
// would fail the whole load (PostgreSQL) or warn of a truncation (MySQL).
// fits is a value the server takes though it is spelled otherwise.
func testImportEnum(t *testing.T, url, fits string, ddl ...string) {
	db := openDB(t, url)
	mustExec(t, db, ddl...)
	ctx := context.Background()
	text := "id,status\n1,open\n2,closed\n3," + fits + "\n"
	_, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, text, csvsheet.Options{}), sqlsheet.ImportOptions{Table: "tickets", Mode: sqlsheet.Append})
	var ie *sqlsheet.ImportError
	if !errors.As(err, &ie) || ie.Row != 3 || ie.Col != 2 || !errors.Is(err, sqlsheet.ErrBadCell) || !strings.Contains(err.Error(), `"closed"`) {
		t.Errorf("a value the enum lacks: %v", err)
	}
	st, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, text, csvsheet.Options{}), sqlsheet.ImportOptions{Table: "tickets", Mode: sqlsheet.Append, MaxErrors: 1})
	if err != nil || st.Rows != 2 || st.Rejected != 1 {
		t.Errorf("under MaxErrors: %+v, %v", st, err)
	}
}

func TestImportEnumPostgres(t *testing.T) {
	testImportEnum(t, postgresURL(t), "done", `DROP TABLE IF EXISTS tickets`, `DROP TYPE IF EXISTS ticket_status`,
		`CREATE TYPE ticket_status AS ENUM ('open', 'done')`, `CREATE TABLE tickets (id integer, status ticket_status)`)
}

func TestImportEnumMySQL(t *testing.T) {
	url := testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server")
	testImportEnum(t, url, "Done ", `DROP TABLE IF EXISTS tickets`, `CREATE TABLE tickets (id integer, status ENUM('open', 'done'))`)
	// A SET takes its values joined by commas.
	testImportEnum(t, url, `"OPEN,done"`, `DROP TABLE IF EXISTS tickets`, `CREATE TABLE tickets (id integer, status SET('open', 'done'))`)
}

// TestImportTimestampRangeMySQL appends to a table with TIMESTAMP
// columns, which hold 32-bit Unix time: a value out of that range is an
// error naming its cell (before, the load stored zero with a warning
// and failed whole), or a row MaxErrors rejects. The last second's
// fractions fit as MariaDB cuts them (MySQL rounds).
func TestImportTimestampRangeMySQL(t *testing.T) {
	db := openDB(t, testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server"))
	mustExec(t, db, `DROP TABLE IF EXISTS ev`, `CREATE TABLE ev (id integer, at TIMESTAMP NULL, at3 TIMESTAMP(3) NULL)`)
	var last string
	if err := db.QueryRow("SELECT CAST(FROM_UNIXTIME(2147483647) AS CHAR)").Scan(&last); err != nil {
		t.Fatal(err)
	}
	text := "id,at,at3\n1,2020-01-01 10:00:00,\n2,2040-06-01 00:00:00,\n3,,1960-01-01 00:00:00\n4,," + last + ".9999\n"
	ctx := context.Background()
	_, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, text, csvsheet.Options{}), sqlsheet.ImportOptions{Table: "ev", Mode: sqlsheet.Append})
	var ie *sqlsheet.ImportError
	if !errors.As(err, &ie) || ie.Row != 3 || ie.Col != 2 || !errors.Is(err, sqlsheet.ErrBadCell) || !strings.Contains(err.Error(), "2040-06-01 00:00:00 is out of timestamp's range") {
		t.Errorf("a timestamp past 2038: %v", err)
	}
	var rejects bytes.Buffer
	st, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, text, csvsheet.Options{}), sqlsheet.ImportOptions{Table: "ev", Mode: sqlsheet.Append, MaxErrors: 5, Rejects: &rejects})
	if err != nil || st.Rows != 2 || st.Rejected != 2 {
		t.Fatalf("under MaxErrors: %+v, %v", st, err)
	}
	got := queryRows(t, db, "SELECT id, CAST(at AS CHAR), CAST(at3 AS CHAR) FROM ev ORDER BY id")
	if want := []string{"1|2020-01-01 10:00:00|NULL", "4|NULL|" + last + ".999"}; !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
	for _, row := range []string{"3,", "4,"} { // source rows 3 and 4: ids 2 and 3
		if !strings.Contains(rejects.String(), "\n"+row) {
			t.Errorf("rejects lack row %s:\n%s", row, rejects.String())
		}
	}
}
