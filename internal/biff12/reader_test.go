package biff12

import (
	"bytes"
	"errors"
	"io"
	"math"
	"testing"
)

func TestReader(t *testing.T) {
	// A two-byte type (617 = 0xE9 0x04) with a two-byte size (200), then a
	// one-byte type with an empty payload.
	payload := bytes.Repeat([]byte{7}, 200)
	in := append([]byte{0xE9, 0x04, 0xC8, 0x01}, payload...)
	in = append(in, 0x84, 0x01, 0x00)
	r := NewReader(bytes.NewReader(in), 1<<10)
	typ, data, err := r.Next()
	if err != nil || typ != 617 || !bytes.Equal(data, payload) {
		t.Fatalf("first record: %d %d bytes %v", typ, len(data), err)
	}
	if typ, data, err = r.Next(); err != nil || typ != 132 || len(data) != 0 {
		t.Fatalf("second record: %d %d bytes %v", typ, len(data), err)
	}
	if _, _, err = r.Next(); err != io.EOF {
		t.Fatalf("end: %v", err)
	}
	if r.Records() != 2 {
		t.Errorf("%d records", r.Records())
	}
	for _, c := range []struct {
		in   []byte
		want error
	}{
		{[]byte{0x05, 0x10, 1, 2}, ErrTruncated},
		{[]byte{0x85}, ErrTruncated},
		{[]byte{0x05}, ErrTruncated},
		{[]byte{0x05, 0xFF, 0xFF, 0x7F}, ErrTooLarge},
	} {
		if _, _, err := NewReader(bytes.NewReader(c.in), 1<<10).Next(); !errors.Is(err, c.want) {
			t.Errorf("% x: %v, want %v", c.in, err, c.want)
		}
	}
}

func TestDecoders(t *testing.T) {
	for _, c := range []struct {
		rk   uint32
		want float64
	}{
		{42<<2 | 2, 42},
		{0xFFFFFFE6, -7}, // -7 << 2 | 2 in two's complement
		{12345<<2 | 3, 123.45},
		{uint32(math.Float64bits(1.5) >> 32), 1.5},
		{uint32(math.Float64bits(250)>>32) | 1, 2.5},
	} {
		if got := RK(c.rk); got != c.want {
			t.Errorf("RK(%#x) = %v, want %v", c.rk, got, c.want)
		}
	}
	// "a😀" with an unpaired surrogate after it.
	in := []byte{4, 0, 0, 0, 'a', 0, 0x3D, 0xD8, 0x00, 0xDE, 0x00, 0xD8, 'z'}
	s, rest, err := String(nil, in)
	if err != nil || string(s) != "a😀\uFFFD" || !bytes.Equal(rest, []byte{'z'}) {
		t.Errorf("String: %q %q %v", s, rest, err)
	}
	if s, _, err := String([]byte("x"), []byte{0xFF, 0xFF, 0xFF, 0xFF}); err != nil || string(s) != "x" {
		t.Errorf("null string: %q %v", s, err)
	}
	if _, _, err := String(nil, []byte{9, 0, 0, 0, 'a', 0}); !errors.Is(err, ErrTruncated) {
		t.Errorf("short string: %v", err)
	}
	if ErrorText(0x07) != "#DIV/0!" || ErrorText(0x99) != "" {
		t.Error("ErrorText")
	}
}

// FuzzReader frames any bytes without panicking, and never returns a
// record over the limit.
func FuzzReader(f *testing.F) {
	f.Add([]byte{0xE9, 0x04, 0x02, 0x01, 0x02, 0x84, 0x01, 0x00})
	f.Add([]byte{0x06, 0x0A, 0x02, 0, 0, 0, 0, 0, 0, 0, 'a', 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		r := NewReader(bytes.NewReader(in), 64)
		for {
			_, data, err := r.Next()
			if err != nil {
				return
			}
			if len(data) > 64 {
				t.Fatalf("a record of %d bytes", len(data))
			}
			Cell(data)
			String(nil, data)
			ReadRange(data)
		}
	})
}
