package sqlsheet

import (
	"database/sql"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/stdlib"
	"modernc.org/sqlite"
)

// Engine is the kind of database behind a *sql.DB, told by its driver.
// Exports and imports use each engine's fastest path and its SQL dialect.
type Engine uint8

// Engines sqlsheet knows.
const (
	EngineUnknown  Engine = iota // another driver: standard SQL, database/sql only
	EngineSQLite                 // modernc.org/sqlite
	EnginePostgres               // pgx's database/sql driver
	EngineMySQL                  // go-sql-driver/mysql, for MySQL and MariaDB
)

// EngineOf tells which engine db talks to.
func EngineOf(db *sql.DB) Engine {
	switch db.Driver().(type) {
	case *sqliteDriver, *sqlite.Driver:
		return EngineSQLite
	case *stdlib.Driver:
		return EnginePostgres
	case *mysql.MySQLDriver, mysql.MySQLDriver:
		return EngineMySQL
	}
	return EngineUnknown
}

// String is the engine's name as database URLs spell it: "sqlite",
// "postgres", "mysql"; "unknown" for another driver.
func (e Engine) String() string {
	return [...]string{"unknown", "sqlite", "postgres", "mysql"}[e]
}

// quote quotes an identifier.
func (e Engine) quote(name string) string {
	if e == EngineMySQL {
		return "`" + strings.ReplaceAll(name, "`", "``") + "`"
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// columnTypes are the SQL types Import creates columns with, by
// ColumnType. Another engine gets SQLite's, which are standard SQL.
var columnTypes = [...][]string{
	EngineUnknown:  {"TEXT", "INTEGER", "REAL", "BOOLEAN", "DATE", "DATETIME", "TIME", "NUMERIC", "TIMESTAMP"},
	EngineSQLite:   {"TEXT", "INTEGER", "REAL", "BOOLEAN", "DATE", "DATETIME", "TIME", "NUMERIC", "TIMESTAMP"},
	EnginePostgres: {"text", "bigint", "double precision", "boolean", "date", "timestamp", "time", "numeric", "timestamptz"},
	// MEDIUMTEXT: Excel's 32,767 characters can exceed TEXT's 64 KiB.
	// MySQL has no instants: timestamptz is the UTC wall clock.
	EngineMySQL: {"MEDIUMTEXT", "BIGINT", "DOUBLE", "BOOLEAN", "DATE", "DATETIME(3)", "TIME(3)", "DECIMAL(65,30)", "DATETIME(6)"},
}

func (e Engine) sqlType(t ColumnType) string {
	if t == columnEmpty {
		t = ColumnText
	}
	return columnTypes[e][t]
}
