package xlsx

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

// StringMode says how text cells are stored.
type StringMode uint8

const (
	// StringsAuto shares repeated text through the shared strings table
	// while the table stays under Options.SharedStringsBudget; text first
	// seen after that is written inline. It keeps files small for the
	// usual repetitive columns and memory bounded for unique ones.
	StringsAuto StringMode = iota
	// StringsShared puts all text in the shared strings table, however
	// large it grows (memory grows with the distinct strings).
	StringsShared
	// StringsInline writes all text inside the cells: constant memory,
	// larger files.
	StringsInline
)

// DefaultSharedStringsBudget bounds the shared strings table in
// StringsAuto mode.
const DefaultSharedStringsBudget = 1 << 20

// sstEntryOverhead estimates what one entry costs beyond its text: a map
// entry, a slice element and the string header.
const sstEntryOverhead = 64

type sstEntry struct {
	s    string // plain text, or the XML inside <si> for rich text
	rich bool
}

// sharedStrings is the workbook's shared strings table. It is written
// after the sheets, so it only has to be complete at Close.
type sharedStrings struct {
	index   map[string]uint32
	rich    map[string]uint32
	entries []sstEntry
	used    int
	budget  int // < 0: unlimited
	refs    uint64
}

func newSharedStrings(budget int) *sharedStrings {
	return &sharedStrings{index: map[string]uint32{}, rich: map[string]uint32{}, budget: budget}
}

// fits reports whether a new string of n bytes stays within the budget.
func (t *sharedStrings) fits(n int) bool {
	return (t.budget < 0 || t.used+n+sstEntryOverhead <= t.budget) && len(t.entries) < 1<<31-1
}

// add appends a string that is not in the table and fits.
func (t *sharedStrings) add(s string) uint32 {
	t.used += len(s) + sstEntryOverhead
	// The cell's text may alias a caller's reused buffer (Bytes).
	s = strings.Clone(s)
	i := uint32(len(t.entries))
	t.entries = append(t.entries, sstEntry{s: s})
	t.index[s] = i
	return i
}

// lookup returns s's index and the table's own copy of it.
func (t *sharedStrings) lookup(s string) (i uint32, key string, found bool) {
	if i, found = t.index[s]; found {
		key = t.entries[i].s
	}
	return i, key, found
}

// addIfFits adds s unless it is there already (another sheet may have
// added it meanwhile) or does not fit; key is the table's copy of s.
func (t *sharedStrings) addIfFits(s string) (i uint32, key string, ok bool) {
	if i, key, ok = t.lookup(s); ok || !t.fits(len(s)) {
		return i, key, ok
	}
	i = t.add(s)
	return i, t.entries[i].s, true
}

// lookupRich is lookup for rich text, keyed by its XML.
func (t *sharedStrings) lookupRich(x []byte) (idx uint32, ok bool) {
	if i, found := t.rich[string(x)]; found {
		return i, true
	}
	if !t.fits(len(x)) {
		return 0, false
	}
	t.used += len(x) + sstEntryOverhead
	s := string(x)
	i := uint32(len(t.entries))
	t.entries = append(t.entries, sstEntry{s: s, rich: true})
	t.rich[s] = i
	return i, true
}

// writeTo streams the part through emit, a chunk at a time.
func (t *sharedStrings) writeTo(buf []byte, flushAt int, emit func([]byte) ([]byte, error)) ([]byte, error) {
	b := append(buf, xmlHeader...)
	b = append(b, `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="`...)
	b = strconv.AppendUint(b, t.refs, 10)
	b = append(b, `" uniqueCount="`...)
	b = strconv.AppendInt(b, int64(len(t.entries)), 10)
	b = append(b, `">`...)
	var err error
	for _, e := range t.entries {
		b = append(b, "<si>"...)
		if e.rich {
			b = append(b, e.s...)
		} else {
			b = appendT(b, e.s)
		}
		b = append(b, "</si>"...)
		if len(b) >= flushAt {
			if b, err = emit(b); err != nil {
				return b, err
			}
		}
	}
	return append(b, "</sst>"...), nil
}

// appendT writes <t>s</t>. Text was validated when it was added, so the
// escaping cannot fail here.
func appendT(b []byte, s string) []byte {
	if needsPreserve(s) {
		b = append(b, `<t xml:space="preserve">`...)
	} else {
		b = append(b, "<t>"...)
	}
	b, _ = appendText(b, s)
	return append(b, "</t>"...)
}

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
	maxTotal := min(lim.MaxSharedStringsSize, 1<<32-1)
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
					if err := t.finish(start, lim, maxTotal); err != nil {
						return err
					}
					start = -1
				}
			case xmlscan.End:
				if (sc.Is("si") || sc.Is("sstItem")) && start >= 0 {
					if err := t.finish(start, lim, maxTotal); err != nil {
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

func (t *sstTable) finish(start int, lim Limits, maxTotal int64) error {
	s := unescapeX(t.data[start:])
	t.data = t.data[:start+len(s)]
	if int64(len(t.data)) > maxTotal {
		return fmt.Errorf("%w: shared strings over %d bytes (Limits.MaxSharedStringsSize)", ErrLimit, maxTotal)
	}
	if t.len() >= lim.MaxSharedStrings {
		return fmt.Errorf("%w: more than %d shared strings (Limits.MaxSharedStrings)", ErrLimit, lim.MaxSharedStrings)
	}
	t.offs = append(t.offs, uint32(len(t.data)))
	return nil
}
