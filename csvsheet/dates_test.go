package csvsheet

import (
	"strings"
	"testing"
	"time"
)

// FuzzDateFormat: a strptime layout and a field never panic; a field a
// layout reads names a real day (or time of day), which the same layout
// reads again, the same, from the field's own text.
func FuzzDateFormat(f *testing.F) {
	for _, s := range [][2]string{{"%d/%m/%Y", "31/01/2024"}, {"%b %d %Y", "Jan 1 2000"}, {"%Y/%m/%d %H:%M", "2010/01/01 00:00"},
		{"%I:%M %p", "7:05 PM"}, {"%Y%m%d", "20240229"}, {"%e %B %y", " 5 March 99"}, {"%H:%M:%S.%f", "23:59:59.123456789"},
		{"%%%Y", "%2024"}, {"%d/%m/%Y", "31/02/2024"}, {"%Q", "x"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, layout, field string) {
		l, err := parseLayout(layout)
		if err != nil {
			if !strings.Contains(err.Error(), "date format") {
				t.Fatalf("%q: %v", layout, err)
			}
			return
		}
		tm, ok := l.parse(field)
		if !ok {
			return
		}
		if tm.Hour() > 23 || tm.Location() != time.UTC {
			t.Fatalf("%q in %q: %v", field, layout, tm)
		}
		again, ok := l.parse(field)
		if !ok || !again.Equal(tm) {
			t.Fatalf("%q in %q read twice: %v, %v", field, layout, tm, again)
		}
	})
}
