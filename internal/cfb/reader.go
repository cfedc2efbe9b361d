// Package cfb reads compound files (MS-CFB), the container of legacy
// Office documents (.xls) and of encrypted OOXML packages: a small file
// system of storages and streams in fixed-size sectors, chained through
// a file allocation table.
//
// Hostile files are expected. Every chain is followed at most as many
// steps as the file has sectors (a loop ends in ErrMalformed), every
// claimed size is checked against the file's, and memory is bounded by
// the file: the allocation tables take 4 bytes per sector and a stream's
// sector list as much, never the stream's content. Streams are read
// through io.ReaderAt, sector by sector.
package cfb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
)

// Errors, testable with errors.Is.
var (
	ErrNotCFB    = errors.New("cfb: not a compound file")
	ErrMalformed = errors.New("cfb: malformed compound file")
	ErrNotFound  = errors.New("cfb: no such stream")
)

// Signature starts every compound file.
var Signature = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// Sector numbers with a meaning of their own.
const (
	maxRegSect = 0xFFFFFFFA
	difSect    = 0xFFFFFFFC
	fatSect    = 0xFFFFFFFD
	endOfChain = 0xFFFFFFFE
	freeSect   = 0xFFFFFFFF
	noStream   = 0xFFFFFFFF
)

const (
	headerSize     = 512
	dirEntrySize   = 128
	miniSectorSize = 64
	miniCutoff     = 4096
	headerDIFAT    = 109
)

// Entry types.
const (
	typeStorage = 1
	typeStream  = 2
	typeRoot    = 5
)

// Entry is a storage or stream of the file.
type Entry struct {
	Path   string // names from the root, joined by "/"
	Stream bool   // a stream (else a storage)
	Size   int64
	start  uint32
	id     int
}

// Reader reads a compound file.
type Reader struct {
	r            io.ReaderAt
	size         int64
	sectorSize   int64
	sectors      uint32 // sectors the file can hold after the header
	fat          []uint32
	miniFAT      []uint32
	miniStream   []uint32 // the root's chain: the sectors of the mini stream
	miniSize     int64
	entries      []Entry
	majorVersion uint16
}

// NewReader reads the header, allocation tables and directory of the
// compound file of the given size in r.
func NewReader(r io.ReaderAt, size int64) (*Reader, error) {
	var h [headerSize]byte
	if size < headerSize {
		return nil, ErrNotCFB
	}
	if _, err := r.ReadAt(h[:], 0); err != nil {
		return nil, fmt.Errorf("cfb: reading the header: %w", err)
	}
	if string(h[:8]) != string(Signature) {
		return nil, ErrNotCFB
	}
	le := binary.LittleEndian
	c := &Reader{r: r, size: size, majorVersion: le.Uint16(h[26:])}
	shift := le.Uint16(h[30:])
	switch {
	case c.majorVersion == 3 && shift == 9, c.majorVersion == 4 && shift == 12:
	default:
		return nil, fmt.Errorf("%w: version %d with %d-byte sectors", ErrMalformed, c.majorVersion, 1<<min(shift, 31))
	}
	if le.Uint16(h[28:]) != 0xFFFE || le.Uint16(h[32:]) != 6 {
		return nil, fmt.Errorf("%w: byte order or mini sector size", ErrMalformed)
	}
	c.sectorSize = 1 << shift
	n := (size - c.sectorSize) / c.sectorSize // a short last sector still counts
	if (size-c.sectorSize)%c.sectorSize != 0 {
		n++
	}
	if n <= 0 || n > maxRegSect {
		return nil, fmt.Errorf("%w: %d bytes hold no sectors", ErrMalformed, size)
	}
	c.sectors = uint32(n)
	numFAT := le.Uint32(h[44:])
	firstDir := le.Uint32(h[48:])
	if cutoff := le.Uint32(h[56:]); cutoff != miniCutoff {
		return nil, fmt.Errorf("%w: mini stream cutoff %d", ErrMalformed, cutoff)
	}
	firstMiniFAT, numMiniFAT := le.Uint32(h[60:]), le.Uint32(h[64:])
	firstDIFAT, numDIFAT := le.Uint32(h[68:]), le.Uint32(h[72:])
	if uint64(numFAT) > uint64(c.sectors) || uint64(numDIFAT) > uint64(c.sectors) || uint64(numMiniFAT) > uint64(c.sectors) {
		return nil, fmt.Errorf("%w: %d FAT, %d DIFAT and %d mini FAT sectors claimed in a file of %d sectors", ErrMalformed, numFAT, numDIFAT, numMiniFAT, c.sectors)
	}
	fatSectors, err := c.difat(h[76:], numFAT, firstDIFAT, numDIFAT)
	if err != nil {
		return nil, err
	}
	if err := c.readFAT(fatSectors); err != nil {
		return nil, err
	}
	if numMiniFAT > 0 {
		chain, err := c.chain(firstMiniFAT, c.fat)
		if err != nil {
			return nil, fmt.Errorf("mini FAT: %w", err)
		}
		if c.miniFAT, err = c.readTable(chain); err != nil {
			return nil, err
		}
	}
	if err := c.readDirectory(firstDir); err != nil {
		return nil, err
	}
	return c, nil
}

