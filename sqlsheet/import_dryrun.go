package sqlsheet

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// A dry run changes nothing, so it cannot ask the table whether it takes
// the rows. It asks what it can without writing: for each unique key of
// the table (its primary key, unique constraints and indexes, whole and
// on plain columns, every column loaded), whether a staged row has a key
// the table has already, or one an earlier row of the source has. Those
// rows a real load would see refused: the dry run fails naming the
// first, or, under MaxErrors, counts them rejected. CHECK and foreign
// key constraints it cannot judge without inserting.

// uniqueKeys lists the table's unique keys as column names, leaving out
// those on expressions, partial ones and those with a column the rows do
// not load (a generated id, which the table fills).
func (imp *importer) uniqueKeys(ctx context.Context) ([][]string, error) {
	var q string
	var args []any
	schema, name := splitTable(imp.opts.Table)
	switch imp.engine {
	case EnginePostgres:
		q = `SELECT i.indexrelid::regclass::text, a.attname FROM pg_index i
			CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
			LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
			WHERE i.indrelid = $1::regclass AND i.indisunique AND i.indpred IS NULL ORDER BY 1, k.ord`
		args = []any{imp.engine.quoteTable(imp.opts.Table)}
	case EngineMySQL:
		q = `SELECT index_name, column_name FROM information_schema.statistics
			WHERE table_schema = COALESCE(NULLIF(?, ''), DATABASE()) AND table_name = ? AND non_unique = 0
			ORDER BY index_name, seq_in_index`
		args = []any{schema, name}
	case EngineSQLite:
		if schema == "" {
			schema = "main"
		}
		// The primary key first: an INTEGER PRIMARY KEY has no index.
		q = `SELECT '', name FROM pragma_table_info(?1, ?2) WHERE pk > 0
			UNION ALL SELECT il.name, ii.name FROM pragma_index_list(?1, ?2) AS il, pragma_index_info(il.name, ?2) AS ii
			WHERE il."unique" AND NOT il.partial ORDER BY 1`
		args = []any{name, schema}
	default:
		return nil, nil
	}
	rows, err := imp.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("keys of %s: %w", imp.opts.Table, err)
	}
	defer rows.Close()
	loaded := map[string]bool{}
	for _, c := range imp.cols {
		loaded[c.Name] = true
	}
	var keys [][]string
	var index string
	usable := false
	for rows.Next() {
		var idx string
		var col sql.NullString // NULL: an expression
		if err := rows.Scan(&idx, &col); err != nil {
			return nil, err
		}
		if idx != index || len(keys) == 0 {
			if len(keys) > 0 && !usable {
				keys = keys[:len(keys)-1]
			}
			index, usable = idx, true
			keys = append(keys, nil)
		}
		usable = usable && col.Valid && loaded[col.String]
		keys[len(keys)-1] = append(keys[len(keys)-1], col.String)
	}
	if len(keys) > 0 && !usable {
		keys = keys[:len(keys)-1]
	}
	return keys, rows.Err()
}

// checkKeys finds the staged rows a real load would see refused for a
// unique key of the target (the table's, or, for a new one, the schema
// part's primary key), as a dry run's last check.
func (imp *importer) checkKeys(ctx context.Context, tx txn) error {
	var keys [][]string
	if imp.created {
		if len(imp.stats.Key) > 0 {
			keys = [][]string{imp.stats.Key}
		}
	} else {
		var err error
		if keys, err = imp.uniqueKeys(ctx); err != nil {
			return err
		}
	}
	q := imp.engine.quote
	stage, row := q(stageTable), q(stageRow)
	// The first MaxErrors+1 rows each check finds are enough to tell
	// the first refused row, and whether there are too many.
	limit := " ORDER BY 1 LIMIT " + strconv.Itoa(imp.opts.MaxErrors+1)
	refused := map[int64]error{}
	for _, key := range keys {
		list := strings.Join(key, ", ")
		var cols, same, notNull []string
		for _, c := range key {
			cols = append(cols, q(c))
			same = append(same, "t."+q(c)+" = s."+q(c))
			notNull = append(notNull, q(c)+" IS NOT NULL")
		}
		// A key an earlier row of the source has.
		pairs, err := tx.queryPairs(ctx, "SELECT "+row+", sheetstream_first FROM (SELECT "+row+", MIN("+row+") OVER (PARTITION BY "+
			strings.Join(cols, ", ")+") AS sheetstream_first FROM "+stage+" WHERE "+strings.Join(notNull, " AND ")+") AS k WHERE "+row+" > sheetstream_first"+limit)
		if err != nil {
			return fmt.Errorf("dry run into %s: %w", imp.opts.Table, err)
		}
		for _, p := range pairs {
			if refused[p[0]] == nil {
				refused[p[0]] = fmt.Errorf("%w: the key (%s) repeats row %d's", ErrDuplicateKey, list, p[1])
			}
		}
		if imp.created || imp.opts.Mode == Replace {
			continue // the old table goes
		}
		// A key the table has.
		pairs, err = tx.queryPairs(ctx, "SELECT s."+row+", 0 FROM "+stage+" s WHERE EXISTS (SELECT 1 FROM "+
			imp.engine.quoteTable(imp.opts.Table)+" t WHERE "+strings.Join(same, " AND ")+")"+limit)
		if err != nil {
			return fmt.Errorf("dry run into %s: %w", imp.opts.Table, err)
		}
		for _, p := range pairs {
			if refused[p[0]] == nil {
				refused[p[0]] = fmt.Errorf("%w: the table has the key (%s) already", ErrDuplicateKey, list)
			}
		}
	}
	rejects := imp.refusedWriter()
	for _, n := range slices.Sorted(maps.Keys(refused)) {
		refusal := &ImportError{Table: imp.opts.Table, Sheet: imp.src.SheetName(), Row: int(n), Err: refused[n]}
		if err := imp.rejectStaged(ctx, tx, rejects, refusal); err != nil {
			return err
		}
	}
	return flushRejects(rejects)
}
