package sqlsheet

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/stdlib"
)

// PostgreSQL exports bypass database/sql, which hands every value over as
// an interface (a string allocation for each text and numeric value) to
// be parsed again: pgx's own rows give the wire bytes. Integers, floats,
// booleans, dates, timestamps and bytea come in binary, which takes no
// parsing; numeric and everything else as text, which keeps every digit.

// binaryResults are the types read in PostgreSQL's binary format.
var binaryResults = pgx.QueryResultFormatsByOID{
	pgtype.Int2OID: pgx.BinaryFormatCode, pgtype.Int4OID: pgx.BinaryFormatCode, pgtype.Int8OID: pgx.BinaryFormatCode,
	pgtype.Float4OID: pgx.BinaryFormatCode, pgtype.Float8OID: pgx.BinaryFormatCode, pgtype.BoolOID: pgx.BinaryFormatCode,
	pgtype.DateOID: pgx.BinaryFormatCode, pgtype.TimestampOID: pgx.BinaryFormatCode,
	pgtype.TimestamptzOID: pgx.BinaryFormatCode, pgtype.ByteaOID: pgx.BinaryFormatCode,
}

// withPostgres runs fn with a session on one connection taken from db,
// through pgx directly.
func withPostgres(ctx context.Context, db *sql.DB, opts Options, fn func(session) error) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(driverConn any) error {
		sc, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("a PostgreSQL connection of type %T, not pgx's", driverConn)
		}
		pc := sc.Conn()
		s := &pgSession{on: pc, types: pc.TypeMap()}
		if opts.ReadOnly {
			tx, err := pc.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
			if err != nil {
				return err
			}
			// Even when ctx is cancelled, so that the connection goes
			// back to the pool idle.
			defer tx.Rollback(context.WithoutCancel(ctx))
			if opts.StatementTimeout > 0 {
				if _, err := tx.Exec(ctx, fmt.Sprintf("SET LOCAL statement_timeout = %d", opts.StatementTimeout.Milliseconds())); err != nil {
					return err
				}
			}
			s.on = tx
		}
		return fn(s)
	})
}

// pgSession runs queries on a pgx connection or transaction.
type pgSession struct {
	on interface {
		Query(context.Context, string, ...any) (pgx.Rows, error)
	}
	types *pgtype.Map
}

func (s *pgSession) query(ctx context.Context, q Query, sheet string) (result, error) {
	// Describe, then execute: the result formats depend on the column
	// types, and no statement is cached (a table replaced under a cached
	// plan would fail).
	args := append([]any{pgx.QueryExecModeDescribeExec, binaryResults}, q.Args...)
	qctx, cancel := context.WithCancel(ctx)
	rows, err := s.on.Query(qctx, q.SQL, args...)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("sheet %q: query: %w", sheet, err)
	}
	return &pgResult{pgxRows: newPgxRows(rows), infos: pgxColumns(rows, s.types), cancel: cancel}, nil
}

type pgResult struct {
	*pgxRows
	infos  []columnInfo
	cancel context.CancelFunc
}

func (r *pgResult) columns() []columnInfo { return r.infos }

// stop cancels the query: Close then reads only what the server sent
// before the cancel took effect (pgx then waits a moment, so that the
// cancel cannot reach the connection's next query).
func (r *pgResult) stop() { r.cancel() }

func (r *pgResult) end(err error) error {
	r.rows.Close()
	r.cancel()
	return err
}

func pgxColumns(rows pgx.Rows, types *pgtype.Map) []columnInfo {
	fields := rows.FieldDescriptions()
	infos := make([]columnInfo, len(fields))
	for i, f := range fields {
		infos[i] = columnInfo{name: f.Name, kind: kindText}
		if t, ok := types.TypeForOID(f.DataTypeOID); ok {
			if k, ok := kindOfName(t.Name, false); ok {
				infos[i].kind = k
			}
			infos[i].sqlType = pgTypeName(t.Name, f.TypeModifier)
		}
		// NUMERIC(p, s) carries (p << 16 | s) + 4 in its type modifier.
		if f.DataTypeOID == pgtype.NumericOID && f.TypeModifier >= 4 {
			infos[i].scale = int64((f.TypeModifier - 4) & 0xffff)
			infos[i].precision = int64((f.TypeModifier - 4) >> 16)
		}
	}
	return infos
}

