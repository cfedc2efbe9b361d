package xlsx

import (
	"math"
	"strings"
)

// Autofit sizes a streamed sheet's columns to the text of its first rows
// (SheetOptions.AutoFit): the widths go before the rows in the file, so
// they are measured from the rows written before the sheet's head is,
// at most AutoFitRows of them. Text is measured in pixels of Excel's
// default font, Calibri 11, by the widths of its characters in groups,
// as measured in Excel (about 7 pixels a digit); a column is its widest
// text plus Excel's padding, in Excel's width units.

// calibriWidths are Calibri 11's character widths in whole pixels at 96
// dpi, by group (measured in Excel: 28 characters of each group in a
// cell; Excel lays text out in whole pixels).
var calibriWidths = func() (w [128]float64) {
	for chars, px := range map[string]float64{
		"W@": 377.01 / 28, "mM": 348.01 / 28, "w%": 319.01 / 28, "NOQ&": 290.01 / 28,
		"ADGHUV": 261.01 / 28, "bdehnopquBCKPRX": 232.01 / 28,
		"0123456789agkvxyEFSTYZ#$*+<=>?^_|~": 203.01 / 28,
		`cszL"/\`:                            174.01 / 28, "frtJ!()-[]{}": 145.01 / 28, "ijlI,.:;`": 116.01 / 28, "' ": 87.01 / 28,
	} {
		for _, c := range chars {
			w[c] = math.Floor(px)
		}
	}
	return w
}()

// autofitPadding is what Excel adds to a column's widest text, in pixels.
const autofitPadding = 12

// textPx is the width of text in Calibri 11, its longest line.
func textPx(s string) float64 {
	longest, line := 0.0, 0.0
	for _, r := range s {
		switch {
		case r == '\n':
			longest, line = max(longest, line), 0
		case r < 128 && calibriWidths[r] > 0:
			line += calibriWidths[r]
		case r < 128:
			line += calibriWidths['0']
		default:
			line += 11 // wider scripts: about a capital's width
		}
	}
	return max(longest, line)
}

// fitting reports whether the sheet measures the row it writes next.
func (s *Sheet) fitting() bool {
	return s.opts.AutoFit && !s.headWritten && s.row < s.autofitRows()
}

func (s *Sheet) autofitRows() int {
	if s.opts.AutoFitRows > 0 {
		return s.opts.AutoFitRows
	}
	return 100
}

// measure widens the fitted columns to a row's cells.
func (s *Sheet) measure(cells []Cell) {
	for col0 := range cells {
		c := &cells[col0]
		if c.kind == kindEmpty {
			continue
		}
		px := s.cellPx(c)
		for len(s.fitPx) <= col0 {
			s.fitPx = append(s.fitPx, 0)
		}
		s.fitPx[col0] = max(s.fitPx[col0], px)
	}
}

// cellPx is the width of a cell's shown value, in pixels.
func (s *Sheet) cellPx(c *Cell) float64 {
	digit := calibriWidths['0']
	var text string
	px := -1.0
	switch c.kind {
	case kindString:
		text = c.s
		if c.link != linkNone && c.s2 != "" {
			text = c.s2
		}
	case kindRich:
		var b strings.Builder
		for _, r := range c.runs {
			b.WriteString(r.Text)
		}
		text = b.String()
	case kindInt, kindUint, kindFloat, kindFloat32, kindDecimal:
		px = float64(numberDigits(c)) * digit
	case kindDateTime:
		px = float64(len(defaultDateTimeFmt)) * digit
	case kindDate:
		px = float64(len(defaultDateFmt)) * digit
	case kindTimeOfDay, kindDuration:
		px = float64(len(defaultTimeFmt)) * digit
	case kindBool:
		text = "FALSE"
		if c.boolDigit() == '1' {
			text = "TRUE"
		}
	case kindError:
		text = c.s
	case kindFormula:
		// A formula shows its value: the cached one, as far as known.
		switch c.cached {
		case kindString:
			text = c.s2
		case kindInt, kindUint, kindFloat, kindFloat32, kindDecimal:
			cached := Cell{kind: c.cached, i: c.i, num: c.num, s: c.s2}
			px = float64(numberDigits(&cached)) * digit
		case kindEmpty:
		default:
			px = 10 * digit
		}
	}
	if px < 0 {
		px = textPx(text)
	}
	return px * s.fontScale(c.style)
}

// numberDigits is how many characters a number shows as in General
// format: at most 11, as Excel rounds wider ones.
func numberDigits(c *Cell) int {
	var b [32]byte
	var text []byte
	switch c.kind {
	case kindInt:
		text = AppendNumberText(b[:0], float64(c.i))
	case kindUint:
		text = AppendNumberText(b[:0], float64(c.uint()))
	case kindDecimal:
		return min(len(c.s), 11)
	default:
		text = AppendNumberText(b[:0], c.num)
	}
	return min(len(text), 11)
}

// fontScale is how much wider than Calibri 11 a style's font sets
// text: by its size, and bold about 7% wider. Other typefaces are
// measured as Calibri.
func (s *Sheet) fontScale(id StyleID) float64 {
	if id == 0 {
		return 1
	}
	s.w.lockShared()
	defer s.w.unlockShared()
	if int(id) >= len(s.w.styles.styles) {
		return 1
	}
	f := s.w.styles.styles[id].Font
	scale := 1.0
	if f.Size > 0 {
		scale = f.Size / 11
	}
	if f.Bold {
		scale *= 1.07
	}
	return scale
}

// fittedColumns are the columns the measured widths set, leaving alone
// those SetColumn set.
func (s *Sheet) fittedColumns() []column {
	var out []column
	for col0, px := range s.fitPx {
		if px == 0 {
			continue
		}
		col := col0 + 1
		set := false
		for _, c := range s.cols {
			if col >= c.first && col <= c.last {
				set = true
			}
		}
		if set {
			continue
		}
		chars := fittedChars(px)
		limit := s.opts.AutoFitMax
		if limit <= 0 || limit > 255 {
			limit = 255
		}
		out = append(out, column{col, col, ColumnOptions{Width: min(chars, limit)}, true})
	}
	return out
}

// fittedChars is the width, in the characters ColumnOptions.Width takes,
// that Excel stores for a column whose widest text is px wide: a
// column of total pixels is stored as (total - 5) / 7, and a Width w as
// (w*7 + 5) / 7 (see columnWidth).
func fittedChars(px float64) float64 {
	total := px + autofitPadding
	return (total - 10) / 7
}
