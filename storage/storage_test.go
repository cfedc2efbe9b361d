package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/sheetstream/sheetstream/internal/testenv"
)

// stores are the storages under test: a temporary folder, and the S3
// server the test command starts (versitygw), under a prefix of the test's
// own.
func stores(t *testing.T) map[string]Storage {
	t.Helper()
	folder, err := Open(context.Background(), "file://"+t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Storage{"folder": folder}
	if os.Getenv("SHEETSTREAM_S3_URL") != "" || os.Getenv("CI") != "" {
		out["s3"] = openTestS3(t)
	} else {
		t.Log("SHEETSTREAM_S3_URL is not set: the folder only (make test starts an S3 server)")
	}
	return out
}

// openTestS3 opens the test command's S3 server with its credentials in
// the standard AWS variables, under a prefix unique to the test.
func openTestS3(t *testing.T) *S3 {
	t.Helper()
	raw := testenv.Get(t, "SHEETSTREAM_S3_URL", "starts an S3 server (versitygw)")
	t.Setenv("AWS_ACCESS_KEY_ID", os.Getenv("SHEETSTREAM_S3_ACCESS_KEY"))
	t.Setenv("AWS_SECRET_ACCESS_KEY", os.Getenv("SHEETSTREAM_S3_SECRET_KEY"))
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	bucket, query, _ := strings.Cut(strings.TrimPrefix(raw, "s3://"), "?")
	prefix := fmt.Sprintf("%s-%d", strings.ReplaceAll(t.Name(), "/", "-"), rand.Int64())
	st, err := Open(context.Background(), "s3://"+bucket+"/"+prefix+"?"+query)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*S3)
}

// data is n bytes that do not repeat in a way a part boundary could hide.
func data(n int) []byte {
	b := make([]byte, n)
	r := rand.New(rand.NewPCG(uint64(n), 7))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// writeIn writes b in chunks of size, as a workbook writer does.
func writeIn(b []byte, size int) func(io.Writer) error {
	return func(w io.Writer) error {
		for len(b) > 0 {
			n := min(size, len(b))
			if _, err := w.Write(b[:n]); err != nil {
				return err
			}
			b = b[n:]
		}
		return nil
	}
}

func get(t *testing.T, st Storage, key string) ([]byte, error) {
	t.Helper()
	r, size, err := st.Get(context.Background(), key)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err == nil && int64(len(b)) != size {
		t.Errorf("%s: Get said %d bytes, read %d", key, size, len(b))
	}
	return b, err
}

// TestPutGet stores files of sizes around the part size (none, one byte,
// exactly a part, several parts and a remainder) and reads them back
// whole; a second Put replaces the first.
func TestPutGet(t *testing.T) {
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			for _, n := range []int{0, 1, 100 << 10, MinPartSize, 2*MinPartSize + 7} {
				key := fmt.Sprintf("sizes/%d.xlsx", n)
				want := data(n)
				size, err := st.Put(context.Background(), key, writeIn(want, 32<<10))
				if err != nil || size != int64(n) {
					t.Fatalf("Put %d bytes: %d, %v", n, size, err)
				}
				if got, err := get(t, st, key); err != nil || !bytes.Equal(got, want) {
					t.Errorf("%d bytes: read back %d bytes, %v", n, len(got), err)
				}
			}
			// Until the write ends, the key has no file: not a part of one.
			_, err := st.Put(context.Background(), "whole.xlsx", func(w io.Writer) error {
				if err := writeIn(data(2*MinPartSize+1), 32<<10)(w); err != nil {
					return err
				}
				if _, err := get(t, st, "whole.xlsx"); !errors.Is(err, ErrNotFound) {
					t.Errorf("a file half written can be read: %v", err)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			st.Put(context.Background(), "again.xlsx", writeIn([]byte("first"), 2))
			st.Put(context.Background(), "again.xlsx", writeIn([]byte("second"), 2))
			if got, err := get(t, st, "again.xlsx"); err != nil || string(got) != "second" {
				t.Errorf("replaced: %q %v", got, err)
			}
			if _, err := get(t, st, "missing.xlsx"); !errors.Is(err, ErrNotFound) {
				t.Errorf("a missing key: %v, want ErrNotFound", err)
			}
			if err := st.Delete(context.Background(), "again.xlsx"); err != nil {
				t.Fatal(err)
			}
			if _, err := get(t, st, "again.xlsx"); !errors.Is(err, ErrNotFound) {
				t.Errorf("deleted: %v, want ErrNotFound", err)
			}
			if err := st.Delete(context.Background(), "again.xlsx"); err != nil {
				t.Errorf("deleting a missing key: %v", err)
			}
		})
	}
}

// TestPutFails: a write that fails part way, or whose context ends, leaves
// nothing under its key (and on S3 no incomplete upload), and an earlier
// file under the key stays as it was.
func TestPutFails(t *testing.T) {
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			st.Put(context.Background(), "kept.xlsx", writeIn([]byte("the earlier file"), 4))
			boom := errors.New("the query failed at row 1,000")
			for _, at := range []int{0, 100, MinPartSize + 5} {
				b := data(at + 10)
				_, err := st.Put(context.Background(), "failed.xlsx", func(w io.Writer) error {
					writeIn(b[:at], 32<<10)(w)
					return boom
				})
				if !errors.Is(err, boom) {
					t.Errorf("failing at %d: %v", at, err)
				}
				_, err = st.Put(context.Background(), "kept.xlsx", func(w io.Writer) error {
					writeIn(b[:at], 32<<10)(w)
					return boom
				})
				if !errors.Is(err, boom) {
					t.Errorf("failing at %d: %v", at, err)
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			_, err := st.Put(ctx, "cancelled.xlsx", func(w io.Writer) error {
				for i := 0; ; i++ {
					if i == 200 {
						cancel()
					}
					if _, err := w.Write(make([]byte, 32<<10)); err != nil {
						return err
					}
					if i > 2000 {
						return nil // the write went on past the cancel: Put must still refuse
					}
				}
			})
			if err == nil {
				t.Error("a cancelled Put succeeded")
			}
			for _, key := range []string{"failed.xlsx", "cancelled.xlsx"} {
				if _, err := get(t, st, key); !errors.Is(err, ErrNotFound) {
					t.Errorf("%s after a failed Put: %v, want ErrNotFound", key, err)
				}
			}
			if got, err := get(t, st, "kept.xlsx"); err != nil || string(got) != "the earlier file" {
				t.Errorf("the earlier file after failed Puts: %q %v", got, err)
			}
			if n := leftovers(t, st); n != 0 {
				t.Errorf("%d incomplete writes left", n)
			}
		})
	}
}

