package csvsheet

import (
	"fmt"
	"strings"
	"time"

	"github.com/sheetstream/sheetstream/internal/isotime"
	"github.com/sheetstream/sheetstream/xlsx"
)

// Dates that are not ISO 8601. Two kinds are read without being asked:
// year-first dates with slashes (2012/01/31), which nobody writes
// day-first, and ISO date-times without seconds (2010-01-01 08:00). Any
// other form needs a layout (Options.DateFormats), in strptime's
// directives as csvkit and DuckDB take them: day-first and month-first
// are never guessed between, since 01/02/2024 is both.

// dateLayout is a strptime layout, compiled.
type dateLayout struct {
	text             string
	items            []layoutItem
	hasDate, hasTime bool
}

type layoutItem struct {
	verb byte // 0: a literal
	lit  byte
}

// layoutVerbs are the strptime directives read: year (4 digits, or 2:
// 69-99 are 19xx), month (number, or English name, abbreviated or not),
// day, hour (24 or 12 with %p), minute, second, fraction of a second.
const layoutVerbs = "YymdebhBHIMSfp"

// parseLayout compiles a strptime layout.
func parseLayout(s string) (*dateLayout, error) {
	l := &dateLayout{text: s}
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			l.items = append(l.items, layoutItem{lit: s[i]})
			continue
		}
		if i+1 == len(s) {
			return nil, fmt.Errorf("date format %q ends with %%", s)
		}
		i++
		v := s[i]
		switch {
		case v == '%':
			l.items = append(l.items, layoutItem{lit: '%'})
			continue
		case strings.IndexByte(layoutVerbs, v) < 0:
			return nil, fmt.Errorf("date format %q: %%%c is not a directive this reads (%%Y %%y %%m %%d %%e %%b %%B %%H %%I %%M %%S %%f %%p)", s, v)
		case strings.IndexByte("YymdebhB", v) >= 0:
			l.hasDate = true
		default:
			l.hasTime = true
		}
		l.items = append(l.items, layoutItem{verb: v})
	}
	if !l.hasDate && !l.hasTime {
		return nil, fmt.Errorf("date format %q has no directive", s)
	}
	return l, nil
}

var monthNames = [...]string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}

// parse reads s in the layout, whole: a time and whether it matched and
// names a real day.
func (l *dateLayout) parse(s string) (time.Time, bool) {
	year, month, day := 1899, 12, 30
	var hour, minute, sec, nanos int
	pm, twelve := -1, false
	num := func(min, max int) (int, bool) {
		n, i := 0, 0
		for ; i < max && i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			n = n*10 + int(s[i]-'0')
		}
		if i < min {
			return 0, false
		}
		s = s[i:]
		return n, true
	}
	var ok bool
	for _, it := range l.items {
		switch it.verb {
		case 0:
			if len(s) == 0 || s[0] != it.lit {
				return time.Time{}, false
			}
			s = s[1:]
			continue
		case 'Y':
			year, ok = num(4, 4)
		case 'y':
			year, ok = num(2, 2)
			if year < 69 {
				year += 2000
			} else {
				year += 1900
			}
		case 'm':
			month, ok = num(1, 2)
		case 'd':
			day, ok = num(1, 2)
		case 'e':
			s = strings.TrimPrefix(s, " ")
			day, ok = num(1, 2)
		case 'b', 'h', 'B':
			// An English month's name, whole or its first three letters.
			month, ok = 0, false
			for i, name := range monthNames {
				n := len(name)
				if len(s) < n || !strings.EqualFold(s[:n], name) {
					n = 3
				}
				if len(s) >= n && strings.EqualFold(s[:n], name[:n]) {
					month, ok, s = i+1, true, s[n:]
					break
				}
			}
		case 'H':
			hour, ok = num(1, 2)
		case 'I':
			hour, ok = num(1, 2)
			twelve = true
		case 'M':
			minute, ok = num(1, 2)
		case 'S':
			sec, ok = num(1, 2)
		case 'f':
			digits := len(s)
			var frac int
			frac, ok = num(1, 9)
			for digits -= len(s); digits < 9; digits++ {
				frac *= 10
			}
			nanos = frac
		case 'p':
			switch {
			case len(s) >= 2 && strings.EqualFold(s[:2], "am"):
				pm = 0
			case len(s) >= 2 && strings.EqualFold(s[:2], "pm"):
				pm = 1
			default:
				return time.Time{}, false
			}
			s, ok = s[2:], true
		}
		if !ok {
			return time.Time{}, false
		}
	}
	if len(s) != 0 {
		return time.Time{}, false
	}
	if twelve {
		if hour < 1 || hour > 12 || pm < 0 {
			return time.Time{}, false
		}
		hour = hour%12 + 12*pm
	}
	if month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nanos, time.UTC)
	if t.Day() != day { // February 30th
		return time.Time{}, false
	}
	return t, true
}

// compileLayouts compiles Options.DateFormats.
func compileLayouts(formats []string) ([]*dateLayout, error) {
	var out []*dateLayout
	for _, f := range formats {
		l, err := parseLayout(f)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// inferWith is infer, trying the layouts first: a field one of them
// reads is a date, a date-time or a time of day, whatever else it might
// be (20240131 with %Y%m%d).
func inferWith(dst *xlsx.Cell, s string, layouts []*dateLayout) Kind {
	for _, l := range layouts {
		t, ok := l.parse(s)
		if !ok {
			continue
		}
		if l.hasDate && (t.Year() < 1900 || t.Year() > 9999) {
			break // not a day Excel holds: text
		}
		switch {
		case !l.hasDate:
			*dst = xlsx.TimeOfDay(t)
			return KindTime
		case l.hasTime:
			*dst = xlsx.Time(t)
		default:
			*dst = xlsx.Date(t)
		}
		return KindDate
	}
	return infer(dst, s)
}

// unambiguousDate reads the non-ISO forms no one can misread: 2012/01/31
// (and with a time), and ISO date-times without seconds
// (2010-01-01 08:00, 2010/01/01T08:00), by rewriting them as ISO for
// isotime.
func unambiguousDate(s string) (time.Time, isotime.Kind) {
	if len(s) < 10 || len(s) > 29 || s[4] != s[7] || s[4] != '/' && s[4] != '-' {
		return time.Time{}, isotime.None
	}
	var buf [32]byte
	b := append(buf[:0], s...)
	b[4], b[7] = '-', '-'
	// HH:MM at the end, without seconds.
	if len(b) == 16 && (b[10] == ' ' || b[10] == 'T') && b[13] == ':' {
		b = append(b, ":00"...)
	}
	if string(b) == s {
		return time.Time{}, isotime.None // plain ISO: infer's own
	}
	return isotime.Parse(string(b))
}
