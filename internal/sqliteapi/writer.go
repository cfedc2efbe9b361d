package sqliteapi

import (
	"math"
	"unsafe"

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
//
// Values are bound by writing the parameter's value cell (SQLite's Mem)
// as sqlite3_bind_int64, _double, _text and _null would leave it, without
// calling them: each call checks the statement, takes the connection's
// mutex and reserves C stack for its error message, which made binding
// an import's ten values a row cost as much as SQLite's inserting the
// row. The cell is written in place only where the call would do no more
// than that (see param); anything else goes through the call.
type Stmt struct {
	c       *Conn
	stmt    uintptr
	bufs    []cbuf // by parameter
	inPlace bool   // parameters may be written in place
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
	vdbe := (*sqlite3.TVdbe)(pointer(s.stmt))
	db := (*sqlite3.Tsqlite3)(pointer(c.db))
	// A parameter that steers the query plan (expmask) makes a bind
	// expire the statement; a database in UTF-16 makes text binds convert.
	s.inPlace = vdbe.Fexpmask == 0 && db.Fenc == sqlite3.SQLITE_UTF8
	return s, nil
}

// param is parameter i's value cell, when a bind may write it in place:
// the statement is ready to run (not stepped since its reset), i is one
// of its parameters, and the cell holds nothing SQLite must free first
// (only ever true of values this package did not bind). Otherwise nil:
// the bind goes through SQLite's call, which frees it or reports the
// misuse.
func (s *Stmt) param(i int) *sqlite3.TMem {
	if !s.inPlace {
		return nil
	}
	vdbe := (*sqlite3.TVdbe)(pointer(s.stmt))
	if vdbe.FeVdbeState != sqlite3.VDBE_READY_STATE || i < 0 || i >= int(vdbe.FnVar) {
		return nil
	}
	m := (*sqlite3.TMem)(pointer(vdbe.FaVar + uintptr(i)*unsafe.Sizeof(sqlite3.TMem{})))
	if m.Fflags&(sqlite3.MEM_Agg|sqlite3.MEM_Dyn) != 0 || m.FszMalloc != 0 {
		return nil
	}
	return m
}

// pointer is the C memory at p.
func pointer(p uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&p)) }

// BindNull binds NULL to parameter i (0-based).
func (s *Stmt) BindNull(i int) error {
	if m := s.param(i); m != nil {
		m.Fflags = sqlite3.MEM_Null
		return nil
	}
	return s.check(sqlite3.Xsqlite3_bind_null(s.c.tls, s.stmt, int32(i+1)))
}

// BindInt64 binds an integer to parameter i (0-based).
func (s *Stmt) BindInt64(i int, v int64) error {
	if m := s.param(i); m != nil {
		*(*int64)(unsafe.Pointer(&m.Fu)) = v
		m.Fflags = sqlite3.MEM_Int
		return nil
	}
	return s.check(sqlite3.Xsqlite3_bind_int64(s.c.tls, s.stmt, int32(i+1), v))
}

// BindFloat64 binds a double to parameter i (0-based); NaN binds NULL, as
// SQLite's call does.
func (s *Stmt) BindFloat64(i int, v float64) error {
	if m := s.param(i); m != nil {
		if math.IsNaN(v) {
			m.Fflags = sqlite3.MEM_Null
			return nil
		}
		m.Fu.Fr = v
		m.Fflags = sqlite3.MEM_Real
		return nil
	}
	return s.check(sqlite3.Xsqlite3_bind_double(s.c.tls, s.stmt, int32(i+1), v))
}

// BindText binds UTF-8 text to parameter i (0-based), copying it.
func (s *Stmt) BindText(i int, text []byte) error {
	if i < 0 || i >= len(s.bufs) {
		// No buffer to copy into: SQLite's call reports the index.
		return s.check(sqlite3.Xsqlite3_bind_text(s.c.tls, s.stmt, int32(i+1), 0, 0, 0))
	}
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
	if m := s.param(i); m != nil {
		// Text longer than SQLite's length limit is refused when the
		// statement runs (SQLITE_TOOBIG), as a bound one is.
		m.Fz, m.Fn = b.p, int32(len(text))
		m.Fflags = sqlite3.MEM_Str | sqlite3.MEM_Static
		m.Fenc = sqlite3.SQLITE_UTF8
		m.FxDel = 0
		return nil
	}
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
