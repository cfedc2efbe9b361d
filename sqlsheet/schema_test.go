package sqlsheet_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// roundTrip exports table src whole, imports the file into a new table
// dst, and returns the file: the schema part must bring back each
// column's type, the primary key and every value (an empty string too,
// which is not NULL).
func roundTrip(t *testing.T, db *sql.DB, describe func(table string) []string) string {
	t.Helper()
	ctx := context.Background()
	wb, path := writeBook(t, func(w *xlsx.Writer) error {
		_, err := sqlsheet.Export(ctx, db, w, []sqlsheet.Query{{SQL: "SELECT * FROM src", Sheet: "src", Table: "src"}}, sqlsheet.Options{})
		return err
	})
	db.Exec(`DROP TABLE IF EXISTS dst`)
	st, err := sqlsheet.Import(ctx, db, wb, 0, sqlsheet.ImportOptions{Table: "dst"})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Schema || !slices.Equal(st.Key, []string{"id"}) {
		t.Errorf("schema %v, key %v", st.Schema, st.Key)
	}
	if got, want := describe("dst"), describe("src"); !slices.Equal(got, want) {
		t.Errorf("column types:\n got %q\nwant %q", got, want)
	}
	if got, want := dump(t, db, "dst"), dump(t, db, "src"); !slices.Equal(got, want) {
		t.Errorf("rows:\n got %q\nwant %q", got, want)
	}
	// Without the schema, the same file is inferred as any other.
	db.Exec(`DROP TABLE IF EXISTS inferred`)
	st, err = sqlsheet.Import(ctx, db, wb, 0, sqlsheet.ImportOptions{Table: "inferred", Infer: true})
	if err != nil || st.Schema || slices.Equal(describe("inferred"), describe("src")) {
		t.Errorf("--infer: %+v, %v: %q", st, err, describe("inferred"))
	}
	// A merge of the file back into its table finds the key in it.
	st, err = sqlsheet.Import(ctx, db, wb, 0, sqlsheet.ImportOptions{Table: "src", Mode: sqlsheet.Merge})
	if err != nil || st.Unchanged != st.Rows || st.Rows == 0 {
		t.Errorf("merge back: %+v, %v", st, err)
	}
	return path
}

func columnsOf(t *testing.T, db *sql.DB, q string) func(string) []string {
	return func(table string) []string {
		rows, err := db.Query(q, table)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var name, typ, key string
			if err := rows.Scan(&name, &typ, &key); err != nil {
				t.Fatal(err)
			}
			out = append(out, name+" "+strings.ToLower(typ)+" "+key)
		}
		return out
	}
}

func TestSchemaRoundTripPostgres(t *testing.T) {
	db, err := sqlsheet.Open(postgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db,
		`DROP TABLE IF EXISTS src`,
		`CREATE TABLE src (id bigint PRIMARY KEY, amount numeric(12,2), big bigint, at timestamptz, u uuid, doc jsonb,
			day date, ok boolean, note character varying(40), tags integer[], at_us timestamp, clock time, x numeric, f real)`,
		`INSERT INTO src VALUES
			(1, 1234.56, 9007199254740993, '2024-02-29 13:45:30.250001+02', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"a": [1, 2]}', '1850-01-02', true, 'x', '{1,2}',
				'2024-02-29 13:45:30.123456', '13:45:30.654321', 'NaN', 'Infinity'),
			(2, 0.10, -9223372036854775808, '1999-12-31 23:59:59+00', NULL, '[]', '2024-02-29', false, '', NULL,
				'1999-12-31 23:59:59.999999', '00:00:00.000001', '-Infinity', '-Infinity'),
			(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'd', '{}', NULL, NULL, NULL, NULL)`,
	)
	path := roundTrip(t, db, columnsOf(t, db, `SELECT a.attname, format_type(a.atttypid, a.atttypmod),
		(SELECT count(*) FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary AND a.attnum = ANY(i.indkey))::text
		FROM pg_attribute a WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`))
	// Times to the microsecond (dump shows milliseconds).
	exact := "SELECT id, at::text, at_us::text, clock::text, x::text, f::text FROM %s ORDER BY id"
	if got, want := queryRows(t, db, fmt.Sprintf(exact, "dst")), queryRows(t, db, fmt.Sprintf(exact, "src")); !slices.Equal(got, want) {
		t.Errorf("times:\n got %q\nwant %q", got, want)
	}

	// The file carrying the schema part passes the validator, and
	// LibreOffice re-saves it with the values intact.
	pyread.Python(t)
	r := pyread.Read(t, path)[path]
	if r == nil || r.Error != "" || len(r.Audit) > 0 {
		t.Fatalf("readers and openxml-audit: %+v", r)
	}
	resaved := pyread.Resave(t, filepath.Join(t.TempDir()), path)
	lo := pyread.ReadValues(t, resaved...)[resaved[0]]
	if lo == nil || lo.Error != "" || len(lo.Calamine["src"]) != 4 {
		t.Errorf("LibreOffice's copy: %+v", lo)
	}
}

