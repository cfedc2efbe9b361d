package sqliteapi

import (
	"modernc.org/libc"
	"modernc.org/libc/sys/types"
	sqlite3 "modernc.org/sqlite/lib"
)

// OpenReadWrite opens the database file at path for reading and writing,
// creating it if it does not exist, and runs pragmas on the connection.
func OpenReadWrite(path, pragmas string) (*Conn, error) {
	return openConn(path, pragmas, sqlite3.SQLITE_OPEN_READWRITE|sqlite3.SQLITE_OPEN_CREATE)
}

// Exec runs SQL statements that return no rows, such as BEGIN, CREATE
// TABLE and COMMIT.
func (c *Conn) Exec(query string) error {
	text, err := libc.CString(query)
	if err != nil {
		return err
	}
	defer libc.Xfree(c.tls, text)
	if rc := sqlite3.Xsqlite3_exec(c.tls, c.db, text, 0, 0, 0); rc != sqlite3.SQLITE_OK {
		return c.error(rc)
	}
	return nil
}

// Stmt is a prepared statement run once per row of bound values, such as
// an INSERT. Text is copied into a buffer of each parameter's own, which
// SQLite reads in place (SQLITE_STATIC) until the next bind: no value
// costs an allocation, in Go or in C.
type Stmt struct {
	c    *Conn
	stmt uintptr
	bufs []cbuf // by parameter
}

// cbuf is C memory a parameter's text is copied into.
type cbuf struct {
	p   uintptr
	cap int
}

// Prepare prepares one statement with positional parameters.
func (c *Conn) Prepare(query string) (*Stmt, error) {
	text, err := libc.CString(query)
	if err != nil {
		return nil, err
	}
	defer libc.Xfree(c.tls, text)
	if rc := sqlite3.Xsqlite3_prepare_v2(c.tls, c.db, text, -1, c.out, 0); rc != sqlite3.SQLITE_OK {
		return nil, c.error(rc)
	}
	s := &Stmt{c: c, stmt: readPointer(c.out)}
	if s.stmt == 0 {
		return nil, ErrUnsupported // no statement in query
	}
	s.bufs = make([]cbuf, sqlite3.Xsqlite3_bind_parameter_count(c.tls, s.stmt))
	return s, nil
}

// BindNull binds NULL to parameter i (0-based).
func (s *Stmt) BindNull(i int) error {
	return s.check(sqlite3.Xsqlite3_bind_null(s.c.tls, s.stmt, int32(i+1)))
}

// BindInt64 binds an integer to parameter i (0-based).
func (s *Stmt) BindInt64(i int, v int64) error {
	return s.check(sqlite3.Xsqlite3_bind_int64(s.c.tls, s.stmt, int32(i+1), v))
}

// BindFloat64 binds a double to parameter i (0-based).
func (s *Stmt) BindFloat64(i int, v float64) error {
	return s.check(sqlite3.Xsqlite3_bind_double(s.c.tls, s.stmt, int32(i+1), v))
}

// BindText binds UTF-8 text to parameter i (0-based), copying it.
func (s *Stmt) BindText(i int, text []byte) error {
	b := &s.bufs[i]
	if len(text)+1 > b.cap {
		n := max(len(text)+1, 2*b.cap, 64)
		p := libc.Xrealloc(s.c.tls, b.p, types.Size_t(n))
		if p == 0 {
			return errNoMemory
		}
		b.p, b.cap = p, n
	}
	copy(cmem(b.p, len(text)+1), text) // never 0 bytes: a NULL pointer binds NULL
	return s.check(sqlite3.Xsqlite3_bind_text(s.c.tls, s.stmt, int32(i+1), b.p, int32(len(text)), 0))
}

// Exec runs the statement with the values bound and resets it for the
// next row (the bindings stay until rebound).
func (s *Stmt) Exec() error {
	rc := sqlite3.Xsqlite3_step(s.c.tls, s.stmt)
	var err error
	if rc != sqlite3.SQLITE_DONE && rc != sqlite3.SQLITE_ROW {
		err = s.c.error(rc)
	}
	sqlite3.Xsqlite3_reset(s.c.tls, s.stmt)
	return err
}

func (s *Stmt) check(rc int32) error {
	if rc != sqlite3.SQLITE_OK {
		return s.c.error(rc)
	}
	return nil
}

// Close finalizes the statement and frees its buffers.
func (s *Stmt) Close() {
	sqlite3.Xsqlite3_finalize(s.c.tls, s.stmt)
	for _, b := range s.bufs {
		if b.p != 0 {
			libc.Xfree(s.c.tls, b.p)
		}
	}
	s.bufs = nil
}
