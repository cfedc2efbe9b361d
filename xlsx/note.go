package xlsx

// Note is a cell's note (what Excel called a comment before threaded
// comments): text in a yellow box that shows when the pointer is over
// the cell, or always when Visible. Add one with Sheet.AddNote.
type Note struct {
	Text   string
	Author string
	// Visible shows the note all the time, not only on hover.
	Visible bool
	// Width and Height of the box in points (0: Excel's 96 by 55.5).
	Width, Height float64
}

// Default note box, in pixels (as Excel sizes it: 96 by 55.5 points).
const (
	noteWidthPx  = 128
	noteHeightPx = 74
)
