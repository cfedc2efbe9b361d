package xlsx

import (
	"io"
	"testing"
)

// TestNoteHeightsBounded: a note near the top of a long sheet of tall
// rows records the heights its box may cover, not every row's.
func TestNoteHeightsBounded(t *testing.T) {
	w, _ := NewWriter(io.Discard, Options{})
	defer w.Close()
	sh, _ := w.AddSheet("S", SheetOptions{})
	if err := sh.AddNote(1, 1, Note{Text: "top"}); err != nil {
		t.Fatal(err)
	}
	for i := range 5 * boxRows {
		if err := sh.WriteRowWith([]Cell{Int(int64(i))}, RowOptions{Height: 30}); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(sh.rowHeights); n > boxRows+1 {
		t.Errorf("%d row heights kept for one note", n)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
