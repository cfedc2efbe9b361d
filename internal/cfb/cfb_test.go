package cfb

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/testenv"
)

// build writes a compound file with a large stream of n pseudo-random
// bytes and small streams in storages.
func build(t testing.TB, n int64, small map[string][]byte) (file, large []byte) {
	t.Helper()
	large = make([]byte, n)
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	for i := range large {
		large[i] = byte(rng.Uint32())
	}
	l := Layout{Large: "EncryptedPackage", LargeSize: n, Small: small}
	header, tail, err := l.Build()
	if err != nil {
		t.Fatal(err)
	}
	file = append(file, header...)
	file = append(file, large...)
	file = append(file, make([]byte, l.LargeSectors()*sectorSize-n)...)
	file = append(file, tail...)
	return file, large
}

var smallStreams = map[string][]byte{
	"EncryptionInfo":                      bytes.Repeat([]byte("info"), 300),
	"\x06DataSpaces/Version":              []byte("version"),
	"\x06DataSpaces/DataSpaceInfo/Strong": bytes.Repeat([]byte{7}, 64),
	"\x06DataSpaces/Empty":                {},
}

// TestRoundTrip writes files from empty to one needing DIFAT sectors
// (more than 109 FAT sectors) and reads every stream back.
func TestRoundTrip(t *testing.T) {
	if _, _, err := (&Layout{Large: "L", LargeSize: 4095}).Build(); err == nil {
		t.Error("built a large stream of 4,095 bytes")
	}
	for _, n := range []int64{4096, 4097, 5000, 100_000, 109*128*512 + 4096} {
		file, large := build(t, n, smallStreams)
		c, err := NewReader(bytes.NewReader(file), int64(len(file)))
		if err != nil {
			t.Fatalf("%d: %v", n, err)
		}
		want := map[string][]byte{"EncryptedPackage": large}
		for k, v := range smallStreams {
			want[k] = v
		}
		var paths []string
		for _, e := range c.Entries() {
			if e.Stream {
				paths = append(paths, e.Path)
			}
		}
		if !slices.Equal(slices.Sorted(slices.Values(paths)), slices.Sorted(func(y func(string) bool) {
			for k := range want {
				if !y(k) {
					return
				}
			}
		})) {
			t.Errorf("%d: streams %q", n, paths)
		}
		for path, data := range want {
			s, err := c.Open(path)
			if err != nil {
				t.Fatalf("%d: %s: %v", n, path, err)
			}
			got := make([]byte, s.Size())
			if _, err := s.ReadAt(got, 0); err != nil && !errors.Is(err, io.EOF) {
				t.Fatalf("%d: %s: %v", n, path, err)
			}
			if !bytes.Equal(got, data) {
				t.Errorf("%d: %s: %d bytes differ from the %d written", n, path, len(got), len(data))
			}
			// Reads at odd offsets across sector boundaries.
			if len(data) > 1000 {
				part := make([]byte, 700)
				if _, err := s.ReadAt(part, 300); err != nil || !bytes.Equal(part, data[300:1000]) {
					t.Errorf("%d: %s: ReadAt(300): %v", n, path, err)
				}
			}
		}
	}
}

// TestOlefile has olefile, the Python reader msoffcrypto-tool builds on,
// read what the writer wrote.
func TestOlefile(t *testing.T) {
	python := testenv.Get(t, "SHEETSTREAM_PYTHON", "installs msoffcrypto-tool, which brings olefile")
	file, large := build(t, 70_000, smallStreams)
	path := filepath.Join(t.TempDir(), "f.cfb")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(python, "-c", `import olefile, sys, hashlib
ole = olefile.OleFileIO(sys.argv[1])
for entry in sorted("/".join(e) for e in ole.listdir()):
    print(entry, hashlib.sha256(ole.openstream(entry).read()).hexdigest()[:16])
`, path).CombinedOutput()
	if err != nil {
		t.Fatalf("olefile: %v\n%s", err, out)
	}
	for name, data := range map[string][]byte{"EncryptedPackage": large, "EncryptionInfo": smallStreams["EncryptionInfo"], "\x06DataSpaces/Version": smallStreams["\x06DataSpaces/Version"]} {
		if !strings.Contains(string(out), name+" "+sha(data)) {
			t.Errorf("olefile does not read %q as written:\n%s", name, out)
		}
	}
}

