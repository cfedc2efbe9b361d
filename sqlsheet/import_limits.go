package sqlsheet

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// columnLimit is what a column holds beyond its type's kind: the length
// of a VARCHAR(n), the digits of a NUMERIC(p,s), the range of a SMALLINT.
// Each cell is checked against it so that a value the server would
// refuse is an error naming its cell, or a row --max-errors skips, and
// not the server's complaint about the whole COPY or LOAD DATA, which
// names no row and takes every row with it.
type columnLimit struct {
	sqlType string // as the server spells it, for messages
	// chars is the most characters text may have (spaces past them
	// aside, unless exact: PostgreSQL drops them); bytes the most bytes
	// (MySQL's TEXT); 0: any.
	chars, bytes int
	// scale >= 0 for a NUMERIC(p,s): at most intDigits digits before the
	// point once rounded to scale places.
	intDigits, scale int
	// minInt, maxInt bound an integer type narrower than BIGINT.
	minInt, maxInt int64
	narrowInt      bool
	single         bool     // a single-precision float (REAL, FLOAT4, MySQL's FLOAT)
	noNUL          bool     // PostgreSQL's text holds no NUL character
	enum           *enumSet // an ENUM's or SET's values; nil: any
	// timestamp: a MySQL TIMESTAMP, which holds the instants of 32-bit
	// Unix time: the wall clocks from firstWall to lastWall in the
	// session's time zone (from the server: setLimits), fractions cut to
	// fsp digits, or rounded (MySQL; MariaDB truncates).
	timestamp           bool
	firstWall, lastWall time.Time
	fsp                 int
	rounds              bool
	// exact: the server must take the value as it is (MySQL, whose
	// loads sheetstream fails on any value it changed): no spaces past
	// a VARCHAR's length, no digits past a DECIMAL's scale. PostgreSQL
	// drops the one and rounds the other, as SQL says it should.
	exact bool
}

func (l *columnLimit) any() bool {
	return l.chars > 0 || l.bytes > 0 || l.scale >= 0 || l.narrowInt || l.single || l.noNUL || l.enum != nil || l.timestamp
}

// check says why v does not fit the column, or nil.
func (l *columnLimit) check(v *value) error {
	switch v.tag {
	case tagText:
		if l.noNUL && bytes.IndexByte(v.b, 0) >= 0 {
			return fmt.Errorf("%w: the text holds a NUL character, which PostgreSQL's text cannot", ErrBadCell)
		}
		if l.enum != nil && !l.enum.holds(v.b) {
			return fmt.Errorf("%w: %q is none of the values of %s", ErrBadCell, v.b, l.sqlType)
		}
		if l.scale >= 0 {
			if err := l.checkDecimal(string(v.b)); err != nil {
				return err
			}
		}
		if l.chars == 0 && l.bytes == 0 {
			return nil
		}
		text := v.b
		if !l.exact {
			text = bytes.TrimRight(text, " ")
		}
		if l.bytes > 0 && len(text) > l.bytes {
			return fmt.Errorf("%w: %d bytes of text, more than %s holds (%d)", ErrBadCell, len(text), l.sqlType, l.bytes)
		}
		if l.chars > 0 && len(text) > l.chars {
			if n := utf8.RuneCount(text); n > l.chars {
				return fmt.Errorf("%w: %d characters, more than %s holds", ErrBadCell, n, l.sqlType)
			}
		}
	case tagInt:
		if l.narrowInt && (v.i < l.minInt || v.i > l.maxInt) {
			return fmt.Errorf("%w: %d is out of %s's range (%d to %d)", ErrBadCell, v.i, l.sqlType, l.minInt, l.maxInt)
		}
		if l.scale >= 0 {
			return l.checkDecimal(strconv.FormatInt(v.i, 10))
		}
	case tagTime:
		if !l.timestamp {
			return nil
		}
		y, mo, d := v.t.Date()
		h, mi, sec := v.t.Clock()
		// The load sends microseconds, cut: the server cuts or rounds
		// them to the column's digits.
		wall := time.Date(y, mo, d, h, mi, sec, v.t.Nanosecond(), time.UTC).Truncate(time.Microsecond)
		step := time.Second
		for range l.fsp {
			step /= 10
		}
		stored := wall.Truncate(step)
		if l.rounds {
			stored = wall.Round(step)
		}
		if stored.Before(l.firstWall) || stored.After(l.lastWall) {
			return fmt.Errorf("%w: %s is out of %s's range (%s to %s in the session's time zone)", ErrBadCell,
				wall.Format("2006-01-02 15:04:05.999999999"), l.sqlType, l.firstWall.Format(time.DateTime), l.lastWall.Format(time.DateTime))
		}
	case tagFloat:
		// A finite double a float cannot hold; an infinity is one.
		if single := float32(v.f); l.single && !math.IsInf(v.f, 0) && (math.IsInf(float64(single), 0) || single == 0 && v.f != 0) {
			return fmt.Errorf("%w: %g is out of %s's range", ErrBadCell, v.f, l.sqlType)
		}
		if l.scale >= 0 {
			return l.checkDecimal(strconv.FormatFloat(v.f, 'f', -1, 64))
		}
	}
	return nil
}

