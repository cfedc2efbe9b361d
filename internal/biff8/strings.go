package biff8

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"

	"github.com/sheetstream/sheetstream/internal/biff12"
)

// Cursor reads a record and its continuations as one run of bytes,
// except that character data carried on into a CONTINUE record starts
// there with a new flags byte, as MS-XLS 2.1.4 describes.
type Cursor struct {
	segs [][]byte
	b    []byte
	tmp  [8]byte
}

// NewCursor starts at the beginning of rec's payload.
func NewCursor(rec Record) *Cursor {
	c := &Cursor{}
	c.Reset(rec)
	return c
}

// Reset starts the cursor over on another record.
func (c *Cursor) Reset(rec Record) {
	c.segs = append(c.segs[:0], rec.Conts...)
	c.b = rec.Data
}

// Len is what is left in the current segment and those after it.
func (c *Cursor) Len() int {
	n := len(c.b)
	for _, s := range c.segs {
		n += len(s)
	}
	return n
}

// advance moves to the next non-empty segment when the current one is
// used up; false at the end.
func (c *Cursor) advance() bool {
	for len(c.b) == 0 {
		if len(c.segs) == 0 {
			return false
		}
		c.b, c.segs = c.segs[0], c.segs[1:]
	}
	return true
}

// Skip passes over n bytes of structure (not characters).
func (c *Cursor) Skip(n int) error {
	for n > 0 {
		if !c.advance() {
			return fmt.Errorf("%w: %d bytes missing", ErrTruncated, n)
		}
		k := min(n, len(c.b))
		c.b, n = c.b[k:], n-k
	}
	return nil
}

// read returns n bytes of structure, copied when they straddle segments.
func (c *Cursor) read(n int) ([]byte, error) {
	if !c.advance() {
		return nil, fmt.Errorf("%w: %d bytes missing", ErrTruncated, n)
	}
	if len(c.b) >= n {
		out := c.b[:n]
		c.b = c.b[n:]
		return out, nil
	}
	out := c.tmp[:0]
	for len(out) < n {
		if !c.advance() {
			return nil, fmt.Errorf("%w: %d bytes missing", ErrTruncated, n-len(out))
		}
		k := min(n-len(out), len(c.b))
		out = append(out, c.b[:k]...)
		c.b = c.b[k:]
	}
	return out, nil
}

// Uint8, Uint16 and Uint32 read little-endian integers.
func (c *Cursor) Uint8() (byte, error) {
	b, err := c.read(1)
	if err != nil {
		return 0, err
	}
	return b[0], nil
}

func (c *Cursor) Uint16() (uint16, error) {
	b, err := c.read(2)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint16(b), nil
}

