package zipstream

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"hash/crc32"
	"io"
	"testing"
)

func deflated(data []byte) []byte {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, 5)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// TestReadBack writes whole and streamed entries and reads them with the
// standard library, which checks CRCs, sizes and the directory.
func TestReadBack(t *testing.T) {
	files := map[string][]byte{
		"a.xml":         []byte("<a/>"),
		"dir/b.xml":     bytes.Repeat([]byte("streamed "), 10_000),
		"[weird].xml":   {},
		"c/d/e/f.xml":   []byte("last"),
		"streamed2.xml": bytes.Repeat([]byte{0, 1, 2}, 999),
	}
	order := []string{"a.xml", "dir/b.xml", "[weird].xml", "streamed2.xml", "c/d/e/f.xml"}
	var out bytes.Buffer
	z := NewWriter(&out)
	for i, name := range order {
		data := files[name]
		if i%2 == 0 {
			if err := z.WriteFile(name, deflated(data), crc32.ChecksumIEEE(data), uint64(len(data))); err != nil {
				t.Fatal(err)
			}
			continue
		}
		e, err := z.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := z.Create("second"); err == nil {
			t.Fatal("two entries open at once")
		}
		comp := deflated(data)
		e.Write(comp[:len(comp)/2])
		e.Write(comp[len(comp)/2:])
		if err := e.Close(crc32.ChecksumIEEE(data), uint64(len(data))); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) != len(order) {
		t.Fatalf("%d entries", len(zr.File))
	}
	for i, f := range zr.File {
		if f.Name != order[i] {
			t.Errorf("entry %d is %s, want %s", i, f.Name, order[i])
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		if err != nil || !bytes.Equal(got, files[f.Name]) {
			t.Errorf("%s: %v, %d bytes", f.Name, err, len(got))
		}
	}
	if z.Offset() != uint64(out.Len()) {
		t.Errorf("Offset %d, wrote %d", z.Offset(), out.Len())
	}
}

func TestErrorsStick(t *testing.T) {
	z := NewWriter(errWriter{})
	if err := z.WriteFile("a", nil, 0, 0); err == nil {
		t.Fatal("write error lost")
	}
	if _, err := z.Create("b"); err == nil {
		t.Fatal("error did not stick")
	}
}

type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, errors.New("nope") }
