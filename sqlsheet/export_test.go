package sqlsheet

// SetSpeculateRows sets how many rows a new table's types are guessed
// from, for tests; restore sets it back.
func SetSpeculateRows(n int) (restore func()) {
	old := speculateRows
	speculateRows = n
	return func() { speculateRows = old }
}
