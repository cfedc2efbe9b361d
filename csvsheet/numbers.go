package csvsheet

// How numbers were written: the decimals a number format keeps (10.50
// shows as 10.50, not 10.5), decimal commas (1.234,56), and columns in
// which two different texts read as one number (version numbers: 1.10 and
// 1.1), which stay text.

import (
	"strconv"
	"strings"
	"unsafe"

	"github.com/sheetstream/sheetstream/xlsx"
)

// maxDecimals bounds the decimals a number format keeps: past it the
// number shows as General. It also bounds the styles a conversion adds
// (two a decimal count: with and without a thousands separator).
const maxDecimals = 15

// writtenDecimals is how many decimals plain number text s has after its
// decimal mark (0 without one), and whether it groups thousands; ok is
// false for text whose digits a number format cannot show as written (an
// exponent, more than 15 significant digits).
func writtenDecimals(s string, mark byte) (decimals int, grouped, ok bool) {
	digits := 0
	seenMark := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			if digits > 0 || c != '0' || seenMark {
				digits++
			}
			if seenMark {
				decimals++
			}
		case c == mark:
			seenMark = true
		case c == '-' || c == '+':
		case c == '.' || c == ' ' || c == 0xC2 && i+1 < len(s) && s[i+1] == 0xA0:
			if c == 0xC2 {
				i++ // U+00A0, a no-break space
			}
			grouped = true // the thousands separator of a decimal comma
		default:
			return 0, false, false // an exponent, or text
		}
	}
	return decimals, grouped, digits <= 15 && decimals <= maxDecimals
}

// showsWritten says whether number text f needs a format to show as
// written: decimals ending in a zero (10.50, 2.0: General shows 10.5 and
// 2) or, with a decimal comma, grouped thousands. Other numbers show as
// written in General, and a format per cell would cost every such cell
// its style.
func showsWritten(f string, mark byte) bool {
	if last := f[len(f)-1]; last == '0' && strings.IndexByte(f, mark) >= 0 {
		return true
	}
	return mark == ',' && strings.ContainsAny(f, ". \u00a0")
}

// cellLook gives a converted field's cell the look it was written with:
// a number with trailing zeros or grouped thousands the format that shows
// it so; text longer than a cell holds is cut (unless strict, when the
// writer fails on it, naming the cell).
type cellLook struct {
	styles numberStyles
	mark   byte
	strict bool
}

// apply gives c, the cell of field f (in a column of numbers with
// number), its look, and says whether it cut the text.
func (l *cellLook) apply(c *xlsx.Cell, f string, number bool) (cut bool, err error) {
	if number && showsWritten(f, l.mark) && !nullMarker(f) {
		if d, grouped, ok := writtenDecimals(f, l.mark); ok {
			id, styled, err := l.styles.style(d, grouped)
			if err != nil {
				return false, err
			}
			if styled {
				*c = c.WithStyle(id)
			}
		}
	}
	if len(f) > xlsx.MaxCellChars && !l.strict {
		// Only text is that long: cut, as export cuts, and counted.
		if text, ok := xlsx.TruncateText(f); ok {
			*c = xlsx.String(text)
			return true, nil
		}
	}
	return false, nil
}

// numberStyles hands out, per decimal count, the style showing that many
// decimals ("0.00", or "#,##0.00" where the text grouped thousands).
type numberStyles struct {
	add   func(xlsx.Style) (xlsx.StyleID, error) // the sink's AddStyle
	ids   [2][maxDecimals + 1]xlsx.StyleID
	added [2][maxDecimals + 1]bool
}

// style is the style of a number written with decimals decimals; ok is
// false for General (no decimals, no grouping).
func (ns *numberStyles) style(decimals int, grouped bool) (xlsx.StyleID, bool, error) {
	if decimals == 0 && !grouped {
		return 0, false, nil
	}
	g := 0
	if grouped {
		g = 1
	}
	if ns.added[g][decimals] {
		return ns.ids[g][decimals], true, nil
	}
	code := "0"
	if grouped {
		code = "#,##0"
	}
	if decimals > 0 {
		code += "." + strings.Repeat("0", decimals)
	}
	id, err := ns.add(xlsx.Style{NumFmt: code})
	if err != nil {
		return 0, false, err
	}
	ns.ids[g][decimals], ns.added[g][decimals] = id, true
	return id, true, nil
}

// commaNumber reads number text with a decimal comma ("1234,56",
// "-0,5", "1.234,56", "1 234 567", "1.234"), its thousands separated by
// '.' or a space (a no-break space too) in groups of three, as the
// plain text inference takes it ("1234.56"), appended to buf. ok is
// false for anything else, which is read as it is.
func commaNumber(s string, buf []byte) (out []byte, ok bool) {
	if s == "" {
		return buf, false
	}
	start := len(buf)
	i := 0
	if s[0] == '-' || s[0] == '+' {
		buf = append(buf, s[0])
		i++
	}
	group, groups, sep := 0, 0, byte(0)
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			buf = append(buf, c)
			group++
		case c == '.' || c == ' ' || c == 0xC2 && i+1 < len(s) && s[i+1] == 0xA0:
			if c == 0xC2 {
				i++ // U+00A0, two bytes
			}
			if sep == 0 {
				sep = c
			}
			// A separator follows a first group of 1 to 3 digits, or a
			// group of exactly 3, always the same separator.
			if c != sep || group == 0 || group > 3 || groups > 0 && group != 3 {
				return buf[:start], false
			}
			groups++
			group = 0
		case c == ',':
			if group == 0 || groups > 0 && group != 3 || i+1 == len(s) {
				return buf[:start], false
			}
			buf = append(buf, '.')
			for i++; i < len(s); i++ {
				if s[i] < '0' || s[i] > '9' {
					return buf[:start], false
				}
				buf = append(buf, s[i])
			}
			return buf, true
		default:
			return buf[:start], false
		}
	}
	if group == 0 || groups > 0 && group != 3 {
		return buf[:start], false
	}
	return buf, true
}

// inferComma is inferWith for text with a decimal comma: field f in its
// plain form p (f itself where it is no comma-number), and text that
// reads as a number only with a decimal point ("1.5") is text.
func inferComma(dst *xlsx.Cell, f, p string, layouts []*dateLayout) Kind {
	k := inferWith(dst, p, layouts)
	if k == KindNumber && p == f && strings.IndexByte(f, '.') >= 0 {
		*dst = xlsx.String(f)
		return KindText
	}
	return k
}

// bytesView is b as a string, without a copy: valid while b's bytes are
// not written again.
func bytesView(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// decimalName is Options.Decimal for messages.
func decimalName(d byte) string { return strconv.QuoteRune(rune(d)) }
