package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sheetstream/sheetstream/xlsx"
)

// output is where a command writes its result: stdout for "-", otherwise a
// temporary file beside the target that is renamed over it only when the
// command succeeds, so an interrupted or failed run never leaves a
// half-written file under the final name.
type output struct {
	path string
	file *os.File
	buf  *bufio.Writer
}

func createOutput(path string) (*output, error) {
	if path == "-" {
		return &output{path: path, buf: bufio.NewWriterSize(os.Stdout, 1<<16)}, nil
	}
	if err := checkOutputPath(path); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("%s: cannot write in its folder: %w", path, errors.Unwrap(err))
	}
	return &output{path: path, file: f, buf: bufio.NewWriterSize(f, 1<<16)}, nil
}

// checkOutputPath refuses, naming path, an output whose folder does not
// exist or that is a folder itself: the temporary file's name in an
// error would only confuse.
func checkOutputPath(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a folder: give a file name in it, such as %s", path, filepath.Join(path, "out"+filepath.Ext(path)))
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s: the folder %s does not exist", path, dir)
	case err != nil:
		return fmt.Errorf("%s: %w", path, err)
	case !fi.IsDir():
		return fmt.Errorf("%s: %s is a file, not a folder", path, dir)
	}
	return nil
}

func (o *output) Writer() io.Writer { return o.buf }

// commit makes the output final.
func (o *output) commit() error {
	if err := o.buf.Flush(); err != nil {
		o.abort()
		return err
	}
	if o.file == nil {
		return nil
	}
	// CreateTemp makes the file 0600; the result gets the mode the file it
	// replaces had, or the one a plain create would give it.
	mode := os.FileMode(0o666 &^ umask)
	if fi, err := os.Stat(o.path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := o.file.Chmod(mode); err != nil {
		o.abort()
		return err
	}
	if err := o.file.Sync(); err != nil {
		o.abort()
		return err
	}
	if err := o.file.Close(); err != nil {
		os.Remove(o.file.Name())
		return err
	}
	if err := os.Rename(o.file.Name(), o.path); err != nil {
		os.Remove(o.file.Name())
		return fmt.Errorf("%s: %w", o.path, err)
	}
	return nil
}

// abort removes the temporary file; the target is left as it was.
func (o *output) abort() {
	if o.file != nil {
		o.file.Close()
		os.Remove(o.file.Name())
	}
}

// writeWorkbook streams a workbook built by fill into out, committing it
// only when fill and the writer's Close both succeed.
func writeWorkbook(out string, opts xlsx.Options, fill func(w *xlsx.Writer) error) error {
	dst, err := createOutput(out)
	if err != nil {
		return err
	}
	to := dst.Writer()
	if opts.Password != "" {
		if dst.file != nil {
			// An encrypted package goes straight into its place in the
			// file, which the writer seeks in and reads back.
			to = dst.file
		} else if opts.TempDir == "" {
			// To stdout it is held back until the end: past memory, in
			// a temporary file.
			opts.TempDir = os.TempDir()
		}
	}
	w, err := xlsx.NewWriter(to, opts)
	if err != nil {
		dst.abort()
		return err
	}
	err = fill(w)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		dst.abort()
		return err
	}
	return dst.commit()
}
