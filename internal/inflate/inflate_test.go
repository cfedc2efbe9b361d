package inflate

import (
	"bytes"
	stdflate "compress/flate"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/flate"
)

// sheetXML is rows as a worksheet holds them, n of them.
func sheetXML(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, `<row r="%d"><c><v>%d</v></c><c><v>%g</v></c><c t="s"><v>%d</v></c></row>`, i+1, i*7, float64(i)/7, i%100)
	}
	return b.Bytes()
}

func inputs() map[string][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 700<<10)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	runs := bytes.Repeat([]byte("a"), 1<<20)
	// Repeats of 8 to 17 bytes: matches whose distance is under their
	// length, copied eight bytes a step from bytes the match itself wrote.
	var periods []byte
	for p := 8; p <= 17; p++ {
		for range 40 {
			periods = append(periods, "0123456789abcdefgh"[:p]...)
		}
	}
	return map[string][]byte{
		"empty":   nil,
		"byte":    {'x'},
		"text":    []byte("hello, hello, hello world"),
		"sheet":   sheetXML(40000), // about 2.5 MB: the output buffer turns over
		"random":  random,          // stored blocks
		"runs":    runs,            // distance 1, overlapping copies
		"periods": periods,
		"mixed":   append(append(sheetXML(3000), random[:100<<10]...), sheetXML(3000)...),
	}
}

func deflate(t testing.TB, data []byte, level int) []byte {
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, level)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// TestRoundTrip inflates what compress/flate (klauspost's and the
// standard library's) deflates at every kind of level: stored, Huffman
// only, fast, default, best.
func TestRoundTrip(t *testing.T) {
	for name, data := range inputs() {
		for _, level := range []int{flate.NoCompression, flate.HuffmanOnly, 1, 5, 9} {
			comp := deflate(t, data, level)
			for _, src := range []struct {
				name string
				r    io.Reader
			}{{"whole", bytes.NewReader(comp)}, {"bytewise", iotest.OneByteReader(bytes.NewReader(comp))}} {
				got, err := io.ReadAll(NewReader(src.r))
				if err != nil || !bytes.Equal(got, data) {
					t.Errorf("%s, level %d, %s: %d bytes, %v; want %d bytes", name, level, src.name, len(got), err, len(data))
				}
			}
		}
		var std bytes.Buffer
		w, _ := stdflate.NewWriter(&std, stdflate.DefaultCompression)
		w.Write(data)
		w.Close()
		got, err := io.ReadAll(iotest.HalfReader(NewReader(bytes.NewReader(std.Bytes()))))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s, standard library: %d bytes, %v", name, len(got), err)
		}
	}
}

// TestTruncated: a stream cut anywhere is an error, never a short
// result that looks whole.
func TestTruncated(t *testing.T) {
	data := sheetXML(2000)
	for _, level := range []int{flate.NoCompression, 1, 9} {
		comp := deflate(t, data, level)
		for _, cut := range []int{0, 1, 2, 5, len(comp) / 3, len(comp) / 2, len(comp) - 2, len(comp) - 1} {
			_, err := io.ReadAll(NewReader(bytes.NewReader(comp[:cut])))
			if !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, ErrCorrupt) {
				t.Errorf("level %d, cut at %d of %d: %v", level, cut, len(comp), err)
			}
		}
	}
}

// TestCorrupt: streams compress/flate refuses as corrupt are refused as
// corrupt, each built by hand to break one rule.
func TestCorrupt(t *testing.T) {
	for _, c := range []struct {
		name  string
		build func(w *bitWriter)
	}{
		{"block type 3", func(w *bitWriter) { w.value(1, 1); w.value(3, 2) }},
		{"stored length check", func(w *bitWriter) {
			w.value(1, 1)
			w.value(0, 2)
			w.value(0, 5)  // to the byte boundary
			w.value(0, 16) // LEN 0
			w.value(0, 16) // NLEN not its complement
		}},
		{"distance before the start", func(w *bitWriter) {
			w.value(1, 1)
			w.value(1, 2)  // fixed codes
			w.code(1, 7)   // length 3 (symbol 257), before any output
			w.code(0, 5)   // distance 1
			w.code(0, 7)   // end of block
			w.value(0, 16) // slack: the stream does not end first
		}},
		{"over-subscribed code", func(w *bitWriter) {
			w.value(1, 1)
			w.value(2, 2) // dynamic
			w.value(0, 5)
			w.value(0, 5)
			w.value(15, 4) // 19 code-length code lengths
			for range 19 {
				w.value(1, 3) // all one bit long: 19 codes for 2 places
			}
			w.value(0, 16)
		}},
	} {
		var w bitWriter
		c.build(&w)
		_, stdErr := io.ReadAll(stdflate.NewReader(bytes.NewReader(w.out)))
		_, err := io.ReadAll(NewReader(bytes.NewReader(w.out)))
		var corrupt stdflate.CorruptInputError
		if !errors.Is(err, ErrCorrupt) || !errors.As(stdErr, &corrupt) {
			t.Errorf("%s: got %v, the standard library %v; want both to call it corrupt", c.name, err, stdErr)
		}
	}
}

// bitWriter packs a deflate stream by hand: values least significant bit
// first, Huffman codes most significant bit first.
type bitWriter struct {
	out  []byte
	bits uint
}

