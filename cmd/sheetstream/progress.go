package main

import (
	"io"
	"os"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// newProgress returns a progress bar on stderr when stderr is a terminal,
// or nil. With size > 0 it counts up to that total; otherwise it spins.
// It counts bytes or, without bytes, items (rows).
func newProgress(size int64, what string, bytes bool) *progressbar.ProgressBar {
	if !term.IsTerminal(int(os.Stderr.Fd())) {
		return nil
	}
	if size <= 0 {
		size = -1
	}
	return progressbar.NewOptions64(size,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowBytes(bytes),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("rows"),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100_000_000),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSpinnerType(14),
	)
}

// countingReader reports the bytes read through it to a progress bar.
func countingReader(r io.Reader, bar *progressbar.ProgressBar) io.Reader {
	if bar == nil {
		return r
	}
	return io.TeeReader(r, bar)
}
