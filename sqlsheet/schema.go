package sqlsheet

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/xml"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sheetstream/sheetstream/xlsx"
)

// The schema part: exports record in the workbook, as a custom XML part
// that Excel and LibreOffice leave alone, where each sheet came from —
// the engine, each column's name and SQL type (with precision, scale and
// the time zone timestamps were shown in), and the primary key of a
// table exported whole — so that importing the file back recreates the
// columns as they were instead of inferring them from the cells: a
// NUMERIC(12,2) stays NUMERIC(12,2), a BIGINT written as text to keep its
// digits stays BIGINT, a timestamptz stays timestamptz.

// SchemaNamespace is the XML namespace of the schema part.
const SchemaNamespace = "https://sheetstream.dev/ns/schema/1"

// schemaDoc is the schema part: one entry per exported sheet.
type schemaDoc struct {
	XMLName xml.Name      `xml:"https://sheetstream.dev/ns/schema/1 schema"`
	Sheets  []schemaSheet `xml:"sheet"`
}

type schemaSheet struct {
	Name   string `xml:"name,attr"`
	Engine string `xml:"engine,attr"`
	Table  string `xml:"table,attr,omitempty"`
	// Rows is how many rows the sheet holds under its header at row 1,
	// so that a row of NULLs, which the sheet shows as an empty row, is
	// imported as a row and not passed over as a blank line.
	Rows    int64          `xml:"rows,attr,omitempty"`
	Columns []schemaColumn `xml:"column"`
	Key     []schemaKey    `xml:"key"`
}

type schemaColumn struct {
	Name string `xml:"name,attr"`
	// Type is the source's own name for the type, as its engine spells
	// it; Kind is sqlsheet's (integer, decimal, timestamptz, uuid...),
	// which another engine maps to its nearest type.
	Type      string `xml:"type,attr"`
	Kind      string `xml:"kind,attr"`
	Precision int64  `xml:"precision,attr,omitempty"`
	Scale     int64  `xml:"scale,attr,omitempty"`
	// Zone is where timestamps with a time zone were shown.
	Zone string `xml:"zone,attr,omitempty"`
	// Cut counts the column's texts the export cut to the 32,767
	// characters a cell holds: such a cell is not the value.
	Cut int64 `xml:"cut,attr,omitempty"`
}

type schemaKey struct {
	Column string `xml:"column,attr"`
}

// schemaKinds names each kind in the schema part.
var schemaKinds = [...]string{
	kindText: "text", kindInt: "integer", kindUint: "unsigned", kindFloat: "float", kindDecimal: "decimal",
	kindBool: "boolean", kindDate: "date", kindTimestamp: "timestamp", kindTimestampTZ: "timestamptz",
	kindTime: "time", kindInterval: "interval", kindBinary: "binary", kindAny: "any",
}

// schemaKind is a column's kind in the schema part: text columns whose
// type is a UUID, JSON or an array say so, since engines other than the
// source's need to know.
func schemaKind(k kind, sqlType string) string {
	if k == kindText {
		t := strings.ToLower(sqlType)
		switch {
		case strings.HasSuffix(t, "[]") || strings.HasPrefix(t, "_"):
			return "array"
		case strings.Contains(t, "uuid"):
			return "uuid"
		case strings.Contains(t, "json"):
			return "json"
		}
	}
	return schemaKinds[k]
}

// schemaFrom is what the schema part says of the query being exported
// besides its columns.
type schemaFrom struct {
	engine Engine
	table  string
	key    []string
	// types are the table's column types by name, where the driver's
	// own names lack sizes (MySQL's VARCHAR without its length).
	types map[string]string
}

// addSchema writes the schema part for the sheets one query filled.
func addSchema(w *xlsx.Writer, infos []columnInfo, cuts []int64, sheets []string, rows []int64, from schemaFrom, zone string) error {
	var doc schemaDoc
	for i, name := range sheets {
		s := schemaSheet{Name: name, Engine: from.engine.String(), Table: from.table, Rows: rows[i]}
		for j, info := range infos {
			c := schemaColumn{Name: info.name, Type: info.sqlType, Kind: schemaKind(info.kind, info.sqlType), Cut: cuts[j]}
			if t, ok := from.types[info.name]; ok {
				c.Type = t
			}
			if info.kind == kindDecimal {
				c.Precision, c.Scale = info.precision, info.scale
			}
			if info.kind == kindTimestampTZ {
				c.Zone = zone
			}
			s.Columns = append(s.Columns, c)
		}
		for _, k := range from.key {
			s.Key = append(s.Key, schemaKey{Column: k})
		}
		doc.Sheets = append(doc.Sheets, s)
	}
	data, err := xml.Marshal(doc)
	if err != nil {
		return err
	}
	return w.AddCustomXML(data)
}

