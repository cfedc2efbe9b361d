// Package sqliteapi reads a SQLite database, and loads rows into one,
// through SQLite's own API, as modernc.org/sqlite translates the C
// library to Go, instead of through database/sql.
//
// Two costs of database/sql go away: every value its driver interface
// hands over is boxed into an interface or copied into a new string, and
// a connection opened for it is serialized by a mutex that each of the
// dozen calls per row takes twice. Here values are read in place, on a
// read-only connection that one goroutine at a time uses
// (SQLITE_OPEN_NOMUTEX). Reading benchmark E1's million rows takes 0.34 s
// this way and 1.5 s through database/sql.
//
// Only what this package is for is here: one read-only statement at a
// time, positional arguments of database/sql's basic types, values read
// by storage class; and for loading, a read-write connection that runs
// SQL and one prepared statement stepped once per row with values bound
// by type (writer.go). Anything else is refused with ErrUnsupported, and
// the caller runs it through database/sql instead.
package sqliteapi

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"modernc.org/libc"
	"modernc.org/libc/sys/types"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrUnsupported is returned by Query for a statement this package leaves
// to database/sql.
var ErrUnsupported = errors.New("sqliteapi: statement left to database/sql")

var errNoMemory = errors.New("sqlite: out of memory")

// ErrNotReadOnly is returned by Query and Check on a connection that
// DenyChanges restricted, for SQL that is not one read-only query.
var ErrNotReadOnly = errors.New("not one read-only query (SELECT, WITH or VALUES)")

// DenyChanges restricts c to reading, for SQL it runs on others' behalf
// (a service's configured exports): Query and Check take one statement
// that starts with SELECT, WITH or VALUES and that SQLite says only reads,
// and refuse anything else with ErrNotReadOnly instead of leaving it to
// database/sql; and an authorizer denies, while a statement is prepared,
// every action but reading tables, calling functions and recursing:
// ATTACH, DETACH, PRAGMA with a value, transactions and savepoints, and
// creating, changing or dropping anything, temporary objects included.
// The connection is read-only already; this keeps it from changing its
// own state (query_only, attached files, temporary views) or writing
// other files (VACUUM INTO).
func (c *Conn) DenyChanges() error {
	if rc := sqlite3.Xsqlite3_set_authorizer(c.tls, c.db, readOnlyAuthorizerPtr, 0); rc != sqlite3.SQLITE_OK {
		return c.error(rc)
	}
	c.strict = true
	return nil
}

// readOnlyAuthorizer is the authorizer DenyChanges installs: SQLite's
// callback, translated to Go (its C signature; a function declaration,
// not a closure, so that its pointer can be handed to the C code).
func readOnlyAuthorizer(_ *libc.TLS, _ uintptr, action int32, _, arg2, _, _ uintptr) int32 {
	switch action {
	case sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE:
		return sqlite3.SQLITE_OK
	case sqlite3.SQLITE_PRAGMA:
		if arg2 == 0 {
			return sqlite3.SQLITE_OK // reading a pragma; with a value it sets one
		}
	}
	return sqlite3.SQLITE_DENY
}

// readOnlyAuthorizerPtr is readOnlyAuthorizer as the C code calls it: a
// Go func value is a pointer to a word holding the code pointer (the
// representation of golang.org/s/go11func, which modernc.org/libc relies
// on for every callback it translates).
var readOnlyAuthorizerPtr = *(*uintptr)(unsafe.Pointer(&struct {
	f func(*libc.TLS, uintptr, int32, uintptr, uintptr, uintptr, uintptr) int32
}{readOnlyAuthorizer}))

// firstKeyword is the first word of query, past white space and
// comments, in upper case.
func firstKeyword(query string) string {
	query = skipBlank(query, false)
	end := strings.IndexFunc(query, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	})
	if end < 0 {
		end = len(query)
	}
	return strings.ToUpper(query[:end])
}

// skipBlank skips white space and comments (and semicolons, with
// semicolons) at the start of query; an unterminated comment is skipped
// whole.
func skipBlank(query string, semicolons bool) string {
	for {
		query = strings.TrimLeft(query, " \t\r\n\f")
		switch {
		case semicolons && strings.HasPrefix(query, ";"):
			query = query[1:]
		case strings.HasPrefix(query, "--"):
			i := strings.IndexByte(query, '\n')
			if i < 0 {
				return ""
			}
			query = query[i+1:]
		case strings.HasPrefix(query, "/*"):
			i := strings.Index(query[2:], "*/")
			if i < 0 {
				return ""
			}
			query = query[2+i+2:]
		default:
			return query
		}
	}
}

