package xlsx_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

// encryptedBook writes rows of mixed cells to out, encrypted with
// password.
func encryptedBook(t *testing.T, out io.Writer, opts xlsx.Options, rows int) error {
	t.Helper()
	w, err := xlsx.NewWriter(out, opts)
	if err != nil {
		return err
	}
	sh, err := w.AddSheet("Secret", xlsx.SheetOptions{})
	if err != nil {
		return err
	}
	for i := range rows {
		if err := sh.WriteRow([]xlsx.Cell{xlsx.Int(int64(i)), xlsx.String("name-" + strconv.Itoa(i)),
			xlsx.Float(float64(i) / 3), xlsx.Date(time.Date(2024, 1, 1+i%28, 0, 0, 0, 0, time.UTC))}); err != nil {
			return err
		}
	}
	return w.Close()
}

// TestEncryptedWrite writes encrypted workbooks to a file (in place) and
// to a buffer (held back), reads them back with the password, and has
// msoffcrypto-tool decrypt them for openpyxl and python-calamine.
func TestEncryptedWrite(t *testing.T) {
	dir := t.TempDir()
	const password = "Pässwörd 🔑"
	inPlace := filepath.Join(dir, "inplace.xlsx")
	f, err := os.Create(inPlace)
	if err != nil {
		t.Fatal(err)
	}
	if err := encryptedBook(t, f, xlsx.Options{Password: password}, 3000); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var buf bytes.Buffer
	if err := encryptedBook(t, &buf, xlsx.Options{Password: password}, 3000); err != nil {
		t.Fatal(err)
	}
	held := filepath.Join(dir, "held.xlsx")
	os.WriteFile(held, buf.Bytes(), 0o644)
	small := filepath.Join(dir, "small.xlsx")
	var tiny bytes.Buffer
	if err := encryptedBook(t, &tiny, xlsx.Options{Password: password}, 1); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(small, tiny.Bytes(), 0o644)

	for _, path := range []string{inPlace, held, small} {
		if _, err := dumpCells(t, path, xlsx.ReadOptions{}); !errors.Is(err, xlsx.ErrEncrypted) {
			t.Errorf("%s without a password: %v", filepath.Base(path), err)
		}
		if _, err := dumpCells(t, path, xlsx.ReadOptions{Password: "password"}); !errors.Is(err, xlsx.ErrPassword) {
			t.Errorf("%s with a wrong password: %v", filepath.Base(path), err)
		}
		cells, err := dumpCells(t, path, xlsx.ReadOptions{Password: password})
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(path), err)
		}
		if want := 4 * 3000; path != small && len(cells) != want || path == small && len(cells) != 4 {
			t.Errorf("%s: %d cells", filepath.Base(path), len(cells))
		}
	}

	python := pyread.Python(t)
	for _, path := range []string{inPlace, held, small} {
		plain := path + ".plain.xlsx"
		if err := decryptWithMsoffcrypto(t, python, path, plain, password); err != nil {
			t.Fatalf("msoffcrypto-tool cannot decrypt %s: %v", filepath.Base(path), err)
		}
		if err := decryptWithMsoffcrypto(t, python, path, plain+".x", "Password"); err == nil {
			t.Errorf("msoffcrypto-tool decrypted %s with a wrong password", filepath.Base(path))
		}
		res := pyread.Read(t, plain)[plain]
		if res.Error != "" || len(res.Audit) > 0 {
			t.Fatalf("%s decrypted: %s %v", filepath.Base(path), res.Error, res.Audit)
		}
		want := []*pyread.Value{pyread.Num(0), pyread.Str("name-0"), pyread.Num(0), pyread.DateTime("2024-01-01T00:00:00")}
		for reader, rows := range map[string][][]*pyread.Value{"openpyxl": res.Openpyxl["Secret"], "calamine": res.Calamine["Secret"]} {
			if len(rows) == 0 || !slices.EqualFunc(rows[0], want, func(a, b *pyread.Value) bool { return a.Equal(b) }) {
				t.Errorf("%s of %s: first row %v", reader, filepath.Base(path), cellAt(rows, 0, 0))
			}
		}
	}
}

