package xlsx_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/xlsx"
)

// edges keeps the first and last bytes written and counts the rest.
type edges struct {
	head, tail []byte
	headMax    int
	tailMax    int
	n          uint64
}

func (e *edges) Write(p []byte) (int, error) {
	e.n += uint64(len(p))
	if room := e.headMax - len(e.head); room > 0 {
		e.head = append(e.head, p[:min(room, len(p))]...)
	}
	e.tail = append(e.tail, p...)
	if over := len(e.tail) - e.tailMax; over > 0 {
		e.tail = append(e.tail[:0], e.tail[over:]...)
	}
	return len(p), nil
}

// at returns the bytes at absolute offset off from the kept edges.
func (e *edges) at(t *testing.T, off uint64, n int) []byte {
	t.Helper()
	if off+uint64(n) <= uint64(len(e.head)) {
		return e.head[off : off+uint64(n)]
	}
	start := e.n - uint64(len(e.tail))
	if off < start || off+uint64(n) > e.n {
		t.Fatalf("offset %d not kept (tail starts at %d)", off, start)
	}
	return e.tail[off-start : off-start+uint64(n)]
}

type centralEntry struct {
	name                     string
	version, flags           uint16
	crc                      uint32
	csize, usize, offset     uint64
	rawCsize, rawUsize, rawO uint32
	hasZip64                 bool
}

