package sqlsheet

import (
	"errors"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestDecimalFits(t *testing.T) {
	for _, c := range []struct {
		text             string
		intDigits, scale int
		want             bool
	}{
		{"999.99", 3, 2, true},
		{"999.994", 3, 2, true},  // rounds down to 999.99
		{"999.995", 3, 2, false}, // rounds up to 1000.00
		{"-999.995", 3, 2, false},
		{"1000", 3, 2, false},
		{"0999.5", 3, 2, true}, // leading zeros are no digits
		{"998.995", 3, 2, true},
		{"0.995", 0, 2, false}, // NUMERIC(2,2) holds less than 1
		{"0.994", 0, 2, true},
		{".5", 0, 2, true},
		{"123456", 6, 0, true},
		{"123456.5", 6, 0, true}, // 123457
		{"999999.5", 6, 0, false},
		{"1.5e3", 3, 2, false},
		{"1.5e2", 3, 2, true},
		{"+12", 2, 0, true},
		{"99.5", 2, 0, false},
	} {
		if got := decimalFits(c.text, c.intDigits, c.scale); got != c.want {
			t.Errorf("decimalFits(%q, %d, %d) = %v", c.text, c.intDigits, c.scale, got)
		}
	}
}

func TestColumnLimit(t *testing.T) {
	text := func(s string) *value { v := &value{}; v.setText([]byte(s)); return v }
	integer := func(i int64) *value { v := &value{}; v.setInt(i); return v }
	float := func(f float64) *value { v := &value{}; v.setFloat(f); return v }
	for _, c := range []struct {
		engine   Engine
		declared string
		v        *value
		bad      string // in the error; "" fits
	}{
		{EnginePostgres, "character varying(3)", text("abc"), ""},
		{EnginePostgres, "character varying(3)", text("abc   "), ""}, // the server drops trailing spaces
		{EnginePostgres, "character varying(3)", text("abcd"), "4 characters"},
		{EnginePostgres, "character varying(3)", text("äöü"), ""}, // characters, not bytes
		{EnginePostgres, "character(2)", text("äöü"), "3 characters"},
		{EnginePostgres, "character varying", text(strings.Repeat("x", 1e5)), ""},
		{EnginePostgres, "text", text(strings.Repeat("x", 1e5)), ""},
		{EngineMySQL, "varchar(3)", text("abcd"), "4 characters"},
		{EngineMySQL, "varchar(3)", text("ab  "), "4 characters"}, // MySQL cuts them with a warning
		{EngineMySQL, "varchar(3)", text("ab "), ""},
		{EngineMySQL, "decimal(5,2)", float(1.125), "more than 2 digits after the point"}, // MySQL rounds it
		{EngineMySQL, "decimal(5,2)", text("1.1200"), ""},
		{EnginePostgres, "numeric(5,2)", float(1.125), ""}, // PostgreSQL rounds it, as SQL says
		{EngineMySQL, "tinytext", text(strings.Repeat("ä", 128)), "256 bytes"},
		{EngineMySQL, "text", text(strings.Repeat("x", 65535)), ""},
		{EngineMySQL, "text", text(strings.Repeat("x", 65536)), "65536 bytes"},
		{EngineMySQL, "mediumtext", text(strings.Repeat("x", 1<<24)), "16777216 bytes"},
		{EngineMySQL, "longtext", text(strings.Repeat("x", 1<<24)), ""},
		{EnginePostgres, "numeric(5,2)", float(999.99), ""},
		{EnginePostgres, "numeric(5,2)", float(1000), "more than 3 digits"},
		{EnginePostgres, "numeric(5,2)", integer(1000), "more than 3 digits"},
		{EnginePostgres, "numeric(5,2)", text("999.995"), "more than 3 digits"},
		{EnginePostgres, "numeric", float(1e300), ""},
		{EngineMySQL, "decimal(5,2)", float(-1000), "more than 3 digits"},
		{EnginePostgres, "smallint", integer(32767), ""},
		{EnginePostgres, "smallint", integer(32768), "out of smallint's range"},
		{EnginePostgres, "integer", integer(-1 << 31), ""},
		{EnginePostgres, "integer", integer(-1<<31 - 1), "out of integer's range"},
		{EnginePostgres, "bigint", integer(1 << 62), ""},
		{EngineMySQL, "enum('open','it''s, done')", text("Open "), ""}, // the collation folds case, drops end spaces
		{EngineMySQL, "enum('open','it''s, done')", text("it's, done"), ""},
		{EngineMySQL, "enum('open','it''s, done')", text("closed"), `"closed" is none of the values`},
		{EngineMySQL, "set('a','b','c')", text("a,C"), ""},
		{EngineMySQL, "set('a','b','c')", text("a,d"), `"a,d" is none of the values`},
		{EngineMySQL, "tinyint(3) unsigned", integer(255), ""},
		{EngineMySQL, "tinyint(3) unsigned", integer(-1), "out of tinyint(3) unsigned's range"},
		{EngineMySQL, "tinyint(1)", integer(-128), ""},
		{EngineMySQL, "mediumint(9)", integer(1 << 23), "out of mediumint(9)'s range"},
		{EngineMySQL, "int(10) unsigned", integer(1<<32 - 1), ""},
		{EngineMySQL, "int(11)", integer(1 << 31), "out of int(11)'s range"},
		{EnginePostgres, "real", float(3.4e38), ""},
		{EnginePostgres, "real", float(1e300), "out of real's range"},
		{EnginePostgres, "real", float(-1e39), "out of real's range"},
		{EnginePostgres, "real", float(1e-50), "out of real's range"}, // would be 0
		{EnginePostgres, "real", float(1e-40), ""},                    // a denormal, which it keeps
		{EnginePostgres, "real", float(math.Inf(1)), ""},              // PostgreSQL's real holds them
		{EnginePostgres, "real", float(math.Inf(-1)), ""},
		{EnginePostgres, "real", float(math.NaN()), ""},
		{EnginePostgres, "double precision", float(1e300), ""},
		{EngineMySQL, "float", float(1e300), "out of float's range"},
		{EngineMySQL, "double", float(1e300), ""},
	} {
		l := limitOf(c.engine, c.declared)
		err := l.check(c.v)
		switch {
		case c.bad == "" && err != nil:
			t.Errorf("%v %s: %v", c.engine, c.declared, err)
		case c.bad != "" && (!errors.Is(err, ErrBadCell) || !strings.Contains(err.Error(), c.bad)):
			t.Errorf("%v %s: got %v, want an ErrBadCell saying %q", c.engine, c.declared, err, c.bad)
		case c.bad != "" && !l.any():
			t.Errorf("%v %s: limited, yet any() is false", c.engine, c.declared)
		}
	}
}

// FuzzDecimalFits holds decimalFits to exact arithmetic: the number
// rounded half away from zero to scale places is below 10^intDigits.
func FuzzDecimalFits(f *testing.F) {
	for _, s := range []string{"999.995", "-0.995", "1.5e3", "0999.5", ".5", "99999999999999999999.5"} {
		f.Add(s, uint8(3), uint8(2))
	}
	f.Fuzz(func(t *testing.T, s string, intDigits, scale uint8) {
		if !isDecimalText(s) || intDigits > 40 || scale > 40 {
			t.Skip()
		}
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Skip()
		}
		// |r| * 10^scale, rounded half away from zero, against 10^(intDigits+scale).
		pow := func(n uint8) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }
		scaled := new(big.Rat).Mul(new(big.Rat).Abs(r), new(big.Rat).SetInt(pow(scale)))
		scaled.Add(scaled, big.NewRat(1, 2))
		rounded := new(big.Int).Quo(scaled.Num(), scaled.Denom())
		want := rounded.Cmp(pow(intDigits+scale)) < 0
		if got := decimalFits(s, int(intDigits), int(scale)); got != want {
			t.Errorf("decimalFits(%q, %d, %d) = %v, exact arithmetic says %v", s, intDigits, scale, got, want)
		}
	})
}