// Check prepares query as Query would, without running it, and reports
// why Query would refuse it: on a connection DenyChanges restricted,
// ErrNotReadOnly naming the reason, or SQLite's error preparing it.
func (c *Conn) Check(query string) error {
	stmt, err := c.prepare(query)
	if stmt != 0 {
		sqlite3.Xsqlite3_finalize(c.tls, stmt)
	}
	return err
}

// Conn is a read-only connection, for one goroutine at a time (Interrupt
// excepted).
type Conn struct {
	tls *libc.TLS
	db  uintptr
	out uintptr // room for a pointer a C function returns through

	mu     sync.Mutex // guards db against an interrupt while it closes
	closed bool

	strict bool // DenyChanges: one read-only query at a time, or an error
}

// OpenReadOnly opens the database file at path read-only and runs
// pragmas (SQL, may be empty) on the connection. It waits up to 5 s for a
// writer's lock, as database/sql connections opened by sqlsheet do.
func OpenReadOnly(path, pragmas string) (*Conn, error) {
	return openConn(path, pragmas, sqlite3.SQLITE_OPEN_READONLY)
}

func openConn(path, pragmas string, mode int32) (_ *Conn, err error) {
	c := &Conn{tls: libc.NewTLS()}
	defer func() {
		if err != nil {
			c.Close()
		}
	}()
	if c.out = libc.Xmalloc(c.tls, ptrSize); c.out == 0 {
		return nil, errNoMemory
	}
	name, err := libc.CString("file:" + path)
	if err != nil {
		return nil, err
	}
	defer libc.Xfree(c.tls, name)
	rc := sqlite3.Xsqlite3_open_v2(c.tls, name, c.out,
		mode|sqlite3.SQLITE_OPEN_NOMUTEX|sqlite3.SQLITE_OPEN_URI, 0)
	c.db = readPointer(c.out)
	if rc != sqlite3.SQLITE_OK {
		return nil, c.error(rc)
	}
	sqlite3.Xsqlite3_busy_timeout(c.tls, c.db, 5000)
	if pragmas != "" {
		text, err := libc.CString(pragmas)
		if err != nil {
			return nil, err
		}
		defer libc.Xfree(c.tls, text)
		if rc := sqlite3.Xsqlite3_exec(c.tls, c.db, text, 0, 0, 0); rc != sqlite3.SQLITE_OK {
			return nil, c.error(rc)
		}
	}
	return c, nil
}

const ptrSize = types.Size_t(unsafe.Sizeof(uintptr(0)))

// readPointer reads the pointer a C function stored at p.
func readPointer(p uintptr) uintptr {
	return *(*uintptr)(unsafe.Pointer(unsafe.SliceData(cmem(p, int(ptrSize)))))
}

// Error is a failure SQLite reported: its message and result code.
type Error struct {
	Msg  string
	Code int32 // SQLITE_CONSTRAINT and the others, maybe extended
}

func (e *Error) Error() string {
	if e.Msg == "" {
		return fmt.Sprintf("sqlite: error %d", e.Code)
	}
	return fmt.Sprintf("%s (%d)", e.Msg, e.Code)
}

// Constraint says whether a statement broke a constraint of the table
// (a key, CHECK, NOT NULL, a foreign key): the row's fault, not the
// database's.
func (e *Error) Constraint() bool { return e.Code&0xff == sqlite3.SQLITE_CONSTRAINT }

func (c *Conn) error(rc int32) error {
	e := &Error{Code: rc}
	if c.db != 0 {
		e.Msg = libc.GoString(sqlite3.Xsqlite3_errmsg(c.tls, c.db))
	}
	return e
}

// Close closes the connection. Statements still open are finalized by
// SQLite when they are.
func (c *Conn) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.mu.Unlock()
	if c.db != 0 {
		sqlite3.Xsqlite3_close_v2(c.tls, c.db)
	}
	if c.out != 0 {
		libc.Xfree(c.tls, c.out)
	}
	c.tls.Close()
}

// Interrupt stops the statement running on c. It is safe to call from
// any goroutine, also after Close.
func (c *Conn) Interrupt() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed && c.db != 0 {
		tls := libc.NewTLS()
		sqlite3.Xsqlite3_interrupt(tls, c.db)
		tls.Close()
	}
}

