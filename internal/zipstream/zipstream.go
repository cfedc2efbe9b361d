// Package zipstream writes a ZIP archive front to back into any io.Writer,
// never seeking, with entries whose size is unknown until they end.
//
// It exists instead of archive/zip because an XLSX sheet streamed past
// 4 GiB must carry its ZIP64 decision consistently: archive/zip writes a
// 64-bit data descriptor after a local header that never announced ZIP64,
// and Excel rejects such files. Here a streamed entry's local header always
// claims version 4.5 (which Excel requires before it accepts a >4 GiB
// entry) and carries no ZIP64 extra field (Excel rejects 0xFFFFFFFF sizes
// in a local header); its data descriptor is 64-bit exactly when the entry
// outgrew 32 bits (streaming readers such as Java's pick the descriptor
// width from the bytes they inflated); and the central directory repeats
// the same version and adds a ZIP64 extra field only for the fields that
// overflow.
package zipstream

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
)

const (
	sigLocal         = 0x04034b50
	sigCentral       = 0x02014b50
	sigDescriptor    = 0x08074b50
	sigEnd           = 0x06054b50
	sigEnd64         = 0x06064b50
	sigEnd64Locator  = 0x07064b50
	methodDeflate    = 8
	flagDescriptor   = 0x0008
	versionDeflate   = 20
	versionZip64     = 45
	zip64ExtraID     = 0x0001
	max32            = math.MaxUint32
	max16            = math.MaxUint16
	dosDate1980Jan01 = 0x0021 // 1980-01-01, the zip epoch; Excel writes it too
)

// ErrClosed is returned for use after Close or after a previous error.
var ErrClosed = errors.New("zipstream: writer closed")

type entry struct {
	name         string
	crc          uint32
	compressed   uint64
	uncompressed uint64
	offset       uint64
	version      uint16
	flags        uint16
	method       uint16 // methodDeflate unless copied raw
}

// Writer writes one archive. It is not safe for concurrent use.
type Writer struct {
	w       io.Writer
	offset  uint64
	entries []entry
	open    *EntryWriter
	err     error
	scratch []byte
}

// NewWriter returns a Writer that writes the archive to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, scratch: make([]byte, 0, 128)}
}

// Offset is the number of bytes written so far.
func (z *Writer) Offset() uint64 { return z.offset }

func (z *Writer) write(p []byte) error {
	if z.err != nil {
		return z.err
	}
	n, err := z.w.Write(p)
	z.offset += uint64(n)
	if err == nil && n != len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		z.err = err
	}
	return err
}

// WriteFile adds a whole entry whose deflated bytes, CRC and size are known:
// its local header carries them, so it needs no data descriptor.
func (z *Writer) WriteFile(name string, deflated []byte, crc uint32, uncompressed uint64) error {
	if err := z.ready(); err != nil {
		return err
	}
	if uint64(len(deflated)) >= max32 || uncompressed >= max32 {
		return fmt.Errorf("zipstream: %s: whole entries must be under 4 GiB; stream it instead", name)
	}
	e := entry{name: name, crc: crc, compressed: uint64(len(deflated)), uncompressed: uncompressed,
		offset: z.offset, version: versionDeflate}
	if err := z.writeLocal(&e); err != nil {
		return err
	}
	if err := z.write(deflated); err != nil {
		return err
	}
	z.entries = append(z.entries, e)
	return nil
}

func (e *entry) methodOrDeflate() uint16 {
	if e.method == 0 && e.flags&flagRaw == 0 {
		return methodDeflate
	}
	return e.method
}

// flagRaw marks, in entry.flags' unused high bit, an entry copied as it
// was; it is cleared before the flags are written. flagUTF8 says a name
// is UTF-8 (APPNOTE 4.4.4, bit 11).
const (
	flagRaw  = 1 << 15
	flagUTF8 = 1 << 11
)