func (w *bitWriter) value(v uint32, n uint) {
	for i := range n {
		if w.bits%8 == 0 {
			w.out = append(w.out, 0)
		}
		w.out[len(w.out)-1] |= byte(v>>i&1) << (w.bits % 8)
		w.bits++
	}
}

func (w *bitWriter) code(c uint32, n uint) {
	for i := int(n) - 1; i >= 0; i-- {
		w.value(c>>uint(i)&1, 1)
	}
}

// TestShortLastBlock: a final dynamic block whose data after its code
// lengths is two bits ("a", end of block) reads, though a code-length
// code and its extra bits could take 14: the decoder looks ahead past
// the end but only takes the stream's bits.
func TestShortLastBlock(t *testing.T) {
	var w bitWriter
	w.value(1, 1)  // final
	w.value(2, 2)  // dynamic
	w.value(0, 5)  // 257 literal/length codes
	w.value(0, 5)  // 1 distance code
	w.value(14, 4) // 18 code-length code lengths, in precodeOrder
	// Code-length codes: 18 one bit (0), 0 and 1 two bits (10, 11).
	for _, sym := range precodeOrder[:18] {
		w.value(map[uint8]uint32{18: 1, 0: 2, 1: 2}[sym], 3)
	}
	zeros := func(n uint32) { w.code(0, 1); w.value(n-11, 7) }
	zeros(97)    // literals 0-96
	w.code(3, 2) // 'a': length 1
	zeros(138)   // 98-235
	zeros(20)    // 236-255
	w.code(3, 2) // end of block: length 1
	w.code(3, 2) // the one distance code: length 1
	w.code(0, 1) // 'a'
	w.code(1, 1) // end of block
	want, err := io.ReadAll(stdflate.NewReader(bytes.NewReader(w.out)))
	if err != nil || string(want) != "a" {
		t.Fatalf("the standard library reads %q, %v: the stream is wrong", want, err)
	}
	got, err := io.ReadAll(NewReader(bytes.NewReader(w.out)))
	if err != nil || string(got) != "a" {
		t.Errorf("got %q, %v", got, err)
	}
}

// TestEOFWithLastBytes: the read that returns a stream's last bytes says
// io.EOF, as compress/flate does; callers that cut what they read into
// pieces rely on knowing there is no more.
func TestEOFWithLastBytes(t *testing.T) {
	data := []byte("<<hyperlink>")
	buf := make([]byte, 100)
	n, err := NewReader(bytes.NewReader(deflate(t, data, 5))).Read(buf)
	if n != len(data) || err != io.EOF || !bytes.Equal(buf[:n], data) {
		t.Errorf("read %q, %v; want %q with io.EOF", buf[:n], err, data)
	}
}

// TestReset: a Reader reused for another stream starts clean.
func TestReset(t *testing.T) {
	a, b := sheetXML(5000), []byte("second stream")
	z := NewReader(bytes.NewReader(deflate(t, a, 5)))
	if got, err := io.ReadAll(z); err != nil || !bytes.Equal(got, a) {
		t.Fatalf("first: %v", err)
	}
	z.Reset(bytes.NewReader(deflate(t, b, 1)))
	if got, err := io.ReadAll(z); err != nil || !bytes.Equal(got, b) {
		t.Fatalf("second: %q %v", got, err)
	}
}

// FuzzInflate compares with the standard library on arbitrary streams:
// the same bytes when it reads them, an error when it refuses them.
func FuzzInflate(f *testing.F) {
	for _, data := range [][]byte{[]byte("hello hello hello"), sheetXML(20), bytes.Repeat([]byte{0}, 300)} {
		for _, level := range []int{flate.NoCompression, flate.HuffmanOnly, 1, 9} {
			f.Add(deflate(f, data, level))
		}
	}
	f.Add([]byte{0x07})
	f.Fuzz(func(t *testing.T, comp []byte) {
		want, stdErr := io.ReadAll(stdflate.NewReader(bytes.NewReader(comp)))
		got, err := io.ReadAll(NewReader(bytes.NewReader(comp)))
		if (err == nil) != (stdErr == nil) {
			t.Fatalf("error %v, the standard library's %v", err, stdErr)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Fatalf("%d bytes differ from the standard library's %d", len(got), len(want))
		}
	})
}

// FuzzRoundTrip inflates what klauspost/compress deflates from arbitrary
// input at the level the first byte picks.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{1, 'a', 'b', 'a', 'b'})
	f.Add(append([]byte{9}, sheetXML(50)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		level := int(data[0]%11) - 2
		got, err := io.ReadAll(NewReader(iotest.OneByteReader(bytes.NewReader(deflate(t, data[1:], level)))))
		if err != nil || !bytes.Equal(got, data[1:]) {
			t.Fatalf("level %d: %v", level, err)
		}
	})
}

// BenchmarkInflate inflates worksheet XML deflated as sheetstream writes
// it, against klauspost/compress's inflater.
func BenchmarkInflate(b *testing.B) {
	data := sheetXML(200000)
	comp := deflate(b, data, 1)
	buf := make([]byte, 128<<10)
	for _, c := range []struct {
		name string
		open func(io.Reader) io.Reader
	}{
		{"inflate", func(r io.Reader) io.Reader { return NewReader(r) }},
		{"klauspost", func(r io.Reader) io.Reader { return flate.NewReader(r) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				n, err := io.CopyBuffer(io.Discard, c.open(bytes.NewReader(comp)), buf)
				if err != nil || n != int64(len(data)) {
					b.Fatal(n, err)
				}
			}
		})
	}
}
