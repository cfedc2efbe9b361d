package csvsheet_test

import (
	"context"
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// FuzzInfer checks that inference never panics and never changes what a
// field means: a number keeps its value, a date its calendar day and
// clock, a boolean its truth, and everything else stays the same text.
func FuzzInfer(f *testing.F) {
	for _, s := range []string{"", "1", "-0", "007", "1.5e3", ".5", "1.", "true", "2024-02-29", "2024-02-29T13:45:00.123",
		"13:45:00", "1e999", "9999999999999999", "0.1000000000000000", "0.14285714285714285", "0.1428571428571428", "2024-02-30", "x", "+.5e-3",
		"2012/01/31", "2010-01-01 08:00", "2010/01/01T23:59", "2012/02/30", "2012/01-31"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, field string) {
		switch v := csvsheet.Infer(field).Value().(type) {
		case nil:
			if field != "" {
				t.Fatalf("%q became empty", field)
			}
		case string:
			if v != field {
				t.Fatalf("%q became text %q", field, v)
			}
		case int64:
			if p, err := strconv.ParseInt(strings.TrimPrefix(field, "+"), 10, 64); err != nil || p != v {
				t.Fatalf("%q became %d", field, v)
			}
		case float64:
			if p, err := strconv.ParseFloat(field, 64); err != nil || p != v {
				t.Fatalf("%q became %v", field, v)
			}
			// No digit lost: the number prints with the field's digits.
			if digits(field) != digits(strconv.FormatFloat(v, 'e', -1, 64)) && len(digits(field)) > 15 {
				t.Fatalf("%q became %v, which has other digits", field, v)
			}
		case bool:
			if !strings.EqualFold(field, strconv.FormatBool(v)) {
				t.Fatalf("%q became %v", field, v)
			}
		case time.Time:
			layouts := []string{"2006-01-02", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "15:04:05.999999999",
				"2006/01/02", "2006/01/02T15:04:05.999999999", "2006/01/02 15:04:05.999999999",
				"2006-01-02 15:04", "2006-01-02T15:04", "2006/01/02 15:04", "2006/01/02T15:04"}
			for _, l := range layouts {
				if p, err := time.Parse(l, field); err == nil && p.Format("15:04:05.999999999") == v.Format("15:04:05.999999999") &&
					(l == layouts[3] || p.Format("2006-01-02") == v.Format("2006-01-02")) {
					return
				}
			}
			t.Fatalf("%q became %v", field, v)
		default:
			t.Fatalf("%q became %T", field, v)
		}
	})
}

// digits is the significant digits of decimal text.
func digits(s string) string {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(strings.TrimLeft(strings.ReplaceAll(strings.TrimLeft(s, "+-"), ".", ""), "0"), "0")
}

// FuzzTable: a Table reads any text without panicking, and what it reads
// is what encoding/csv reads, typed by Infer: the same records, numbered
// from 1, and each non-empty field as its cell in its column.
func FuzzTable(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "\ufeffx\n\"q,\"\"\"\n", "a,,c\n,,\n", "1\n\n2\n", "\"open\n", "a\r\nb\r\n", "\xff,1\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		want := csv.NewReader(strings.NewReader(strings.TrimPrefix(text, "\ufeff")))
		want.FieldsPerRecord = -1
		n := 0
		err := csvsheet.NewTable(strings.NewReader(text), csvsheet.Options{}).EachRow(context.Background(), func(row xlsx.Row) error {
			record, err := want.Read()
			if n++; err != nil || row.Num != n {
				t.Fatalf("row %d (%d): encoding/csv says %v", row.Num, n, err)
			}
			i := 0
			for col, field := range record {
				if field == "" {
					continue
				}
				c := row.Cells[i]
				if i++; c.Col() != col+1 {
					t.Fatalf("row %d: field %d in column %d", n, col+1, c.Col())
				}
				inferred := xlsx.ValueOf(col+1, csvsheet.Infer(field))
				if c.Type() != inferred.Type() || c.String() != inferred.String() {
					t.Fatalf("row %d, field %d: %v %q, Infer %v %q", n, col+1, c.Type(), c.String(), inferred.Type(), inferred.String())
				}
			}
			if i != len(row.Cells) {
				t.Fatalf("row %d: %d cells for %d non-empty fields", n, len(row.Cells), i)
			}
			return nil
		})
		if err == nil {
			if _, end := want.Read(); end != io.EOF {
				t.Fatalf("the table ended at row %d; encoding/csv reads on: %v", n, end)
			}
		}
	})
}
