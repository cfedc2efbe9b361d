package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &output{path: path, file: f, buf: bufio.NewWriterSize(f, 1<<16)}, nil
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
