// Package isotime recognises the ISO 8601 forms that text holds dates in —
// yyyy-mm-dd, yyyy-mm-dd hh:mm:ss[.fff] (T or space) and hh:mm:ss[.fff],
// without a zone — for CSV inference and for databases (SQLite) that keep
// dates as text.
package isotime

import "time"

// Kind is the form Parse recognised.
type Kind uint8

const (
	None     Kind = iota // not a date or time
	Date                 // yyyy-mm-dd
	DateTime             // yyyy-mm-dd hh:mm:ss[.fff]
	Clock                // hh:mm:ss[.fff], on 2000-01-01
)

// Parse reads s whole, in UTC. Dates before 1900, which Excel cannot show,
// and values with a zone are None.
func Parse(s string) (time.Time, Kind) {
	if len(s) >= 8 && s[2] == ':' {
		h, m, sec, nsec, n, ok := clock(s)
		if !ok || n != len(s) {
			return time.Time{}, None
		}
		return time.Date(2000, 1, 1, h, m, sec, nsec, time.UTC), Clock
	}
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return time.Time{}, None
	}
	y, ok1 := digits(s, 4)
	mo, ok2 := digits(s[5:], 2)
	d, ok3 := digits(s[8:], 2)
	if !ok1 || !ok2 || !ok3 || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || y < 1900 {
		return time.Time{}, None
	}
	if len(s) == 10 {
		return time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC), Date
	}
	if len(s) < 19 || s[10] != 'T' && s[10] != ' ' {
		return time.Time{}, None
	}
	h, m, sec, nsec, n, ok := clock(s[11:])
	if !ok || 11+n != len(s) {
		return time.Time{}, None
	}
	return time.Date(y, time.Month(mo), d, h, m, sec, nsec, time.UTC), DateTime
}

func digits(s string, n int) (int, bool) {
	if len(s) < n {
		return 0, false
	}
	v := 0
	for i := range n {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// clock reads hh:mm:ss[.fffffffff] and reports how much of s it used.
func clock(s string) (h, m, sec, nsec, n int, ok bool) {
	var ok1, ok2, ok3 bool
	h, ok1 = digits(s, 2)
	m, ok2 = digits(s[min(3, len(s)):], 2)
	sec, ok3 = digits(s[min(6, len(s)):], 2)
	if !ok1 || !ok2 || !ok3 || s[2] != ':' || s[5] != ':' || h > 23 || m > 59 || sec > 59 {
		return 0, 0, 0, 0, 0, false
	}
	n = 8
	if n < len(s) && s[n] == '.' {
		n++
		scale := 100_000_000
		start := n
		for n < len(s) && '0' <= s[n] && s[n] <= '9' && n-start < 9 {
			nsec += int(s[n]-'0') * scale
			scale /= 10
			n++
		}
		if n == start {
			return 0, 0, 0, 0, 0, false
		}
	}
	return h, m, sec, nsec, n, true
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
