package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sheetstream/sheetstream/xlsx"
)

// openWorkbook opens a workbook file, or with "-" the workbook read from
// stdin (standard input, or what of it a caller has buffered). A zip's
// directory is at its end, so stdin is spooled to a temporary file first;
// the file is unlinked at once and goes away with the descriptor. The
// caller calls close when done with the workbook.
//
// An encrypted workbook is opened with the password pw names, or, when it
// names none, the one in SHEETSTREAM_PASSWORD or asked for on the
// terminal.
func openWorkbook(path string, opts xlsx.ReadOptions, stdin io.Reader, pw *password) (wb *xlsx.Workbook, close func() error, err error) {
	if opts.Password, err = pw.given(); err != nil {
		return nil, nil, err
	}
	if path != "-" {
		if err := checkInputPath(path); err != nil {
			return nil, nil, err
		}
	}
	open := func(opts xlsx.ReadOptions) (*xlsx.Workbook, error) { return xlsx.Open(path, opts) }
	name := path
	var spool *os.File
	if path == "-" {
		name = "standard input"
		if spool, err = os.CreateTemp("", "sheetstream-stdin-*.xlsx"); err != nil {
			return nil, nil, err
		}
		os.Remove(spool.Name())
		size, err := io.Copy(spool, stdin)
		if err != nil {
			spool.Close()
			return nil, nil, fmt.Errorf("standard input: %w", err)
		}
		open = func(opts xlsx.ReadOptions) (*xlsx.Workbook, error) { return xlsx.NewReader(spool, size, opts) }
	}
	wb, err = open(opts)
	if errors.Is(err, xlsx.ErrEncrypted) && opts.Password == "" {
		if opts.Password, err = pw.forEncrypted(name); err == nil {
			wb, err = open(opts)
		} else {
			err = fmt.Errorf("%s: %w: %w", name, xlsx.ErrEncrypted, err)
		}
	}
	if err != nil {
		if spool != nil {
			spool.Close()
			return nil, nil, fmt.Errorf("standard input: %w", err)
		}
		return nil, nil, err
	}
	if spool != nil {
		return wb, spool.Close, nil
	}
	return wb, wb.Close, nil
}

// checkInputPath refuses, naming it, an input that does not exist or is
// a folder, before a reader says something less plain about it.
func checkInputPath(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s: no such file", path)
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("%s is a folder, not a file", path)
	}
	return nil
}

// checkSQLitePath refuses a sqlite: database URL that names a folder
// (SQLite would say "unable to open database file").
func checkSQLitePath(url string) error {
	path, ok := strings.CutPrefix(url, "sqlite:")
	if !ok {
		return nil
	}
	path, _, _ = strings.Cut(strings.TrimPrefix(path, "//"), "?")
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("--db %s: %s is a folder, not a SQLite database file", url, path)
	}
	return nil
}

// stdinIsWorkbook reads the start of standard input through r and reports
// whether it is a workbook — a zip package (.xlsx, .xlsb, .ods), a
// compound file (.xls, or an encrypted workbook) or a BIFF stream —
// rather than CSV.
func stdinIsWorkbook(r *bufio.Reader) bool {
	head, _ := r.Peek(8)
	return bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.Equal(head, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}) ||
		bytes.HasPrefix(head, []byte{0x09, 0x08})
}