func TestSchemaRoundTripSQLite(t *testing.T) {
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "schema.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db,
		`CREATE TABLE src (id INTEGER PRIMARY KEY, amount NUMERIC(12,2), big BIGINT, at TIMESTAMP, u UUID, doc JSON,
			day DATE, ok BOOLEAN, note VARCHAR(40), at_us TIMESTAMP)`,
		`INSERT INTO src VALUES
			(1, 1234.56, 9007199254740993, '2024-02-29 13:45:30.25', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"a": [1, 2]}', '1850-01-02', 1, 'x',
				'2024-02-29 13:45:30.123456'),
			(2, 0.1, -9223372036854775808, '1999-12-31 23:59:59', NULL, '[]', '2024-02-29', 0, '', '1999-12-31 23:59:59.999999'),
			(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'd', NULL)`,
	)
	roundTrip(t, db, columnsOf(t, db, `SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid`))
	exact := "SELECT id, CAST(at AS TEXT), CAST(at_us AS TEXT) FROM %s ORDER BY id"
	if got, want := queryRows(t, db, fmt.Sprintf(exact, "dst")), queryRows(t, db, fmt.Sprintf(exact, "src")); !slices.Equal(got, want) {
		t.Errorf("times:\n got %q\nwant %q", got, want)
	}
}

func TestSchemaRoundTripMySQL(t *testing.T) {
	db, err := sqlsheet.Open(testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db,
		`DROP TABLE IF EXISTS src`,
		`CREATE TABLE src (id BIGINT PRIMARY KEY, amount DECIMAL(12,2), big BIGINT, at DATETIME, u CHAR(36),
			day DATE, ok TINYINT, note VARCHAR(40), n BIGINT UNSIGNED, at6 DATETIME(6), clock TIME(6), dur TIME)`,
		`INSERT INTO src VALUES
			(1, 1234.56, 9007199254740993, '2024-02-29 13:45:30', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1850-01-02', 1, 'x', 18446744073709551615,
				'2024-02-29 13:45:30.123456', '13:45:30.654321', '-838:59:59'),
			(2, 0.10, -9223372036854775808, '1999-12-31 23:59:59', NULL, '2024-02-29', 0, '', 0, '1999-12-31 23:59:59.999999', '00:00:00.000001', '100:00:01'),
			(3, NULL, NULL, NULL, NULL, NULL, NULL, 'd', NULL, NULL, NULL, '12:00:00')`,
	)
	roundTrip(t, db, columnsOf(t, db, `SELECT column_name, column_type, column_key FROM information_schema.columns
		WHERE table_schema = DATABASE() AND table_name = ? ORDER BY ordinal_position`))
	exact := "SELECT id, CAST(at6 AS CHAR), CAST(clock AS CHAR), CAST(dur AS CHAR) FROM %s ORDER BY id"
	if got, want := queryRows(t, db, fmt.Sprintf(exact, "dst")), queryRows(t, db, fmt.Sprintf(exact, "src")); !slices.Equal(got, want) {
		t.Errorf("times:\n got %q\nwant %q", got, want)
	}
}

