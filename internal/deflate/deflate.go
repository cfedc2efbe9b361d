// Package deflate compresses one long byte stream as a single standard
// deflate stream, cutting it into chunks that a pool of workers compresses
// in parallel (the pigz scheme).
//
// Each chunk is primed with the last 32 KiB before it as a dictionary and
// ended with a sync flush, so the chunks' outputs concatenate into one
// stream that any inflater reads. A chunk's output depends only on its
// bytes, its dictionary and whether it is the last, never on which worker
// ran it, so the result is byte-identical for any number of workers.
package deflate

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"

	"github.com/klauspost/compress/flate"
)

// windowSize is deflate's back-reference window: a longer dictionary
// cannot help.
const windowSize = 32 << 10

// DefaultChunkSize balances the cost of re-priming each chunk's dictionary
// (about windowSize of extra hashing) against memory in flight.
const DefaultChunkSize = 256 << 10

// chunkSlack lets a chunk overrun its nominal size by a row or so without
// growing its buffer.
const chunkSlack = 16 << 10

type job struct {
	in   []byte
	dict []byte
	out  outBuf
	last bool
	err  error
	done chan struct{}
}

// outBuf is a minimal growable sink for the compressor; bytes.Buffer would
// do, but this keeps reuse explicit.
type outBuf struct{ b []byte }

func (o *outBuf) Write(p []byte) (int, error) { o.b = append(o.b, p...); return len(p), nil }

// Pool owns the workers and the reusable buffers of one workbook. Streams
// created from it may run concurrently.
type Pool struct {
	level     int
	workers   int
	chunkSize int
	jobs      chan *job
	free      chan *job
	bufs      chan []byte
	// With one worker, streams compress on their own goroutines, each
	// with a compressor taken from here for the duration of one chunk.
	inline    chan *flate.Writer
	wg        sync.WaitGroup
	closeOnce sync.Once
}

// NewPool starts workers goroutines compressing at level (klauspost/compress
// flate levels: 0 stores, 1 fastest ... 9 smallest). With one worker,
// chunks are compressed on the calling goroutine.
func NewPool(level, workers, chunkSize int) (*Pool, error) {
	if workers < 1 {
		workers = 1
	}
	if chunkSize <= 0 {
		chunkSize = DefaultChunkSize
	}
	if chunkSize < windowSize {
		chunkSize = windowSize
	}
	if level < flate.NoCompression || level > flate.BestCompression {
		return nil, fmt.Errorf("deflate: level %d out of range 0..9", level)
	}
	p := &Pool{level: level, workers: workers, chunkSize: chunkSize}
	// Enough jobs to keep every worker busy while the producer fills the
	// next chunk and the writer drains the oldest.
	nJobs := 2*workers + 2
	p.free = make(chan *job, nJobs*4)
	p.bufs = make(chan []byte, nJobs*4)
	if workers == 1 {
		fw, err := flate.NewWriter(nil, level)
		if err != nil {
			return nil, err
		}
		p.inline = make(chan *flate.Writer, 8)
		p.inline <- fw
		return p, nil
	}
	p.jobs = make(chan *job, workers)
	for range workers {
		fw, err := flate.NewWriter(nil, level)
		if err != nil {
			return nil, err
		}
		p.wg.Add(1)
		go p.work(fw)
	}
	return p, nil
}

// ChunkSize is the nominal size of a chunk: callers fill a buffer to at
// least this size before submitting it.
func (p *Pool) ChunkSize() int { return p.chunkSize }

// InFlight is how many chunks one stream keeps queued before it waits for
// the oldest to be written.
func (p *Pool) InFlight() int { return p.workers + 1 }

// inlineWriter lends a compressor to a stream compressing on its own
// goroutine; streams of concurrent sheets each get one.
func (p *Pool) inlineWriter() (*flate.Writer, error) {
	select {
	case fw := <-p.inline:
		return fw, nil
	default:
		return flate.NewWriter(nil, p.level)
	}
}

func (p *Pool) releaseInline(fw *flate.Writer) {
	select {
	case p.inline <- fw:
	default:
	}
}

func (p *Pool) work(fw *flate.Writer) {
	defer p.wg.Done()
	for j := range p.jobs {
		compress(fw, j)
		j.done <- struct{}{}
	}
}

func compress(fw *flate.Writer, j *job) {
	j.out.b = j.out.b[:0]
	fw.ResetDict(&j.out, j.dict)
	if _, err := fw.Write(j.in); err != nil {
		j.err = err
		return
	}
	if j.last {
		j.err = fw.Close()
	} else {
		j.err = fw.Flush()
	}
}

// Close stops the workers. Streams must be closed first.
func (p *Pool) Close() {
	p.closeOnce.Do(func() {
		if p.jobs != nil {
			close(p.jobs)
		}
		p.wg.Wait()
	})
}

// Buffer returns an empty buffer with room for a chunk.
func (p *Pool) Buffer() []byte {
	select {
	case b := <-p.bufs:
		return b
	default:
		return make([]byte, 0, p.chunkSize+chunkSlack)
	}
}

