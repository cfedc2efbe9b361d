package sqlsheet

import "database/sql"

// source is where an export's rows come from: database/sql's Rows, or,
// for PostgreSQL, pgx's own, which hand over the values as they came
// off the wire.
type source interface {
	Next() bool
	Err() error
	// scan reads the current row into the columns' scan fields (the
	// ones column.dest points to). The values may refer to the source's
	// buffers until the next call to Next.
	scan(cols []*column) error
}

// columnInfo is what an export needs to know of a result column.
type columnInfo struct {
	name  string
	kind  kind
	scale int64 // decimal places of a DECIMAL/NUMERIC column, 0 if unknown
}

func sqlColumns(rows *sql.Rows) ([]columnInfo, error) {
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	infos := make([]columnInfo, len(types))
	for i, ct := range types {
		infos[i] = columnInfo{name: ct.Name(), kind: kindOf(ct)}
		if _, s, ok := ct.DecimalSize(); ok {
			infos[i].scale = s
		}
	}
	return infos, nil
}

// sqlSource reads database/sql Rows.
type sqlSource struct {
	rows  *sql.Rows
	dests []any
}

func (s *sqlSource) Next() bool { return s.rows.Next() }
func (s *sqlSource) Err() error { return s.rows.Err() }

// scan reads the current row, switching to scanning values as they are
// when a value does not fit its column's declared type.
func (s *sqlSource) scan(cols []*column) error {
	if s.dests == nil {
		s.setDests(cols)
	}
	err := s.rows.Scan(s.dests...)
	if err == nil {
		return nil
	}
	for _, c := range cols {
		c.dynamic, c.raw = true, nil
	}
	s.setDests(cols)
	return s.rows.Scan(s.dests...)
}

func (s *sqlSource) setDests(cols []*column) {
	s.dests = make([]any, len(cols))
	for i, c := range cols {
		s.dests[i] = c.dest()
	}
}
