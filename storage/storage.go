// Package storage keeps finished export files where their owners fetch
// them: a folder on the local disk, or a bucket of AWS S3 or of any
// S3-compatible store (MinIO, R2, versitygw...). Both are one Storage, so
// the export jobs that write into them are one code path.
//
// A file is written by streaming, as the workbook is made, and appears
// under its key only when it is complete: a local file is written under a
// temporary name and renamed into place; an S3 object is a multipart
// upload completed at the end. A write that fails, or is cancelled,
// leaves nothing under the key (a local temporary file is removed, an
// upload aborted), so no reader ever takes a cut file for a whole one. A
// process killed mid-write cannot clean up after itself: Abandon removes
// what such a write left, and a retried job calls it before writing again.
//
//	store, err := storage.Open(ctx, "s3://exports/reports?endpoint=http://127.0.0.1:7070&region=us-east-1")
//	size, err := store.Put(ctx, "orders/2026-11-26.xlsx", func(w io.Writer) error {
//		return writeWorkbook(w)
//	})
//	url, err := store.Presign(ctx, "orders/2026-11-26.xlsx", 15*time.Minute, "orders.xlsx")
package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"strings"
	"time"
)

// Storage keeps files under keys: slash-separated relative paths such as
// "orders/2026-11-26.xlsx", each part a name that is not "." or "..".
type Storage interface {
	// Put stores what write writes under key, replacing what was there,
	// once write returns nil; if write fails or ctx ends, nothing is
	// stored and the error is returned. It returns the bytes stored.
	Put(ctx context.Context, key string, write func(w io.Writer) error) (int64, error)
	// Get opens the file under key (ErrNotFound if there is none) and
	// returns its size.
	Get(ctx context.Context, key string) (io.ReadCloser, int64, error)
	// Presign returns a URL that fetches the file under key for ttl, with
	// a Content-Disposition naming it filename; "" when the storage has no
	// such URLs (a local folder: the service sends the file itself).
	Presign(ctx context.Context, key string, ttl time.Duration, filename string) (string, error)
	// Delete removes the file under key; a key with no file is no error.
	Delete(ctx context.Context, key string) error
	// Abandon removes what a Put of key that never ended left behind (a
	// killed process's temporary file or incomplete upload), and returns
	// how many it removed.
	Abandon(ctx context.Context, key string) (int, error)
	// String describes the storage for logs, without credentials.
	String() string
}

// ErrNotFound: no file under the key.
var ErrNotFound = errors.New("no such file")

// ErrKey: a key that is empty, absolute, or holds "." or ".." parts,
// empty parts or control characters.
var ErrKey = errors.New("invalid key")

// CheckKey returns ErrKey, naming key, for a key no storage may take.
func CheckKey(key string) error {
	if key == "" || len(key) > 1024 || strings.HasPrefix(key, "/") || strings.ContainsAny(key, "\\\x00") {
		return fmt.Errorf("%w: %q", ErrKey, key)
	}
	for _, part := range strings.Split(key, "/") {
		if part == "" || part == "." || part == ".." {
			return fmt.Errorf("%w: %q", ErrKey, key)
		}
		for _, r := range part {
			if r < 0x20 || r == 0x7f {
				return fmt.Errorf("%w: %q", ErrKey, key)
			}
		}
	}
	if path.Clean(key) != key {
		return fmt.Errorf("%w: %q", ErrKey, key)
	}
	return nil
}

// Open opens the storage a URL names:
//
//   - file:///var/lib/sheetstream/exports (or a plain path): a local
//     folder, created if it does not exist;
//   - s3://BUCKET/PREFIX?region=REGION&endpoint=URL: an S3 bucket, keys
//     under PREFIX. With endpoint (an S3-compatible store) requests use
//     path-style addressing. Credentials come from the standard AWS
//     environment and configuration chain (AWS_ACCESS_KEY_ID and
//     AWS_SECRET_ACCESS_KEY, AWS_PROFILE, an instance role...), never
//     from the URL: a URL with user information is refused.
func Open(ctx context.Context, raw string) (Storage, error) {
	if !strings.Contains(raw, "://") {
		return OpenFolder(raw)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if u.User != nil {
		return nil, errors.New("credentials do not belong in the storage URL: give them as AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile")
	}
	switch u.Scheme {
	case "file":
		if u.Host != "" && u.Host != "localhost" {
			return nil, fmt.Errorf("%q: a file URL names a folder on this machine (file:///path)", raw)
		}
		return OpenFolder(u.Path)
	case "s3":
		return openS3(ctx, u)
	}
	return nil, fmt.Errorf("%q: the scheme is file:// or s3://", raw)
}
