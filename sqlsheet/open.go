package sqlsheet

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	_ "github.com/go-sql-driver/mysql" // mysql:// and mariadb://
	_ "github.com/jackc/pgx/v5/stdlib" // postgres://
	"github.com/xo/dburl"
)

// Open opens a database by URL: sqlite:path/to.db (or file:),
// postgres://user:pass@host/db, mysql://user:pass@host/db. SQLite is
// embedded (no server, no cgo). The URL forms are those of
// github.com/xo/dburl.
func Open(url string) (*sql.DB, error) { return open(url, false) }

// OpenReadOnly is Open for exports and a service that must never write:
// a SQLite file must exist (a mistyped path is an error, not a new empty
// database) and is opened read-only, its connections refusing writes
// (query_only). PostgreSQL and MySQL have no such connection setting; run
// their queries in read-only transactions.
func OpenReadOnly(url string) (*sql.DB, error) { return open(url, true) }

func open(url string, readOnly bool) (*sql.DB, error) {
	u, err := dburl.Parse(url)
	if err != nil {
		return nil, fmt.Errorf("database URL: %w", err)
	}
	driver, dsn := u.Driver, u.DSN
	switch driver {
	case "sqlite3":
		// dburl names mattn's cgo driver; modernc's pure-Go one takes the
		// path with its own options.
		path, _, _ := strings.Cut(dsn, "?")
		dsn = "file:" + path + "?_pragma=busy_timeout(5000)"
		d := &sqliteDriver{dsn: dsn}
		if readOnly && !strings.Contains(path, ":memory:") {
			fi, err := os.Stat(path)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return nil, fmt.Errorf("sqlite: %s: no such database file", path)
			case err != nil:
				return nil, fmt.Errorf("sqlite: %w", err)
			case !fi.Mode().IsRegular():
				return nil, fmt.Errorf("sqlite: %s: not a database file", path)
			}
			dsn += "&mode=ro"
		}
		if readOnly {
			// A service opens many connections: a 512 KiB page cache each
			// instead of SQLite's 2 MiB default.
			dsn += "&_pragma=query_only(1)&_pragma=cache_size(-512)"
			d.dsn, d.pragmas = dsn, "PRAGMA cache_size = -512"
		}
		if path != "" && !strings.Contains(path, ":memory:") {
			d.path = path // a file that exports can open again
		}
		return sql.OpenDB(d), nil
	case "pgx":
		// Each query runs once: server-side statement caching buys nothing
		// and fails ("cached plan must not change result type") when a
		// table is replaced under a cached SELECT *.
		if !strings.Contains(dsn, "default_query_exec_mode") {
			sep := "?"
			if strings.Contains(dsn, "?") {
				sep = "&"
			}
			if strings.Contains(dsn, "://") {
				dsn += sep + "default_query_exec_mode=exec"
			} else {
				dsn += " default_query_exec_mode=exec"
			}
		}
	case "mysql":
	default:
		return nil, fmt.Errorf("database URL: unsupported database %q (use sqlite:, postgres:// or mysql://)", u.Scheme)
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, err
	}
	return db, nil
}

// Kind names the database behind db, by its driver: "sqlite", "postgres",
// "mysql", or "" for a driver Open does not use.
func Kind(db *sql.DB) string {
	switch t := strings.ToLower(fmt.Sprintf("%T", db.Driver())); {
	case strings.Contains(t, "sqlite"):
		return "sqlite"
	case strings.Contains(t, "stdlib"):
		return "postgres"
	case strings.Contains(t, "mysql"):
		return "mysql"
	}
	return ""
}