// leftovers counts what unfinished writes left: temporary files in a
// folder, incomplete multipart uploads under an S3 prefix.
func leftovers(t *testing.T, st Storage) int {
	t.Helper()
	switch s := st.(type) {
	case *Folder:
		n := 0
		filepath.WalkDir(s.dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.Contains(d.Name(), partialSuffix) {
				n++
			}
			return nil
		})
		return n
	case *S3:
		out, err := s.client.ListMultipartUploads(context.Background(), &s3.ListMultipartUploadsInput{Bucket: &s.bucket, Prefix: aws.String(s.prefix)})
		if err != nil {
			t.Fatal(err)
		}
		return len(out.Uploads)
	}
	return 0
}

// TestAbandon removes what a killed process's write left, and only that
// key's: a temporary file, or an incomplete multipart upload with a part.
func TestAbandon(t *testing.T) {
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			for _, key := range []string{"jobs/a.xlsx", "jobs/a.xlsx.bak"} {
				switch s := st.(type) {
				case *Folder:
					p, _ := s.path(key)
					os.MkdirAll(filepath.Dir(p), 0o750)
					os.WriteFile(filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+partialSuffix+"123"), []byte("half"), 0o600)
				case *S3:
					k := s.prefix + key
					up, err := s.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: &s.bucket, Key: &k})
					if err != nil {
						t.Fatal(err)
					}
					if _, err := s.client.UploadPart(ctx, &s3.UploadPartInput{Bucket: &s.bucket, Key: &k, UploadId: up.UploadId,
						PartNumber: aws.Int32(1), Body: bytes.NewReader(data(MinPartSize))}); err != nil {
						t.Fatal(err)
					}
				}
			}
			if n := leftovers(t, st); n != 2 {
				t.Fatalf("set up %d leftovers, want 2", n)
			}
			if n, err := st.Abandon(ctx, "jobs/a.xlsx"); err != nil || n != 1 {
				t.Errorf("Abandon: %d, %v; want 1", n, err)
			}
			if n := leftovers(t, st); n != 1 {
				t.Errorf("after Abandon: %d leftovers, want the other key's 1", n)
			}
			if n, err := st.Abandon(ctx, "nothing/here.xlsx"); err != nil || n != 0 {
				t.Errorf("Abandon of nothing: %d %v", n, err)
			}
			st.Abandon(ctx, "jobs/a.xlsx.bak")
		})
	}
}

