package sqlsheet

import (
	"strings"
	"testing"
)

// FuzzSafeSQLType: what safeSQLType lets into CREATE TABLE is letters,
// digits, spaces, one size in parentheses and array brackets, made of
// type words only: nothing that ends a statement, quotes or comments.
func FuzzSafeSQLType(f *testing.F) {
	for _, s := range []string{"numeric(12,2)", "character varying(40)", "timestamp with time zone", "integer[]",
		"bigint(20) unsigned", "TEXT); DROP TABLE t; --", "INTEGER REFERENCES t(v)", "text default 'x'", "int/**/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !safeSQLType(s) {
			return
		}
		if strings.Count(s, "(") > 1 || strings.ContainsAny(s, ";'\"`-/*\\\x00") {
			t.Fatalf("%q passed", s)
		}
		for _, r := range s {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(" (),[]_\t\n\r\f\v", r)) {
				t.Fatalf("%q passed with %q", s, r)
			}
		}
	})
}
