package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/sheetstream/sheetstream/xlsx"
)

// openWorkbook opens a workbook file, or with "-" the workbook read from
// stdin (standard input, or what of it a caller has buffered). A zip's
// directory is at its end, so stdin is spooled to a temporary file first;
// the file is unlinked at once and goes away with the descriptor. The
// caller calls close when done with the workbook.
func openWorkbook(path string, opts xlsx.ReadOptions, stdin io.Reader) (wb *xlsx.Workbook, close func() error, err error) {
	if path != "-" {
		wb, err := xlsx.Open(path, opts)
		if err != nil {
			return nil, nil, err
		}
		return wb, wb.Close, nil
	}
	f, err := os.CreateTemp("", "sheetstream-stdin-*.xlsx")
	if err != nil {
		return nil, nil, err
	}
	os.Remove(f.Name())
	size, err := io.Copy(f, stdin)
	if err == nil {
		wb, err = xlsx.NewReader(f, size, opts)
	}
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("standard input: %w", err)
	}
	return wb, f.Close, nil
}

// stdinIsZip reads the start of standard input through r and reports
// whether it is a zip package (a workbook) rather than CSV.
func stdinIsZip(r *bufio.Reader) bool {
	head, _ := r.Peek(4)
	return bytes.Equal(head, []byte("PK\x03\x04"))
}
