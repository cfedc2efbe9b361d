// Package testenv gives tests what the test command provides (a Python
// with the readers, a PostgreSQL server): without it a test is skipped
// with a message, except under CI, where it fails, since CI must run the
// real checks.
package testenv

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// readers are the independent readers and programs outside Go that tests
// check output with. Under -short, which the race pass uses, tests that
// need them are skipped: the race detector sees nothing of what they do,
// and the go pass runs every one of them.
var readers = map[string]bool{
	"SHEETSTREAM_PYTHON":       true,
	"SHEETSTREAM_SOFFICE":      true,
	"SHEETSTREAM_NODE_MODULES": true,
	"SHEETSTREAM_NGINX":        true,
}

// Get returns the environment variable name, or skips (fails under CI)
// with a message saying how to get it.
func Get(t testing.TB, name, provides string) string {
	t.Helper()
	if readers[name] && testing.Short() {
		t.Skip(name + ": outside readers do not run under -short (the race pass); the go pass runs them")
	}
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

// Corpus returns the shared corpus of real .xlsx workbooks beside the
// project (../shared/corpus from the repository root), or skips — fails
// under CI — when it is not there.
func Corpus(t testing.TB) string { return shared(t, "corpus") }

// LegacyCorpus returns the shared corpus of .xls, .xlsb and .ods files
// (../shared/corpus-legacy), as Corpus does.
func LegacyCorpus(t testing.TB) string { return shared(t, "corpus-legacy") }

// shared finds ../shared/name from the repository root, which it finds by
// walking up from the test's directory to go.mod.
func shared(t testing.TB, name string) string {
	t.Helper()
	dir := ""
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				dir = filepath.Join(filepath.Dir(d), "shared", name)
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); dir == "" || err != nil {
		msg := "the shared " + name + " is not at " + dir + " (it sits beside the project checkout, as ../shared/" + name + ")"
		if os.Getenv("CI") != "" {
			t.Fatal(msg + ": CI must have it")
		}
		t.Skip(msg)
	}
	return dir
}

// HeapGrowth runs f and returns by how much the heap in use grew above
// what it was before f, at its peak (sampled every 5 ms), and the bytes
// allocated meanwhile: what a test of bounded memory asserts on.
func HeapGrowth(f func()) (peak int64, allocated uint64) {
	runtime.GC()
	var before, m runtime.MemStats
	runtime.ReadMemStats(&before)
	high := before.HeapInuse
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			high = max(high, m.HeapInuse)
		}
	}()
	f()
	close(stop)
	<-done
	runtime.ReadMemStats(&m)
	return int64(max(high, m.HeapInuse)) - int64(before.HeapInuse), m.TotalAlloc - before.TotalAlloc
}
