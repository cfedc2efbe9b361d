package sqlsheet

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	_ "github.com/go-sql-driver/mysql" // mysql:// and mariadb://
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/stdlib"
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

// SQLitePath is the file a sqlite: (or file:) database URL names, or ""
// for another engine, an in-memory database or a URL that does not parse.
// Open creates that file when it does not exist; a command that must not
// create one (a dry run, an append) asks first.
func SQLitePath(url string) string {
	u, err := dburl.Parse(url)
	if err != nil || u.Driver != "sqlite3" {
		return ""
	}
	path, _, _ := strings.Cut(u.DSN, "?")
	if strings.Contains(path, ":memory:") {
		return ""
	}
	return path
}

// open opens url; its errors never show the URL's password.
func open(url string, readOnly bool) (*sql.DB, error) {
	db, err := openURL(url, readOnly)
	return db, RedactError(err, url)
}

func openURL(url string, readOnly bool) (*sql.DB, error) {
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
		d := &sqliteDriver{dsn: dsn, readOnly: readOnly}
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
		dsn = withDefault(dsn, "default_query_exec_mode", "exec")
		// A server that does not answer fails the connection instead of
		// holding an export (and a service slot) indefinitely.
		dsn = withDefault(dsn, "connect_timeout", "10")
		cfg, err := pgx.ParseConfig(dsn)
		if err != nil {
			return nil, err
		}
		// A cancelled query (a preview that has its rows, a client that
		// went away) is cancelled on the server too, instead of the
		// connection being dropped while the server works on.
		cfg.BuildContextWatcherHandler = func(pc *pgconn.PgConn) ctxwatch.Handler {
			return &pgconn.CancelRequestContextWatcherHandler{Conn: pc, DeadlineDelay: 2 * time.Second}
		}
		return stdlib.OpenDB(*cfg), nil
	case "mysql":
		dsn = withDefault(dsn, "timeout", "10s")
	default:
		return nil, fmt.Errorf("database URL: unsupported database %q (use sqlite:, postgres:// or mysql://)", u.Scheme)
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, err
	}
	return db, nil
}

// withDefault adds param=value to a DSN, URL or key/value form, unless
// the DSN sets param itself.
func withDefault(dsn, param, value string) string {
	if strings.Contains(dsn, param+"=") {
		return dsn
	}
	if !strings.Contains(dsn, "://") && strings.Contains(dsn, "=") && !strings.Contains(dsn, "?") && !strings.Contains(dsn, "@") {
		return dsn + " " + param + "=" + value // key/value DSN
	}
	if strings.Contains(dsn, "?") {
		return dsn + "&" + param + "=" + value
	}
	return dsn + "?" + param + "=" + value
}
