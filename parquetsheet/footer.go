package parquetsheet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The Parquet library decodes the footer (a Thrift compact-protocol
// FileMetaData) trusting each list's size: a hostile file claiming a list
// of 2^31 elements makes it allocate them before reading one, which no
// recover can stop. checkFooter walks the footer first and refuses any
// list, set, map or binary that claims more elements or bytes than the
// footer has left, or nesting deeper than maxDepth (Apache Thrift's own
// readers check the same).

const maxDepth = 64

var errFooter = errors.New("a malformed Parquet footer")

// checkFooter reads the footer of the file in r (size bytes) and checks
// its structure.
func checkFooter(r io.ReaderAt, size int64) error {
	if size < 12 {
		return fmt.Errorf("%w: %d bytes", errFooter, size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if !bytes.Equal(tail[4:], []byte("PAR1")) {
		return fmt.Errorf("%w: no PAR1 at the end", errFooter)
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return fmt.Errorf("%w: a footer of %d bytes in a file of %d", errFooter, n, size)
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-8-n); err != nil {
		return err
	}
	w := thriftWalker{b: footer}
	if err := w.structure(0); err != nil {
		return fmt.Errorf("%w: %v", errFooter, err)
	}
	return nil
}

// thriftWalker reads the Thrift compact protocol without keeping it.
type thriftWalker struct {
	b []byte
	i int
}

func (w *thriftWalker) byte() (byte, error) {
	if w.i >= len(w.b) {
		return 0, io.ErrUnexpectedEOF
	}
	w.i++
	return w.b[w.i-1], nil
}

func (w *thriftWalker) varint() (uint64, error) {
	v, n := binary.Uvarint(w.b[w.i:])
	if n <= 0 {
		return 0, errors.New("a bad varint")
	}
	w.i += n
	return v, nil
}

// count reads a size and checks that the elements, each at least min
// bytes, fit in what is left.
func (w *thriftWalker) count(v uint64, min int) (int, error) {
	if left := uint64(len(w.b) - w.i); v*uint64(min) > left || v > left {
		return 0, fmt.Errorf("%d elements claimed with %d bytes left", v, left)
	}
	return int(v), nil
}

// structure walks a struct's fields to its stop byte.
func (w *thriftWalker) structure(depth int) error {
	if depth > maxDepth {
		return errors.New("nested too deep")
	}
	for {
		h, err := w.byte()
		if err != nil {
			return err
		}
		if h == 0 {
			return nil // stop
		}
		if h>>4 == 0 { // a long field header: the field id follows
			if _, err := w.varint(); err != nil {
				return err
			}
		}
		if err := w.value(h&0x0f, depth); err != nil {
			return err
		}
	}
}

// value walks one value of compact type t.
func (w *thriftWalker) value(t byte, depth int) error {
	switch t {
	case 1, 2: // a boolean field: true or false, in the header
		return nil
	case 3: // byte
		_, err := w.byte()
		return err
	case 4, 5, 6: // i16, i32, i64 as zigzag varints
		_, err := w.varint()
		return err
	case 7: // double
		if len(w.b)-w.i < 8 {
			return io.ErrUnexpectedEOF
		}
		w.i += 8
		return nil
	case 8: // binary
		v, err := w.varint()
		if err != nil {
			return err
		}
		n, err := w.count(v, 1)
		if err != nil {
			return err
		}
		w.i += n
		return nil
	case 9, 10: // list, set
		h, err := w.byte()
		if err != nil {
			return err
		}
		size := uint64(h >> 4)
		if size == 15 {
			if size, err = w.varint(); err != nil {
				return err
			}
		}
		elem := h & 0x0f
		n, err := w.count(size, elementBytes(elem))
		if err != nil {
			return err
		}
		for range n {
			if err := w.element(elem, depth+1); err != nil {
				return err
			}
		}
		return nil
	case 11: // map
		v, err := w.varint()
		if err != nil || v == 0 {
			return err
		}
		kv, err := w.byte()
		if err != nil {
			return err
		}
		n, err := w.count(v, 2)
		if err != nil {
			return err
		}
		for range n {
			if err := w.element(kv>>4, depth+1); err != nil {
				return err
			}
			if err := w.element(kv&0x0f, depth+1); err != nil {
				return err
			}
		}
		return nil
	case 12: // struct
		return w.structure(depth + 1)
	}
	return fmt.Errorf("an unknown type %d", t)
}

// element walks a list's, set's or map's element, where a boolean takes
// a byte of its own.
func (w *thriftWalker) element(t byte, depth int) error {
	if t == 1 || t == 2 {
		_, err := w.byte()
		return err
	}
	return w.value(t, depth)
}

// elementBytes is the fewest bytes an element of type t takes.
func elementBytes(t byte) int {
	switch t {
	case 7:
		return 8
	default:
		return 1
	}
}
