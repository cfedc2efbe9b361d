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
		{pyread.Str("id"), pyread.Str("small"), pyread.Str("big"), pyread.Str("amount"), pyread.Str("precise"), pyread.Str("f"), pyread.Str("day"), pyread.Str("at"), pyread.Str("clock"), pyread.Str("raw"),
			pyread.Str("doc"), pyread.Str("name"), pyread.Str("body"), pyread.Str("kind"), pyread.Str("yr")},
		{pyread.Num(1), pyread.Num(-32768), pyread.Str("18446744073709551615"), pyread.Num(1234.5), pyread.Str("1234567890123456789012345.50000"), pyread.Num(0.1),
			pyread.DateTime("2024-02-29T00:00:00"), pyread.DateTime("2024-02-29T13:45:30.123000"), pyread.TimeOfDay("13:45:30"), pyread.Str("00ff"), pyread.Str(`{"a": [1, 2]}`),
			pyread.Str("Grüße"), pyread.Str("short"), pyread.Str("b"), pyread.Num(2026)},
		{pyread.Num(2), pyread.Num(7), pyread.Num(5), pyread.Num(-0.5), pyread.Num(42), pyread.Num(-1.5), pyread.DateTime("9999-12-31T00:00:00"), pyread.DateTime("1900-01-01T00:00:00"), pyread.TimeOfDay("00:00:01"),
			pyread.Str(""), pyread.Str("[]"), pyread.Str(""), pyread.Str(long[:32767*2]), pyread.Str("a"), pyread.Num(1999)},
		{pyread.Num(3)},
	})
	checkSheet(t, r, "Params", [][]*pyread.Value{{pyread.Str("next"), pyread.Str("echo")}, {pyread.Num(42), pyread.Str("hi")}})
}