// TestSchemaPartIsInput: a schema part is read like any other input: a
// type that is not a plain type name (a second statement, a constraint)
// is not copied into CREATE TABLE; the column gets its kind's type.
func TestSchemaPartIsInput(t *testing.T) {
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "victim.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db, `CREATE TABLE victim (v INTEGER)`, `INSERT INTO victim VALUES (1)`)
	part := `<schema xmlns="` + sqlsheet.SchemaNamespace + `"><sheet name="S" engine="sqlite">` +
		`<column name="a" type="TEXT); DROP TABLE victim; --" kind="text"/>` +
		`<column name="b" type="INTEGER REFERENCES victim(v)" kind="integer"/>` +
		`<column name="c" type="TEXT DEFAULT (x)" kind="text"/></sheet></schema>`
	wb, _ := writeBook(t, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("S", xlsx.SheetOptions{})
		if err == nil {
			err = errors.Join(sh.WriteRow([]xlsx.Cell{xlsx.String("a"), xlsx.String("b"), xlsx.String("c")}),
				sh.WriteRow([]xlsx.Cell{xlsx.String("x"), xlsx.Int(1), xlsx.String("y")}), w.AddCustomXML([]byte(part)))
		}
		return err
	})
	st, err := sqlsheet.Import(context.Background(), db, wb, 0, sqlsheet.ImportOptions{Table: "t"})
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, c := range st.Columns {
		types = append(types, c.SQLType)
	}
	if !slices.Equal(types, []string{"TEXT", "INTEGER", "TEXT"}) {
		t.Errorf("types %q", types)
	}
	if got := dump(t, db, "victim"); !slices.Equal(got, []string{"1"}) {
		t.Errorf("victim: %q", got)
	}
}