// TestPresign: an S3 link fetches the object with the file name given,
// and stops working once expired; a folder has no links.
func TestPresign(t *testing.T) {
	st := stores(t)
	if u, err := st["folder"].Presign(context.Background(), "a.xlsx", time.Minute, "a.xlsx"); u != "" || err != nil {
		t.Errorf("folder: %q %v", u, err)
	}
	s := st["s3"]
	if s == nil {
		testenv.Get(t, "SHEETSTREAM_S3_URL", "starts an S3 server (versitygw)")
	}
	want := data(1000)
	s.Put(context.Background(), "linked/orders.xlsx", writeIn(want, 100))
	link, err := s.Presign(context.Background(), "linked/orders.xlsx", 2*time.Second, "Orders 2026-11.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Equal(got, want) || !strings.Contains(resp.Header.Get("Content-Disposition"), `filename="Orders 2026-11.xlsx"`) {
		t.Errorf("presigned GET: %d, %d bytes, Content-Disposition %q", resp.StatusCode, len(got), resp.Header.Get("Content-Disposition"))
	}
	time.Sleep(3 * time.Second)
	if resp, err := http.Get(link); err != nil || resp.StatusCode == 200 {
		t.Errorf("an expired link: %v %v", resp.StatusCode, err)
	}
}

// TestPutMemory: a Put of 64 MiB to S3 holds one part buffer, not the
// file: the heap grows by far less than the file.
func TestPutMemory(t *testing.T) {
	s := openTestS3(t)
	const size = 64 << 20
	chunk := data(64 << 10)
	var n int64
	var err error
	grew, _ := testenv.HeapGrowth(func() {
		n, err = s.Put(context.Background(), "big.xlsx", func(w io.Writer) error {
			for written := 0; written < size; written += len(chunk) {
				if _, err := w.Write(chunk); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil || n != size {
		t.Fatalf("Put: %d %v", n, err)
	}
	t.Logf("heap grew by %.1f MiB for a %d MiB upload", float64(grew)/(1<<20), size>>20)
	if grew > 24<<20 {
		t.Errorf("the heap grew by %d MiB for a %d MiB upload", grew>>20, size>>20)
	}
}

func TestCheckKey(t *testing.T) {
	for _, ok := range []string{"a.xlsx", "orders/2026-11-26.xlsx", "a b/ç.xlsx"} {
		if err := CheckKey(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "/a", "a/../b", "../a", "a//b", "./a", "a/", "a\x00b", "a\\b", "a\nb", strings.Repeat("a", 1025)} {
		if err := CheckKey(bad); !errors.Is(err, ErrKey) {
			t.Errorf("%q: %v, want ErrKey", bad, err)
		}
	}
}

func TestOpenURLs(t *testing.T) {
	ctx := context.Background()
	for _, bad := range []string{
		"s3://key:secret@bucket/p", "s3:///prefix", "s3://b/p?endpoint=ftp://x", "s3://b/p?acl=public",
		"file://otherhost/x", "ftp://x/y", "s3://b/../p",
	} {
		if st, err := Open(ctx, bad); err == nil {
			t.Errorf("%q opened: %v", bad, st)
		}
	}
	dir := t.TempDir()
	st, err := Open(ctx, filepath.Join(dir, "a", "b"))
	if err != nil || st.String() != "file://"+filepath.ToSlash(filepath.Join(dir, "a", "b")) {
		t.Errorf("a plain path: %v %v", st, err)
	}
	st, err = Open(ctx, "s3://bucket/some/prefix?region=eu-west-1&endpoint=http://127.0.0.1:9")
	if err != nil || st.String() != "s3://bucket/some/prefix/ at http://127.0.0.1:9" {
		t.Errorf("an s3 URL: %v %v", st, err)
	}
}