// enumSet is the values an ENUM column takes: MySQL's folded (lower
// case, no spaces at the end) as its collations compare them,
// PostgreSQL's as they are. A MySQL SET takes any of them joined by
// commas (multi).
type enumSet struct {
	values map[string]bool
	fold   bool
	multi  bool
}

// holds says whether the column takes text.
func (e *enumSet) holds(text []byte) bool {
	if !e.multi {
		return e.has(text)
	}
	for member := range bytes.SplitSeq(text, []byte(",")) {
		if len(member) > 0 && !e.has(member) {
			return false
		}
	}
	return true
}

// has looks one value up, as key spells it, without copying it when it
// is already so (every cell of an enum column comes here).
func (e *enumSet) has(text []byte) bool {
	if !e.fold {
		return e.values[string(text)]
	}
	text = bytes.TrimRight(text, " ")
	for _, c := range text {
		if c >= 'A' && c <= 'Z' || c >= 0x80 {
			return e.values[e.key(text)]
		}
	}
	return e.values[string(text)]
}

func newEnumSet(values []string, fold bool) *enumSet {
	set := &enumSet{values: map[string]bool{}, fold: fold}
	for _, v := range values {
		set.values[set.key([]byte(v))] = true
	}
	return set
}

// key is text as the set keeps it.
func (e *enumSet) key(text []byte) string {
	if e.fold {
		return strings.ToLower(strings.TrimRight(string(text), " "))
	}
	return string(text)
}

// enumValues reads the values of a MySQL ENUM or SET as the server spells
// it, enum('a','b'), a quote inside a value doubled.
func enumValues(declared string) []string {
	_, list, _ := strings.Cut(declared, "(")
	list = list[:max(strings.LastIndexByte(list, ')'), 0)]
	var values []string
	var value strings.Builder
	quoted := false
	for i := 0; i < len(list); i++ {
		switch c := list[i]; {
		case c == '\'' && quoted && i+1 < len(list) && list[i+1] == '\'':
			value.WriteByte('\'')
			i++
		case c == '\'' && quoted:
			values = append(values, value.String())
			value.Reset()
			quoted = false
		case c == '\'':
			quoted = true
		case quoted:
			value.WriteByte(c)
		}
	}
	return values
}

// checkDecimal checks a number's text against a NUMERIC(p,s).
func (l *columnLimit) checkDecimal(text string) error {
	switch {
	case l.scale < 0:
		return nil
	case !decimalFits(text, l.intDigits, l.scale):
		return fmt.Errorf("%w: %s has more than %d digits before the point for %s", ErrBadCell, text, l.intDigits, l.sqlType)
	case l.exact && fractionDigits(text) > l.scale:
		return fmt.Errorf("%w: %s has more than %d digits after the point for %s, which would round it", ErrBadCell, text, l.scale, l.sqlType)
	}
	return nil
}

// decimalFits says whether the decimal text s, rounded half away from
// zero to scale places as PostgreSQL and MySQL round it, has at most
// intDigits digits before the point. Text that is no decimal fits: the
// conversion has judged it.
func decimalFits(s string, intDigits, scale int) bool {
	digits, point, ok := decimalDigits(s)
	switch {
	case !ok || digits == "" || point < intDigits:
		// Rounding up adds at most one digit before the point.
		return true
	case point > intDigits:
		return false
	case len(digits) <= point+scale:
		return true
	}
	// As many digits as allowed: rounding up overflows only a run of
	// nines.
	if strings.Trim(digits[:point+scale], "9") != "" {
		return true
	}
	return digits[point+scale] < '5'
}