func (c *Cursor) Uint32() (uint32, error) {
	b, err := c.read(4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

// UnicodeString appends a BIFF8 string to dst as UTF-8: a character
// count of lenBytes (1 or 2) bytes, a flags byte, then, as the flags
// say, a rich text run count, an extension size, the characters
// (compressed to one byte each, or UTF-16), the runs and the extension
// (XLUnicodeRichExtendedString; XLUnicodeString and
// ShortXLUnicodeString are the plain cases). maxBytes bounds the UTF-8
// appended.
func (c *Cursor) UnicodeString(dst []byte, lenBytes, maxBytes int) ([]byte, error) {
	var cch int
	if lenBytes == 1 {
		n, err := c.Uint8()
		if err != nil {
			return dst, err
		}
		cch = int(n)
	} else {
		n, err := c.Uint16()
		if err != nil {
			return dst, err
		}
		cch = int(n)
	}
	flags, err := c.Uint8()
	if err != nil {
		return dst, err
	}
	runs, ext := 0, 0
	if flags&0x08 != 0 {
		n, err := c.Uint16()
		if err != nil {
			return dst, err
		}
		runs = int(n)
	}
	if flags&0x04 != 0 {
		n, err := c.Uint32()
		if err != nil {
			return dst, err
		}
		if n > maxWithConts {
			return dst, fmt.Errorf("%w: a string extension of %d bytes", ErrTooLarge, n)
		}
		ext = int(n)
	}
	dst, err = c.chars(dst, cch, flags&0x01 != 0, maxBytes)
	if err != nil {
		return dst, err
	}
	if err := c.Skip(4*runs + ext); err != nil {
		return dst, err
	}
	return dst, nil
}

// Chars appends cch characters after their flags byte (an
// XLUnicodeStringNoCch) to dst as UTF-8.
func (c *Cursor) Chars(dst []byte, cch, maxBytes int) ([]byte, error) {
	flags, err := c.Uint8()
	if err != nil {
		return dst, err
	}
	return c.chars(dst, cch, flags&0x01 != 0, maxBytes)
}

// chars appends cch characters, compressed or UTF-16 as wide says until a
// continuation's flags byte says otherwise.
func (c *Cursor) chars(dst []byte, cch int, wide bool, maxBytes int) ([]byte, error) {
	start := len(dst)
	for cch > 0 {
		if len(c.b) == 0 {
			// Characters carried on: the next segment starts with flags.
			if !c.advance() {
				return dst, fmt.Errorf("%w: %d characters missing", ErrTruncated, cch)
			}
			wide = c.b[0]&0x01 != 0
			c.b = c.b[1:]
			continue
		}
		if wide {
			k := min(cch, len(c.b)/2)
			if k == 0 {
				return dst, fmt.Errorf("%w: half a character", ErrTruncated)
			}
			dst = biff12.AppendUTF16(dst, c.b[:2*k])
			c.b, cch = c.b[2*k:], cch-k
		} else {
			k := min(cch, len(c.b))
			for _, b := range c.b[:k] {
				if b < utf8.RuneSelf {
					dst = append(dst, b)
				} else {
					dst = utf8.AppendRune(dst, rune(b))
				}
			}
			c.b, cch = c.b[k:], cch-k
		}
		if len(dst)-start > maxBytes {
			return dst, fmt.Errorf("%w: a string over %d bytes", ErrTooLarge, maxBytes)
		}
	}
	return dst, nil
}

// ByteString appends a BIFF5 string: a count of lenBytes (1 or 2)
// bytes, then the bytes in the workbook's code page, decoded by dec.
func (c *Cursor) ByteString(dst []byte, lenBytes int, dec Decoder) ([]byte, error) {
	var n int
	if lenBytes == 1 {
		v, err := c.Uint8()
		if err != nil {
			return dst, err
		}
		n = int(v)
	} else {
		v, err := c.Uint16()
		if err != nil {
			return dst, err
		}
		n = int(v)
	}
	if c.advance(); len(c.b) < n {
		return dst, fmt.Errorf("%w: a string of %d bytes in %d", ErrTruncated, n, len(c.b))
	}
	b := c.b[:n]
	c.b = c.b[n:]
	return dec(dst, b), nil
}

// Decoder appends text in a code page to dst as UTF-8.
type Decoder func(dst, src []byte) []byte

// CodePageDecoder returns the decoder for a CODEPAGE record's value; code pages
// it does not know decode as Windows-1252, Excel's default.
func CodePageDecoder(cp uint16) Decoder {
	var enc encoding.Encoding
	switch cp {
	case 367, 20127:
		enc = charmap.Windows1252 // ASCII is its lower half
	case 437:
		enc = charmap.CodePage437
	case 850:
		enc = charmap.CodePage850
	case 852:
		enc = charmap.CodePage852
	case 855:
		enc = charmap.CodePage855
	case 866:
		enc = charmap.CodePage866
	case 874:
		enc = charmap.Windows874
	case 932:
		enc = japanese.ShiftJIS
	case 936:
		enc = simplifiedchinese.GBK
	case 949:
		enc = korean.EUCKR
	case 950:
		enc = traditionalchinese.Big5
	case 1200:
		return func(dst, src []byte) []byte { return biff12.AppendUTF16(dst, src) }
	case 1250:
		enc = charmap.Windows1250
	case 1251:
		enc = charmap.Windows1251
	case 1253:
		enc = charmap.Windows1253
	case 1254:
		enc = charmap.Windows1254
	case 1255:
		enc = charmap.Windows1255
	case 1256:
		enc = charmap.Windows1256
	case 1257:
		enc = charmap.Windows1257
	case 1258:
		enc = charmap.Windows1258
	case 10000, 32768:
		enc = charmap.Macintosh
	case 10007:
		enc = charmap.MacintoshCyrillic
	default:
		enc = charmap.Windows1252
	}
	dec := enc.NewDecoder()
	return func(dst, src []byte) []byte {
		out, err := dec.Bytes(src)
		if err != nil {
			// Bytes the code page does not map: keep what can be read.
			for _, b := range src {
				dst = utf8.AppendRune(dst, rune(b))
			}
			return dst
		}
		return append(dst, out...)
	}
}