// readSchema finds the schema of the named sheet among wb's custom XML
// parts; ok is false when the workbook has none for it. Parts of other
// applications, and schema parts that do not parse, are passed over.
func readSchema(wb *xlsx.Workbook, sheet string) (schemaSheet, bool, error) {
	parts, err := wb.CustomXML()
	if err != nil {
		return schemaSheet{}, false, err
	}
	for _, p := range parts {
		if !bytes.Contains(p, []byte(SchemaNamespace)) {
			continue
		}
		var doc schemaDoc
		if xml.Unmarshal(p, &doc) != nil {
			continue
		}
		for _, s := range doc.Sheets {
			if s.Name == sheet {
				return s, true, nil
			}
		}
	}
	return schemaSheet{}, false, nil
}

// primaryKey lists the columns of table's primary key, in key order; none
// when the table has no primary key or the engine cannot say.
func primaryKey(ctx context.Context, db *sql.DB, engine Engine, table string) ([]string, error) {
	var q string
	var args []any
	switch engine {
	case EnginePostgres:
		q = `SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
			WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)`
		args = []any{quoteDotted(engine, table)}
	case EngineSQLite:
		q, args = `SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk`, []any{table}
	case EngineMySQL:
		schema, name := splitTable(table)
		q = `SELECT column_name FROM information_schema.key_column_usage WHERE constraint_name = 'PRIMARY'
			AND table_schema = COALESCE(NULLIF(?, ''), DATABASE()) AND table_name = ? ORDER BY ordinal_position`
		args = []any{schema, name}
	default:
		return nil, nil
	}
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("primary key of %s: %w", table, err)
	}
	defer rows.Close()
	var key []string
	for rows.Next() {
		var col string
		if err := rows.Scan(&col); err != nil {
			return nil, err
		}
		key = append(key, col)
	}
	return key, rows.Err()
}

// mysqlColumnTypes reads the column types of a MySQL table as its DDL
// spells them (varchar(40), decimal(12,2), bigint(20) unsigned).
func mysqlColumnTypes(ctx context.Context, db *sql.DB, table string) (map[string]string, error) {
	schema, name := splitTable(table)
	types, err := textPairs(ctx, db, `SELECT column_name, column_type FROM information_schema.columns
		WHERE table_schema = COALESCE(NULLIF(?, ''), DATABASE()) AND table_name = ?`, schema, name)
	if err != nil {
		return nil, fmt.Errorf("column types of %s: %w", table, err)
	}
	return types, nil
}

// textPairs runs a query of two text columns, such as names and types,
// into a map from the first to the second.
func textPairs(ctx context.Context, db *sql.DB, query string, args ...any) (map[string]string, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	pairs := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		pairs[k] = v
	}
	return pairs, rows.Err()
}

// splitTable splits a dotted table name into its schema (MySQL's
// database, SQLite's attached name; "" when the name has no dot) and
// table, for queries that take them as values.
func splitTable(table string) (schema, name string) {
	if schema, name, dotted := strings.Cut(table, "."); dotted {
		return schema, name
	}
	return "", table
}

// quoteDotted quotes each part of a dotted table name.
func quoteDotted(engine Engine, table string) string {
	parts := strings.Split(table, ".")
	for i, p := range parts {
		parts[i] = engine.quote(p)
	}
	return strings.Join(parts, ".")
}

// typeSize reads the precision and scale of a declared type such as
// NUMERIC(12,2); zeros when it gives none.
func typeSize(declType string) (precision, scale int64) {
	_, args, ok := strings.Cut(declType, "(")
	args, _, ok2 := strings.Cut(args, ")")
	if !ok || !ok2 {
		return 0, 0
	}
	p, s, _ := strings.Cut(args, ",")
	precision, _ = strconv.ParseInt(strings.TrimSpace(p), 10, 64)
	scale, _ = strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return precision, scale
}