// difat lists the FAT's sectors: 109 in the header, the rest in a chain
// of DIFAT sectors.
func (c *Reader) difat(head []byte, numFAT, next, numDIFAT uint32) ([]uint32, error) {
	le := binary.LittleEndian
	list := make([]uint32, 0, numFAT)
	for i := 0; i < headerDIFAT && uint32(len(list)) < numFAT; i++ {
		list = append(list, le.Uint32(head[i*4:]))
	}
	per := int(c.sectorSize/4) - 1
	buf := make([]byte, c.sectorSize)
	for i := uint32(0); uint32(len(list)) < numFAT; i++ {
		if i >= numDIFAT || next > maxRegSect || next >= c.sectors {
			return nil, fmt.Errorf("%w: the DIFAT lists %d of %d FAT sectors", ErrMalformed, len(list), numFAT)
		}
		if err := c.readSector(next, buf); err != nil {
			return nil, err
		}
		for j := 0; j < per && uint32(len(list)) < numFAT; j++ {
			list = append(list, le.Uint32(buf[j*4:]))
		}
		next = le.Uint32(buf[per*4:])
	}
	return list, nil
}

func (c *Reader) readFAT(sectors []uint32) error {
	var err error
	c.fat, err = c.readTable(sectors)
	if err != nil {
		return fmt.Errorf("FAT: %w", err)
	}
	return nil
}

// readTable reads the uint32 entries of a table kept in sectors.
func (c *Reader) readTable(sectors []uint32) ([]uint32, error) {
	le := binary.LittleEndian
	table := make([]uint32, 0, len(sectors)*int(c.sectorSize/4))
	buf := make([]byte, c.sectorSize)
	for _, s := range sectors {
		if s > maxRegSect || s >= c.sectors {
			return nil, fmt.Errorf("%w: table sector %#x beyond the file", ErrMalformed, s)
		}
		if err := c.readSector(s, buf); err != nil {
			return nil, err
		}
		for i := 0; i < len(buf); i += 4 {
			table = append(table, le.Uint32(buf[i:]))
		}
	}
	return table, nil
}

// readSector reads sector s whole; past the end of a truncated file the
// rest is zeros.
func (c *Reader) readSector(s uint32, buf []byte) error {
	n, err := c.r.ReadAt(buf, (int64(s)+1)*c.sectorSize)
	if err != nil && !(errors.Is(err, io.EOF) && n > 0) {
		return fmt.Errorf("%w: sector %d: %v", ErrMalformed, s, err)
	}
	clear(buf[n:])
	return nil
}

// chain follows a chain of table from start, refusing loops and sectors
// beyond the table.
func (c *Reader) chain(start uint32, table []uint32) ([]uint32, error) {
	var list []uint32
	for s := start; s != endOfChain; {
		if s >= uint32(len(table)) {
			return nil, fmt.Errorf("%w: sector %#x in a chain", ErrMalformed, s)
		}
		if len(list) >= len(table) {
			return nil, fmt.Errorf("%w: a sector chain loops", ErrMalformed)
		}
		list = append(list, s)
		s = table[s]
	}
	return list, nil
}

func (c *Reader) readDirectory(first uint32) error {
	chain, err := c.chain(first, c.fat)
	if err != nil {
		return fmt.Errorf("directory: %w", err)
	}
	le := binary.LittleEndian
	type raw struct {
		name               string
		typ                byte
		left, right, child uint32
		start              uint32
		size               uint64
	}
	var dir []raw
	buf := make([]byte, c.sectorSize)
	for _, s := range chain {
		if s >= c.sectors {
			return fmt.Errorf("%w: directory sector %d beyond the file", ErrMalformed, s)
		}
		if err := c.readSector(s, buf); err != nil {
			return err
		}
		for off := 0; off < len(buf); off += dirEntrySize {
			e := buf[off : off+dirEntrySize]
			n := int(le.Uint16(e[64:]))
			if n > 64 || n%2 != 0 {
				n = 0
			}
			units := make([]uint16, 0, 32)
			for i := 0; i+1 < n; i += 2 {
				if u := le.Uint16(e[i:]); u != 0 {
					units = append(units, u)
				}
			}
			size := le.Uint64(e[120:])
			if c.majorVersion == 3 {
				size &= 0xFFFFFFFF // the high half is undefined in version 3
			}
			dir = append(dir, raw{string(utf16.Decode(units)), e[66], le.Uint32(e[68:]), le.Uint32(e[72:]), le.Uint32(e[76:]), le.Uint32(e[116:]), size})
		}
	}
	if len(dir) == 0 || dir[0].typ != typeRoot {
		return fmt.Errorf("%w: no root entry", ErrMalformed)
	}
	root := dir[0]
	if root.size > 0 {
		if c.miniStream, err = c.chain(root.start, c.fat); err != nil {
			return fmt.Errorf("mini stream: %w", err)
		}
		if root.size > uint64(len(c.miniStream))*uint64(c.sectorSize) {
			return fmt.Errorf("%w: the mini stream claims %d bytes in %d sectors", ErrMalformed, root.size, len(c.miniStream))
		}
		c.miniSize = int64(root.size)
	}
	// Walk the tree of each storage: children hang from child, siblings
	// from left and right. An entry is visited once, so cycles end.
	seen := make([]bool, len(dir))
	var walk func(id uint32, parent string, depth int) error
	walk = func(id uint32, parent string, depth int) error {
		for id != noStream {
			if int64(id) >= int64(len(dir)) || seen[id] || depth > 256 {
				return fmt.Errorf("%w: the directory tree has a cycle or a bad link", ErrMalformed)
			}
			seen[id] = true
			e := dir[id]
			if err := walk(e.left, parent, depth+1); err != nil {
				return err
			}
			path := e.name
			if parent != "" {
				path = parent + "/" + e.name
			}
			switch e.typ {
			case typeStream:
				c.entries = append(c.entries, Entry{Path: path, Stream: true, Size: int64(e.size), start: e.start, id: int(id)})
			case typeStorage:
				c.entries = append(c.entries, Entry{Path: path, id: int(id)})
				if err := walk(e.child, path, depth+1); err != nil {
					return err
				}
			}
			id = e.right
			depth++
		}
		return nil
	}
	seen[0] = true
	return walk(root.child, "", 0)
}