// Query prepares query and binds args to its positional parameters;
// cancelling ctx interrupts the statement. It returns ErrUnsupported for
// what it leaves to database/sql: statements that write (the connection
// may not), several statements (modernc's driver runs them in its own
// way), named or numbered parameters, and arguments other than those
// database/sql passes to a driver as they are (time values included:
// their text form is the driver's choice). Errors preparing the statement
// are SQLite's.
//
// On a connection DenyChanges restricted, nothing is left to database/sql:
// SQL that is not one read-only query is ErrNotReadOnly, and arguments it
// cannot bind an error saying so.
func (c *Conn) Query(ctx context.Context, query string, args []any) (*Rows, error) {
	stmt, err := c.prepare(query)
	if err == nil && !c.bind(stmt, args) {
		err = ErrUnsupported
		if c.strict {
			err = fmt.Errorf("sqlite: the %d arguments do not fit the query's parameters, or one is of a type this connection does not bind", len(args))
		}
	}
	if err != nil {
		if stmt != 0 {
			sqlite3.Xsqlite3_finalize(c.tls, stmt)
		}
		return nil, err
	}
	r := &Rows{c: c, ctx: ctx, stmt: stmt, n: int(sqlite3.Xsqlite3_column_count(c.tls, stmt))}
	r.stop = context.AfterFunc(ctx, c.Interrupt)
	return r, nil
}

// prepare prepares query's one statement, or says why Query leaves it
// alone: ErrUnsupported (ErrNotReadOnly on a strict connection) for what
// is not one read-only statement, SQLite's error for what does not
// prepare. The caller finalizes a statement returned with an error.
func (c *Conn) prepare(query string) (stmt uintptr, err error) {
	if c.strict {
		switch kw := firstKeyword(query); kw {
		case "SELECT", "WITH", "VALUES":
		default:
			return 0, fmt.Errorf("%w: it starts with %q", ErrNotReadOnly, kw)
		}
	}
	text, err := libc.CString(query)
	if err != nil {
		return 0, err
	}
	defer libc.Xfree(c.tls, text)
	tail := libc.Xmalloc(c.tls, ptrSize)
	if tail == 0 {
		return 0, errNoMemory
	}
	defer libc.Xfree(c.tls, tail)
	if rc := sqlite3.Xsqlite3_prepare_v2(c.tls, c.db, text, -1, c.out, tail); rc != sqlite3.SQLITE_OK {
		if c.strict && rc == sqlite3.SQLITE_AUTH {
			return 0, fmt.Errorf("%w: it does more than read (%v)", ErrNotReadOnly, c.error(rc))
		}
		return 0, c.error(rc)
	}
	stmt = readPointer(c.out)
	// What follows the first statement; a NUL in query cuts its C copy
	// short, which leaves the rest here too.
	rest := "?"
	if off := readPointer(tail) - text; off <= uintptr(len(query)) {
		rest = query[off:]
	}
	var why string
	switch {
	case stmt == 0:
		why = "it holds no statement"
	case c.strict && skipBlank(rest, true) != "", !c.strict && strings.TrimSpace(rest) != "":
		why = "it holds more than one statement"
	case sqlite3.Xsqlite3_stmt_readonly(c.tls, stmt) == 0:
		why = "it writes"
	default:
		return stmt, nil
	}
	if c.strict {
		return stmt, fmt.Errorf("%w: %s", ErrNotReadOnly, why)
	}
	return stmt, ErrUnsupported
}

// transient tells SQLite to copy a bound value before the call returns.
const transient = ^uintptr(0)

// bind binds args to stmt's positional parameters, or reports that it
// cannot.
func (c *Conn) bind(stmt uintptr, args []any) bool {
	if int(sqlite3.Xsqlite3_bind_parameter_count(c.tls, stmt)) != len(args) {
		return false
	}
	for j, a := range args {
		i := int32(j + 1)
		if sqlite3.Xsqlite3_bind_parameter_name(c.tls, stmt, i) != 0 {
			return false // ?NNN, :name, @name or $name
		}
		v, err := driver.DefaultParameterConverter.ConvertValue(a)
		if err != nil {
			return false
		}
		rc := int32(sqlite3.SQLITE_OK)
		switch x := v.(type) {
		case nil:
			rc = sqlite3.Xsqlite3_bind_null(c.tls, stmt, i)
		case int64:
			rc = sqlite3.Xsqlite3_bind_int64(c.tls, stmt, i, x)
		case float64:
			rc = sqlite3.Xsqlite3_bind_double(c.tls, stmt, i, x)
		case bool:
			var n int64
			if x {
				n = 1
			}
			rc = sqlite3.Xsqlite3_bind_int64(c.tls, stmt, i, n)
		case string:
			rc = c.bindBytes(stmt, i, []byte(x), sqlite3.Xsqlite3_bind_text)
		case []byte:
			rc = c.bindBytes(stmt, i, x, sqlite3.Xsqlite3_bind_blob)
		default:
			return false
		}
		if rc != sqlite3.SQLITE_OK {
			return false
		}
	}
	return true
}

