package sqlsheet

import (
	"database/sql"
	"strings"
	"unicode"
	"unicode/utf8"

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

// quoteTable quotes a table's name, each part of a dotted one: with
// "analytics.sales" PostgreSQL's schema analytics, MySQL's database
// analytics, as exports read it.
func (e Engine) quoteTable(name string) string { return quoteDotted(e, name) }

// maxNameBytes and maxNameChars are the longest column names PostgreSQL
// (NAMEDATALEN-1 bytes; it cuts longer ones silently) and MySQL (64
// characters; it refuses longer ones) take.
const (
	maxNameBytes = 63
	maxNameChars = 64
)

// fitName makes name, with suffix after it, a column name the engine
// takes: the name is cut (between characters) so that the whole fits,
// then trimmed of white space at its end, and, for MySQL, which refuses
// characters beyond the Basic Multilingual Plane (emoji), each such
// character made "_". A header longer than the limit, such as
// a survey's question, would otherwise fail the CREATE TABLE on MySQL
// and be cut on PostgreSQL behind the import's back, making two long
// headers alike one column twice.
func (e Engine) fitName(name, suffix string) string {
	switch e {
	case EnginePostgres:
		for len(name)+len(suffix) > maxNameBytes {
			_, size := utf8.DecodeLastRuneInString(name)
			name = name[:len(name)-size]
		}
	case EngineMySQL:
		name = strings.Map(func(r rune) rune {
			if r > 0xFFFF {
				return '_'
			}
			return r
		}, name)
		if n := utf8.RuneCountInString(name) + utf8.RuneCountInString(suffix); n > maxNameChars {
			for range n - maxNameChars {
				_, size := utf8.DecodeLastRuneInString(name)
				name = name[:len(name)-size]
			}
		}
	}
	// A header is trimmed, so only a cut leaves white space at the end:
	// MySQL refuses it, and a sheet exported from the table would name
	// the column without it.
	return strings.TrimRightFunc(name, unicode.IsSpace) + suffix
}

// columnTypes are the SQL types Import creates columns with, by
// ColumnType. Another engine gets SQLite's, which are standard SQL.
var columnTypes = [...][]string{
	EngineUnknown:  {"TEXT", "INTEGER", "REAL", "BOOLEAN", "DATE", "DATETIME", "TIME", "NUMERIC", "TIMESTAMP"},
	EngineSQLite:   {"TEXT", "INTEGER", "REAL", "BOOLEAN", "DATE", "DATETIME", "TIME", "NUMERIC", "TIMESTAMP"},
	EnginePostgres: {"text", "bigint", "double precision", "boolean", "date", "timestamp", "time", "numeric", "timestamptz"},
	// MEDIUMTEXT: Excel's 32,767 characters can exceed TEXT's 64 KiB.
	// MySQL has no instants: timestamptz is the UTC wall clock. Times to
	// the microsecond, as delimited text may give them (a sheet's have
	// milliseconds): a shorter column would cut them without a warning.
	EngineMySQL: {"MEDIUMTEXT", "BIGINT", "DOUBLE", "BOOLEAN", "DATE", "DATETIME(6)", "TIME(6)", "DECIMAL(65,30)", "DATETIME(6)"},
}

func (e Engine) sqlType(t ColumnType) string {
	if t == columnEmpty {
		t = ColumnText
	}
	return columnTypes[e][t]
}
