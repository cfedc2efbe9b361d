package xlsx

import (
	"fmt"
	"io"
	"os"
	"slices"

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

// sheetSink receives one sheet's compressed bytes from its deflate stream.
// Its fields are guarded by Writer.turnMu.
type sheetSink struct {
	w     *Writer
	name  string // the zip entry's name
	entry *zipstream.EntryWriter
	held  [][]byte
	spill *os.File // held bytes beyond the memory budget, after held
	// Set when the sheet finishes before its turn.
	finished bool
	crc      uint32
	size     uint64
	rels     []byte
	relsName string
}

func (w *Writer) newSink(index int) *sheetSink {
	return &sheetSink{w: w, name: fmt.Sprintf("xl/worksheets/sheet%d.xml", index+1)}
}

// Write streams p into the archive when it is the sheet's turn, and holds
// a copy of it otherwise.
func (k *sheetSink) Write(p []byte) (int, error) {
	w := k.w
	w.turnMu.Lock()
	for {
		if k.entry != nil {
			entry := k.entry
			w.turnMu.Unlock()
			return entry.Write(p)
		}
		if err := w.loadErr(); err != nil {
			w.turnMu.Unlock()
			return 0, err
		}
		if k.spill != nil {
			n, err := k.spill.Write(p)
			w.turnMu.Unlock()
			return n, err
		}
		if w.held+len(p) <= w.heldBudget {
			k.held = append(k.held, slices.Clone(p))
			w.held += len(p)
			w.turnMu.Unlock()
			return len(p), nil
		}
		if w.opts.TempDir != "" {
			f, err := os.CreateTemp(w.opts.TempDir, "sheetstream-*.part")
			if err != nil {
				w.turnMu.Unlock()
				return 0, fmt.Errorf("holding sheet output: %w", err)
			}
			k.spill = f
			continue
		}
		// Wait for this sheet's turn, or for memory that others free.
		w.turn.Wait()
	}
}

// finishSink records a finished sheet's totals. If the sheet owns the
// archive, its entry is closed and the turn handed on; otherwise the
// sheet's bytes wait for the turn.
func (w *Writer) finishSink(k *sheetSink, crc uint32, size uint64, relsName string, rels []byte) error {
	w.turnMu.Lock()
	entry := k.entry
	if entry == nil {
		k.finished, k.crc, k.size, k.relsName, k.rels = true, crc, size, relsName, rels
		w.turnMu.Unlock()
		return nil
	}
	w.turnMu.Unlock()
	if err := w.closeEntry(entry, crc, size, relsName, rels); err != nil {
		return err
	}
	return w.handOn()
}

func (w *Writer) closeEntry(entry *zipstream.EntryWriter, crc uint32, size uint64, relsName string, rels []byte) error {
	if err := entry.Close(crc, size); err != nil {
		return w.fail(err)
	}
	if rels != nil {
		return w.writePart(relsName, rels)
	}
	return nil
}

// startSink queues a new sheet, giving it the archive at once if nobody
// holds it.
func (w *Writer) startSink(k *sheetSink) error {
	w.turnMu.Lock()
	if w.zipBusy {
		w.waiting = append(w.waiting, k)
		w.turnMu.Unlock()
		return nil
	}
	w.zipBusy = true
	w.turnMu.Unlock()
	_, err := w.giveTurn(k)
	return err
}

// handOn is called by the owner of the archive after closing its entry.
func (w *Writer) handOn() error {
	for {
		w.turnMu.Lock()
		if len(w.waiting) == 0 {
			w.zipBusy = false
			w.turnMu.Unlock()
			return nil
		}
		next := 0
		for i, k := range w.waiting {
			if k.finished {
				next = i
				break
			}
		}
		k := w.waiting[next]
		w.waiting = slices.Delete(w.waiting, next, next+1)
		w.turnMu.Unlock()
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
		return false, w.fail(err)
	}
	var buf []byte
	for {
		w.turnMu.Lock()
		held, spill := k.held, k.spill
		k.held, k.spill = nil, nil
		if len(held) == 0 && spill == nil {
			if !k.finished {
				k.entry = entry
				w.turn.Broadcast()
				w.turnMu.Unlock()
				return true, nil
			}
			crc, size, relsName, rels := k.crc, k.size, k.relsName, k.rels
			w.turnMu.Unlock()
			return false, w.closeEntry(entry, crc, size, relsName, rels)
		}
		w.turnMu.Unlock()
		// While these are copied the sheet may hold more; the loop takes
		// those next, so the bytes keep their order.
		freed := 0
		for _, b := range held {
			if _, err := entry.Write(b); err != nil {
				return false, w.fail(err)
			}
			freed += len(b)
		}
		w.turnMu.Lock()
		w.held -= freed
		w.turn.Broadcast()
		w.turnMu.Unlock()
		if spill != nil {
			if buf == nil {
				buf = make([]byte, w.pool.ChunkSize())
			}
			err := copySpill(entry, spill, buf)
			if err != nil {
				return false, w.fail(fmt.Errorf("xlsx: sheet %s: %w", k.name, err))
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

// dropHeld forgets what waiting sheets hold, after a failure.
func (w *Writer) dropHeld() {
	w.turnMu.Lock()
	defer w.turnMu.Unlock()
	for _, k := range w.waiting {
		if k.spill != nil {
			removeSpill(k.spill)
			k.spill = nil
		}
		k.held = nil
	}
	w.waiting = nil
	w.held = 0
	w.turn.Broadcast()
}
