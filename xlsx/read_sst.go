package xlsx

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

// sstTable is a shared strings table as read: all text in one buffer,
// string i at data[offs[i]:offs[i+1]], so that a table of millions of
// strings is two allocations, not millions.
type sstTable struct {
	data []byte
	offs []uint32
}

func (t *sstTable) len() int {
	if t == nil || len(t.offs) == 0 {
		return 0
	}
	return len(t.offs) - 1
}

func (t *sstTable) get(i int) ([]byte, bool) {
	if i < 0 || i >= t.len() {
		return nil, false
	}
	return t.data[t.offs[i]:t.offs[i+1]], true
}

// loadSST reads the shared strings table once, on first use.
func (wb *Workbook) loadSST() (*sstTable, error) {
	wb.sstOnce.Do(func() {
		wb.sst = &sstTable{offs: []uint32{0}}
		if wb.sstPart == "" || wb.parts[normPart(wb.sstPart)] == nil {
			return
		}
		if binaryPart(wb.sstPart) {
			if err := wb.readSSTBin(); err != nil {
				wb.sstErr = err
			}
			return
		}
		rc, _, err := wb.openPart(wb.sstPart)
		if err != nil {
			wb.sstErr = err
			return
		}
		defer rc.Close()
		if err := wb.sst.read(rc, wb.limits); err != nil {
			wb.sstErr = wb.errorf(wb.sstPart, err)
		}
	})
	return wb.sst, wb.sstErr
}

// read parses a sharedStrings part in pieces cut before <si>, flattening
// rich text runs and leaving out phonetic guides (<rPh>), as Excel shows
// the text.
func (t *sstTable) read(r io.Reader, lim Limits) error {
	// <sstItem> is <si> in files from Excel 2007's beta.
	sp := xmlscan.NewSplitter(r, 256<<10, lim.MaxStringSize*4+4096, "si", "sstItem")
	var sc xmlscan.Scanner
	sc.MaxDepth = lim.MaxDepth
	var buf, scratch []byte
	start := -1 // offset in data of the <si> being read
	first := true
	for {
		piece, err := sp.Next(buf)
		buf = piece
		if err == io.EOF {
			break
		}
		if errors.Is(err, xmlscan.ErrPieceTooLarge) {
			return fmt.Errorf("%w: a shared string over Limits.MaxStringSize: %w", ErrLimit, err)
		}
		if err != nil {
			return fmt.Errorf("%w: %w", ErrMalformed, err)
		}
		sc.Reset(piece)
		for k := sc.Next(); k != xmlscan.EOF; k = sc.Next() {
			switch k {
			case xmlscan.Start:
				switch string(sc.Name()) {
				case "sst":
					if first {
						if v, ok := sc.Attr("uniqueCount"); ok {
							if n, err := strconv.Atoi(string(v)); err == nil && n > 0 {
								t.offs = make([]uint32, 1, min(n, 1<<20)+1)
							}
						}
					}
				case "si", "sstItem":
					start = len(t.data)
				case "rPh", "phoneticPr":
					sc.Skip()
				case "t":
					if start < 0 {
						sc.Skip()
						continue
					}
					text := sc.Content(&scratch)
					t.data = append(t.data, text...)
					scratch = scratch[:0]
					if len(t.data)-start > lim.MaxStringSize {
						return fmt.Errorf("%w: shared string %d is over %d bytes (Limits.MaxStringSize)", ErrLimit, t.len(), lim.MaxStringSize)
					}
				}
			case xmlscan.Empty:
				if sc.Is("si") || sc.Is("sstItem") {
					start = len(t.data)
					if err := t.finish(start, lim); err != nil {
						return err
					}
					start = -1
				}
			case xmlscan.End:
				if (sc.Is("si") || sc.Is("sstItem")) && start >= 0 {
					if err := t.finish(start, lim); err != nil {
						return err
					}
					start = -1
				}
			}
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("%w: shared string %d: %w", ErrMalformed, t.len(), err)
		}
		first = false
	}
	return nil
}

func (t *sstTable) finish(start int, lim Limits) error {
	s := unescapeX(t.data[start:])
	t.data = t.data[:start+len(s)]
	return t.add(lim)
}

// add ends the string whose text was appended to data, within the limits.
func (t *sstTable) add(lim Limits) error {
	maxTotal := min(lim.MaxSharedStringsSize, 1<<32-1)
	if int64(len(t.data)) > maxTotal {
		return fmt.Errorf("%w: shared strings over %d bytes (Limits.MaxSharedStringsSize)", ErrLimit, maxTotal)
	}
	if t.len() >= lim.MaxSharedStrings {
		return fmt.Errorf("%w: more than %d shared strings (Limits.MaxSharedStrings)", ErrLimit, lim.MaxSharedStrings)
	}
	t.offs = append(t.offs, uint32(len(t.data)))
	return nil
}
