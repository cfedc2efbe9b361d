package sqlsheet

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sheetstream/sheetstream/xlsx"
)

// The spool: a new table's types come from a first pass over every row,
// and its rows from a second. Reading an XLSX sheet again costs its
// inflating and parsing, and a CSV file its parsing and inference; the
// first pass writes the rows it read, cells in xlsx.Value's binary form,
// to a temporary file instead, which the second pass reads back at a
// fraction of the cost. Memory stays constant; the file is about twice
// the size of the rows as CSV and is removed when the import ends.

type spool struct {
	f   *os.File
	w   *bufio.Writer
	buf []byte
}

// newSpool makes the spool file in dir (the system's temporary directory
// when empty), unlinked at once where the system allows.
func newSpool(dir string) (*spool, error) {
	f, err := os.CreateTemp(dir, "sheetstream-import-*.spool")
	if err != nil {
		return nil, fmt.Errorf("spool file: %w", err)
	}
	os.Remove(f.Name()) // gone with the descriptor (not on Windows: close removes it below)
	return &spool{f: f, w: bufio.NewWriterSize(f, 256<<10)}, nil
}

// add writes a data row: its number, its size and its cells.
func (s *spool) add(r tableRow) error {
	s.buf = s.buf[:0]
	s.buf = binary.AppendUvarint(s.buf, uint64(len(r.cells)))
	for i := range r.cells {
		start := len(s.buf)
		s.buf = append(s.buf, 0, 0, 0, 0) // the cell's size, once known
		s.buf, _ = r.cells[i].AppendBinary(s.buf)
		binary.LittleEndian.PutUint32(s.buf[start:], uint32(len(s.buf)-start-4))
	}
	var head [2 * binary.MaxVarintLen64]byte
	n := binary.PutUvarint(head[:], uint64(r.num))
	n += binary.PutUvarint(head[n:], uint64(len(s.buf)))
	if _, err := s.w.Write(head[:n]); err != nil {
		return fmt.Errorf("spool file: %w", err)
	}
	if _, err := s.w.Write(s.buf); err != nil {
		return fmt.Errorf("spool file: %w", err)
	}
	return nil
}

var errSpool = errors.New("spool file: malformed record")

// replay calls fn with each spooled row, in order.
func (s *spool) replay(ctx context.Context, fn func(r tableRow) error) error {
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("spool file: %w", err)
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("spool file: %w", err)
	}
	r := bufio.NewReaderSize(s.f, 256<<10)
	var cells []xlsx.Value
	for n := 0; ; n++ {
		num, err := binary.ReadUvarint(r)
		if err == io.EOF {
			return nil
		}
		size, err2 := binary.ReadUvarint(r)
		if err != nil || err2 != nil || size > 1<<31 {
			return errSpool
		}
		if uint64(cap(s.buf)) < size {
			s.buf = make([]byte, size)
		}
		s.buf = s.buf[:size]
		if _, err := io.ReadFull(r, s.buf); err != nil {
			return fmt.Errorf("spool file: %w", err)
		}
		rec := s.buf
		count, k := binary.Uvarint(rec)
		if k <= 0 || count > uint64(len(rec)) {
			return errSpool
		}
		rec = rec[k:]
		cells = cells[:0]
		for range count {
			if len(rec) < 4 {
				return errSpool
			}
			size := binary.LittleEndian.Uint32(rec)
			if uint64(size) > uint64(len(rec)-4) {
				return errSpool
			}
			var v xlsx.Value
			if err := v.UnmarshalBinary(rec[4 : 4+size]); err != nil {
				return fmt.Errorf("spool file: %w", err)
			}
			cells = append(cells, v)
			rec = rec[4+size:]
		}
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := fn(tableRow{num: int(num), cells: cells}); err != nil {
			return err
		}
	}
}

func (s *spool) close() {
	s.f.Close()
	os.Remove(s.f.Name())
}