// TestSchemaNullRows: a row of NULLs is an empty row in the sheet, which
// an import would pass over as a blank line; the schema part counts the
// rows, so that the round trip keeps it, in the middle and at the end,
// and also once a re-save (as Excel's) has dropped the empty rows'
// elements. Without the schema part (Infer), blank lines are skipped.
func TestSchemaNullRows(t *testing.T) {
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "nulls.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.Exec(`CREATE TABLE src (a INTEGER, b TEXT);
		INSERT INTO src VALUES (1, 'x'), (NULL, NULL), (3, 'z'), (NULL, NULL), (NULL, NULL)`); err != nil {
		t.Fatal(err)
	}
	exported, _ := writeBook(t, func(w *xlsx.Writer) error {
		_, err := sqlsheet.Export(ctx, db, w, []sqlsheet.Query{{SQL: "SELECT * FROM src", Sheet: "src"}}, sqlsheet.Options{})
		return err
	})
	// The same sheet as a re-save leaves it: no elements for empty rows.
	resaved := resave(t, exported, "src",
		[]xlsx.Cell{xlsx.String("a"), xlsx.String("b")},
		[]xlsx.Cell{xlsx.Int(1), xlsx.String("x")},
		nil,
		[]xlsx.Cell{xlsx.Int(3), xlsx.String("z")})
	want := dump(t, db, "src")
	for _, c := range []struct {
		name string
		wb   *xlsx.Workbook
		opts sqlsheet.ImportOptions
		want []string
	}{
		{"exported", exported, sqlsheet.ImportOptions{}, want},
		{"re-saved", resaved, sqlsheet.ImportOptions{}, want},
		{"inferred", exported, sqlsheet.ImportOptions{Infer: true}, []string{"1|x", "3|z"}},
		{"stop at empty", exported, sqlsheet.ImportOptions{StopAtEmpty: true}, []string{"1|x"}},
		// A range ending inside the rows, past rows the re-save dropped.
		{"range", resaved, sqlsheet.ImportOptions{Range: xlsx.Range{LastRow: 3}}, []string{"NULL|NULL", "1|x"}},
	} {
		db.Exec(`DROP TABLE IF EXISTS dst`)
		c.opts.Table = "dst"
		st, err := sqlsheet.Import(ctx, db, c.wb, 0, c.opts)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := dump(t, db, "dst"); st.Rows != int64(len(c.want)) || !slices.Equal(got, c.want) {
			t.Errorf("%s: %d rows %q, want %q", c.name, st.Rows, got, c.want)
		}
	}
}

// TestEmptyStringWithoutSchema: in a sheet from elsewhere an empty
// string cell (a formula's "", say) loads as NULL, as an empty cell
// does; only a database's export, which writes NULL as no cell, keeps
// it as an empty string.
func TestEmptyStringWithoutSchema(t *testing.T) {
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "empty.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	wb, _ := writeBook(t, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("S", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		for _, row := range [][]xlsx.Cell{{xlsx.String("id"), xlsx.String("note")}, {xlsx.Int(1), xlsx.String("")}, {xlsx.Int(2), xlsx.String("x")}} {
			if err := sh.WriteRow(row); err != nil {
				return err
			}
		}
		return nil
	})
	if _, err := sqlsheet.Import(context.Background(), db, wb, 0, sqlsheet.ImportOptions{Table: "t"}); err != nil {
		t.Fatal(err)
	}
	if got, want := dump(t, db, "t"), []string{"1|NULL", "2|x"}; !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
}

// TestBinaryColumnsNotLoaded: an export writes binary values as
// placeholders, or as hex or base64 text, never as the bytes. Loaded
// back, a new table gets the column with its type and NULLs, a merge
// into the source table leaves its bytes as they are (it overwrote them
// with the placeholder text), and replacing the table is refused.
func TestBinaryColumnsNotLoaded(t *testing.T) {
	for _, target := range []struct {
		engine                 sqlsheet.Engine
		binType, setBin, hexOf string
	}{
		{sqlsheet.EngineSQLite, "BLOB", `x'00ff'`, "CASE WHEN bin IS NULL THEN NULL ELSE hex(bin) END"},
		{sqlsheet.EnginePostgres, "bytea", `'\x00ff'::bytea`, "encode(bin, 'hex')"},
		{sqlsheet.EngineMySQL, "LONGBLOB", `x'00ff'`, "hex(bin)"},
	} {
		t.Run(target.engine.String(), func(t *testing.T) {
			db := openEngine(t, target.engine)
			mustExec(t, db, `DROP TABLE IF EXISTS src`, `DROP TABLE IF EXISTS dst`,
				`CREATE TABLE src (id integer PRIMARY KEY, note varchar(20), bin `+target.binType+`)`,
				`INSERT INTO src VALUES (1, 'a', NULL), (2, 'b', NULL)`)
			mustExec(t, db, `UPDATE src SET bin = `+target.setBin+` WHERE id = 1`)
			ctx := context.Background()
			for _, mode := range []sqlsheet.BinaryMode{sqlsheet.BinaryPlaceholder, sqlsheet.BinaryHex, sqlsheet.BinaryBase64} {
				wb, _ := writeBook(t, func(w *xlsx.Writer) error {
					_, err := sqlsheet.Export(ctx, db, w, []sqlsheet.Query{{SQL: "SELECT * FROM src", Sheet: "src", Table: "src"}}, sqlsheet.Options{Binary: mode})
					return err
				})
				db.Exec(`DROP TABLE IF EXISTS dst`)
				st, err := sqlsheet.Import(ctx, db, wb, 0, sqlsheet.ImportOptions{Table: "dst"})
				if err != nil || !slices.Equal(st.Binary, []string{"bin"}) {
					t.Fatalf("binary mode %d, new table: %+v, %v", mode, st.Binary, err)
				}
				if got := queryRows(t, db, `SELECT id, note, bin IS NULL FROM dst ORDER BY id`); len(got) != 2 || !strings.HasSuffix(got[0], "|1") && !strings.HasSuffix(got[0], "|true") {
					t.Errorf("binary mode %d, new table rows %q: bin should be NULL", mode, got)
				}
				st, err = sqlsheet.Import(ctx, db, wb, 0, sqlsheet.ImportOptions{Table: "src", Mode: sqlsheet.Merge})
				if err != nil || st.Unchanged != 2 || !slices.Equal(st.Binary, []string{"bin"}) {
					t.Errorf("binary mode %d, merge back: %+v, %v", mode, st, err)
				}
				// Replacing the table would put NULL in place of its bytes.
				if _, err := sqlsheet.Import(ctx, db, wb, 0, sqlsheet.ImportOptions{Table: "src", Mode: sqlsheet.Replace}); err == nil || !strings.Contains(err.Error(), `column "bin" holds binary data`) {
					t.Errorf("binary mode %d, replace: %v", mode, err)
				}
				if got := queryRows(t, db, `SELECT id, `+target.hexOf+` FROM src ORDER BY id`); !slices.Equal(got, []string{"1|00ff", "2|NULL"}) && !slices.Equal(got, []string{"1|00FF", "2|NULL"}) {
					t.Errorf("binary mode %d, the source's bytes after the merge and replace: %q", mode, got)
				}
			}
		})
	}
}

// TestCutTextNotMergedBack: a text longer than a cell holds is exported
// cut, and the schema part says so; merged (or appended, or replaced)
// back, the cut text is an error naming its cell, or a row MaxErrors
// rejects, never a value that cuts the table's. A new table may take it.
func TestCutTextNotMergedBack(t *testing.T) {
	db := openDB(t, "sqlite:"+filepath.Join(t.TempDir(), "cut.db"))
	long := strings.Repeat("é", xlsx.MaxCellChars+10)
	if _, err := db.Exec(`CREATE TABLE src (id INTEGER PRIMARY KEY, body TEXT)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO src VALUES (1, ?), (2, 'short')`, long); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var exported sqlsheet.Stats
	wb, _ := writeBook(t, func(w *xlsx.Writer) error {
		var err error
		exported, err = sqlsheet.Export(ctx, db, w, []sqlsheet.Query{{SQL: "SELECT * FROM src", Sheet: "src", Table: "src"}}, sqlsheet.Options{})
		return err
	})
	if exported.Warnings.Truncated != 1 {
		t.Fatalf("export: %+v", exported.Warnings)
	}
	for _, mode := range []sqlsheet.ImportMode{sqlsheet.Merge, sqlsheet.Append, sqlsheet.Replace} {
		_, err := sqlsheet.Import(ctx, db, wb, 0, sqlsheet.ImportOptions{Table: "src", Mode: mode})
		var ie *sqlsheet.ImportError
		if !errors.As(err, &ie) || ie.Row != 2 || ie.Col != 2 || !errors.Is(err, sqlsheet.ErrBadCell) || !strings.Contains(err.Error(), "export cut") {
			t.Errorf("mode %v: %v", mode, err)
		}
	}
	st, err := sqlsheet.Import(ctx, db, wb, 0, sqlsheet.ImportOptions{Table: "src", Mode: sqlsheet.Merge, MaxErrors: 1})
	if err != nil || st.Rejected != 1 || st.Unchanged != 1 {
		t.Errorf("merge under MaxErrors: %+v, %v", st, err)
	}
	var n int
	if err := db.QueryRow(`SELECT length(body) FROM src WHERE id = 1`).Scan(&n); err != nil || n != len([]rune(long)) {
		t.Errorf("the table's text after the imports: %d characters, %v", n, err)
	}
	if _, err := sqlsheet.Import(ctx, db, wb, 0, sqlsheet.ImportOptions{Table: "copy"}); err != nil {
		t.Errorf("into a new table: %v", err)
	}
}

// TestMergeBackPostgresTypes exports a table of PostgreSQL types
// sqlsheet has no kind for, merges the file back and loads it into a new
// table: xml, json and point have no = operator (the merge compared
// them with one and failed), POINT and INT4RANGE were read as integers
// (SQLite's affinity rules), and an interval came back as its days in a
// text column.
func TestMergeBackPostgresTypes(t *testing.T) {
	db := openDB(t, postgresURL(t))
	mustExec(t, db, `DROP TABLE IF EXISTS odd`, `DROP TABLE IF EXISTS odd2`,
		`CREATE TABLE odd (id integer PRIMARY KEY, iv interval, x xml, j json, p point, r int4range, n text)`,
		`INSERT INTO odd VALUES
			(1, '1 day 02:03:04.5', '<a>b</a>', '{"k": [1, 2]}', '(1,2)', '[1,5)', 'x'),
			(2, '-00:00:01.25', NULL, '[]', NULL, 'empty', NULL),
			(3, '1 mon 2 days', NULL, NULL, '(-0.5,3)', NULL, 'y')`)
	ctx := context.Background()
	wb, _ := writeBook(t, func(w *xlsx.Writer) error {
		_, err := sqlsheet.Export(ctx, db, w, []sqlsheet.Query{{SQL: "SELECT * FROM odd", Sheet: "odd", Table: "odd"}}, sqlsheet.Options{})
		return err
	})
	st, err := sqlsheet.Import(ctx, db, wb, 0, sqlsheet.ImportOptions{Table: "odd", Mode: sqlsheet.Merge})
	if err != nil || st.Unchanged != 3 {
		t.Errorf("merge back: %+v, %v", st, err)
	}
	if _, err := sqlsheet.Import(ctx, db, wb, 0, sqlsheet.ImportOptions{Table: "odd2"}); err != nil {
		t.Fatal(err)
	}
	var ivType string
	if err := db.QueryRow(`SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'odd2'::regclass AND attname = 'iv'`).Scan(&ivType); err != nil || ivType != "interval" {
		t.Errorf("the new table's interval column: %q, %v", ivType, err)
	}
	same := `SELECT count(*) FROM odd a JOIN odd2 b USING (id) WHERE a.iv = b.iv AND a.x::text IS NOT DISTINCT FROM b.x::text
		AND a.j::text IS NOT DISTINCT FROM b.j::text AND a.p::text IS NOT DISTINCT FROM b.p::text
		AND a.r::text IS NOT DISTINCT FROM b.r::text AND a.n IS NOT DISTINCT FROM b.n`
	var n int
	if err := db.QueryRow(same).Scan(&n); err != nil || n != 3 {
		t.Errorf("rows the new table has as they were: %d of 3, %v", n, err)
	}
}
