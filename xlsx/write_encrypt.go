package xlsx

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sheetstream/sheetstream/internal/cfb"
	"github.com/sheetstream/sheetstream/internal/offcrypto"
)

// An encrypted workbook is a compound file holding the EncryptionInfo and
// EncryptedPackage streams: the zip package, encrypted in 4 KiB segments
// as the zip writer produces it. What cannot be known until the end — the
// package's size, which the stream starts with, and the HMAC over the
// whole stream, which EncryptionInfo carries — is written last.
//
// To an output that can seek and be read back (an *os.File) the encrypted
// stream goes straight into its place in the file; at Close the size is
// patched in, the stream read back for the HMAC, the rest of the compound
// file appended and its header written at the start. To any other
// io.Writer (an HTTP response) nothing can be written before the size is
// known, so the encrypted package is held back: in memory up to
// Options.SheetBufferSize, then in a temporary file in Options.TempDir;
// without TempDir a larger package fails with ErrEncryptionBuffer. At
// Close the compound file is written out whole.

// ErrEncryptionBuffer reports an encrypted workbook written to an output
// that cannot seek, grown past Options.SheetBufferSize without
// Options.TempDir to hold the rest.
var ErrEncryptionBuffer = errors.New("the encrypted package outgrew the memory for it; set Options.TempDir, or write to a file")

// seekableOutput is an output an encrypted package can be written into
// in place.
type seekableOutput interface {
	io.WriteSeeker
	io.ReaderAt
}

// encryptedOutput receives the zip package, encrypts it and writes the
// compound file around it.
type encryptedOutput struct {
	dst    io.Writer
	file   seekableOutput // set when writing in place
	base   int64          // file's offset where the compound file starts
	enc    *offcrypto.Encryptor
	seg    []byte // plaintext of the segment being filled
	index  int64
	plain  int64 // package bytes received
	cipher int64 // encrypted bytes written (after the size)
	// Held back when not in place: in memory, then in spill.
	held bytes.Buffer
	// out gathers ciphertext for the file, so that it is written in
	// large pieces, not 4 KiB ones.
	out     []byte
	budget  int
	tempDir string
	spill   *os.File
	err     error
}

func newEncryptedOutput(dst io.Writer, password string, opts Options) (*encryptedOutput, error) {
	enc, err := offcrypto.NewEncryptor(password)
	if err != nil {
		return nil, err
	}
	o := &encryptedOutput{dst: dst, enc: enc, seg: make([]byte, 0, offcrypto.SegmentSize+16), budget: opts.SheetBufferSize, tempDir: opts.TempDir}
	if o.budget <= 0 {
		o.budget = DefaultSheetBufferSize
	}
	if f, ok := dst.(seekableOutput); ok {
		if pos, err := f.Seek(0, io.SeekCurrent); err == nil {
			o.file, o.base = f, pos
			o.out = make([]byte, 0, 256<<10)
			// The header and the package's size come last; their room
			// now.
			if _, err := f.Write(make([]byte, 512+8)); err != nil {
				return nil, err
			}
		}
	}
	return o, nil
}

// Write takes package bytes, encrypting each segment as it fills.
func (o *encryptedOutput) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n := 0
	for n < len(p) {
		k := copy(o.seg[len(o.seg):offcrypto.SegmentSize], p[n:])
		o.seg = o.seg[:len(o.seg)+k]
		n += k
		if len(o.seg) == offcrypto.SegmentSize {
			if err := o.flushSegment(); err != nil {
				return n, err
			}
		}
	}
	o.plain += int64(n)
	return n, nil
}

func (o *encryptedOutput) flushSegment() error {
	ct := o.enc.EncryptSegment(o.index, o.seg)
	o.index++
	o.seg = o.seg[:0]
	if err := o.put(ct); err != nil {
		o.err = err
		return err
	}
	return nil
}

