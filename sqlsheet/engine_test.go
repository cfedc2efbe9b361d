package sqlsheet_test

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"path/filepath"
	"testing"

	"github.com/sheetstream/sheetstream/sqlsheet"
)

// otherDriver is a driver sqlsheet does not know.
type otherDriver struct{}

func (otherDriver) Open(string) (driver.Conn, error) { return nil, errors.New("not a database") }

func init() { sql.Register("sqlsheet-test-other", otherDriver{}) }

func TestEngineOf(t *testing.T) {
	opened, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "e.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	direct, _ := sql.Open("sqlite", filepath.Join(t.TempDir(), "d.db")) // modernc's driver, not through Open
	defer direct.Close()
	other, _ := sql.Open("sqlsheet-test-other", "")
	defer other.Close()
	for db, want := range map[*sql.DB]string{opened: "sqlite", direct: "sqlite", other: "unknown"} {
		if got := sqlsheet.EngineOf(db); got.String() != want {
			t.Errorf("EngineOf = %v, want %s", got, want)
		}
	}
}
