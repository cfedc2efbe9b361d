// Package biff8 reads the records of Excel 97-2003 workbooks (.xls,
// [MS-XLS]) and of Excel 5.0/95 (BIFF5): the Workbook stream of a
// compound file is a sequence of records, each a 16-bit type and size
// and at most 8,224 bytes of payload, the longer structures carried on
// in CONTINUE records. It frames records, joins continuations, and
// decodes the strings, numbers and shared string table cell readers
// need; what the records mean is the caller's business.
package biff8

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
)

// Record types the workbook and sheet readers use.
const (
	Formula      = 0x0006
	EOF          = 0x000A
	DateMode     = 0x0022
	FilePass     = 0x002F
	Continue     = 0x003C
	CodePage     = 0x0042
	BoundSheet   = 0x0085
	MulRK        = 0x00BD
	MulBlank     = 0x00BE
	RString      = 0x00D6
	XF           = 0x00E0
	MergedCells  = 0x00E5
	SST          = 0x00FC
	LabelSST     = 0x00FD
	HLink        = 0x01B8
	Dimensions   = 0x0200
	Number       = 0x0203
	Label        = 0x0204
	BoolErr      = 0x0205
	String       = 0x0207
	RK           = 0x027E
	Format       = 0x041E
	Format4      = 0x001E // FORMAT before BIFF8
	XF5          = 0x0043 // XF in BIFF3/4, for the version check
	BOF          = 0x0809
	bof2         = 0x0009
	bof3         = 0x0209
	bof4         = 0x0409
	maxRecord    = 8224
	maxWithConts = 1 << 22 // a record with its continuations
)

var (
	// ErrTruncated: the stream ends inside a record, or a structure is
	// shorter than it says.
	ErrTruncated = errors.New("biff8: truncated record")
	// ErrTooLarge: a record with its continuations over 4 MiB, or one
	// record over 8,224 bytes.
	ErrTooLarge = errors.New("biff8: record too large")
)

// Record is one record with the payloads of the CONTINUE records after it.
type Record struct {
	Type  uint16
	Data  []byte
	Conts [][]byte
	Pos   int64 // offset of the record in the stream
}

// Reader frames records from a stream, joining each record's CONTINUE
// records to it.
type Reader struct {
	r      *bufio.Reader
	pos    int64
	buf    []byte
	conts  [][]byte
	starts []int
	next   struct {
		ok   bool
		typ  uint16
		size int
	}
	copyAll bool // no uncopied records: the tests' reference
}

// NewReader reads records from r, whose first byte is at offset pos of
// the stream.
func NewReader(r io.Reader, pos int64) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 32<<10), pos: pos}
}

func (r *Reader) header() (uint16, int, error) {
	if r.next.ok {
		r.next.ok = false
		return r.next.typ, r.next.size, nil
	}
	h, err := r.r.Peek(4)
	if len(h) == 0 && err == io.EOF {
		return 0, 0, io.EOF
	}
	if len(h) < 4 {
		return 0, 0, fmt.Errorf("%w: a record header of %d bytes", ErrTruncated, len(h))
	}
	typ, size := binary.LittleEndian.Uint16(h), int(binary.LittleEndian.Uint16(h[2:]))
	r.r.Discard(4)
	r.pos += 4
	if size > maxRecord {
		return 0, 0, fmt.Errorf("%w: record 0x%04X of %d bytes", ErrTooLarge, typ, size)
	}
	return typ, size, nil
}

// read appends size bytes of record typ to the buffer.
func (r *Reader) read(typ uint16, size int) error {
	start := len(r.buf)
	r.buf = slices.Grow(r.buf, size)[:start+size]
	if n, err := io.ReadFull(r.r, r.buf[start:]); err != nil {
		return fmt.Errorf("%w: record 0x%04X claims %d bytes, %d remain", ErrTruncated, typ, size, n)
	}
	r.pos += int64(size)
	return nil
}

// Next returns the next record; its slices stay valid until the next
// call. It returns io.EOF at the end of the stream.
func (r *Reader) Next() (Record, error) {
	typ, size, err := r.header()
	if err != nil {
		return Record{}, err
	}
	pos := r.pos - 4
	r.conts = r.conts[:0]
	// Most records have no CONTINUE: when the record and the next
	// header are buffered and the next is not a CONTINUE, the record is
	// returned where it lies, uncopied. The next header stays unread, so
	// nothing moves the buffer before the next call.
	if p, err := r.r.Peek(size + 4); err == nil && !r.copyAll && binary.LittleEndian.Uint16(p[size:]) != Continue &&
		int(binary.LittleEndian.Uint16(p[size+2:])) <= maxRecord {
		r.r.Discard(size)
		r.pos += int64(size)
		return Record{Type: typ, Data: p[:size:size], Conts: r.conts, Pos: pos}, nil
	}
	r.buf = r.buf[:0]
	r.starts = r.starts[:0]
	if err := r.read(typ, size); err != nil {
		return Record{}, err
	}
	main := len(r.buf)
	for {
		ntyp, nsize, err := r.header()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Record{}, err
		}
		if ntyp != Continue {
			r.next.ok, r.next.typ, r.next.size = true, ntyp, nsize
			break
		}
		if len(r.buf)+nsize > maxWithConts {
			return Record{}, fmt.Errorf("%w: record 0x%04X continues past %d bytes", ErrTooLarge, typ, maxWithConts)
		}
		r.starts = append(r.starts, len(r.buf))
		if err := r.read(typ, nsize); err != nil {
			return Record{}, err
		}
	}
	// Slice after reading: appending may have moved the buffer.
	for i, s := range r.starts {
		end := len(r.buf)
		if i+1 < len(r.starts) {
			end = r.starts[i+1]
		}
		r.conts = append(r.conts, r.buf[s:end:end])
	}
	return Record{Type: typ, Data: r.buf[:main:main], Conts: r.conts, Pos: pos}, nil
}

// Uint16 and Uint32 read little-endian integers at off, or 0 when b is
// too short (callers check lengths first where it matters).
func Uint16(b []byte, off int) uint16 {
	if off < 0 || off+2 > len(b) {
		return 0
	}
	return binary.LittleEndian.Uint16(b[off:])
}

func Uint32(b []byte, off int) uint32 {
	if off < 0 || off+4 > len(b) {
		return 0
	}
	return binary.LittleEndian.Uint32(b[off:])
}

// Float reads an 8-byte double at off.
func Float(b []byte, off int) float64 {
	if off < 0 || off+8 > len(b) {
		return 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b[off:]))
}

// Version reads a BOF record: the BIFF version (0x0600 for BIFF8, 0x0500
// for BIFF5) and the substream type (0x0005 workbook globals, 0x0010
// worksheet, 0x0020 chart, 0x0040 macro sheet). BIFF2 to BIFF4 BOFs,
// whose record types differ, give versions 2 to 4.
func Version(rec Record) (version, kind uint16) {
	switch rec.Type {
	case bof2:
		return 2, 0x0010
	case bof3:
		return 3, 0x0010
	case bof4:
		return 4, Uint16(rec.Data, 2)
	}
	return Uint16(rec.Data, 0), Uint16(rec.Data, 2)
}

// IsBOF reports whether a record type begins a substream in any BIFF
// version.
func IsBOF(typ uint16) bool { return typ == BOF || typ == bof2 || typ == bof3 || typ == bof4 }
