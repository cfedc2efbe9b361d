package main

import (
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
	bin := filepath.Join(dir, "sheetstream-lite")
	if out, err := exec.Command("go", "build", "-tags", "lite", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -tags lite: %v\n%s", err, out)
	}
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
	out, err := exec.Command(bin, "serve", "--demo").CombinedOutput()
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
