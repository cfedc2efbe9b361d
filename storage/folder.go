package storage

// Files in a folder on the local disk.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Folder keeps files in a folder on the local disk. A file being written
// is a hidden temporary file beside its final name until it is complete.
type Folder struct {
	dir string
}

// partialSuffix marks the temporary files of writes under way:
// ".NAME.partial-RANDOM" beside NAME.
const partialSuffix = ".partial-"

// OpenFolder opens (and creates, with its parents) the folder dir.
func OpenFolder(dir string) (*Folder, error) {
	if dir == "" {
		return nil, errors.New("no folder given")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o750); err != nil {
		return nil, err
	}
	return &Folder{dir: abs}, nil
}

func (f *Folder) String() string { return "file://" + filepath.ToSlash(f.dir) }

func (f *Folder) path(key string) (string, error) {
	if err := CheckKey(key); err != nil {
		return "", err
	}
	return filepath.Join(f.dir, filepath.FromSlash(key)), nil
}

// Put writes into a temporary file beside the key's, syncs it and renames
// it into place.
func (f *Folder) Put(ctx context.Context, key string, write func(w io.Writer) error) (int64, error) {
	final, err := f.path(key)
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(filepath.Dir(final), 0o750); err != nil {
		return 0, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(final), "."+filepath.Base(final)+partialSuffix+"*")
	if err != nil {
		return 0, err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	cw := &countingWriter{w: bufio.NewWriterSize(tmp, 64<<10), ctx: ctx}
	if err := write(cw); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if err := cw.w.(*bufio.Writer).Flush(); err != nil {
		return 0, fmt.Errorf("%s: %w", key, err)
	}
	if err := tmp.Sync(); err != nil {
		return 0, fmt.Errorf("%s: %w", key, err)
	}
	if err := tmp.Close(); err != nil {
		return 0, fmt.Errorf("%s: %w", key, err)
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		return 0, fmt.Errorf("%s: %w", key, err)
	}
	done = true
	return cw.n, nil
}

// Get opens the file under key.
func (f *Folder) Get(_ context.Context, key string) (io.ReadCloser, int64, error) {
	p, err := f.path(key)
	if err != nil {
		return nil, 0, err
	}
	file, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, fmt.Errorf("%w: %s", ErrNotFound, key)
	}
	if err != nil {
		return nil, 0, err
	}
	fi, err := file.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		file.Close()
		return nil, 0, fmt.Errorf("%w: %s", ErrNotFound, key)
	}
	return file, fi.Size(), nil
}

// Presign returns "": a folder has no URLs of its own.
func (f *Folder) Presign(context.Context, string, time.Duration, string) (string, error) {
	return "", nil
}

// Delete removes the file under key.
func (f *Folder) Delete(_ context.Context, key string) error {
	p, err := f.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Abandon removes the temporary files writes of key left.
func (f *Folder) Abandon(_ context.Context, key string) (int, error) {
	p, err := f.path(key)
	if err != nil {
		return 0, err
	}
	entries, err := os.ReadDir(filepath.Dir(p))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	prefix := "." + filepath.Base(p) + partialSuffix
	n := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			if err := os.Remove(filepath.Join(filepath.Dir(p), e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// countingWriter counts the bytes written through it, and fails once ctx
// ends, so that a cancelled write stops at its next chunk.
type countingWriter struct {
	w   io.Writer
	ctx context.Context
	n   int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