// TestEncryptedHeldBack holds a package too large for its memory in
// TempDir, or fails with ErrEncryptionBuffer without one; nothing is left
// in TempDir.
func TestEncryptedHeldBack(t *testing.T) {
	tmp := t.TempDir()
	var buf bytes.Buffer
	if err := encryptedBook(t, &buf, xlsx.Options{Password: "p", SheetBufferSize: 64 << 10, TempDir: tmp}, 50000); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "spilled.xlsx")
	os.WriteFile(path, buf.Bytes(), 0o644)
	if cells, err := dumpCells(t, path, xlsx.ReadOptions{Password: "p"}); err != nil || len(cells) != 4*50000 {
		t.Errorf("spilled: %d cells, %v", len(cells), err)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in TempDir: %v", left)
	}
	err := encryptedBook(t, io.Discard, xlsx.Options{Password: "p", SheetBufferSize: 64 << 10}, 50000)
	if !errors.Is(err, xlsx.ErrEncryptionBuffer) {
		t.Errorf("without TempDir: %v, want ErrEncryptionBuffer", err)
	}
}

// TestAbortDiscards: a workbook abandoned part way (an export that failed
// or whose client went away) leaves nothing in TempDir, whether it was an
// encrypted package held back there or concurrent sheets waiting their
// turn, and Abort writes nothing more to the output.
func TestAbortDiscards(t *testing.T) {
	for _, c := range []struct {
		name string
		opts xlsx.Options
		conc bool
	}{
		{"encrypted", xlsx.Options{Password: "p", SheetBufferSize: 64 << 10}, false},
		{"concurrent", xlsx.Options{SheetBufferSize: 64 << 10}, true},
		{"encrypted concurrent", xlsx.Options{Password: "p", SheetBufferSize: 64 << 10}, true},
	} {
		for _, rows := range []int{0, 10, 50000} {
			tmp := t.TempDir()
			c.opts.TempDir = tmp
			var out countingWriter
			w, err := xlsx.NewWriter(&out, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			var sheets []*xlsx.Sheet
			for i := range 2 {
				var sh *xlsx.Sheet
				if c.conc {
					sh, err = w.AddConcurrentSheet("S"+strconv.Itoa(i), xlsx.SheetOptions{})
				} else if i == 0 {
					sh, err = w.AddSheet("S0", xlsx.SheetOptions{})
				}
				if err != nil {
					t.Fatal(err)
				}
				if sh != nil {
					sheets = append(sheets, sh)
				}
			}
			// The last sheet fills first, so that the first one's turn
			// holds it back in TempDir.
			for j := len(sheets) - 1; j >= 0; j-- {
				for i := range rows {
					if err := sheets[j].WriteRow([]xlsx.Cell{xlsx.Int(int64(i)), xlsx.String("name-" + strconv.Itoa(i*7919))}); err != nil {
						t.Fatal(err)
					}
				}
			}
			held, _ := os.ReadDir(tmp)
			if rows == 50000 && len(held) == 0 {
				t.Errorf("%s: nothing was held in TempDir before Abort: the case tests nothing", c.name)
			}
			before := out.n
			w.Abort()
			if out.n != before {
				t.Errorf("%s, %d rows: Abort wrote %d more bytes", c.name, rows, out.n-before)
			}
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("%s, %d rows: left in TempDir after Abort: %v", c.name, rows, left)
			}
			if err := w.Close(); !errors.Is(err, xlsx.ErrAborted) {
				t.Errorf("%s: Close after Abort: %v, want ErrAborted", c.name, err)
			}
			w.Abort() // again: nothing
		}
	}
}

type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }
