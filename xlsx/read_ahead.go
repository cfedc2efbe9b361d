package xlsx

import (
	"io"
	"sync"
)

// readAhead reads a stream on its own goroutine, a few blocks ahead of
// its reader: inflating a part then runs on one core while the records
// or XML it holds are decoded on another. Formats read by one decoder
// (.xlsb, the .ods table list) get most of the gain the XML sheets get
// from their workers.
type readAhead struct {
	src  io.ReadCloser
	full chan []byte
	free chan []byte
	done chan struct{}
	err  error // set before full is closed
	cur  []byte
	held []byte // the block cur is in, returned to free when used up
	once sync.Once
}

// newReadAhead starts reading src in blocks of size bytes, n at most
// ahead.
func newReadAhead(src io.ReadCloser, size, n int) *readAhead {
	ra := &readAhead{src: src, full: make(chan []byte, n), free: make(chan []byte, n+1), done: make(chan struct{})}
	for range n + 1 {
		ra.free <- make([]byte, size)
	}
	go ra.run()
	return ra
}

func (ra *readAhead) run() {
	defer close(ra.full)
	for {
		var b []byte
		select {
		case b = <-ra.free:
		case <-ra.done:
			return
		}
		n, err := io.ReadFull(ra.src, b[:cap(b)])
		if n > 0 {
			select {
			case ra.full <- b[:n]:
			case <-ra.done:
				return
			}
		}
		if err != nil {
			if err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
			ra.err = err
			return
		}
	}
}

func (ra *readAhead) Read(p []byte) (int, error) {
	for len(ra.cur) == 0 {
		if ra.held != nil {
			ra.free <- ra.held
			ra.held = nil
		}
		b, ok := <-ra.full
		if !ok {
			return 0, ra.err
		}
		ra.cur, ra.held = b, b
	}
	n := copy(p, ra.cur)
	ra.cur = ra.cur[n:]
	return n, nil
}

// Close stops the reading goroutine and closes the stream.
func (ra *readAhead) Close() error {
	ra.once.Do(func() { close(ra.done) })
	for range ra.full {
	}
	return ra.src.Close()
}
