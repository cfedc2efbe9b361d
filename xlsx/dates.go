package xlsx

import "time"

// daysFromCivil counts days from 1970-01-01 to y-m-d in the proleptic
// Gregorian calendar (H. Hinnant's algorithm), without going through
// time.Time arithmetic.
func daysFromCivil(y int, m time.Month, d int) int64 {
	yy := int64(y)
	if m <= 2 {
		yy--
	}
	era := yy / 400
	if yy < 0 && yy%400 != 0 {
		era--
	}
	yoe := yy - era*400
	mp := (int64(m) + 9) % 12
	doy := (153*mp+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

var (
	epoch1900   = daysFromCivil(1899, time.December, 30)
	epoch1904   = daysFromCivil(1904, time.January, 1)
	march1900   = daysFromCivil(1900, time.March, 1)
	jan1900     = daysFromCivil(1900, time.January, 1)
	lastExcel   = daysFromCivil(9999, time.December, 31)
	nanosPerDay = float64(24 * time.Hour)
)

// serialDays turns a calendar day into Excel's day number. In the 1900
// system Excel counts a 29 February 1900 that never was (Lotus 1-2-3's
// bug), so days before March 1900 are one lower than a plain count.
func serialDays(days int64, date1904 bool) (int64, bool) {
	if days > lastExcel {
		return 0, false
	}
	if date1904 {
		return days - epoch1904, days >= epoch1904
	}
	if days < jan1900 {
		return 0, false
	}
	if days < march1900 {
		return days - epoch1900 - 1, true
	}
	return days - epoch1900, true
}

// excelSerial is t's wall clock as an Excel serial date-time.
func excelSerial(t time.Time, date1904 bool) (float64, bool) {
	day, nanos := wallClock(t)
	days, ok := serialDays(day, date1904)
	if !ok {
		return 0, false
	}
	return float64(days) + float64(nanos)/nanosPerDay, true
}

// timeFraction is the part of the day t's wall clock has run.
func timeFraction(t time.Time) float64 {
	_, nanos := wallClock(t)
	return float64(nanos) / nanosPerDay
}

// wallClock is t's wall-clock day (days since 1970-01-01, as
// daysFromCivil counts them) and the nanoseconds of it that have run: one
// lookup of t's zone and integer arithmetic, where Date and Clock each
// turn the instant into a calendar date (a date cell is written once a
// row in many exports).
func wallClock(t time.Time) (day, nanos int64) {
	_, offset := t.Zone()
	s := t.Unix() + int64(offset)
	day = s / 86400
	if s%86400 < 0 {
		day--
	}
	return day, (s-day*86400)*int64(time.Second) + int64(t.Nanosecond())
}

// DateFromSerial converts an Excel serial date-time back to a wall-clock
// time in UTC, rounded to the microsecond (a double holds no more).
func DateFromSerial(serial float64, date1904 bool) time.Time {
	days := int64(serial)
	if serial < 0 && float64(days) != serial {
		days--
	}
	frac := serial - float64(days)
	var base int64
	switch {
	case date1904:
		base = epoch1904
	case days < 61:
		// Serials 1..59 are January and February 1900 and 60 is the phantom
		// 29 February, which maps to 1 March here.
		base = epoch1900 + 1
		if days == 60 {
			base = epoch1900
		}
	default:
		base = epoch1900
	}
	t := time.Unix((base+days)*86400, 0).UTC()
	us := int64(frac*float64(24*time.Hour/time.Microsecond) + 0.5)
	return t.Add(time.Duration(us) * time.Microsecond)
}
