package deflate

import (
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"os"
	"testing"
)

// sample mixes repetitive XML-like text with random bytes, so chunks both
// reuse their dictionary and meet incompressible stretches.
func sample(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	var b bytes.Buffer
	for b.Len() < n {
		if r.IntN(10) == 0 {
			junk := make([]byte, r.IntN(5000))
			for i := range junk {
				junk[i] = byte(r.Uint32())
			}
			b.Write(junk)
			continue
		}
		b.WriteString(`<row r="`)
		b.WriteString(string(rune('0' + r.IntN(10))))
		b.WriteString(`"><c r="A1" t="s"><v>12</v></c></row>`)
	}
	return b.Bytes()[:n]
}

// compressAll feeds data in pieces of uneven size, as the sheet writer does.
func compressAll(t *testing.T, data []byte, level, workers, chunk int) ([]byte, uint32, uint64) {
	t.Helper()
	p, err := NewPool(level, workers, chunk)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var out bytes.Buffer
	s := p.NewStream(&out)
	buf := p.Buffer()
	r := rand.New(rand.NewPCG(uint64(len(data)), 2))
	for len(data) > 0 {
		n := min(len(data), 1+r.IntN(3000))
		buf = append(buf, data[:n]...)
		data = data[n:]
		if len(buf) >= p.ChunkSize() {
			if buf, err = s.Submit(buf); err != nil {
				t.Fatal(err)
			}
		}
	}
	crc, size, err := s.Close(buf)
	if err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), crc, size
}

func TestRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, 100, 40_000, 1_000_000} {
		data := sample(n, uint64(n))
		var first []byte
		for _, level := range []int{0, 1, 3, 6, 9} {
			for _, workers := range []int{1, 2, 5} {
				for _, chunk := range []int{32 << 10, 100_000} {
					got, crc, size := compressAll(t, data, level, workers, chunk)
					back, err := io.ReadAll(flate.NewReader(bytes.NewReader(got)))
					if err != nil {
						t.Fatalf("n=%d level=%d workers=%d chunk=%d: inflate: %v", n, level, workers, chunk, err)
					}
					if !bytes.Equal(back, data) {
						t.Fatalf("n=%d level=%d workers=%d chunk=%d: data differs", n, level, workers, chunk)
					}
					if crc != crc32.ChecksumIEEE(data) || size != uint64(n) {
						t.Fatalf("crc %x size %d, want %x %d", crc, size, crc32.ChecksumIEEE(data), n)
					}
					if level == 3 && chunk == 100_000 {
						if first == nil {
							first = got
						} else if !bytes.Equal(first, got) {
							t.Fatalf("n=%d: output depends on the number of workers", n)
						}
					}
				}
			}
		}
	}
}

type failingWriter struct{ after int }

var errBroken = errors.New("broken")

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.after <= 0 {
		return 0, errBroken
	}
	f.after--
	return len(p), nil
}

func TestWriteError(t *testing.T) {
	for _, workers := range []int{1, 3} {
		p, _ := NewPool(1, workers, 32<<10)
		s := p.NewStream(&failingWriter{after: 2})
		data := sample(2_000_000, 9)
		buf := p.Buffer()
		var err error
		for i := 0; i < len(data) && err == nil; i += 40_000 {
			buf = append(buf, data[i:min(len(data), i+40_000)]...)
			buf, err = s.Submit(buf)
		}
		if err == nil {
			_, _, err = s.Close(buf)
		} else {
			s.Abort()
		}
		if !errors.Is(err, errBroken) {
			t.Errorf("%d workers: err = %v", workers, err)
		}
		p.Close()
	}
}

// TestConcurrentStreams runs several streams on one pool at once, as
// sheets written in parallel would; run it with -race.
func TestConcurrentStreams(t *testing.T) {
	p, _ := NewPool(1, 3, 32<<10)
	defer p.Close()
	done := make(chan error)
	for i := range 4 {
		go func() {
			data := sample(300_000, uint64(i))
			var out bytes.Buffer
			s := p.NewStream(&out)
			buf := p.Buffer()
			for j := 0; j < len(data); j += 10_000 {
				buf = append(buf, data[j:min(len(data), j+10_000)]...)
				if len(buf) >= p.ChunkSize() {
					var err error
					if buf, err = s.Submit(buf); err != nil {
						done <- err
						return
					}
				}
			}
			if _, _, err := s.Close(buf); err != nil {
				done <- err
				return
			}
			back, err := io.ReadAll(flate.NewReader(&out))
			if err == nil && !bytes.Equal(back, data) {
				err = errors.New("data differs")
			}
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// BenchmarkCompress measures the stage alone on sheet-like XML.
// BenchmarkCompress measures the compression stage alone, per level and
// worker count. SHEETSTREAM_DEFLATE_INPUT names a file to compress (a
// real sheet's XML, say: unzip one written with CompressionNone); without
// it, 8 MiB of synthetic XML. The "ratio" metric is output/input size.
func BenchmarkCompress(b *testing.B) {
	data := sample(8<<20, 3)
	if name := os.Getenv("SHEETSTREAM_DEFLATE_INPUT"); name != "" {
		var err error
		if data, err = os.ReadFile(name); err != nil {
			b.Fatal(err)
		}
	}
	for _, level := range []int{1, 2, 3, 4, 5, 6, 9} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("level=%d/workers=%d", level, workers), func(b *testing.B) {
				p, _ := NewPool(level, workers, 0)
				defer p.Close()
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				var out countWriter
				for range b.N {
					out = 0
					s := p.NewStream(&out)
					buf := p.Buffer()
					for i := 0; i < len(data); i += 64 << 10 {
						buf = append(buf, data[i:min(len(data), i+64<<10)]...)
						if len(buf) >= p.ChunkSize() {
							buf, _ = s.Submit(buf)
						}
					}
					s.Close(buf)
				}
				b.ReportMetric(float64(out)/float64(len(data)), "ratio")
			})
		}
	}
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }
