// Package biff12 reads the records of Excel's binary workbook format
// (.xlsb, [MS-XLSB]): each part of the zip package is a sequence of
// records, a variable-length type and size followed by the payload. It
// frames records and decodes the few structures cell readers need; what
// the records mean is the caller's business.
package biff12

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"unicode/utf16"
	"unicode/utf8"
)

// Record types the readers of sheets, strings, styles and the workbook use.
const (
	RowHdr     = 0
	CellBlank  = 1
	CellRk     = 2
	CellError  = 3
	CellBool   = 4
	CellReal   = 5
	CellSt     = 6
	CellIsst   = 7
	FmlaString = 8
	FmlaNum    = 9
	FmlaBool   = 10
	FmlaError  = 11
	// The short cell records, which Excel 2016 and SheetJS write for a
	// cell right after another in its row: a 4-byte head without the
	// column.
	ShortBlank     = 12
	ShortRk        = 13
	ShortError     = 14
	ShortBool      = 15
	ShortReal      = 16
	ShortSt        = 17
	ShortIsst      = 18
	SSTItem        = 19
	Fmt            = 44
	XF             = 47
	CellRString    = 62
	Name           = 39
	BeginSheetData = 145
	EndSheetData   = 146
	WsDim          = 148
	WbProp         = 153
	BundleSh       = 156
	BeginSst       = 159
	MergeCell      = 176
	HLink          = 494
	SupSelf        = 357 // the supporting links (this workbook, others) are 357-361
	ExternSheet    = 362
	BeginFmts      = 615
	EndFmts        = 616
	BeginCellXFs   = 617
	EndCellXFs     = 618
)

var (
	// ErrTruncated: the stream ends inside a record, or a structure is
	// shorter than it says.
	ErrTruncated = errors.New("biff12: truncated record")
	// ErrTooLarge: a record claims more bytes than the reader allows.
	ErrTooLarge = errors.New("biff12: record too large")
)

// Reader frames records from a stream.
type Reader struct {
	r   *bufio.Reader
	buf []byte
	max int
	n   int64 // records read
}

// NewReader reads records of at most maxSize bytes from r.
func NewReader(r io.Reader, maxSize int) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10), max: maxSize}
}

// Next returns the next record's type and payload, which stays valid
// until the following call. It returns io.EOF at a clean end.
func (r *Reader) Next() (typ int, data []byte, err error) {
	t, err := r.varint(2)
	if err != nil {
		if err == io.EOF {
			return 0, nil, io.EOF
		}
		return 0, nil, err
	}
	size, err := r.varint(4)
	if err != nil {
		if err == io.EOF {
			err = fmt.Errorf("%w: record %d ends after its type", ErrTruncated, t)
		}
		return 0, nil, err
	}
	if size > r.max {
		return 0, nil, fmt.Errorf("%w: record %d claims %d bytes, over %d", ErrTooLarge, t, size, r.max)
	}
	r.n++
	// Payloads are small; a peek avoids copying when the buffer holds it.
	if size <= r.r.Size() {
		b, err := r.r.Peek(size)
		if err != nil {
			return 0, nil, fmt.Errorf("%w: record %d claims %d bytes, %d remain", ErrTruncated, t, size, len(b))
		}
		r.buf = append(r.buf[:0], b...)
		r.r.Discard(size)
		return t, r.buf, nil
	}
	if cap(r.buf) < size {
		r.buf = make([]byte, size)
	}
	r.buf = r.buf[:size]
	if n, err := io.ReadFull(r.r, r.buf); err != nil {
		return 0, nil, fmt.Errorf("%w: record %d claims %d bytes, %d remain", ErrTruncated, t, size, n)
	}
	return t, r.buf, nil
}

// varint reads up to n bytes of seven bits each, low bits first.
func (r *Reader) varint(n int) (int, error) {
	v := 0
	for i := range n {
		b, err := r.r.ReadByte()
		if err != nil {
			if i > 0 && err == io.EOF {
				return 0, fmt.Errorf("%w: inside a record header", ErrTruncated)
			}
			return 0, err
		}
		v |= int(b&0x7f) << (7 * i)
		if b&0x80 == 0 {
			break
		}
	}
	return v, nil
}

// Records is how many records Next has returned.
func (r *Reader) Records() int64 { return r.n }