// FuzzEnumValues: the values of an ENUM as MySQL prints its type (each
// quoted, quotes doubled) read back as they were.
func FuzzEnumValues(f *testing.F) {
	f.Add("open", "it's, done", ")")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		want := []string{a, b, c}
		quoted := make([]string, len(want))
		for i, v := range want {
			quoted[i] = "'" + strings.ReplaceAll(v, "'", "''") + "'"
		}
		if got := enumValues("enum(" + strings.Join(quoted, ",") + ")"); !slices.Equal(got, want) {
			t.Errorf("enumValues of %q = %q", want, got)
		}
	})
}

// TestTimestampLimit checks wall clocks against a TIMESTAMP's range at
// its edges: fractions are cut to the column's digits on MariaDB and
// rounded on MySQL, from the microseconds a load sends.
func TestTimestampLimit(t *testing.T) {
	first := time.Date(1970, 1, 1, 0, 0, 1, 0, time.UTC)
	last := time.Date(2038, 1, 19, 3, 14, 7, 999999000, time.UTC)
	at := func(s string) *value {
		tm, err := time.Parse("2006-01-02 15:04:05.999999999", s)
		if err != nil {
			t.Fatal(err)
		}
		// The wall clock counts, whatever the location.
		y, mo, d := tm.Date()
		return &value{tag: tagTime, t: time.Date(y, mo, d, tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.FixedZone("x", 3600))}
	}
	for _, c := range []struct {
		wall        string
		fsp         int
		rounds, fit bool
	}{
		{"2000-06-01 12:00:00", 0, false, true},
		{"1970-01-01 00:00:01", 0, false, true},
		{"1970-01-01 00:00:00.999999", 0, false, false},
		{"1970-01-01 00:00:00.6", 0, true, true}, // rounds up to the first second
		{"2038-01-19 03:14:07.9", 0, false, true},
		{"2038-01-19 03:14:07.5", 0, true, false},
		{"2038-01-19 03:14:07.4", 0, true, true},
		{"2038-01-19 03:14:07.9999", 3, true, false},
		{"2038-01-19 03:14:07.9994", 3, true, true},
		{"2038-01-19 03:14:07.9999999", 6, true, true}, // sent as .999999
		{"2038-01-19 03:14:08", 6, false, false},
		{"1969-12-31 23:59:59", 6, false, false},
	} {
		l := columnLimit{sqlType: "timestamp", timestamp: true, firstWall: first, lastWall: last, fsp: c.fsp, rounds: c.rounds}
		if err := l.check(at(c.wall)); (err == nil) != c.fit {
			t.Errorf("%s, %d digits, rounds %v: %v", c.wall, c.fsp, c.rounds, err)
		}
	}
	for declared, fsp := range map[string]int{"timestamp": 0, "timestamp(3)": 3, "TIMESTAMP(6)": 6} {
		if l := limitOf(EngineMySQL, declared); !l.timestamp || l.fsp != fsp || !l.any() {
			t.Errorf("%s: %+v", declared, l)
		}
	}
	if l := limitOf(EnginePostgres, "timestamp without time zone"); l.timestamp {
		t.Errorf("PostgreSQL's timestamp limited: %+v", l)
	}
}

