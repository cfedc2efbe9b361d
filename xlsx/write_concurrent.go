package xlsx

import (
	"fmt"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/sheetstream/sheetstream/internal/zipstream"
)

// A zip archive is written front to back, one entry at a time, so of the
// sheets being written at once only one can stream into the archive: the
// one whose turn it is. The others hold their compressed bytes (in memory
// up to Options.SheetBufferSize in all, then in a temporary file if
// Options.TempDir allows it, else they wait) until their turn comes, which
// is when the sheet streaming now is finished.
//
// Whoever finishes the sheet that owns the archive hands the turn on:
// first to every sheet that has finished meanwhile (their bytes are copied
// in whole), then to the earliest added sheet still being written. Nothing
// else writes to the archive while a sheet owns it.

// archiveTurns is the state of that hand-over, shared by the sheets being
// written at once and guarded by mu.
type archiveTurns struct {
	mu sync.Mutex
	// changed is broadcast when a sheet gets the archive or held memory is
	// freed, which is what a sheet over the budget waits for.
	changed sync.Cond
	busy    bool         // a sheet owns the archive
	waiting []*sheetSink // sheets that want it, in the order they were added
	held    int          // bytes held in memory by all waiting sheets
	budget  int          // how many they may hold: Options.SheetBufferSize
}

func (t *archiveTurns) init(budget int) {
	t.changed.L = &t.mu
	t.budget = budget
}

// queue adds a new sheet and reports whether it gets the archive at once.
func (t *archiveTurns) queue(k *sheetSink) (now bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.busy {
		t.waiting = append(t.waiting, k)
		return false
	}
	t.busy = true
	return true
}

// next takes the sheet whose turn comes after the owner's: the first that
// has finished meanwhile, else the earliest added. With none waiting the
// archive is free again.
func (t *archiveTurns) next() (*sheetSink, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.waiting) == 0 {
		t.busy = false
		return nil, false
	}
	next := 0
	for i, k := range t.waiting {
		if k.finished {
			next = i
			break
		}
	}
	k := t.waiting[next]
	t.waiting = slices.Delete(t.waiting, next, next+1)
	return k, true
}

// freed returns held memory to the budget and wakes the sheets waiting
// for it.
func (t *archiveTurns) freed(n int) {
	t.mu.Lock()
	t.held -= n
	t.changed.Broadcast()
	t.mu.Unlock()
}

// drop forgets what waiting sheets hold, after a failure.
func (t *archiveTurns) drop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range t.waiting {
		if k.spill != nil {
			removeSpill(k.spill)
			k.spill = nil
		}
		k.held = nil
	}
	t.waiting = nil
	t.held = 0
	t.changed.Broadcast()
}

// sheetSink receives one sheet's compressed bytes from its deflate stream.
// Its fields are guarded by archiveTurns.mu.
type sheetSink struct {
	w     *Writer
	name  string // the zip entry's name
	sheet string // the sheet's, for errors
	entry *zipstream.EntryWriter
	held  [][]byte
	spill *os.File // held bytes beyond the memory budget, after held
	// Set when the sheet finishes before its turn.
	finished bool
	crc      uint32
	size     uint64
	// The parts that go after the sheet: its relationships and what
	// they point at.
	parts []packagePart
}

func (w *Writer) newSink(s *Sheet) *sheetSink {
	return &sheetSink{w: w, name: fmt.Sprintf("xl/worksheets/sheet%d.xml", s.part), sheet: s.name}
}

// Write streams p into the archive when it is the sheet's turn, and holds
// a copy of it otherwise.
func (k *sheetSink) Write(p []byte) (int, error) {
	w, t := k.w, &k.w.turns
	t.mu.Lock()
	for {
		if k.entry != nil {
			entry := k.entry
			t.mu.Unlock()
			return entry.Write(p)
		}
		if err := w.loadErr(); err != nil {
			t.mu.Unlock()
			return 0, err
		}
		if k.spill != nil {
			n, err := k.spill.Write(p)
			t.mu.Unlock()
			return n, err
		}
		if t.held+len(p) <= t.budget {
			k.held = append(k.held, slices.Clone(p))
			t.held += len(p)
			t.mu.Unlock()
			return len(p), nil
		}
		if w.opts.TempDir != "" {
			f, err := os.CreateTemp(w.opts.TempDir, "sheetstream-*.part")
			if err != nil {
				t.mu.Unlock()
				return 0, fmt.Errorf("holding sheet output: %w", err)
			}
			k.spill = f
			continue
		}
		// Wait for this sheet's turn, or for memory that others free.
		t.changed.Wait()
	}
}

