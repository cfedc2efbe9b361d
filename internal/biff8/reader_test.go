package biff8

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"
)

func record(typ uint16, payload []byte) []byte {
	b := binary.LittleEndian.AppendUint16(nil, typ)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(payload)))
	return append(b, payload...)
}

func TestReaderContinue(t *testing.T) {
	in := bytes.Join([][]byte{
		record(SST, []byte{1, 2}), record(Continue, []byte{3}), record(Continue, []byte{4, 5}),
		record(Number, []byte{6}), record(EOF, nil),
	}, nil)
	r := NewReader(bytes.NewReader(in), 100)
	rec, err := r.Next()
	if err != nil || rec.Type != SST || !bytes.Equal(rec.Data, []byte{1, 2}) || len(rec.Conts) != 2 || !bytes.Equal(rec.Conts[1], []byte{4, 5}) || rec.Pos != 100 {
		t.Fatalf("SST: %+v %v", rec, err)
	}
	if rec, err = r.Next(); err != nil || rec.Type != Number || len(rec.Conts) != 0 || rec.Pos != 100+6+5+6 {
		t.Fatalf("NUMBER: %+v %v", rec, err)
	}
	if rec, err = r.Next(); err != nil || rec.Type != EOF {
		t.Fatalf("EOF: %+v %v", rec, err)
	}
	if _, err = r.Next(); err != io.EOF {
		t.Fatalf("end: %v", err)
	}
	for _, c := range []struct {
		in   []byte
		want error
	}{
		{[]byte{0x03, 0x02, 0x10, 0x00, 1}, ErrTruncated},
		{[]byte{0x03, 0x02}, ErrTruncated},
		{[]byte{0x03, 0x02, 0xFF, 0xFF}, ErrTooLarge},
	} {
		if _, err := NewReader(bytes.NewReader(c.in), 0).Next(); !errors.Is(err, c.want) {
			t.Errorf("% x: %v, want %v", c.in, err, c.want)
		}
	}
}

func TestUnicodeString(t *testing.T) {
	// "ab" compressed, then carried on as UTF-16 "é漢" (a new flags byte
	// starts the CONTINUE), with one rich text run and a 3-byte extension
	// after the characters, then "z".
	data := []byte{4, 0, 0x0C, 1, 0, 3, 0, 0, 0, 'a', 'b'}
	cont := []byte{1, 0xE9, 0x00, 0x22, 0x6F, 1, 2, 3, 4, 7, 8, 9, 1, 0, 0, 'z'}
	c := NewCursor(Record{Data: data, Conts: [][]byte{cont}})
	s, err := c.UnicodeString(nil, 2, 100)
	if err != nil || string(s) != "abé漢" {
		t.Fatalf("%q %v", s, err)
	}
	if s, err = c.UnicodeString(nil, 2, 100); err != nil || string(s) != "z" {
		t.Fatalf("second: %q %v", s, err)
	}
	if c.Len() != 0 {
		t.Errorf("%d bytes left", c.Len())
	}
	if _, err := NewCursor(Record{Data: []byte{9, 0, 0, 'a'}}).UnicodeString(nil, 2, 100); !errors.Is(err, ErrTruncated) {
		t.Errorf("short: %v", err)
	}
	if _, err := NewCursor(Record{Data: []byte{4, 0, 0, 'a', 'b', 'c', 'd'}}).UnicodeString(nil, 2, 3); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit: %v", err)
	}
	// High bytes in a compressed string are Latin-1.
	if s, _ := NewCursor(Record{Data: []byte{1, 0, 0, 0xE9}}).UnicodeString(nil, 2, 10); string(s) != "é" {
		t.Errorf("Latin-1: %q", s)
	}
}

func TestByteString(t *testing.T) {
	c := NewCursor(Record{Data: []byte{3, 'a', 0x80, 'b'}})
	s, err := c.ByteString(nil, 1, CodePageDecoder(1252))
	if err != nil || string(s) != "a€b" {
		t.Errorf("cp1252: %q %v", s, err)
	}
	c = NewCursor(Record{Data: []byte{2, 0, 0x82, 0xA0}})
	if s, _ := c.ByteString(nil, 2, CodePageDecoder(932)); string(s) != "あ" {
		t.Errorf("Shift-JIS: %q", s)
	}
	if _, err := NewCursor(Record{Data: []byte{5, 'a'}}).ByteString(nil, 1, CodePageDecoder(1252)); !errors.Is(err, ErrTruncated) {
		t.Errorf("short: %v", err)
	}
}

// FuzzCursor decodes any record as strings: no panic, and no string
// over the limit.
func FuzzCursor(f *testing.F) {
	f.Add([]byte{4, 0, 0x0C, 1, 0, 3, 0, 0, 0, 'a', 'b'}, []byte{1, 0xE9, 0x00, 0x22, 0x6F, 1, 2, 3, 4, 7, 8, 9})
	f.Fuzz(func(t *testing.T, data, cont []byte) {
		c := NewCursor(Record{Data: data, Conts: [][]byte{cont, cont}})
		for c.Len() > 0 {
			s, err := c.UnicodeString(nil, 2, 64)
			if err != nil {
				break
			}
			if len(s) > 64 {
				t.Fatalf("a string of %d bytes", len(s))
			}
		}
		NewCursor(Record{Data: data}).ByteString(nil, 1, CodePageDecoder(932))
		NewReader(bytes.NewReader(append(data, cont...)), 0).Next()
	})
}

// FuzzReader: records read where they lie are the records read by
// copying, with their CONTINUEs, positions and errors.
func FuzzReader(f *testing.F) {
	f.Add(bytes.Join([][]byte{record(SST, []byte{1, 2}), record(Continue, []byte{3}), record(Number, []byte{6}), record(EOF, nil)}, nil))
	f.Add(record(Label, bytes.Repeat([]byte{7}, 300)))
	f.Add([]byte{0x03, 0x02, 0x10, 0x00, 1})
	f.Fuzz(func(t *testing.T, in []byte) {
		fast, copying := NewReader(bytes.NewReader(in), 0), NewReader(bytes.NewReader(in), 0)
		copying.copyAll = true
		for range 10000 {
			a, errA := fast.Next()
			b, errB := copying.Next()
			if (errA == nil) != (errB == nil) || errA != nil && errA.Error() != errB.Error() {
				t.Fatalf("errors %v and %v", errA, errB)
			}
			if errA != nil {
				return
			}
			if a.Type != b.Type || a.Pos != b.Pos || !bytes.Equal(a.Data, b.Data) || len(a.Conts) != len(b.Conts) {
				t.Fatalf("records %+v and %+v", a, b)
			}
			for i := range a.Conts {
				if !bytes.Equal(a.Conts[i], b.Conts[i]) {
					t.Fatalf("continue %d: % x and % x", i, a.Conts[i], b.Conts[i])
				}
			}
		}
	})
}