func TestMariaDBVersion(t *testing.T) {
	for version, want := range map[string][3]int{
		"10.11.19-MariaDB-0+deb12u1": {10, 11, 1}, "11.8.2-MariaDB": {11, 8, 1}, "8.0.36": {0, 0, 0}, "MariaDB": {0, 0, 0},
	} {
		major, minor, ok := mariaDBVersion(version)
		if got := [3]int{major, minor, map[bool]int{true: 1}[ok]}; got != want {
			t.Errorf("%s: %v, want %v", version, got, want)
		}
	}
}

// TestEnumSetLookup: a value already spelled as the set keeps it is
// looked up in place; others are folded as MySQL's collations fold.
func TestEnumSetLookup(t *testing.T) {
	set := newEnumSet([]string{"open", "it's, done"}, true)
	for text, want := range map[string]bool{"open": true, "Open ": true, "OPEN": true, "it's, done  ": true, "opened": false, "": false} {
		if got := set.holds([]byte(text)); got != want {
			t.Errorf("%q: %v", text, got)
		}
	}
	exact := newEnumSet([]string{"open"}, false)
	text := []byte("open")
	if n := testing.AllocsPerRun(100, func() {
		if !set.holds(text) || !exact.holds(text) {
			t.Fatal("open")
		}
	}); n != 0 {
		t.Errorf("%v allocations a lookup", n)
	}
}
