package sqlsheet_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
)

// Headers as surveys and reports have them: questions longer than a
// column name may be, alike in their first 63 bytes, a name ending in a
// space where MySQL would cut it, one name twice in other case.
var (
	longX     = strings.Repeat("é", 70) + " x" // 2-byte characters: PostgreSQL cuts bytes
	longY     = strings.Repeat("é", 70) + " y"
	spaceAt64 = strings.Repeat("a", 63) + " b"
)

// testImportHeaderNames creates a table from such a header, checks the
// names the database gave its columns are those the import reports
// (want), then appends the same text, whose header must find the same
// columns.
func testImportHeaderNames(t *testing.T, url string, want []string) {
	db, err := sqlsheet.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	text := "id," + longX + "," + longY + "," + spaceAt64 + ",Name,name\n1,2,3,4,5,6\n"
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
	if got := dump(t, db, "long_names"); !slices.Equal(got, []string{"1|2|3|4|5|6", "1|2|3|4|5|6"}) {
		t.Errorf("rows %q", got)
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
		[]string{"id", longX, longY, spaceAt64, "Name", "name_2"})
}

func TestImportHeaderNamesPostgres(t *testing.T) {
	// 63 bytes at most, cut between characters.
	testImportHeaderNames(t, postgresURL(t), []string{"id", strings.Repeat("é", 31), strings.Repeat("é", 30) + "_2",
		strings.Repeat("a", 63), "Name", "name_2"})
}

func TestImportHeaderNamesMySQL(t *testing.T) {
	// 64 characters at most, no space at the end.
	testImportHeaderNames(t, testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server"), []string{"id",
		strings.Repeat("é", 64), strings.Repeat("é", 62) + "_2", strings.Repeat("a", 63), "Name", "name_2"})
}
