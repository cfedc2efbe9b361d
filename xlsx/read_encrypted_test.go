package xlsx_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/xlsx"
)

// dumpCells reads every sheet of the workbook at path as typed text.
func dumpCells(t *testing.T, path string, opts xlsx.ReadOptions) ([]string, error) {
	t.Helper()
	wb, err := xlsx.Open(path, opts)
	if err != nil {
		return nil, err
	}
	defer wb.Close()
	var out []string
	for _, s := range wb.Sheets() {
		if s.Kind != xlsx.SheetKindWorksheet {
			continue
		}
		rows, err := wb.Rows(context.Background(), s.Index)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			for _, c := range rows.Row().Cells {
				out = append(out, s.Name+"!"+xlsx.CellName(rows.Row().Num, c.Col())+"="+c.Type().String()+":"+c.String())
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decryptWithMsoffcrypto decrypts src into dst with msoffcrypto-tool, the
// independent implementation the cells are compared with.
func decryptWithMsoffcrypto(t *testing.T, python, src, dst, password string) error {
	t.Helper()
	script := `import msoffcrypto, sys
f = msoffcrypto.OfficeFile(open(sys.argv[1], "rb"))
f.load_key(password=sys.argv[3])
with open(sys.argv[2], "wb") as out:
    f.decrypt(out)
`
	out, err := exec.Command(python, "-c", script, src, dst, password).CombinedOutput()
	if err != nil {
		return errors.New(strings.TrimSpace(string(out)))
	}
	return nil
}

// TestEncryptedCorpus reads the corpus's encrypted workbooks with their
// passwords (ENCRYPTED.tsv) and compares every cell with what the file
// msoffcrypto-tool decrypts holds; wrong and missing passwords are named.
func TestEncryptedCorpus(t *testing.T) {
	dir := testenv.Corpus(t)
	python := pyread.Python(t)
	f, err := os.Open(filepath.Join(dir, "ENCRYPTED.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	read := 0
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) < 3 {
			continue
		}
		name, password, scheme := fields[0], fields[1], fields[2]
		path := filepath.Join(dir, name)
		t.Run(name, func(t *testing.T) {
			if _, err := dumpCells(t, path, xlsx.ReadOptions{}); !errors.Is(err, xlsx.ErrEncrypted) {
				t.Errorf("without a password: %v, want ErrEncrypted", err)
			}
			if scheme != "agile" && scheme != "standard" {
				// Unknown password or a damaged file: any named error, no panic.
				_, err := dumpCells(t, path, xlsx.ReadOptions{Password: "not the password"})
				if err == nil {
					t.Error("read with a made-up password")
				}
				t.Logf("with a made-up password: %v", err)
				return
			}
			if _, err := dumpCells(t, path, xlsx.ReadOptions{Password: password + "x"}); !errors.Is(err, xlsx.ErrPassword) {
				t.Errorf("wrong password: %v, want ErrPassword", err)
			}
			got, err := dumpCells(t, path, xlsx.ReadOptions{Password: password})
			if err != nil {
				t.Fatalf("with the password: %v", err)
			}
			wb, err := xlsx.Open(path, xlsx.ReadOptions{Password: password})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(strings.ToLower(wb.Encryption()), scheme) {
				t.Errorf("Encryption() = %q, want the %s scheme", wb.Encryption(), scheme)
			}
			wb.Close()
			plain := filepath.Join(t.TempDir(), "plain.xlsx")
			if err := decryptWithMsoffcrypto(t, python, path, plain, password); err != nil {
				t.Fatalf("msoffcrypto-tool: %v", err)
			}
			want, err := dumpCells(t, plain, xlsx.ReadOptions{})
			if err != nil {
				t.Fatalf("the decrypted copy: %v", err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("cells differ from msoffcrypto-tool's decryption:\n got %.20q\nwant %.20q", got, want)
			}
			read++
		})
	}
	if read < 9 {
		t.Errorf("read %d encrypted workbooks with their passwords, want the 9 ENCRYPTED.tsv names", read)
	}
}

// TestEncryptedByMsoffcrypto reads a workbook sheetstream wrote and
// msoffcrypto-tool encrypted (Agile, as it writes).
func TestEncryptedByMsoffcrypto(t *testing.T) {
	python := pyread.Python(t)
	dir := t.TempDir()
	plain, enc := filepath.Join(dir, "plain.xlsx"), filepath.Join(dir, "enc.xlsx")
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("Data", xlsx.SheetOptions{})
		for i := range 5000 {
			if err == nil {
				err = sh.WriteRow([]xlsx.Cell{xlsx.Int(int64(i)), xlsx.String(strings.Repeat("é", i%50)), xlsx.Float(float64(i) / 7)})
			}
		}
		return err
	})
	if err := os.WriteFile(plain, book, 0o644); err != nil {
		t.Fatal(err)
	}
	script := `import msoffcrypto, sys
f = msoffcrypto.OfficeFile(open(sys.argv[1], "rb"))
with open(sys.argv[2], "wb") as out:
    f.encrypt(sys.argv[3], out)
`
	if out, err := exec.Command(python, "-c", script, plain, enc, "s3cret é").CombinedOutput(); err != nil {
		t.Fatalf("msoffcrypto-tool encrypt: %v\n%s", err, out)
	}
	want, err := dumpCells(t, plain, xlsx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := dumpCells(t, enc, xlsx.ReadOptions{Password: "s3cret é"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) || len(got) < 10000 {
		t.Errorf("%d cells read, %d written", len(got), len(want))
	}
	if _, err := dumpCells(t, enc, xlsx.ReadOptions{Password: "s3cret e"}); !errors.Is(err, xlsx.ErrPassword) {
		t.Errorf("wrong password: %v", err)
	}
	// A flipped byte in the encrypted package fails the integrity check.
	data, err := os.ReadFile(enc)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-100] ^= 1
	damaged := filepath.Join(dir, "damaged.xlsx")
	os.WriteFile(damaged, data, 0o644)
	if _, err := dumpCells(t, damaged, xlsx.ReadOptions{Password: "s3cret é"}); !errors.Is(err, xlsx.ErrIntegrity) {
		t.Errorf("damaged package: %v, want ErrIntegrity", err)
	}
}
