package sqlsheet

import (
	"errors"
	"fmt"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sheetstream/sheetstream/internal/sqliteapi"
)

// TestRefusedByTable: only a constraint's refusal lets MaxErrors reject
// a row; a failure of the database (a full disk) fails the import.
func TestRefusedByTable(t *testing.T) {
	for err, want := range map[error]bool{
		&pgconn.PgError{Code: "23505"}:                                              true,  // unique_violation
		&pgconn.PgError{Code: "23514"}:                                              true,  // check_violation
		&pgconn.PgError{Code: "53100"}:                                              false, // disk_full
		&pgconn.PgError{Code: "57014"}:                                              false, // query_canceled
		&mysql.MySQLError{Number: 1062, SQLState: [5]byte{'2', '3', '0', '0', '0'}}: true,  // duplicate entry
		&mysql.MySQLError{Number: 3819, SQLState: [5]byte{'H', 'Y', '0', '0', '0'}}: true,  // MySQL's CHECK
		&mysql.MySQLError{Number: 1114, SQLState: [5]byte{'H', 'Y', '0', '0', '0'}}: false, // the table is full
		&sqliteapi.Error{Code: 19}:                                                  true,  // SQLITE_CONSTRAINT
		&sqliteapi.Error{Code: 2067}:                                                true,  // SQLITE_CONSTRAINT_UNIQUE
		&sqliteapi.Error{Code: 13}:                                                  false, // SQLITE_FULL
		errors.New("connection reset"):                                              false,
	} {
		if got := refusedByTable(fmt.Errorf("wrapped: %w", err)); got != want {
			t.Errorf("%v: refused %v, want %v", err, got, want)
		}
	}
}