// applySchema types the new table's columns from the workbook's schema
// part, when it has one for the sheet and Infer is not set: each column
// the part names gets its SQL type (the source's own when the engines
// are the same, else the nearest) and the matching conversion; --type
// and AllText still win. The part's primary key becomes the new table's
// when every key column is loaded, and a merge's key when none is given.
func (imp *importer) applySchema(ctx context.Context, header []string) error {
	if !imp.exported {
		return nil
	}
	schema := imp.schema
	imp.stats.Schema = true
	byName := map[string]schemaColumn{}
	for _, c := range schema.Columns {
		byName[strings.ToLower(c.Name)] = c
	}
	for i := range imp.cols {
		col := &imp.cols[i]
		c, ok := byName[strings.ToLower(col.Name)]
		if !ok || imp.opts.AllText || imp.overridden(col.Name) {
			continue
		}
		if c.Kind == "binary" {
			if imp.opts.Mode == Replace {
				return fmt.Errorf("replacing %s: column %q holds binary data, which the sheet has only as placeholders or encoded text: the new table would have it NULL (leave the column out, or merge the rows instead)", imp.opts.Table, col.Name)
			}
			// The bytes are not in the sheet: the column, NULL.
			col.Type, col.SQLType, col.unloaded = ColumnText, imp.engine.binaryType(c, schema.Engine), true
			imp.stats.Binary = append(imp.stats.Binary, col.Name)
			for k, j := range imp.byCol {
				if j == i {
					imp.checked[k] = false
				}
			}
			continue
		}
		t, sqlType, ok := imp.engine.schemaType(c, schema.Engine)
		if !ok {
			continue // inferred from the cells, as without a schema
		}
		col.Type, col.SQLType = t, sqlType
		for k, j := range imp.byCol {
			if j == i {
				imp.checked[k] = false // the schema's type, not a guess
			}
		}
		if col.Type == ColumnTimestampTZ {
			col.zone = time.UTC
			if loc, err := time.LoadLocation(c.Zone); err == nil && c.Zone != "" {
				col.zone = loc
			}
		}
	}
	for _, k := range schema.Key {
		found := false
		for _, c := range imp.cols {
			found = found || c.Name == k.Column
		}
		if !found {
			return nil // a key column was left out: no key
		}
		imp.stats.Key = append(imp.stats.Key, k.Column)
	}
	for i := range imp.cols {
		col := &imp.cols[i]
		if imp.engine == EngineMySQL && slices.Contains(imp.stats.Key, col.Name) && strings.HasSuffix(col.SQLType, "TEXT") {
			col.SQLType = "VARCHAR(255)" // MySQL cannot index a TEXT column whole
		}
	}
	return nil
}

// loadSchema reads the sheet's schema part, once for the import: what
// the export said of each column, its rows and its key.
func (imp *importer) loadSchema() error {
	src, ok := imp.src.(sheetSource)
	if !ok {
		return nil
	}
	schema, found, err := readSchema(src.wb, src.SheetName())
	if err != nil {
		return err
	}
	imp.schema = schema
	// Infer ignores the part's types, rows and key; what it says the
	// sheet holds of binary columns and cut texts stands.
	if found && !imp.opts.Infer {
		imp.exported = true
		imp.exportedRows = int(min(imp.schema.Rows, xlsx.MaxRows))
	}
	return nil
}

// sqlTypeWords are the words a schema part's type may be spelled with
// to be used as it is: the type names of the three engines and their
// modifiers. A workbook is input like any other: a type with another
// word (a constraint, a DEFAULT, a second statement) is not copied into
// CREATE TABLE; the column gets the nearest type of its kind instead.
var sqlTypeWords = map[string]bool{
	"bigint": true, "integer": true, "int": true, "smallint": true, "tinyint": true, "mediumint": true,
	"int2": true, "int4": true, "int8": true, "numeric": true, "decimal": true, "real": true, "double": true,
	"precision": true, "float": true, "float4": true, "float8": true, "boolean": true, "bool": true, "bit": true,
	"date": true, "time": true, "timestamp": true, "timestamptz": true, "timetz": true, "datetime": true,
	"with": true, "without": true, "zone": true, "text": true, "varchar": true, "char": true, "character": true,
	"varying": true, "bpchar": true, "nchar": true, "nvarchar": true, "clob": true, "tinytext": true,
	"mediumtext": true, "longtext": true, "json": true, "jsonb": true, "uuid": true, "unsigned": true,
	"year": true, "citext": true, "money": true, "inet": true, "cidr": true, "macaddr": true, "string": true,
	"interval": true,
}

// safeSQLType reports whether t is a type name made of sqlTypeWords, with
// at most one size such as (12,2) or (40), and array brackets.
func safeSQLType(t string) bool {
	t = strings.ToLower(strings.TrimSpace(t))
	if t == "" || len(t) > 64 {
		return false
	}
	for strings.HasSuffix(t, "[]") {
		t = strings.TrimSuffix(t, "[]")
	}
	if open := strings.IndexByte(t, '('); open >= 0 {
		end := strings.IndexByte(t, ')')
		if end < open {
			return false
		}
		for _, n := range strings.Split(t[open+1:end], ",") {
			if _, err := strconv.ParseUint(strings.TrimSpace(n), 10, 16); err != nil {
				return false
			}
		}
		t = t[:open] + " " + t[end+1:]
	}
	words := strings.Fields(t)
	for _, w := range words {
		if !sqlTypeWords[w] {
			return false
		}
	}
	return len(words) > 0
}