// fractionDigits counts the digits after the point of a decimal's text,
// trailing zeros aside.
func fractionDigits(s string) int {
	digits, point, _ := decimalDigits(s)
	return max(len(digits)-point, 0)
}

// decimalDigits reads a decimal's text (sign, digits, point, exponent) as
// its significant digits, without leading or trailing zeros, and where
// the point falls among them: "0012.50" is "125", 2; "0.005" is "5", -2;
// "1.5e3" is "15", 4. ok is false for text that is no decimal.
func decimalDigits(s string) (digits string, point int, ok bool) {
	s = strings.TrimLeft(strings.TrimSpace(s), "+-")
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > 1e6 || e < -1e6 {
			return "", 0, false
		}
		s, exp = s[:i], e
	}
	whole, frac, _ := strings.Cut(s, ".")
	digits, point = whole+frac, len(whole)+exp
	if strings.Trim(digits, "0123456789") != "" {
		return "", 0, false
	}
	trimmed := strings.TrimLeft(digits, "0")
	point -= len(digits) - len(trimmed)
	return strings.TrimRight(trimmed, "0"), point, true
}

// setLimits finds the limits of the columns loaded: an existing table's
// NOT NULL columns, the declared lengths, precisions and ranges of an
// existing table's columns or of those a new table gets (PostgreSQL and
// MySQL; SQLite enforces none), and PostgreSQL's refusal of NUL in any
// text.
func (imp *importer) setLimits(ctx context.Context) error {
	declared, notNull := map[string]string{}, map[string]string{}
	var enums map[string][]string
	if imp.intoExisting() && imp.engine != EngineUnknown {
		var err error
		if imp.engine != EngineSQLite {
			if declared, err = imp.declaredTypes(ctx); err != nil {
				return fmt.Errorf("table %s: column types: %w", imp.opts.Table, err)
			}
		}
		if notNull, err = imp.notNullColumns(ctx); err != nil {
			return fmt.Errorf("table %s: NOT NULL columns: %w", imp.opts.Table, err)
		}
		if enums, err = imp.enumLabels(ctx); err != nil {
			return fmt.Errorf("table %s: enum types: %w", imp.opts.Table, err)
		}
	}
	if err := imp.missingRequired(notNull); err != nil {
		return err
	}
	var stamps columnLimit // the server's TIMESTAMP range, once asked
	cut := imp.cutColumns()
	var err error
	for i := range imp.cols {
		col := &imp.cols[i]
		// A new table may take a text the export cut (it said so); a
		// table that has the whole value, or had it (Replace), not.
		col.exportCut = imp.opts.Mode != Create && cut[strings.ToLower(col.Name)]
		col.notNull = notNull[col.Name] == "1" || notNull[col.Name] == "2"
		imp.anyNotNull = imp.anyNotNull || col.notNull
		if imp.engine == EnginePostgres || imp.engine == EngineMySQL {
			decl := declared[col.Name]
			if imp.created {
				decl = col.SQLType // a schema part's NUMERIC(12,2), MySQL's MEDIUMTEXT
			}
			col.limit = limitOf(imp.engine, decl)
			col.limit.noNUL = imp.engine == EnginePostgres && col.Type == ColumnText
			if labels, ok := enums[col.Name]; ok {
				col.limit.enum = newEnumSet(labels, false)
			}
			if col.limit.timestamp {
				if stamps.lastWall.IsZero() {
					if stamps, err = imp.timestampRange(ctx); err != nil {
						return fmt.Errorf("table %s: the range of TIMESTAMP: %w", imp.opts.Table, err)
					}
				}
				col.limit.firstWall, col.limit.lastWall, col.limit.rounds = stamps.firstWall, stamps.lastWall, stamps.rounds
			}
			col.limited = col.limit.any()
		}
	}
	return nil
}

