package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLiteBuild: built with -tags lite, the binary holds none of the
// service's libraries (River, the AWS SDK, OpenID Connect) nor Arrow's
// and Parquet's, converts and reads workbooks and CSV as the full one
// does, and its service commands and columnar conversions say how to get
// them instead of doing nothing (and leave no file).
func TestLiteBuild(t *testing.T) {
	dir := t.TempDir()
	bin := buildLite(t, dir, "sheetstream-lite")
	deps, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, mod := range []string{"riverqueue/river", "aws-sdk-go-v2", "coreos/go-oidc", "robfig/cron", "apache/arrow-go", "parquet-go", "google.golang.org/protobuf"} {
		if strings.Contains(string(deps), mod) {
			t.Errorf("the lite build links %s", mod)
		}
	}
	in := filepath.Join(dir, "in.csv")
	os.WriteFile(in, []byte("id,name\n1,a\n2,b\n"), 0o644)
	book := filepath.Join(dir, "out.xlsx")
	if out, err := exec.Command(bin, "convert", in, book).CombinedOutput(); err != nil {
		t.Fatalf("convert: %v %s", err, out)
	}
	if out, err := exec.Command(bin, "cat", "--format", "csv", book).Output(); err != nil || string(out) != "id,name\n1,a\n2,b\n" {
		t.Errorf("cat: %v %q", err, out)
	}
	// No full build to hand to: none beside it, none on PATH.
	serve := exec.Command(bin, "serve", "--demo")
	serve.Env = append(os.Environ(), "PATH="+dir)
	out, err := serve.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "built without the service") {
		t.Errorf("serve in the lite build: %v %q", err, out)
	}
	os.WriteFile(filepath.Join(dir, "in.parquet"), []byte("PAR1"), 0o644)
	for _, args := range [][]string{
		{"convert", book, filepath.Join(dir, "out.parquet")},
		{"convert", in, filepath.Join(dir, "out.arrow")},
		{"export", "--demo", "--query", "SELECT 1 AS n", "-o", filepath.Join(dir, "out.feather")},
		{"convert", filepath.Join(dir, "in.parquet"), filepath.Join(dir, "back.xlsx")},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+dir)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "built without Arrow and Parquet") {
			t.Errorf("%v in the lite build: %v %q", args, err, out)
		}
	}
	for _, name := range []string{"out.parquet", "out.arrow", "out.feather", "back.xlsx"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s left by a refused conversion", name)
		}
	}
}

// buildLite compiles the lite build into dir under name.
func buildLite(t *testing.T, dir, name string) string {
	t.Helper()
	bin := filepath.Join(dir, name)
	if out, err := exec.Command("go", "build", "-tags", "lite", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -tags lite: %v\n%s", err, out)
	}
	return bin
}

// TestLiteHandsToFull: the pair make build installs. The lite build
// runs what it leaves out (the service's commands, Parquet and Arrow) by
// handing the same arguments, streams and exit code to sheetstream-full
// beside it; a lite build under that name hands nothing on again.
func TestLiteHandsToFull(t *testing.T) {
	dir := t.TempDir()
	lite := buildLite(t, dir, "sheetstream")
	full := filepath.Join(dir, "sheetstream-full")
	if err := os.Rename(buildCLI(t), full); err != nil {
		t.Fatal(err)
	}
	run := func(stdin string, args ...string) (string, int) {
		cmd := exec.Command(lite, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+dir, "SHEETSTREAM_FULL=")
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("%v: %v", args, err)
		}
		return string(out), cmd.ProcessState.ExitCode()
	}
	os.WriteFile(filepath.Join(dir, "in.csv"), []byte("id,name\n1,a\n2,b\n"), 0o644)
	if out, code := run("", "convert", "in.csv", "out.parquet"); code != 0 {
		t.Fatalf("convert to Parquet through the full build: %d %s", code, out)
	}
	if out, code := run("", "convert", "out.parquet", "back.xlsx"); code != 0 {
		t.Fatalf("convert from Parquet: %d %s", code, out)
	}
	// Standard input reaches the full build unread.
	if out, code := run("id,name\n7,x\n", "convert", "-", "piped.parquet"); code != 0 {
		t.Fatalf("convert - to Parquet: %d %s", code, out)
	}
	if out, code := run("", "convert", "piped.parquet", "piped.xlsx"); code != 0 {
		t.Fatalf("convert from Parquet: %d %s", code, out)
	}
	if out, code := run("", "cat", "--format", "csv", "piped.xlsx"); code != 0 || out != "id,name\n7,x\n" {
		t.Errorf("standard input through the pair: %d %q", code, out)
	}
	if out, code := run("", "export", "--demo", "--query", "SELECT 3 AS n", "--format", "arrow", "-o", "q.arrow"); code != 0 {
		t.Fatalf("export --format arrow: %d %s", code, out)
	}
	if out, code := run("", "serve", "--help"); code != 0 || !strings.Contains(out, "--demo") {
		t.Errorf("serve --help through the full build: %d %q", code, out)
	}
	if out, code := run("", "token", "--no-such-flag"); code != 1 || !strings.Contains(out, "no-such-flag") {
		t.Errorf("the full build's exit code and message: %d %q", code, out)
	}
	// The library's commands stay in the lite process (nothing to hand).
	if out, code := run("", "cat", "--format", "csv", "back.xlsx"); code != 0 || out != "id,name\n1,a\n2,b\n" {
		t.Errorf("Parquet round trip through the pair, read by the lite build: %d %q", code, out)
	}
	// A lite build found under the full build's name answers itself.
	if err := os.Rename(lite, full); err != nil {
		t.Fatal(err)
	}
	lite = filepath.Join(dir, "sheetstream")
	os.Link(full, lite)
	if out, code := run("", "serve", "--demo"); code == 0 || !strings.Contains(out, "built without the service") {
		t.Errorf("a lite build under the full build's name: %d %q", code, out)
	}
}

func TestNeedsFull(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"serve", "--demo"}, true},
		{[]string{"jobs", "list"}, true},
		{[]string{"convert", "a.csv", "b.PARQUET"}, true},
		{[]string{"convert", "a.xlsx", "b.arrows"}, true},
		{[]string{"export", "--demo", "--format", "feather"}, true},
		{[]string{"export", "--demo", "--format=parquet", "-o", "-"}, true},
		{[]string{"export", "--demo", "-o=x.arrow"}, true},
		{[]string{"convert", "a.csv", "b.xlsx"}, false},
		{[]string{"export", "--demo", "--format", "csv"}, false},
		{[]string{"cat", "serve"}, false},
		{[]string{"--format"}, false},
		{nil, false},
	} {
		if got := needsFull(c.args); got != c.want {
			t.Errorf("needsFull(%q) = %v", c.args, got)
		}
	}
}