// Release gives back a buffer from Buffer or Submit that the caller does not need.
func (p *Pool) Release(b []byte) {
	// An outsized buffer (a giant row) is not worth keeping.
	if cap(b) < p.chunkSize || cap(b) > p.chunkSize+4*chunkSlack {
		return
	}
	select {
	case p.bufs <- b[:0]:
	default:
	}
}

func (p *Pool) getJob() *job {
	select {
	case j := <-p.free:
		return j
	default:
		// done is buffered so a worker never waits for the stream to look.
		return &job{dict: make([]byte, 0, windowSize), done: make(chan struct{}, 1)}
	}
}

func (p *Pool) putJob(j *job) {
	select {
	case p.free <- j:
	default:
	}
}

// Stream is one deflate stream. It is not safe for concurrent use.
type Stream struct {
	p       *Pool
	dst     io.Writer
	pending []*job
	tail    []byte // the last windowSize bytes submitted so far
	crc     uint32
	size    uint64
	err     error
	closed  bool
}

// NewStream starts a stream whose compressed bytes go to dst, in order.
func (p *Pool) NewStream(dst io.Writer) *Stream {
	return &Stream{p: p, dst: dst, tail: make([]byte, 0, windowSize)}
}

// ErrClosed reports use of a closed stream.
var ErrClosed = errors.New("deflate: stream closed")

// Submit hands over a filled chunk and returns an empty buffer to fill
// next. The stream owns chunk from now on.
func (s *Stream) Submit(chunk []byte) ([]byte, error) {
	if err := s.enqueue(chunk, false); err != nil {
		return chunk[:0], err
	}
	return s.p.Buffer(), nil
}

// Close submits the final chunk (which may be empty), writes everything
// still in flight and reports the CRC-32 and length of all data submitted.
func (s *Stream) Close(final []byte) (crc uint32, size uint64, err error) {
	if err := s.enqueue(final, true); err != nil {
		s.abandon()
		return 0, 0, err
	}
	for len(s.pending) > 0 {
		if err := s.drainOne(); err != nil {
			s.abandon()
			return 0, 0, err
		}
	}
	s.closed = true
	return s.crc, s.size, nil
}

// Abort drops whatever is in flight, for when the caller gives up.
func (s *Stream) Abort() {
	s.abandon()
	s.closed = true
}

func (s *Stream) abandon() {
	for _, j := range s.pending {
		<-j.done
		s.recycle(j)
	}
	s.pending = s.pending[:0]
}

func (s *Stream) enqueue(chunk []byte, last bool) error {
	if s.closed {
		return ErrClosed
	}
	if s.err != nil {
		return s.err
	}
	s.crc = crc32.Update(s.crc, crc32.IEEETable, chunk)
	s.size += uint64(len(chunk))
	j := s.p.getJob()
	j.in = chunk
	j.last = last
	j.err = nil
	j.dict = append(j.dict[:0], s.tail...)
	s.updateTail(chunk)

	if s.p.inline != nil {
		fw, err := s.p.inlineWriter()
		if err != nil {
			s.recycle(j)
			s.err = err
			return err
		}
		compress(fw, j)
		s.p.releaseInline(fw)
		return s.emit(j)
	}
	s.p.jobs <- j
	s.pending = append(s.pending, j)
	// Write out whatever is already finished, so bytes reach dst early,
	// and wait when too much is queued, so memory stays bounded. Each
	// job's done signal is received exactly once.
	for len(s.pending) > 0 {
		if len(s.pending) < s.p.InFlight() {
			select {
			case <-s.pending[0].done:
			default:
				return nil
			}
		} else {
			<-s.pending[0].done
		}
		if err := s.emit(s.popFront()); err != nil {
			return err
		}
	}
	return nil
}

func (s *Stream) popFront() *job {
	j := s.pending[0]
	copy(s.pending, s.pending[1:])
	s.pending[len(s.pending)-1] = nil
	s.pending = s.pending[:len(s.pending)-1]
	return j
}

func (s *Stream) updateTail(chunk []byte) {
	if len(chunk) >= windowSize {
		s.tail = append(s.tail[:0], chunk[len(chunk)-windowSize:]...)
		return
	}
	if over := len(s.tail) + len(chunk) - windowSize; over > 0 {
		s.tail = append(s.tail[:0], s.tail[over:]...)
	}
	s.tail = append(s.tail, chunk...)
}

func (s *Stream) drainOne() error {
	<-s.pending[0].done
	return s.emit(s.popFront())
}

func (s *Stream) emit(j *job) error {
	err := j.err
	if err == nil {
		_, err = s.dst.Write(j.out.b)
	}
	s.recycle(j)
	if err != nil {
		s.err = err
	}
	return err
}

func (s *Stream) recycle(j *job) {
	if j.in != nil {
		s.p.Release(j.in)
		j.in = nil
	}
	s.p.putJob(j)
}
