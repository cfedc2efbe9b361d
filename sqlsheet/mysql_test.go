package sqlsheet_test

import (
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
)

// TestMySQL exports MySQL's types from a real MariaDB server (the test
// command starts one) and reads the workbook back with both readers.
func TestMySQL(t *testing.T) {
	url := testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server")
	pyread.Python(t)
	db, err := sqlsheet.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if e := sqlsheet.EngineOf(db); e != sqlsheet.EngineMySQL {
		t.Errorf("EngineOf = %v", e)
	}
	long := strings.Repeat("ß", 33000)
	mustExec(t, db,
		`DROP TABLE IF EXISTS types`,
		`CREATE TABLE types (id INT, small SMALLINT, big BIGINT UNSIGNED, amount DECIMAL(12,2), precise DECIMAL(30,5),
			f DOUBLE, day DATE, at DATETIME(6), clock TIME, raw BLOB, doc JSON, name VARCHAR(40), body MEDIUMTEXT,
			kind ENUM('a','b'), yr YEAR) CHARACTER SET utf8mb4`,
		`INSERT INTO types VALUES (1, -32768, 18446744073709551615, 1234.50, 1234567890123456789012345.5, 0.1,
			'2024-02-29', '2024-02-29 13:45:30.123456', '13:45:30', X'00FF', '{"a": [1, 2]}', 'Grüße', 'short', 'b', 2026)`,
		`INSERT INTO types VALUES (2, 7, 5, -0.5, 42, -1.5, '9999-12-31', '1900-01-01 00:00:00', '00:00:01', X'', '[]', '',
			'`+long+`', 'a', 1999)`,
		`INSERT INTO types (id) VALUES (3)`,
	)
	path, st := export(t, db, []sqlsheet.Query{
		{SQL: "SELECT * FROM types ORDER BY id", Sheet: "Types"},
		{SQL: "SELECT ? + 1 AS next, ? AS echo", Args: []any{41, "hi"}, Sheet: "Params"},
	}, sqlsheet.Options{Binary: sqlsheet.BinaryHex})
	if st.Rows != 4 {
		t.Errorf("rows %d", st.Rows)
	}
	if w := st.Warnings; w.BigNumbers != 2 || w.Truncated != 1 {
		t.Errorf("warnings %+v: want 2 big numbers, 1 truncated", w)
	}
	r := pyread.Read(t, path)[path]
	checkSheet(t, r, "Types", [][]*pyread.Value{
		{s("id"), s("small"), s("big"), s("amount"), s("precise"), s("f"), s("day"), s("at"), s("clock"), s("raw"),
			s("doc"), s("name"), s("body"), s("kind"), s("yr")},
		{n(1), n(-32768), s("18446744073709551615"), n(1234.5), s("1234567890123456789012345.50000"), n(0.1),
			d("2024-02-29T00:00:00"), d("2024-02-29T13:45:30.123000"), tm("13:45:30"), s("00ff"), s(`{"a": [1, 2]}`),
			s("Grüße"), s("short"), s("b"), n(2026)},
		{n(2), n(7), n(5), n(-0.5), n(42), n(-1.5), d("9999-12-31T00:00:00"), d("1900-01-01T00:00:00"), tm("00:00:01"),
			s(""), s("[]"), s(""), s(long[:32767*2]), s("a"), n(1999)},
		{n(3)},
	})
	checkSheet(t, r, "Params", [][]*pyread.Value{{s("next"), s("echo")}, {n(42), s("hi")}})
}