// CopyRaw adds an entry copied from another archive as it is: its bytes
// as they were compressed (method 8, deflate) or stored (method 0), with
// the CRC and sizes the other archive gave. Nothing is inflated; the
// reader that opens the copy checks the CRC.
func (z *Writer) CopyRaw(name string, method uint16, raw io.Reader, compressed uint64, crc uint32, uncompressed uint64) error {
	if err := z.ready(); err != nil {
		return err
	}
	if method != methodDeflate && method != 0 {
		return fmt.Errorf("zipstream: %s: compression method %d is neither stored nor deflate", name, method)
	}
	if compressed >= max32 || uncompressed >= max32 {
		return fmt.Errorf("zipstream: %s: raw copies must be under 4 GiB", name)
	}
	e := entry{name: name, crc: crc, compressed: compressed, uncompressed: uncompressed,
		offset: z.offset, version: versionDeflate, method: method, flags: flagRaw}
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			e.flags |= flagUTF8 // the name is UTF-8, not code page 437
			break
		}
	}
	if method == 0 {
		e.version = 10
	}
	if err := z.writeLocal(&e); err != nil {
		return err
	}
	n, err := io.Copy(writerFunc(z.write), io.LimitReader(raw, int64(compressed)))
	if err == nil && uint64(n) != compressed {
		err = fmt.Errorf("zipstream: %s: %d of %d bytes copied", name, n, compressed)
	}
	if err != nil {
		if z.err == nil {
			z.err = err
		}
		return err
	}
	z.entries = append(z.entries, e)
	return nil
}

type writerFunc func([]byte) error

func (f writerFunc) Write(p []byte) (int, error) {
	if err := f(p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Create starts an entry of unknown size. Write its deflated bytes to the
// returned EntryWriter, then Close it with the CRC and size of the
// uncompressed data. Only one entry is open at a time.
func (z *Writer) Create(name string) (*EntryWriter, error) {
	if err := z.ready(); err != nil {
		return nil, err
	}
	e := entry{name: name, offset: z.offset, version: versionZip64, flags: flagDescriptor}
	if err := z.writeLocal(&e); err != nil {
		return nil, err
	}
	z.open = &EntryWriter{z: z, e: e}
	return z.open, nil
}

func (z *Writer) ready() error {
	if z.err != nil {
		return z.err
	}
	if z.open != nil {
		return fmt.Errorf("zipstream: entry %s is still open", z.open.e.name)
	}
	return nil
}

func (z *Writer) writeLocal(e *entry) error {
	b := z.scratch[:0]
	b = binary.LittleEndian.AppendUint32(b, sigLocal)
	b = binary.LittleEndian.AppendUint16(b, e.version)
	b = binary.LittleEndian.AppendUint16(b, e.flags&^flagRaw)
	b = binary.LittleEndian.AppendUint16(b, e.methodOrDeflate())
	b = binary.LittleEndian.AppendUint16(b, 0) // time 00:00
	b = binary.LittleEndian.AppendUint16(b, dosDate1980Jan01)
	// With a data descriptor, CRC and sizes are zero here (APPNOTE 4.4.4).
	b = binary.LittleEndian.AppendUint32(b, e.crc)
	b = binary.LittleEndian.AppendUint32(b, uint32(e.compressed))
	b = binary.LittleEndian.AppendUint32(b, uint32(e.uncompressed))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(e.name)))
	b = binary.LittleEndian.AppendUint16(b, 0) // no extra field
	b = append(b, e.name...)
	z.scratch = b[:0]
	return z.write(b)
}

// EntryWriter receives the deflated bytes of one streamed entry.
type EntryWriter struct {
	z *Writer
	e entry
}

// Write writes deflated bytes.
func (ew *EntryWriter) Write(p []byte) (int, error) {
	if ew.z.open != ew {
		return 0, ErrClosed
	}
	before := ew.z.offset
	err := ew.z.write(p)
	n := int(ew.z.offset - before)
	ew.e.compressed += uint64(n)
	return n, err
}

// Close ends the entry: crc and uncompressed describe the data before
// compression.
func (ew *EntryWriter) Close(crc uint32, uncompressed uint64) error {
	z := ew.z
	if z.open != ew {
		return ErrClosed
	}
	z.open = nil
	if z.err != nil {
		return z.err
	}
	ew.e.crc = crc
	ew.e.uncompressed = uncompressed
	b := z.scratch[:0]
	b = binary.LittleEndian.AppendUint32(b, sigDescriptor)
	b = binary.LittleEndian.AppendUint32(b, crc)
	if ew.e.compressed >= max32 || uncompressed >= max32 {
		b = binary.LittleEndian.AppendUint64(b, ew.e.compressed)
		b = binary.LittleEndian.AppendUint64(b, uncompressed)
	} else {
		b = binary.LittleEndian.AppendUint32(b, uint32(ew.e.compressed))
		b = binary.LittleEndian.AppendUint32(b, uint32(uncompressed))
	}
	z.scratch = b[:0]
	if err := z.write(b); err != nil {
		return err
	}
	z.entries = append(z.entries, ew.e)
	return nil
}