// TestHostile mutates a good file into what hostile files do: every case
// ends in a named error, quickly.
func TestHostile(t *testing.T) {
	good, _ := build(t, 20_000, smallStreams)
	le := binary.LittleEndian
	fatAt := func(f []byte) int { return int(le.Uint32(f[76:])+1) * sectorSize }
	for name, mutate := range map[string]func(f []byte) []byte{
		"truncated header": func(f []byte) []byte { return f[:300] },
		"FAT loop": func(f []byte) []byte {
			le.PutUint32(f[fatAt(f)+4*5:], 2) // sector 5 points back to 2
			return f
		},
		"chain beyond the FAT": func(f []byte) []byte {
			le.PutUint32(f[fatAt(f)+4*5:], 0x7FFFFFF0)
			return f
		},
		"huge FAT count":   func(f []byte) []byte { le.PutUint32(f[44:], 0x7FFFFFFF); return f },
		"huge DIFAT count": func(f []byte) []byte { le.PutUint32(f[72:], 0x7FFFFFFF); return f },
		"bad sector shift": func(f []byte) []byte { le.PutUint16(f[30:], 30); return f },
		"directory beyond": func(f []byte) []byte { le.PutUint32(f[48:], 0x00FFFFFF); return f },
		"directory cycle": func(f []byte) []byte {
			dir := int(le.Uint32(f[48:])+1) * sectorSize
			le.PutUint32(f[dir+dirEntrySize+68:], 1) // entry 1's left sibling is itself
			return f
		},
		"stream claims more than its chain": func(f []byte) []byte {
			dir := int(le.Uint32(f[48:])+1) * sectorSize
			for i := dir; i < dir+4*dirEntrySize; i += dirEntrySize {
				if f[i+66] == typeStream && le.Uint64(f[i+120:]) >= 4096 {
					le.PutUint64(f[i+120:], 1<<31)
				}
			}
			return f
		},
	} {
		f := mutate(slices.Clone(good))
		c, err := NewReader(bytes.NewReader(f), int64(len(f)))
		if err == nil {
			for _, e := range c.Entries() {
				if e.Stream {
					if _, err = c.Open(e.Path); err != nil {
						break
					}
				}
			}
		}
		if err == nil || !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrNotCFB) {
			t.Errorf("%s: %v, want ErrMalformed", name, err)
		}
	}
}

// TestLegacyCorpus opens every compound file of the legacy corpus: each
// reads, or fails with a named error.
func TestLegacyCorpus(t *testing.T) {
	dir := testenv.LegacyCorpus(t)
	opened, failed := 0, 0
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil || !bytes.HasPrefix(data, Signature) {
			return err
		}
		c, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("%s: %v", path, err)
			}
			failed++
			return nil
		}
		for _, e := range c.Entries() {
			if !e.Stream {
				continue
			}
			s, err := c.Open(e.Path)
			if err != nil {
				if !errors.Is(err, ErrMalformed) {
					t.Errorf("%s: %s: %v", path, e.Path, err)
				}
				continue
			}
			if _, err := io.Copy(io.Discard, io.NewSectionReader(s, 0, s.Size())); err != nil && !errors.Is(err, ErrMalformed) {
				t.Errorf("%s: %s: %v", path, e.Path, err)
			}
		}
		opened++
		return nil
	})
	t.Logf("%d compound files opened, %d refused as malformed", opened, failed)
	if opened < 150 {
		t.Errorf("only %d compound files opened", opened)
	}
}

// FuzzReader reads whatever it is given: no panic, and streams read
// within their claimed sizes.
func FuzzReader(f *testing.F) {
	small, _ := build(f, 5000, smallStreams)
	f.Add(small)
	f.Add(small[:1024])
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		for _, e := range c.Entries() {
			if s, err := c.Open(e.Path); err == nil && e.Stream {
				io.Copy(io.Discard, io.NewSectionReader(s, 0, min(s.Size(), 1<<20)))
			}
		}
	})
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])[:16]
}