// put writes ciphertext into place, or holds it back.
func (o *encryptedOutput) put(b []byte) error {
	o.cipher += int64(len(b))
	switch {
	case o.file != nil:
		if len(o.out)+len(b) > cap(o.out) {
			if err := o.flushOut(); err != nil {
				return err
			}
		}
		o.out = append(o.out, b...)
		return nil
	case o.spill != nil:
		_, err := o.spill.Write(b)
		return err
	case o.held.Len()+len(b) <= o.budget:
		o.held.Write(b)
		return nil
	case o.tempDir == "":
		return fmt.Errorf("%w (%d MiB)", ErrEncryptionBuffer, o.budget>>20)
	}
	f, err := os.CreateTemp(o.tempDir, "sheetstream-*.encrypted")
	if err != nil {
		return fmt.Errorf("holding the encrypted package: %w", err)
	}
	o.spill = f
	if _, err := f.Write(b); err != nil {
		return err
	}
	return nil
}

func (o *encryptedOutput) flushOut() error {
	if len(o.out) == 0 {
		return nil
	}
	_, err := o.file.Write(o.out)
	o.out = o.out[:0]
	return err
}

// heldReader reads the ciphertext held back: memory, then the spill.
func (o *encryptedOutput) heldReader() io.Reader {
	if o.spill == nil {
		return bytes.NewReader(o.held.Bytes())
	}
	return io.MultiReader(bytes.NewReader(o.held.Bytes()), io.NewSectionReader(o.spill, 0, o.cipher-int64(o.held.Len())))
}

// discard removes what is held back in a temporary file.
func (o *encryptedOutput) discard() {
	if o.spill != nil {
		o.spill.Close()
		os.Remove(o.spill.Name())
		o.spill = nil
	}
}

// Close encrypts the last segment and writes the compound file's
// remaining parts.
func (o *encryptedOutput) Close() error {
	if o.err != nil {
		return o.err
	}
	if len(o.seg) > 0 {
		if err := o.flushSegment(); err != nil {
			return err
		}
	}
	// The stream: the package's size, the segments, and zeros up to the
	// 4 KiB a compound file's large stream needs (they decrypt to nothing
	// past the size).
	streamLen := max(8+o.cipher, 4096)
	if extra := streamLen - 8 - o.cipher; extra > 0 {
		if err := o.put(make([]byte, extra)); err != nil {
			return err
		}
	}
	if o.file != nil {
		if err := o.flushOut(); err != nil {
			return err
		}
	}
	var size [8]byte
	binary.LittleEndian.PutUint64(size[:], uint64(o.plain))
	mac := o.enc.HMAC()
	mac.Write(size[:])
	if o.file != nil {
		if _, err := io.Copy(mac, io.NewSectionReader(o.file, o.base+512+8, o.cipher)); err != nil {
			return fmt.Errorf("reading the encrypted package back: %w", err)
		}
	} else {
		if _, err := io.Copy(mac, o.heldReader()); err != nil {
			return err
		}
	}
	info, err := o.enc.Info()
	if err != nil {
		return err
	}
	small := offcrypto.DataSpaces()
	small["EncryptionInfo"] = info
	layout := cfb.Layout{Large: "EncryptedPackage", LargeSize: streamLen, Small: small}
	header, tail, err := layout.Build()
	if err != nil {
		return err
	}
	padding := make([]byte, layout.LargeSectors()*512-streamLen)
	if o.file != nil {
		if _, err := o.file.Write(append(padding, tail...)); err != nil {
			return err
		}
		end, err := o.file.Seek(0, io.SeekCurrent)
		if err != nil {
			return err
		}
		if _, err := o.file.Seek(o.base, io.SeekStart); err != nil {
			return err
		}
		if _, err := o.file.Write(append(header, size[:]...)); err != nil {
			return err
		}
		_, err = o.file.Seek(end, io.SeekStart)
		return err
	}
	for _, b := range [][]byte{header, size[:]} {
		if _, err := o.dst.Write(b); err != nil {
			return err
		}
	}
	if _, err := io.Copy(o.dst, o.heldReader()); err != nil {
		return err
	}
	_, err = o.dst.Write(append(padding, tail...))
	return err
}