// Cell is the head of every cell record: the 0-based column and the
// index of its format in the styles part's cell formats.
func Cell(b []byte) (col, style uint32, rest []byte, err error) {
	if len(b) < 8 {
		return 0, 0, nil, fmt.Errorf("%w: a cell of %d bytes", ErrTruncated, len(b))
	}
	return binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]) & 0xFFFFFF, b[8:], nil
}

// ShortCell is the head of a short cell record: the index of its format.
func ShortCell(b []byte) (style uint32, rest []byte, err error) {
	if len(b) < 4 {
		return 0, nil, fmt.Errorf("%w: a short cell of %d bytes", ErrTruncated, len(b))
	}
	return binary.LittleEndian.Uint32(b) & 0xFFFFFF, b[4:], nil
}

// RK decodes an RkNumber: a double's high 30 bits or a 30-bit integer,
// either possibly divided by 100.
func RK(v uint32) float64 {
	var f float64
	if v&2 != 0 {
		f = float64(int32(v) >> 2)
	} else {
		f = math.Float64frombits(uint64(v&0xFFFFFFFC) << 32)
	}
	if v&1 != 0 {
		f /= 100
	}
	return f
}

// Float reads an 8-byte IEEE double.
func Float(b []byte) (float64, []byte, error) {
	if len(b) < 8 {
		return 0, nil, fmt.Errorf("%w: a number of %d bytes", ErrTruncated, len(b))
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b)), b[8:], nil
}

// Uint32 reads a little-endian 32-bit integer.
func Uint32(b []byte) (uint32, []byte, error) {
	if len(b) < 4 {
		return 0, nil, fmt.Errorf("%w: 4 bytes expected, %d remain", ErrTruncated, len(b))
	}
	return binary.LittleEndian.Uint32(b), b[4:], nil
}

// String appends an XLWideString (a 32-bit count of UTF-16 code units,
// then the units) to dst as UTF-8. A count of 0xFFFFFFFF is a null
// string (XLNullableWideString), which appends nothing.
func String(dst, b []byte) (out, rest []byte, err error) {
	n, b, err := Uint32(b)
	if err != nil {
		return dst, nil, err
	}
	if n == 0xFFFFFFFF {
		return dst, b, nil
	}
	if uint64(n)*2 > uint64(len(b)) {
		return dst, nil, fmt.Errorf("%w: a string of %d characters in %d bytes", ErrTruncated, n, len(b))
	}
	return AppendUTF16(dst, b[:2*n]), b[2*n:], nil
}

// AppendUTF16 appends little-endian UTF-16 text as UTF-8; unpaired
// surrogates become U+FFFD.
func AppendUTF16(dst, b []byte) []byte {
	for i := 0; i+1 < len(b); i += 2 {
		u := rune(binary.LittleEndian.Uint16(b[i:]))
		switch {
		case u < utf8.RuneSelf:
			dst = append(dst, byte(u))
			continue
		case utf16.IsSurrogate(u):
			if u < 0xDC00 && i+3 < len(b) {
				if r := utf16.DecodeRune(u, rune(binary.LittleEndian.Uint16(b[i+2:]))); r != utf8.RuneError {
					dst = utf8.AppendRune(dst, r)
					i += 2
					continue
				}
			}
			u = utf8.RuneError
		}
		dst = utf8.AppendRune(dst, u)
	}
	return dst
}

// Range is a RfX: 0-based first and last rows and columns.
type Range struct{ FirstRow, LastRow, FirstCol, LastCol uint32 }

// ReadRange reads an RfX or UncheckedRfX.
func ReadRange(b []byte) (Range, []byte, error) {
	if len(b) < 16 {
		return Range{}, nil, fmt.Errorf("%w: a range of %d bytes", ErrTruncated, len(b))
	}
	le := binary.LittleEndian
	return Range{le.Uint32(b), le.Uint32(b[4:]), le.Uint32(b[8:]), le.Uint32(b[12:])}, b[16:], nil
}

// ErrorText names a BErr error code as Excel shows it, or "" for codes
// it does not define.
func ErrorText(code byte) string {
	switch code {
	case 0x00:
		return "#NULL!"
	case 0x07:
		return "#DIV/0!"
	case 0x0F:
		return "#VALUE!"
	case 0x17:
		return "#REF!"
	case 0x1D:
		return "#NAME?"
	case 0x24:
		return "#NUM!"
	case 0x2A:
		return "#N/A"
	case 0x2B:
		return "#GETTING_DATA"
	}
	return ""
}