// TestZip64 streams a sheet of more than 4 GiB (stored, so both sizes
// overflow) followed by a small one (whose offset overflows), and checks
// the structures Excel is strict about: version 4.5 and no ZIP64 extra in
// the streamed local header, a 64-bit data descriptor agreeing with the
// central directory, ZIP64 extra fields exactly where values overflow, and
// the ZIP64 end records.
func TestZip64(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 4.3 GB through a counting writer; skipped in -short mode")
	}
	out := &edges{headMax: 64 << 10, tailMax: 2 << 20}
	w, err := xlsx.NewWriter(out, xlsx.Options{Compression: xlsx.CompressionNone, Strings: xlsx.StringsInline})
	must(t, err)
	big := addSheet(t, w, "Big", xlsx.SheetOptions{})
	text := strings.Repeat("0123456789abcdef", 2000) // 32,000 characters
	row := make([]xlsx.Cell, 16)
	for i := range row {
		row[i] = xlsx.String(text)
	}
	const rows = 8600 // 16 x 32 KB x 8600 = 4.4 GB of XML
	for range rows {
		must(t, big.WriteRow(row))
	}
	small := addSheet(t, w, "After", xlsx.SheetOptions{})
	must(t, small.WriteRow([]xlsx.Cell{xlsx.String("after the big one")}))
	must(t, w.Close())
	if out.n < 1<<32 {
		t.Fatalf("wrote only %d bytes", out.n)
	}

	le16 := binary.LittleEndian.Uint16
	le32 := binary.LittleEndian.Uint32
	le64 := binary.LittleEndian.Uint64

	// The first local header: the streamed big sheet.
	lh := out.at(t, 0, 30)
	if le32(lh) != 0x04034b50 || le16(lh[4:]) != 45 || le16(lh[6:])&8 == 0 || le16(lh[28:]) != 0 {
		t.Fatalf("local header: version %d flags %#x extra %d", le16(lh[4:]), le16(lh[6:]), le16(lh[28:]))
	}
	if le32(lh[14:]) != 0 || le32(lh[18:]) != 0 || le32(lh[22:]) != 0 {
		t.Errorf("local header of a streamed entry must carry zero CRC and sizes")
	}

	// End records.
	eocd := out.at(t, out.n-22, 22)
	if le32(eocd) != 0x06054b50 || le32(eocd[16:]) != 0xFFFFFFFF {
		t.Fatalf("end record: signature %#x, directory offset %#x (want 0xFFFFFFFF)", le32(eocd), le32(eocd[16:]))
	}
	loc := out.at(t, out.n-22-20, 20)
	if le32(loc) != 0x07064b50 {
		t.Fatalf("no ZIP64 locator")
	}
	rec := out.at(t, le64(loc[8:]), 56)
	if le32(rec) != 0x06064b50 {
		t.Fatalf("no ZIP64 end record at %d", le64(loc[8:]))
	}
	count, cdSize, cdOff := le64(rec[32:]), le64(rec[40:]), le64(rec[48:])
	if cdOff < 1<<32 || cdOff+cdSize != le64(loc[8:]) {
		t.Errorf("directory at %d size %d, ZIP64 record at %d", cdOff, cdSize, le64(loc[8:]))
	}

	// The central directory.
	cd := out.at(t, cdOff, int(cdSize))
	var entries []centralEntry
	for p := 0; p < len(cd); {
		h := cd[p:]
		if le32(h) != 0x02014b50 {
			t.Fatalf("bad central header at %d", p)
		}
		e := centralEntry{version: le16(h[6:]), flags: le16(h[8:]), crc: le32(h[16:]),
			rawCsize: le32(h[20:]), rawUsize: le32(h[24:]), rawO: le32(h[42:])}
		nameLen, extraLen, commentLen := int(le16(h[28:])), int(le16(h[30:])), int(le16(h[32:]))
		e.name = string(h[46 : 46+nameLen])
		e.csize, e.usize, e.offset = uint64(e.rawCsize), uint64(e.rawUsize), uint64(e.rawO)
		extra := h[46+nameLen : 46+nameLen+extraLen]
		if len(extra) > 0 {
			if le16(extra) != 1 {
				t.Fatalf("%s: unexpected extra field %#x", e.name, le16(extra))
			}
			e.hasZip64 = true
			f := extra[4 : 4+int(le16(extra[2:]))]
			if e.rawUsize == 0xFFFFFFFF {
				e.usize, f = le64(f), f[8:]
			}
			if e.rawCsize == 0xFFFFFFFF {
				e.csize, f = le64(f), f[8:]
			}
			if e.rawO == 0xFFFFFFFF {
				e.offset, f = le64(f), f[8:]
			}
			if len(f) != 0 {
				t.Errorf("%s: ZIP64 extra has %d bytes for fields that did not overflow", e.name, len(f))
			}
		}
		entries = append(entries, e)
		p += 46 + nameLen + extraLen + commentLen
	}
	if uint64(len(entries)) != count {
		t.Errorf("%d entries, record says %d", len(entries), count)
	}
	byName := map[string]centralEntry{}
	for _, e := range entries {
		byName[e.name] = e
		needs := e.csize >= 0xFFFFFFFF || e.usize >= 0xFFFFFFFF || e.offset >= 0xFFFFFFFF
		if needs != e.hasZip64 {
			t.Errorf("%s: ZIP64 extra present %v, needed %v", e.name, e.hasZip64, needs)
		}
	}
	s1, s2 := byName["xl/worksheets/sheet1.xml"], byName["xl/worksheets/sheet2.xml"]
	if s1.version != 45 || s1.usize < 1<<32 || s1.csize < 1<<32 || s1.offset != 0 {
		t.Errorf("big sheet entry: %+v", s1)
	}
	if s2.offset < 1<<32 || s2.rawO != 0xFFFFFFFF || s2.rawUsize == 0xFFFFFFFF {
		t.Errorf("small sheet after it: %+v", s2)
	}
	// The big sheet's data descriptor sits right before the next local
	// header, 64-bit, agreeing with the directory.
	dd := out.at(t, s2.offset-24, 24)
	if le32(dd) != 0x08074b50 || le32(dd[4:]) != s1.crc || le64(dd[8:]) != s1.csize || le64(dd[16:]) != s1.usize {
		t.Errorf("data descriptor %x does not match the directory %+v", dd, s1)
	}
	if s1.offset+30+uint64(len(s1.name))+s1.csize+24 != s2.offset {
		t.Errorf("entry layout: big sheet data does not end where the next entry starts")
	}
	// A small streamed entry keeps a 32-bit descriptor.
	lh2 := out.at(t, s2.offset, 30)
	dd2 := out.at(t, s2.offset+30+uint64(len(s2.name))+s2.csize, 16)
	if le16(lh2[4:]) != 45 || le32(dd2) != 0x08074b50 || uint64(le32(dd2[8:])) != s2.csize || uint64(le32(dd2[12:])) != s2.usize {
		t.Errorf("small streamed entry: local version %d, descriptor %x", le16(lh2[4:]), dd2)
	}
}
