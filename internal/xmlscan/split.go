package xmlscan

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ErrPieceTooLarge reports an element bigger than the splitter's limit.
var ErrPieceTooLarge = errors.New("XML element too large")

// Splitter cuts a stream of XML into pieces that each end just before a
// start tag with one of the given local names, so that pieces can be
// parsed independently: a worksheet cut before <row> tags, a shared
// strings table before <si>.
type Splitter struct {
	r     io.Reader
	names []string
	size  int
	max   int
	carry []byte
	eof   bool
	done  bool
}

// NewSplitter reads r in pieces of about size bytes, none over max unless
// it is the last.
func NewSplitter(r io.Reader, size, max int, names ...string) *Splitter {
	return &Splitter{r: r, names: names, size: size, max: max}
}

// Next fills buf (reusing its capacity) with the next piece. It returns
// io.EOF once everything was returned.
func (s *Splitter) Next(buf []byte) ([]byte, error) {
	if s.done {
		return buf[:0], io.EOF
	}
	buf = append(buf[:0], s.carry...)
	s.carry = s.carry[:0]
	want := s.size
	for {
		for len(buf) < want && !s.eof {
			if cap(buf)-len(buf) < 4096 {
				buf = append(buf, make([]byte, max(want-len(buf), 4096))...)[:len(buf)]
			}
			n, err := s.r.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if err == io.EOF {
				s.eof = true
			} else if err != nil {
				return buf, err
			}
		}
		if s.eof {
			s.done = true
			if len(buf) == 0 {
				return buf, io.EOF
			}
			return buf, nil
		}
		if cut := s.lastCut(buf); cut > 0 {
			s.carry = append(s.carry, buf[cut:]...)
			return buf[:cut], nil
		}
		if len(buf) >= s.max {
			return buf, fmt.Errorf("%w: no <%s> boundary in %d bytes", ErrPieceTooLarge, s.names[0], len(buf))
		}
		want = min(len(buf)*2, s.max)
	}
}

// lastCut finds the last start tag with one of the names, after offset 0.
func (s *Splitter) lastCut(b []byte) int {
	end := len(b)
	for {
		i := bytes.LastIndexByte(b[:end], '<')
		if i <= 0 {
			return -1
		}
		if s.isCut(b[i+1:]) {
			return i
		}
		end = i
	}
}

func (s *Splitter) isCut(b []byte) bool {
	// Skip a namespace prefix.
	j := 0
	for j < len(b) && j < 32 && b[j] != ':' && b[j] != '>' && b[j] != '/' && !isSpace(b[j]) {
		j++
	}
	if j < len(b) && b[j] == ':' {
		b = b[j+1:]
	}
	for _, name := range s.names {
		if len(b) > len(name) && string(b[:len(name)]) == name {
			c := b[len(name)]
			if isSpace(c) || c == '>' || c == '/' {
				return true
			}
		}
	}
	return false
}
