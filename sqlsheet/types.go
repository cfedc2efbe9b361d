package sqlsheet

import (
	"database/sql"
	"reflect"
	"strings"
	"time"
)

// kind is what a column's values become in the sheet.
type kind uint8

const (
	kindText kind = iota
	kindInt
	kindUint
	kindFloat
	kindDecimal
	kindBool
	kindDate
	kindTimestamp
	kindTimestampTZ
	kindTime
	kindInterval
	kindBinary
	// kindAny: no usable declared type (SQLite expressions, unknown
	// types): each value is mapped by its Go type.
	kindAny
)

// kindOf maps a column's declared type to a kind. The names cover
// PostgreSQL, MySQL/MariaDB and SQLite's declared types (with SQLite's
// affinity rules for the free-form names it accepts).
func kindOf(ct *sql.ColumnType) kind { return kindOfColumn(ct, true) }

// kindOfColumn is kindOf with SQLite's affinity rules for names it does
// not know, or without them: for a table on another engine, whose POINT
// or INT4RANGE is no integer.
func kindOfColumn(ct *sql.ColumnType, affinity bool) kind {
	if k, ok := kindOfName(ct.DatabaseTypeName(), affinity); ok {
		return k
	}
	// Otherwise trust the driver's Go type.
	switch st := ct.ScanType(); {
	case st == nil:
		return kindAny
	case st == reflect.TypeFor[time.Time]():
		return kindTimestamp
	case st.Kind() >= reflect.Int && st.Kind() <= reflect.Int64:
		return kindInt
	case st.Kind() >= reflect.Uint && st.Kind() <= reflect.Uint64:
		return kindUint
	case st.Kind() == reflect.Float32 || st.Kind() == reflect.Float64:
		return kindFloat
	case st.Kind() == reflect.Bool:
		return kindBool
	}
	return kindAny
}

// kindOfName maps a type name; ok is false for names it does not know.
// With affinity, unknown names get SQLite's affinity rules, which look
// for substrings (so that PostgreSQL's POINT, say, would be an integer).
func kindOfName(name string, affinity bool) (_ kind, ok bool) {
	name = strings.ToUpper(strings.TrimSpace(name))
	unsigned := strings.Contains(name, "UNSIGNED")
	name = strings.TrimSpace(strings.ReplaceAll(name, "UNSIGNED", ""))
	if i := strings.IndexByte(name, '('); i >= 0 {
		name = strings.TrimSpace(name[:i])
	}
	switch name {
	case "":
		return kindAny, true
	case "INT2", "INT4", "INT8", "SMALLINT", "INTEGER", "INT", "BIGINT", "TINYINT", "MEDIUMINT",
		"SMALLSERIAL", "SERIAL", "BIGSERIAL", "YEAR":
		if unsigned && (name == "BIGINT" || name == "INT8") {
			return kindUint, true
		}
		return kindInt, true
	case "FLOAT4", "FLOAT8", "REAL", "FLOAT", "DOUBLE", "DOUBLE PRECISION":
		return kindFloat, true
	case "NUMERIC", "DECIMAL", "MONEY", "NEWDECIMAL":
		return kindDecimal, true
	case "BOOL", "BOOLEAN", "BIT":
		return kindBool, true
	case "DATE":
		return kindDate, true
	case "TIMESTAMP", "DATETIME", "TIMESTAMP WITHOUT TIME ZONE":
		return kindTimestamp, true
	case "TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE":
		return kindTimestampTZ, true
	case "TIME", "TIME WITHOUT TIME ZONE":
		return kindTime, true
	case "INTERVAL":
		return kindInterval, true
	case "BYTEA", "BLOB", "BINARY", "VARBINARY", "TINYBLOB", "MEDIUMBLOB", "LONGBLOB":
		return kindBinary, true
	case "TEXT", "VARCHAR", "CHAR", "BPCHAR", "NAME", "CITEXT", "NVARCHAR", "NCHAR", "CLOB", "TINYTEXT", "MEDIUMTEXT",
		"LONGTEXT", "JSON", "JSONB", "UUID", "XML", "ENUM", "SET", "INET", "CIDR", "MACADDR", "TIMETZ":
		return kindText, true
	}
	if !affinity {
		return kindAny, false
	}
	// SQLite accepts any type name and gives it an affinity by substring.
	switch {
	case strings.HasPrefix(name, "_") || strings.HasSuffix(name, "[]"): // PostgreSQL arrays: _INT4, _TEXT...
		return kindText, true
	case strings.Contains(name, "INT"):
		return kindInt, true
	case strings.Contains(name, "CHAR"), strings.Contains(name, "CLOB"), strings.Contains(name, "TEXT"):
		return kindText, true
	case strings.Contains(name, "BLOB"):
		return kindBinary, true
	case strings.Contains(name, "REAL"), strings.Contains(name, "FLOA"), strings.Contains(name, "DOUB"):
		return kindFloat, true
	}
	return kindAny, false
}

// numFmt is the number format a kind's cells get, "" for General.
func (k kind) numFmt(scale int64) string {
	switch k {
	case kindDate:
		return "yyyy-mm-dd"
	case kindTimestamp, kindTimestampTZ:
		return "yyyy-mm-dd hh:mm:ss"
	case kindTime:
		return "hh:mm:ss"
	case kindInterval:
		return "[h]:mm:ss"
	case kindDecimal:
		if scale > 0 && scale <= 10 {
			return "0." + strings.Repeat("0", int(scale))
		}
	}
	return ""
}