// Entries lists the storages and streams, in no particular order.
func (c *Reader) Entries() []Entry { return append([]Entry(nil), c.entries...) }

// Stream is one stream of the file, readable at any offset.
type Stream struct {
	c       *Reader
	size    int64
	sectors []uint32 // in the mini stream when mini
	mini    bool
}

// Open opens the stream at path (names joined by "/", matched ignoring
// case as CFB does).
func (c *Reader) Open(path string) (*Stream, error) {
	for _, e := range c.entries {
		if !e.Stream || !strings.EqualFold(e.Path, path) {
			continue
		}
		s := &Stream{c: c, size: e.Size}
		var err error
		if e.Size < miniCutoff {
			s.mini = true
			s.sectors, err = c.chain(e.start, c.miniFAT)
			if e.Size == 0 {
				s.sectors, err = nil, nil
			}
			if err == nil && e.Size > int64(len(s.sectors))*miniSectorSize {
				err = fmt.Errorf("%w: %d bytes claimed in %d mini sectors", ErrMalformed, e.Size, len(s.sectors))
			}
		} else {
			s.sectors, err = c.chain(e.start, c.fat)
			if err == nil && e.Size > int64(len(s.sectors))*c.sectorSize {
				err = fmt.Errorf("%w: %d bytes claimed in %d sectors", ErrMalformed, e.Size, len(s.sectors))
			}
		}
		if err != nil {
			return nil, fmt.Errorf("cfb: stream %q: %w", path, err)
		}
		return s, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrNotFound, path)
}

// Size is the stream's length in bytes.
func (s *Stream) Size() int64 { return s.size }

// ReadAt reads len(p) bytes from offset off of the stream.
func (s *Stream) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("cfb: negative offset")
	}
	n := 0
	for n < len(p) {
		pos := off + int64(n)
		if pos >= s.size {
			return n, io.EOF
		}
		unit := s.c.sectorSize
		if s.mini {
			unit = miniSectorSize
		}
		idx, within := pos/unit, pos%unit
		want := min(int64(len(p)-n), unit-within, s.size-pos)
		var at int64
		if s.mini {
			// A mini sector lives in the mini stream, itself in sectors.
			m := int64(s.sectors[idx])*miniSectorSize + within
			if m+want > s.c.miniSize {
				return n, fmt.Errorf("%w: mini sector beyond the mini stream", ErrMalformed)
			}
			big := m / s.c.sectorSize
			at = (int64(s.c.miniStream[big])+1)*s.c.sectorSize + m%s.c.sectorSize
		} else {
			at = (int64(s.sectors[idx])+1)*s.c.sectorSize + within
			// Sectors that follow each other in the file are read at once.
			for next := idx + 1; want < int64(len(p)-n) && next < int64(len(s.sectors)) && s.sectors[next] == s.sectors[next-1]+1; next++ {
				want = min(int64(len(p)-n), want+unit, s.size-pos)
			}
		}
		k, err := s.c.r.ReadAt(p[n:n+int(want)], at)
		n += k
		if err != nil && !(errors.Is(err, io.EOF) && k == int(want)) {
			return n, fmt.Errorf("%w: reading a sector: %v", ErrMalformed, err)
		}
	}
	return n, nil
}

// ReadAll reads a small stream whole, refusing one over limit bytes.
func (s *Stream) ReadAll(limit int64) ([]byte, error) {
	if s.size > limit {
		return nil, fmt.Errorf("%w: a stream of %d bytes where at most %d are expected", ErrMalformed, s.size, limit)
	}
	b := make([]byte, s.size)
	if _, err := s.ReadAt(b, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b, nil
}
