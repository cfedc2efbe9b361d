package storage

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzCheckKey: a key CheckKey accepts names a file inside the folder,
// never the folder itself or anything outside it.
func FuzzCheckKey(f *testing.F) {
	for _, s := range []string{"a.xlsx", "orders/2026.xlsx", "../x", "a/../../b", "/etc/passwd", "a//b", ".", "a/.", "..\\x", "ç/ü.xlsx"} {
		f.Add(s)
	}
	root := filepath.FromSlash("/srv/exports")
	f.Fuzz(func(t *testing.T, key string) {
		if CheckKey(key) != nil {
			return
		}
		p := filepath.Join(root, filepath.FromSlash(key))
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			t.Fatalf("key %q names %s, outside %s", key, p, root)
		}
		if filepath.ToSlash(rel) != key {
			t.Fatalf("key %q names %s, not itself", key, rel)
		}
	})
}
