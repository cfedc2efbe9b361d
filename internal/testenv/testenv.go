// Package testenv gives tests what the test command provides (a Python
// with the readers, a PostgreSQL server): without it a test is skipped
// with a message, except under CI, where it fails, since CI must run the
// real checks.
package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// Get returns the environment variable name, or skips (fails under CI)
// with a message saying how to get it.
func Get(t testing.TB, name, provides string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		msg := name + " is not set: run the tests with `make test`, which " + provides
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return v
}

// Corpus returns dir, the shared corpus of real workbooks beside the
// project (../shared/corpus from the repository root), or skips — fails
// under CI — when it is not there.
func Corpus(t testing.TB, dir string) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil {
		msg := "the shared corpus is not at " + dir + " (it sits beside the project checkout, as ../shared/corpus)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg + ": CI must have it")
		}
		t.Skip(msg)
	}
	return dir
}