// pgTypeName spells a type as PostgreSQL's format_type does, from pgx's
// name for it and the column's type modifier: numeric(12,2), character
// varying(40), timestamp with time zone, integer[].
func pgTypeName(name string, typmod int32) string {
	array := strings.HasPrefix(name, "_")
	name = strings.TrimPrefix(name, "_")
	if full, ok := map[string]string{
		"int2": "smallint", "int4": "integer", "int8": "bigint", "float4": "real", "float8": "double precision",
		"bool": "boolean", "varchar": "character varying", "bpchar": "character", "timestamptz": "timestamp with time zone",
		"timestamp": "timestamp without time zone", "timetz": "time with time zone", "time": "time without time zone",
	}[name]; ok {
		name = full
	}
	switch {
	case typmod < 0:
	case name == "numeric" && typmod >= 4:
		name += fmt.Sprintf("(%d,%d)", (typmod-4)>>16, (typmod-4)&0xffff)
	case (name == "character varying" || name == "character") && typmod >= 4:
		name += fmt.Sprintf("(%d)", typmod-4)
	}
	if array {
		name += "[]"
	}
	return name
}

type pgxRows struct {
	rows   pgx.Rows
	oids   []uint32
	binary []bool
}

func newPgxRows(rows pgx.Rows) *pgxRows {
	fields := rows.FieldDescriptions()
	s := &pgxRows{rows: rows, oids: make([]uint32, len(fields)), binary: make([]bool, len(fields))}
	for i, f := range fields {
		s.oids[i] = f.DataTypeOID
		s.binary[i] = f.Format == pgx.BinaryFormatCode
	}
	return s
}

func (s *pgxRows) Next() bool { return s.rows.Next() }
func (s *pgxRows) Err() error { return s.rows.Err() }

// pgEpoch is 2000-01-01 00:00 UTC, where PostgreSQL's dates and
// timestamps count from, in Unix seconds.
const pgEpoch = 946684800

var errWireValue = errors.New("malformed value from the server")

func (s *pgxRows) scan(cols []*column) error {
	vals := s.rows.RawValues()
	if len(vals) != len(cols) {
		return fmt.Errorf("%w: %d values for %d columns", errWireValue, len(vals), len(cols))
	}
	for j, c := range cols {
		if err := scanWire(&c.val, s.oids[j], s.binary[j], vals[j]); err != nil {
			return fmt.Errorf("column %q: %w", c.name, err)
		}
	}
	return nil
}

// Infinite dates and timestamps, which no cell holds, become text.
var (
	infinity    = []byte("infinity")
	negInfinity = []byte("-infinity")
)

// scanWire reads a value as it came off the wire: text, or the binary
// form of the types binaryResults asks for.
func scanWire(val *value, oid uint32, bin bool, v []byte) error {
	switch {
	case v == nil:
		val.tag = tagNull
		return nil
	case !bin:
		val.setText(v)
		return nil
	}
	switch oid {
	case pgtype.Int2OID, pgtype.Int4OID, pgtype.Int8OID:
		switch len(v) {
		case 2:
			val.setInt(int64(int16(binary.BigEndian.Uint16(v))))
		case 4:
			val.setInt(int64(int32(binary.BigEndian.Uint32(v))))
		case 8:
			val.setInt(int64(binary.BigEndian.Uint64(v)))
		default:
			return errWireValue
		}
	case pgtype.Float4OID, pgtype.Float8OID:
		switch len(v) {
		case 4:
			val.setFloat(float64(math.Float32frombits(binary.BigEndian.Uint32(v))))
		case 8:
			val.setFloat(math.Float64frombits(binary.BigEndian.Uint64(v)))
		default:
			return errWireValue
		}
	case pgtype.BoolOID:
		if len(v) != 1 {
			return errWireValue
		}
		val.setBool(v[0] != 0)
	case pgtype.DateOID:
		if len(v) != 4 {
			return errWireValue
		}
		switch days := int32(binary.BigEndian.Uint32(v)); days {
		case math.MaxInt32:
			val.setText(infinity)
		case math.MinInt32:
			val.setText(negInfinity)
		default:
			val.setTime(time.Unix(pgEpoch+int64(days)*86400, 0).UTC())
		}
	case pgtype.TimestampOID, pgtype.TimestamptzOID:
		if len(v) != 8 {
			return errWireValue
		}
		switch us := int64(binary.BigEndian.Uint64(v)); us {
		case math.MaxInt64:
			val.setText(infinity)
		case math.MinInt64:
			val.setText(negInfinity)
		default:
			val.setTime(time.UnixMicro(us + pgEpoch*1e6).UTC())
		}
	case pgtype.ByteaOID:
		val.setBytes(v)
	default:
		return fmt.Errorf("%w: binary value of type %d", errWireValue, oid)
	}
	return nil
}
