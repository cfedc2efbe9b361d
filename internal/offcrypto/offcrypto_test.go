package offcrypto

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/cfb"
	"github.com/sheetstream/sheetstream/internal/testenv"
)

// encryptPackage encrypts pkg as the xlsx writer does: the size, then
// segments, the HMAC over it all.
func encryptPackage(t testing.TB, pkg []byte, password string) (info, stream []byte) {
	t.Helper()
	e, err := NewEncryptor(password)
	if err != nil {
		t.Fatal(err)
	}
	stream = binary.LittleEndian.AppendUint64(nil, uint64(len(pkg)))
	for i := 0; i*SegmentSize < len(pkg); i++ {
		seg := make([]byte, min(SegmentSize, len(pkg)-i*SegmentSize), SegmentSize+16)
		copy(seg, pkg[i*SegmentSize:])
		stream = append(stream, e.EncryptSegment(int64(i), seg)...)
	}
	e.HMAC().Write(stream)
	info, err = e.Info()
	if err != nil {
		t.Fatal(err)
	}
	return info, stream
}

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 15, 16, 4095, 4096, 4097, 50_000} {
		pkg := make([]byte, n)
		for i := range pkg {
			pkg[i] = byte(rng.Uint32())
		}
		info, stream := encryptPackage(t, pkg, "pass")
		p, err := Open(info, bytes.NewReader(stream), int64(len(stream)), "pass")
		if err != nil {
			t.Fatalf("%d: %v", n, err)
		}
		got := make([]byte, n)
		if k, err := p.ReadAt(got, 0); k != n || err != nil && !errors.Is(err, io.EOF) || !bytes.Equal(got, pkg) {
			t.Errorf("%d: read %d bytes, %v; equal %v", n, k, err, bytes.Equal(got, pkg))
		}
		if n > 5000 {
			part := make([]byte, 1000)
			if _, err := p.ReadAt(part, 4000); err != nil || !bytes.Equal(part, pkg[4000:5000]) {
				t.Errorf("%d: a read across segments: %v", n, err)
			}
		}
		if _, err := Open(info, bytes.NewReader(stream), int64(len(stream)), "Pass"); !errors.Is(err, ErrPassword) {
			t.Errorf("%d: wrong password: %v", n, err)
		}
		if n > 0 {
			bad := bytes.Clone(stream)
			bad[len(bad)-1] ^= 0x80
			if _, err := Open(info, bytes.NewReader(bad), int64(len(bad)), "pass"); !errors.Is(err, ErrIntegrity) {
				t.Errorf("%d: damaged: %v", n, err)
			}
		}
	}
}

// TestRefused names what it does not read.
func TestRefused(t *testing.T) {
	info, stream := encryptPackage(t, []byte("package"), "p")
	spun := bytes.Replace(info, []byte(`spinCount="100000"`), []byte(`spinCount="2000000000"`), 1)
	rc4 := binary.LittleEndian.AppendUint16(nil, 4)
	rc4 = binary.LittleEndian.AppendUint16(rc4, 2)
	rc4 = append(rc4, 0, 0, 0, 0, 32, 0, 0, 0)
	rc4 = append(rc4, make([]byte, 32)...)
	binary.LittleEndian.PutUint32(rc4[12+8:], algRC4)
	for name, c := range map[string]struct {
		info []byte
		want error
	}{
		"huge spin count":  {spun, ErrUnsupported},
		"rc4":              {rc4, ErrUnsupported},
		"extensible":       {[]byte{4, 0, 3, 0, 0, 0, 0, 0}, ErrUnsupported},
		"version 9.9":      {[]byte{9, 0, 9, 0, 0, 0, 0, 0}, ErrUnsupported},
		"not XML":          {append([]byte{4, 0, 4, 0, 0x40, 0, 0, 0}, "<encryption"...), ErrMalformed},
		"short":            {[]byte{4, 0}, ErrMalformed},
		"certificate only": {bytes.Replace(info, []byte(`uri="`+passwordKeyEncryptor), []byte(`uri="http://schemas.microsoft.com/office/2006/keyEncryptor/certificate`), 1), ErrUnsupported},
	} {
		if _, err := Open(c.info, bytes.NewReader(stream), int64(len(stream)), "p"); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
}

// TestDataSpacesAsExcel compares the \x06DataSpaces streams with those of
// an encrypted workbook from the corpus.
func TestDataSpacesAsExcel(t *testing.T) {
	path := filepath.Join(testenv.Corpus(t), "poi", "poifs", "60320-protected.xlsx")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cfb.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range DataSpaces() {
		s, err := c.Open(name)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		got, err := s.ReadAll(4096)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%q: ours %q\nExcel's %q", strings.TrimPrefix(name, "\x06"), want, got)
		}
	}
}

// FuzzOpen parses whatever EncryptionInfo it is given against a real
// encrypted stream: errors, never a panic, and no hours of hashing.
func FuzzOpen(f *testing.F) {
	info, stream := encryptPackage(f, []byte(strings.Repeat("zip package ", 500)), "p")
	f.Add(info)
	f.Add(info[:40])
	f.Add([]byte{3, 0, 2, 0, 0x24, 0, 0, 0, 0x8c, 0, 0, 0})
	f.Fuzz(func(t *testing.T, info []byte) {
		if bytes.Contains(info, []byte("spinCount")) && !bytes.Contains(info, []byte(`spinCount="100000"`)) {
			return // a spin count under the cap can still take a while
		}
		p, err := Open(info, bytes.NewReader(stream), int64(len(stream)), "p")
		if err == nil {
			io.Copy(io.Discard, io.NewSectionReader(p, 0, p.Size()))
		}
	})
}