// Close writes the central directory. It does not close the underlying writer.
func (z *Writer) Close() error {
	if err := z.ready(); err != nil {
		return err
	}
	start := z.offset
	for i := range z.entries {
		if err := z.writeCentral(&z.entries[i]); err != nil {
			return err
		}
	}
	size := z.offset - start
	count := uint64(len(z.entries))
	b := z.scratch[:0]
	if count >= max16 || size >= max32 || start >= max32 {
		end64 := z.offset
		b = binary.LittleEndian.AppendUint32(b, sigEnd64)
		b = binary.LittleEndian.AppendUint64(b, 44) // size of the rest of this record
		b = binary.LittleEndian.AppendUint16(b, versionZip64)
		b = binary.LittleEndian.AppendUint16(b, versionZip64)
		b = binary.LittleEndian.AppendUint32(b, 0)
		b = binary.LittleEndian.AppendUint32(b, 0)
		b = binary.LittleEndian.AppendUint64(b, count)
		b = binary.LittleEndian.AppendUint64(b, count)
		b = binary.LittleEndian.AppendUint64(b, size)
		b = binary.LittleEndian.AppendUint64(b, start)
		b = binary.LittleEndian.AppendUint32(b, sigEnd64Locator)
		b = binary.LittleEndian.AppendUint32(b, 0)
		b = binary.LittleEndian.AppendUint64(b, end64)
		b = binary.LittleEndian.AppendUint32(b, 1)
	}
	b = binary.LittleEndian.AppendUint32(b, sigEnd)
	b = binary.LittleEndian.AppendUint32(b, 0) // disk numbers
	b = binary.LittleEndian.AppendUint16(b, uint16(min(count, max16)))
	b = binary.LittleEndian.AppendUint16(b, uint16(min(count, max16)))
	b = binary.LittleEndian.AppendUint32(b, uint32(min(size, max32)))
	b = binary.LittleEndian.AppendUint32(b, uint32(min(start, max32)))
	b = binary.LittleEndian.AppendUint16(b, 0) // comment length
	err := z.write(b)
	if err == nil {
		z.err = ErrClosed
	}
	return err
}

func (z *Writer) writeCentral(e *entry) error {
	var extra []byte
	if e.uncompressed >= max32 {
		extra = binary.LittleEndian.AppendUint64(extra, e.uncompressed)
	}
	if e.compressed >= max32 {
		extra = binary.LittleEndian.AppendUint64(extra, e.compressed)
	}
	if e.offset >= max32 {
		extra = binary.LittleEndian.AppendUint64(extra, e.offset)
	}
	b := z.scratch[:0]
	b = binary.LittleEndian.AppendUint32(b, sigCentral)
	b = binary.LittleEndian.AppendUint16(b, e.version) // made by: MS-DOS, same version
	b = binary.LittleEndian.AppendUint16(b, e.version)
	b = binary.LittleEndian.AppendUint16(b, e.flags&^flagRaw)
	b = binary.LittleEndian.AppendUint16(b, e.methodOrDeflate())
	b = binary.LittleEndian.AppendUint16(b, 0)
	b = binary.LittleEndian.AppendUint16(b, dosDate1980Jan01)
	b = binary.LittleEndian.AppendUint32(b, e.crc)
	b = binary.LittleEndian.AppendUint32(b, uint32(min(e.compressed, max32)))
	b = binary.LittleEndian.AppendUint32(b, uint32(min(e.uncompressed, max32)))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(e.name)))
	extraLen := 0
	if len(extra) > 0 {
		extraLen = 4 + len(extra)
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(extraLen))
	b = binary.LittleEndian.AppendUint16(b, 0) // comment
	b = binary.LittleEndian.AppendUint16(b, 0) // disk
	b = binary.LittleEndian.AppendUint16(b, 0) // internal attributes
	b = binary.LittleEndian.AppendUint32(b, 0) // external attributes
	b = binary.LittleEndian.AppendUint32(b, uint32(min(e.offset, max32)))
	b = append(b, e.name...)
	if len(extra) > 0 {
		b = binary.LittleEndian.AppendUint16(b, zip64ExtraID)
		b = binary.LittleEndian.AppendUint16(b, uint16(len(extra)))
		b = append(b, extra...)
	}
	z.scratch = b[:0]
	return z.write(b)
}

// CRC32 is the checksum zip entries use, exposed so callers feed the same
// table the archive expects.
func CRC32(crc uint32, p []byte) uint32 { return crc32.Update(crc, crc32.IEEETable, p) }
