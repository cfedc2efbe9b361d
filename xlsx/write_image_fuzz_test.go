package xlsx

import (
	"math"
	"testing"
)

// FuzzReadImage: any bytes give a picture's format and a positive size,
// or ErrImage; never a panic.
func FuzzReadImage(f *testing.F) {
	f.Add([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x08"))
	f.Add([]byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x01\x00H\x00H\x00\x00\xff\xc0\x00\x0b\x08\x00\x10\x00\x20"))
	f.Add([]byte("GIF89a\x10\x00\x08\x00"))
	f.Add([]byte("BM" + string(make([]byte, 30))))
	f.Fuzz(func(t *testing.T, b []byte) {
		info, err := readImage(b)
		if err == nil && (!(info.width > 0) || !(info.height > 0) || math.IsInf(info.width+info.height, 0) || info.ext == "") {
			t.Fatalf("%+v from %q", info, b)
		}
	})
}