// notNullColumns says "1" for each column that refuses NULL, "2" for one
// that also has no default (nor numbers or computes its rows), which a
// row must therefore give, "0" for the others. MySQL's AUTO_INCREMENT
// columns and SQLite's INTEGER PRIMARY KEY take a NULL as "the next
// number", so they do not count.
func (imp *importer) notNullColumns(ctx context.Context) (map[string]string, error) {
	schema, name := splitTable(imp.opts.Table)
	switch imp.engine {
	case EnginePostgres:
		return textPairs(ctx, imp.db, `SELECT attname, CASE WHEN NOT attnotnull THEN '0'
				WHEN atthasdef OR attidentity <> '' OR attgenerated <> '' THEN '1' ELSE '2' END FROM pg_attribute
			WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`, imp.engine.quoteTable(imp.opts.Table))
	case EngineMySQL:
		return textPairs(ctx, imp.db, `SELECT column_name, IF(is_nullable = 'NO' AND extra NOT LIKE '%auto_increment%',
				IF(column_default IS NULL AND extra NOT LIKE '%GENERATED%', '2', '1'), '0')
			FROM information_schema.columns WHERE table_schema = COALESCE(NULLIF(?, ''), DATABASE()) AND table_name = ?`, schema, name)
	}
	if schema == "" {
		schema = "main"
	}
	return textPairs(ctx, imp.db, `SELECT name, CASE WHEN NOT "notnull" THEN '0'
			WHEN dflt_value IS NOT NULL OR (pk > 0 AND upper(type) = 'INTEGER') THEN '1' ELSE '2' END
		FROM pragma_table_info(?, ?)`, name, schema)
}

