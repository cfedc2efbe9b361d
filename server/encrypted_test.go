package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// TestEncryptedExport serves an export whose files are encrypted with the
// password in password_env: the download opens with it (and not without),
// holds the same rows as the plain export, leaves nothing in temp_dir,
// and the API says it is encrypted. An unset variable fails the config.
func TestEncryptedExport(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "shop.db")
	db, err := sqlsheet.Open("sqlite:" + dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER, name TEXT);
		INSERT INTO t WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < 60000) SELECT i, 'name ' || i FROM g`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	tmp := t.TempDir()
	config := fmt.Sprintf(`database: sqlite:%s
temp_dir: %s
exports:
  - name: secret
    password_env: SHEETSTREAM_TEST_EXPORT_PASSWORD
    sheets: [{name: T, sql: SELECT * FROM t ORDER BY id}]
  - name: plain
    sheets: [{name: T, sql: SELECT * FROM t ORDER BY id}]
`, dbPath, tmp)
	if _, err := ParseConfig([]byte(config)); err == nil || !strings.Contains(err.Error(), "SHEETSTREAM_TEST_EXPORT_PASSWORD") {
		t.Errorf("unset password_env: %v", err)
	}
	t.Setenv("SHEETSTREAM_TEST_EXPORT_PASSWORD", "s3cret")
	cfg, err := ParseConfig([]byte(config))
	if err != nil {
		t.Fatal(err)
	}
	f := serve(t, cfg)
	resp, secret := f.get("/exports/secret.xlsx")
	if resp.StatusCode != http.StatusOK || !bytes.HasPrefix(secret, []byte{0xD0, 0xCF, 0x11, 0xE0}) {
		t.Fatalf("download: %d, %q...", resp.StatusCode, secret[:min(len(secret), 8)])
	}
	_, plain := f.get("/exports/plain.xlsx")
	if _, err := xlsx.NewReader(bytes.NewReader(secret), int64(len(secret)), xlsx.ReadOptions{}); !errors.Is(err, xlsx.ErrEncrypted) {
		t.Errorf("without the password: %v", err)
	}
	read := func(b []byte, password string) []string {
		wb, err := xlsx.NewReader(bytes.NewReader(b), int64(len(b)), xlsx.ReadOptions{Password: password})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := wb.Rows(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			for _, c := range rows.Row().Cells {
				out = append(out, c.String())
			}
		}
		return out
	}
	got, want := read(secret, "s3cret"), read(plain, "")
	if len(got) != 2*60001 || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%d cells, the plain export has %d", len(got), len(want))
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in temp_dir: %v", left)
	}
	_, list := f.get("/api/exports")
	var api struct {
		Exports []struct {
			Name      string `json:"name"`
			Encrypted bool   `json:"encrypted"`
		} `json:"exports"`
	}
	if err := json.Unmarshal(list, &api); err != nil {
		t.Fatal(err)
	}
	for _, e := range api.Exports {
		if e.Encrypted != (e.Name == "secret") {
			t.Errorf("%s: encrypted %v", e.Name, e.Encrypted)
		}
	}
	if strings.Contains(string(list), "s3cret") || strings.Contains(string(list), "SHEETSTREAM_TEST") {
		t.Error("the API shows the password or its variable")
	}
}