// finishSink records a finished sheet's totals. If the sheet owns the
// archive, its entry is closed and the turn handed on; otherwise the
// sheet's bytes wait for the turn.
func (w *Writer) finishSink(k *sheetSink, crc uint32, size uint64, parts []packagePart) error {
	w.turns.mu.Lock()
	entry := k.entry
	if entry == nil {
		k.finished, k.crc, k.size, k.parts = true, crc, size, parts
		w.turns.mu.Unlock()
		return nil
	}
	w.turns.mu.Unlock()
	if err := w.closeEntry(k.sheet, entry, crc, size, parts); err != nil {
		return err
	}
	return w.handOn()
}

func (w *Writer) closeEntry(sheet string, entry *zipstream.EntryWriter, crc uint32, size uint64, parts []packagePart) error {
	if err := entry.Close(crc, size); err != nil {
		return w.fail(&CellError{Sheet: sheet, Err: err})
	}
	for _, p := range parts {
		if err := w.writePart(p.name, p.data); err != nil {
			return err
		}
	}
	return nil
}

// startSink queues a new sheet, giving it the archive at once if nobody
// holds it.
func (w *Writer) startSink(k *sheetSink) error {
	if !w.turns.queue(k) {
		return nil
	}
	_, err := w.giveTurn(k)
	return err
}

// handOn is called by the owner of the archive after closing its entry.
func (w *Writer) handOn() error {
	for {
		k, ok := w.turns.next()
		if !ok {
			return nil
		}
		owned, err := w.giveTurn(k)
		if err != nil || owned {
			return err
		}
	}
}

// giveTurn starts k's entry and copies what it holds. It reports whether
// k still owns the archive afterwards (false when k had already finished
// and was written in whole).
func (w *Writer) giveTurn(k *sheetSink) (owned bool, err error) {
	if err := w.loadErr(); err != nil {
		return false, err
	}
	entry, err := w.zip.Create(k.name)
	if err != nil {
		return false, w.fail(&CellError{Sheet: k.sheet, Err: err})
	}
	t := &w.turns
	var buf []byte
	for {
		t.mu.Lock()
		held, spill := k.held, k.spill
		k.held, k.spill = nil, nil
		if len(held) == 0 && spill == nil {
			if !k.finished {
				k.entry = entry
				t.changed.Broadcast()
				t.mu.Unlock()
				return true, nil
			}
			crc, size, parts := k.crc, k.size, k.parts
			t.mu.Unlock()
			return false, w.closeEntry(k.sheet, entry, crc, size, parts)
		}
		t.mu.Unlock()
		// While these are copied the sheet may hold more; the loop takes
		// those next, so the bytes keep their order.
		freed := 0
		for _, b := range held {
			if _, err := entry.Write(b); err != nil {
				return false, w.fail(&CellError{Sheet: k.sheet, Err: err})
			}
			freed += len(b)
		}
		t.freed(freed)
		if spill != nil {
			if buf == nil {
				buf = make([]byte, w.pool.ChunkSize())
			}
			if err := copySpill(entry, spill, buf); err != nil {
				return false, w.fail(&CellError{Sheet: k.sheet, Err: err})
			}
		}
	}
}

// copySpill copies a temporary file into the archive and removes it.
func copySpill(dst io.Writer, f *os.File, buf []byte) error {
	defer removeSpill(f)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.CopyBuffer(dst, onlyReader{f}, buf)
	return err
}

// onlyReader hides os.File's WriterTo, so that io.CopyBuffer writes in
// blocks of buf's size.
type onlyReader struct{ io.Reader }

func removeSpill(f *os.File) {
	f.Close()
	os.Remove(f.Name())
}
