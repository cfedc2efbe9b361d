package sqlsheet

import (
	"database/sql"
	"fmt"
	"time"
	"unsafe"
)

// rowReader is where an export's rows come from: database/sql's Rows; for
// PostgreSQL, pgx's own, which hand over the values as they came off the
// wire; for a SQLite file, SQLite's API. Each fills the columns' values
// (one type for all), which converter.cell turns into cells.
type rowReader interface {
	Next() bool
	Err() error
	// scan reads the current row into the columns' values. Their bytes
	// may be the source's until the next call to Next.
	scan(cols []*column) error
}

// columnInfo is what an export needs to know of a result column.
type columnInfo struct {
	name      string
	kind      kind
	scale     int64  // decimal places of a DECIMAL/NUMERIC column, 0 if unknown
	precision int64  // digits of a DECIMAL/NUMERIC column, 0 if unknown
	sqlType   string // the type as the engine names it, for the schema part
}

func sqlColumns(rows *sql.Rows) ([]columnInfo, error) {
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	infos := make([]columnInfo, len(types))
	for i, ct := range types {
		infos[i] = columnInfo{name: ct.Name(), kind: kindOf(ct), sqlType: ct.DatabaseTypeName()}
		if infos[i].kind != kindDecimal {
			continue
		}
		if p, s, ok := ct.DecimalSize(); ok {
			infos[i].precision, infos[i].scale = p, s
			infos[i].sqlType += fmt.Sprintf("(%d,%d)", p, s)
		} else {
			// SQLite's driver gives the declared type, sizes and all.
			infos[i].precision, infos[i].scale = typeSize(infos[i].sqlType)
		}
	}
	return infos, nil
}

// sqlRows reads database/sql Rows. Values are scanned into a
// destination of their column's kind, which costs no boxing or copying
// for the common types, or, when dynamic, as the driver returns them.
type sqlRows struct {
	rows *sql.Rows
	// dynamic scans every value as it is: SQLite's columns need not hold
	// their declared type, and other drivers switch to it at the first
	// value that does not fit its column.
	dynamic bool
	dests   []sqlDest
	ptrs    []any
}

// sqlDest is where database/sql scans one column: the field its kind
// uses, or v when dynamic.
type sqlDest struct {
	i   sql.NullInt64
	f   sql.NullFloat64
	b   sql.NullBool
	t   sql.NullTime
	raw sql.RawBytes
	v   any
}

func (s *sqlRows) Next() bool { return s.rows.Next() }
func (s *sqlRows) Err() error { return s.rows.Err() }

// scan reads the current row into the columns' values, switching to
// scanning values as they are when one does not fit its column's
// declared type.
func (s *sqlRows) scan(cols []*column) error {
	if s.ptrs == nil {
		s.setDests(cols)
	}
	if err := s.rows.Scan(s.ptrs...); err != nil {
		if s.dynamic {
			return err
		}
		s.dynamic = true
		s.setDests(cols)
		if err := s.rows.Scan(s.ptrs...); err != nil {
			return err
		}
	}
	for j, c := range cols {
		s.dests[j].load(&c.val, c.kind, s.dynamic)
	}
	return nil
}

func (s *sqlRows) setDests(cols []*column) {
	s.dests = make([]sqlDest, len(cols))
	s.ptrs = make([]any, len(cols))
	for i, c := range cols {
		s.ptrs[i] = s.dests[i].ptr(c.kind, s.dynamic)
	}
}

func (d *sqlDest) ptr(k kind, dynamic bool) any {
	if dynamic {
		return &d.v
	}
	switch k {
	case kindInt:
		return &d.i
	case kindFloat:
		return &d.f
	case kindBool:
		return &d.b
	case kindDate, kindTimestamp, kindTimestampTZ:
		return &d.t
	case kindAny:
		return &d.v
	}
	return &d.raw
}

// load fills v from what was scanned.
func (d *sqlDest) load(v *value, k kind, dynamic bool) {
	if dynamic || k == kindAny {
		loadAny(v, d.v)
		return
	}
	v.tag = tagNull
	switch k {
	case kindInt:
		if d.i.Valid {
			v.setInt(d.i.Int64)
		}
	case kindFloat:
		if d.f.Valid {
			v.setFloat(d.f.Float64)
		}
	case kindBool:
		if d.b.Valid {
			v.setBool(d.b.Bool)
		}
	case kindDate, kindTimestamp, kindTimestampTZ:
		if d.t.Valid {
			v.setTime(d.t.Time)
		}
	default:
		if d.raw != nil {
			v.setText(d.raw)
		}
	}
}

// loadAny fills v from a value of the types drivers return.
func loadAny(v *value, x any) {
	switch x := x.(type) {
	case nil:
		v.tag = tagNull
	case int64:
		v.setInt(x)
	case float64:
		v.setFloat(x)
	case bool:
		v.setBool(x)
	case time.Time:
		v.setTime(x)
	case string:
		v.setText(unsafe.Slice(unsafe.StringData(x), len(x)))
	case []byte:
		v.setBytes(x)
	case uint64: // go-sql-driver/mysql's BIGINT UNSIGNED
		v.tag, v.i = tagUint, int64(x)
	default:
		v.setText(fmt.Append(nil, x))
	}
}
