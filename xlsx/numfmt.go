package xlsx

// fmtClass is what a number format makes of a number: the reader types a
// cell as a date only because its format says so.
type fmtClass uint8

const (
	fmtNumber   fmtClass = iota
	fmtDate              // day, month or year, no time of day
	fmtTime              // time of day only
	fmtDuration          // elapsed time: [h]:mm:ss and the like
	fmtDateTime          // a day and a time of day
)

// isDate says whether a format shows a date, or a time of day: the reader
// types such cells as dates.
func (c fmtClass) isDate() bool { return c == fmtDate || c == fmtTime || c == fmtDateTime }

// builtinClass classifies the number formats Excel does not store in the
// file: 14-22 and 45-47 everywhere, 27-36 and 50-58 in East Asian
// locales, 71-81 in Thai ones (ECMA-376 Part 1, 18.8.30).
func builtinClass(id int) fmtClass {
	switch {
	case id == 22:
		return fmtDateTime
	case id >= 14 && id <= 17, id >= 27 && id <= 31, id >= 34 && id <= 36,
		id >= 50 && id <= 58, id >= 71 && id <= 76, id >= 78 && id <= 81:
		return fmtDate
	case id >= 18 && id <= 21, id == 45, id == 47, id == 32, id == 33, id == 77:
		return fmtTime
	case id == 46:
		return fmtDuration
	}
	return fmtNumber
}

// classifyFormat reads a format code's first section and decides whether
// it shows a date, a time of day, an elapsed time or a plain number.
// Quoted text, backslash escapes, _ and * fill characters, and bracketed
// colours, conditions and locales do not count; [h], [m] and [s] make a
// duration. The era letters of East Asian calendars (e, g, b) are not
// taken as dates, as most readers do not.
func classifyFormat(code string) fmtClass {
	// hourOrSecond: an h, an s or AM/PM, which make a date format a
	// date-time one (an m alone may be a month or minutes).
	var date, clock, elapsed, hourOrSecond bool
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch c {
		case ';':
			i = len(code) // only the first section (positive numbers)
		case '"':
			for i++; i < len(code) && code[i] != '"'; i++ {
			}
		case '\\', '_', '*':
			i++
		case '[':
			j := i + 1
			for j < len(code) && code[j] != ']' {
				j++
			}
			switch lowerASCII(code[i+1 : min(j, len(code))]) {
			case "h", "hh", "m", "mm", "s", "ss":
				elapsed = true
			}
			i = j
		case 'G', 'g':
			if hasPrefixFold(code[i:], "general") {
				i += len("general") - 1
			}
		case 'd', 'D', 'y', 'Y':
			date = true
		case 'm', 'M':
			// m is a month unless a time part is near; decided below.
			date = date || !nearClock(code, i)
			clock = clock || nearClock(code, i)
		case 'h', 'H', 's', 'S':
			clock, hourOrSecond = true, true
		case 'A', 'a':
			// AM/PM and A/P mark a clock.
			if hasPrefixFold(code[i:], "am/pm") {
				clock, hourOrSecond = true, true
				i += len("am/pm") - 1
			} else if hasPrefixFold(code[i:], "a/p") {
				clock, hourOrSecond = true, true
				i += len("a/p") - 1
			}
		}
	}
	switch {
	case elapsed:
		return fmtDuration
	case date && hourOrSecond:
		return fmtDateTime
	case date:
		return fmtDate
	case clock:
		return fmtTime
	}
	return fmtNumber
}

// nearClock reports whether the m at i is minutes: after an h or before
// an s, with only separators and more m's between.
func nearClock(code string, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch code[j] {
		case 'h', 'H', '[', ']':
			return true
		case 'm', 'M', ':', ' ', '.', '0':
			continue
		}
		break
	}
	for j := i + 1; j < len(code); j++ {
		switch code[j] {
		case 's', 'S':
			return true
		case 'm', 'M', ':', ' ', '.', '[', ']':
			continue
		}
		break
	}
	return false
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && lowerASCII(s[:len(prefix)]) == prefix
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
