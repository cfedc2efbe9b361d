package isotime

import (
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	cases := []struct {
		in   string
		kind Kind
		want time.Time
	}{
		{"2024-02-29", Date, time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)},
		{"2024-02-29 13:45:30", DateTime, time.Date(2024, 2, 29, 13, 45, 30, 0, time.UTC)},
		{"2024-02-29T13:45:30.123456789", DateTime, time.Date(2024, 2, 29, 13, 45, 30, 123456789, time.UTC)},
		{"13:45:30.5", Clock, time.Date(2000, 1, 1, 13, 45, 30, 5e8, time.UTC)},
		{"2023-02-29", None, time.Time{}}, {"1899-12-31", None, time.Time{}}, {"2024-02-29 24:00:00", None, time.Time{}},
		{"2024-02-29T13:45:30Z", None, time.Time{}}, {"2024-02-29 13:45", None, time.Time{}}, {"13:45:30.", None, time.Time{}},
		{"2024-2-29", None, time.Time{}}, {"", None, time.Time{}}, {"12:34", None, time.Time{}},
	}
	for _, c := range cases {
		got, kind := Parse(c.in)
		if kind != c.kind || !got.Equal(c.want) {
			t.Errorf("Parse(%q) = %v, %d; want %v, %d", c.in, got, kind, c.want, c.kind)
		}
	}
}

// FuzzParse checks what Parse recognises against time.Parse with the
// layouts of those forms.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"2024-02-29", "2024-02-29 13:45:30", "2024-02-29T13:45:30.123", "13:45:30.5", "1899-12-31",
		"2024-13-01", "2024-02-29 13:45:30.1234567891", "00:00:00"} {
		f.Add(s)
	}
	layouts := map[Kind][]string{
		Date:     {"2006-01-02"},
		DateTime: {"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999"},
		Clock:    {"15:04:05.999999999"},
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, kind := Parse(s)
		if kind == None {
			return // time.Parse takes more (one-digit fields, zones): only what Parse takes is checked
		}
		for _, l := range layouts[kind] {
			want, err := time.Parse(l, s)
			if kind == Clock {
				want = want.AddDate(2000, 0, 0)
			}
			if err == nil {
				if !got.Equal(want) {
					t.Fatalf("Parse(%q) = %v, time.Parse says %v", s, got, want)
				}
				return
			}
		}
		t.Fatalf("Parse(%q) = %v (%d), which time.Parse refuses", s, got, kind)
	})
}
