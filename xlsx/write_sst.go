package xlsx

import (
	"strconv"
	"strings"
)

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