// overridden says whether Types names the column.
func (imp *importer) overridden(column string) bool {
	for name := range imp.opts.Types {
		if strings.EqualFold(strings.TrimSpace(name), column) {
			return true
		}
	}
	return false
}

// binaryType is the SQL type of a binary column the schema part
// describes: the source's own on the same engine, else the engine's
// type for bytes.
func (e Engine) binaryType(c schemaColumn, from string) string {
	if from == e.String() && safeBinaryType(c.Type) && e != EngineUnknown {
		return c.Type
	}
	switch e {
	case EnginePostgres:
		return "bytea"
	case EngineMySQL:
		return "LONGBLOB"
	}
	return "BLOB"
}

// safeBinaryType reports whether t is a binary type name, with a length
// in parentheses at most.
func safeBinaryType(t string) bool {
	name, args, _ := strings.Cut(strings.ToLower(strings.TrimSpace(t)), "(")
	switch name {
	case "bytea", "blob", "tinyblob", "mediumblob", "longblob", "binary", "varbinary":
	default:
		return false
	}
	args, rest, _ := strings.Cut(args, ")")
	for i := range len(args) {
		if args[i] < '0' || args[i] > '9' {
			return false
		}
	}
	return rest == ""
}

// binaryColumns names (lower case) the sheet's columns its schema part
// says hold binary data, Infer or not: what the sheet holds of them is
// not the bytes.
func (imp *importer) binaryColumns() map[string]bool {
	return imp.schemaColumns(func(c schemaColumn) bool { return c.Kind == "binary" })
}

// cutColumns names (lower case) the sheet's columns some of whose texts
// the export cut to what a cell holds, Infer or not.
func (imp *importer) cutColumns() map[string]bool {
	return imp.schemaColumns(func(c schemaColumn) bool { return c.Cut > 0 })
}

// schemaColumns names (lower case) the columns of the sheet's schema
// part that match.
func (imp *importer) schemaColumns(match func(schemaColumn) bool) map[string]bool {
	names := map[string]bool{}
	for _, c := range imp.schema.Columns {
		if match(c) {
			names[strings.ToLower(c.Name)] = true
		}
	}
	return names
}

// schemaType is the conversion and SQL type of a column the schema part
// describes, for this engine: the source's own type when it came from
// the same engine and its values load as they are, else the nearest. ok
// is false for kinds the sheet does not hold faithfully (intervals,
// binary data, values of no declared type), which are inferred.
func (e Engine) schemaType(c schemaColumn, from string) (_ ColumnType, _ string, ok bool) {
	var t ColumnType
	switch c.Kind {
	case "integer":
		t = ColumnInteger
	case "unsigned", "decimal":
		t = ColumnDecimal
	case "float":
		t = ColumnFloat
	case "boolean":
		t = ColumnBoolean
	case "date":
		t = ColumnDate
	case "timestamp":
		t = ColumnTimestamp
	case "timestamptz":
		t = ColumnTimestampTZ
	case "time":
		t = ColumnTime
	case "text", "uuid", "json", "array":
	case "interval":
		// Written as elapsed time or text, read as text that an
		// interval column parses; another engine keeps the text.
		if from != e.String() || e != EnginePostgres || !safeSQLType(c.Type) {
			return ColumnText, e.sqlType(ColumnText), true
		}
	default:
		return 0, "", false
	}
	if from == e.String() && safeSQLType(c.Type) && e != EngineUnknown {
		if e == EngineMySQL && strings.HasPrefix(c.Type, "UNSIGNED ") {
			return t, strings.TrimPrefix(c.Type, "UNSIGNED ") + " UNSIGNED", true // the driver's word order
		}
		return t, c.Type, true
	}
	nearest := e.sqlType(t)
	switch c.Kind {
	case "unsigned":
		nearest = map[Engine]string{EnginePostgres: "numeric(20,0)", EngineMySQL: "BIGINT UNSIGNED"}[e]
		if nearest == "" {
			nearest = "INTEGER"
		}
	case "decimal":
		if c.Precision > 0 {
			p, s := c.Precision, c.Scale
			if e == EngineMySQL {
				p, s = min(p, 65), min(s, 30, p)
			}
			nearest = fmt.Sprintf("%s(%d,%d)", strings.TrimSuffix(nearest, "(65,30)"), p, s)
		}
	case "uuid":
		nearest = map[Engine]string{EnginePostgres: "uuid", EngineMySQL: "CHAR(36)"}[e]
	case "json":
		nearest = map[Engine]string{EnginePostgres: "jsonb", EngineMySQL: "JSON"}[e]
	}
	if nearest == "" {
		nearest = e.sqlType(t)
	}
	return t, nearest, true
}