// bindBytes binds text or a blob through a C copy, which SQLite copies
// again (transient), so that it can be freed at once.
func (c *Conn) bindBytes(stmt uintptr, i int32, b []byte,
	bind func(*libc.TLS, uintptr, int32, uintptr, int32, uintptr) int32) int32 {
	p := libc.Xmalloc(c.tls, types.Size_t(len(b)+1)) // never 0 bytes: a NULL pointer binds NULL
	if p == 0 {
		return sqlite3.SQLITE_NOMEM
	}
	defer libc.Xfree(c.tls, p)
	copy(cmem(p, len(b)+1), b)
	return bind(c.tls, stmt, i, p, int32(len(b)), transient)
}

// Rows is a running statement.
type Rows struct {
	c    *Conn
	ctx  context.Context
	stmt uintptr
	n    int
	err  error
	stop func() bool
}

// Column is a result column: its name, and its declared type ("" for an
// expression).
type Column struct {
	Name     string
	DeclType string
}

// Columns describes the result's columns.
func (r *Rows) Columns() []Column {
	cols := make([]Column, r.n)
	for i := range cols {
		cols[i].Name = libc.GoString(sqlite3.Xsqlite3_column_name(r.c.tls, r.stmt, int32(i)))
		if p := sqlite3.Xsqlite3_column_decltype(r.c.tls, r.stmt, int32(i)); p != 0 {
			cols[i].DeclType = libc.GoString(p)
		}
	}
	return cols
}

// Next steps to the next row. It returns false at the end or on an error,
// which Err then reports (ctx's error if the statement was interrupted
// because ctx ended).
func (r *Rows) Next() bool {
	if r.err != nil {
		return false
	}
	switch rc := sqlite3.Xsqlite3_step(r.c.tls, r.stmt); rc {
	case sqlite3.SQLITE_ROW:
		return true
	case sqlite3.SQLITE_DONE:
		return false
	default:
		r.err = r.c.error(rc)
		if rc == sqlite3.SQLITE_INTERRUPT && r.ctx.Err() != nil {
			r.err = r.ctx.Err()
		}
		return false
	}
}

// Err is the error that ended Next, if any.
func (r *Rows) Err() error { return r.err }

// Close finalizes the statement.
func (r *Rows) Close() error {
	r.stop()
	rc := sqlite3.Xsqlite3_finalize(r.c.tls, r.stmt)
	if rc != sqlite3.SQLITE_OK && r.err == nil && rc != sqlite3.SQLITE_INTERRUPT {
		return r.c.error(rc)
	}
	return nil
}

// Type is a value's storage class.
type Type uint8

// Storage classes.
const (
	Null Type = iota
	Integer
	Float
	Text
	Blob
)

// Type is the storage class of column i's value in the current row.
func (r *Rows) Type(i int) Type {
	switch sqlite3.Xsqlite3_column_type(r.c.tls, r.stmt, int32(i)) {
	case sqlite3.SQLITE_INTEGER:
		return Integer
	case sqlite3.SQLITE_FLOAT:
		return Float
	case sqlite3.SQLITE_TEXT:
		return Text
	case sqlite3.SQLITE_BLOB:
		return Blob
	}
	return Null
}

// Int64 is column i's value as an integer.
func (r *Rows) Int64(i int) int64 { return sqlite3.Xsqlite3_column_int64(r.c.tls, r.stmt, int32(i)) }

// Float64 is column i's value as a double.
func (r *Rows) Float64(i int) float64 {
	return sqlite3.Xsqlite3_column_double(r.c.tls, r.stmt, int32(i))
}

// Text is column i's value as UTF-8 text, in SQLite's memory: valid until
// the next call to Next or Close, never nil.
func (r *Rows) Text(i int) []byte {
	p := sqlite3.Xsqlite3_column_text(r.c.tls, r.stmt, int32(i))
	return cmem(p, int(sqlite3.Xsqlite3_column_bytes(r.c.tls, r.stmt, int32(i))))
}

// Blob is column i's value as bytes, in SQLite's memory: valid until the
// next call to Next or Close, never nil.
func (r *Rows) Blob(i int) []byte {
	p := sqlite3.Xsqlite3_column_blob(r.c.tls, r.stmt, int32(i))
	return cmem(p, int(sqlite3.Xsqlite3_column_bytes(r.c.tls, r.stmt, int32(i))))
}

// empty is where a zero-length value points: not nil, which callers may
// take for NULL.
var empty = []byte{}

// cmem views n bytes of SQLite's memory, which its allocator keeps outside
// the Go heap.
func cmem(p uintptr, n int) []byte {
	if p == 0 || n == 0 {
		return empty
	}
	return unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&p))), n)
}