// missingRequired fails an append whose rows have no column for one the
// table requires (NOT NULL without a default): every row would be
// refused, each for the same reason.
func (imp *importer) missingRequired(notNull map[string]string) error {
	if imp.opts.Mode != Append {
		return nil // a merge may only update
	}
	var missing []string
	for name, required := range notNull {
		if required == "2" && !slices.ContainsFunc(imp.cols, func(c ImportColumn) bool { return c.Name == name }) {
			missing = append(missing, strconv.Quote(name))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	slices.Sort(missing)
	return fmt.Errorf("table %s requires a value in %s (NOT NULL, without a default), and the rows have no column for it",
		imp.opts.Table, strings.Join(missing, ", "))
}

// enumLabels lists the labels of each PostgreSQL enum column (a type
// CREATE TYPE ... AS ENUM made), which the server compares exactly.
func (imp *importer) enumLabels(ctx context.Context) (map[string][]string, error) {
	if imp.engine != EnginePostgres {
		return nil, nil
	}
	rows, err := imp.db.QueryContext(ctx, `SELECT a.attname, e.enumlabel FROM pg_attribute a JOIN pg_enum e ON e.enumtypid = a.atttypid
		WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped`, imp.engine.quoteTable(imp.opts.Table))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	labels := map[string][]string{}
	for rows.Next() {
		var col, label string
		if err := rows.Scan(&col, &label); err != nil {
			return nil, err
		}
		labels[col] = append(labels[col], label)
	}
	return labels, rows.Err()
}

// declaredTypes is each column's type as the server prints it:
// "character varying(3)", "numeric(5,2)" (PostgreSQL), "varchar(3)",
// "tinyint(3) unsigned" (MySQL).
func (imp *importer) declaredTypes(ctx context.Context) (map[string]string, error) {
	if imp.engine == EngineMySQL {
		return mysqlColumnTypes(ctx, imp.db, imp.opts.Table)
	}
	// regclass reads the name as SQL does: quoted, as the import names it.
	return textPairs(ctx, imp.db, `SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
		WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`, imp.engine.quoteTable(imp.opts.Table))
}

// limitOf reads the limit out of a declared type.
func limitOf(e Engine, declared string) columnLimit {
	l := columnLimit{sqlType: declared, scale: -1, exact: e == EngineMySQL}
	t := strings.ToLower(strings.TrimSpace(declared))
	unsigned := strings.HasSuffix(t, " unsigned") || strings.Contains(t, " unsigned ")
	name, args, _ := strings.Cut(t, "(")
	name = strings.TrimSpace(name)
	args, _, _ = strings.Cut(args, ")")
	var nums []int
	for a := range strings.SplitSeq(args, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(a)); err == nil {
			nums = append(nums, n)
		}
	}
	switch name {
	case "character varying", "varchar", "character", "char", "bpchar", "nvarchar", "nchar":
		if len(nums) == 1 && nums[0] > 0 {
			l.chars = nums[0]
		}
	case "enum", "set":
		if e == EngineMySQL {
			l.enum = newEnumSet(enumValues(declared), true)
			l.enum.multi = name == "set"
		}
	case "tinytext":
		l.bytes = 255
	case "mediumtext":
		l.bytes = 1<<24 - 1
	case "text":
		if e == EngineMySQL {
			l.bytes = 65535
		}
	case "timestamp":
		if e == EngineMySQL {
			l.timestamp = true
			if len(nums) == 1 && nums[0] > 0 && nums[0] <= 6 {
				l.fsp = nums[0]
			}
		}
	case "real", "float4":
		l.single = true
	case "float":
		// MySQL's FLOAT is single precision; FLOAT(p) above 24 is a
		// DOUBLE, which the server names so.
		l.single = e == EngineMySQL
	case "numeric", "decimal":
		if len(nums) >= 1 && nums[0] > 0 {
			scale := 0
			if len(nums) == 2 {
				scale = nums[1]
			}
			l.intDigits, l.scale = nums[0]-scale, scale
		}
	}
	bits := map[string]int{"smallint": 16, "int2": 16, "integer": 32, "int4": 32, "int": 32, "tinyint": 8, "mediumint": 24}[name]
	if e == EngineMySQL && name == "bigint" && unsigned {
		return l // a uint64: the conversion checks it
	}
	if bits > 0 {
		l.narrowInt = true
		if unsigned && e == EngineMySQL {
			l.minInt, l.maxInt = 0, 1<<bits-1
		} else {
			l.minInt, l.maxInt = -1<<(bits-1), 1<<(bits-1)-1
		}
	}
	return l
}

// timestampRange is the first and last wall clock a MySQL TIMESTAMP
// column takes in the session's time zone: the instants 1 and 2^31-1 of
// Unix time (MariaDB from 11.5 on 64-bit systems: 2^32-1), as the server
// spells them there. A value out of it would be stored as zero, with a
// warning, and fail the whole load.
func (imp *importer) timestampRange(ctx context.Context) (columnLimit, error) {
	var l columnLimit
	var version string
	if err := imp.db.QueryRowContext(ctx, "SELECT VERSION()").Scan(&version); err != nil {
		return l, err
	}
	lastSecond := int64(1<<31 - 1)
	major, minor, mariaDB := mariaDBVersion(version)
	if mariaDB && (major > 11 || major == 11 && minor >= 5) {
		lastSecond = 1<<32 - 1
	}
	l.rounds = !mariaDB
	var first, last any
	if err := imp.db.QueryRowContext(ctx, "SELECT FROM_UNIXTIME(1), FROM_UNIXTIME(?)", lastSecond).Scan(&first, &last); err != nil {
		return l, err
	}
	if last == nil && lastSecond > 1<<31-1 {
		// A 32-bit build of a MariaDB that could go further.
		if err := imp.db.QueryRowContext(ctx, "SELECT FROM_UNIXTIME(?)", 1<<31-1).Scan(&last); err != nil {
			return l, err
		}
	}
	var err error
	if l.firstWall, err = wallClock(first); err != nil {
		return l, err
	}
	if l.lastWall, err = wallClock(last); err != nil {
		return l, err
	}
	// The last second's fractions are in range too.
	l.lastWall = l.lastWall.Add(time.Second - time.Microsecond)
	return l, nil
}

// wallClock reads a DATETIME the driver returned, as text or (parseTime)
// as a time in its location, as a wall clock in UTC.
func wallClock(v any) (time.Time, error) {
	switch v := v.(type) {
	case time.Time:
		y, mo, d := v.Date()
		h, mi, sec := v.Clock()
		return time.Date(y, mo, d, h, mi, sec, v.Nanosecond(), time.UTC), nil
	case []byte:
		return time.Parse(time.DateTime, string(v))
	case string:
		return time.Parse(time.DateTime, v)
	}
	return time.Time{}, fmt.Errorf("a DATETIME read as %T", v)
}

// mariaDBVersion reads a MariaDB server's major and minor version out of
// VERSION() ("11.8.2-MariaDB-1"); ok is false for MySQL.
func mariaDBVersion(version string) (major, minor int, ok bool) {
	if !strings.Contains(version, "MariaDB") {
		return 0, 0, false
	}
	parts := strings.SplitN(version, ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	return major, minor, err1 == nil && err2 == nil
}
