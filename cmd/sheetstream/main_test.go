package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
)

// buildCLI compiles the command once per test binary.
func buildCLI(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sheetstream")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func TestConvertCommand(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(csvPath, []byte("a,b\n1,x\n2,y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// File to file.
	out := filepath.Join(dir, "out.xlsx")
	if msg, err := exec.Command(bin, "convert", csvPath, out).CombinedOutput(); err != nil {
		t.Fatalf("convert: %v\n%s", err, msg)
	}
	// stdin to stdout.
	cmd := exec.Command(bin, "convert", "--delimiter", "tab", "-", "-")
	cmd.Stdin = strings.NewReader("a\tb\n3\tz\n")
	piped, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	pipedPath := filepath.Join(dir, "piped.xlsx")
	if err := os.WriteFile(pipedPath, piped, 0o644); err != nil {
		t.Fatal(err)
	}
	// A bad input fails with a one-line message naming file and line, and
	// leaves neither the target nor a temporary file behind.
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("a\n\"unterminated\n"), 0o644)
	target := filepath.Join(dir, "bad.xlsx")
	msg, err := exec.Command(bin, "convert", bad, target).CombinedOutput()
	if err == nil || !strings.Contains(string(msg), "bad.csv") || !strings.Contains(string(msg), "line") ||
		strings.Count(strings.TrimSpace(string(msg)), "\n") != 0 || strings.Contains(string(msg), "goroutine") {
		t.Errorf("bad input: err %v, message %q", err, msg)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*bad.xlsx*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}

	pyread.Python(t)
	res := pyread.Read(t, out, pipedPath)
	if r := res[out]; r.Error != "" || len(r.Audit) > 0 || len(r.Openpyxl["Sheet1"]) != 3 {
		t.Errorf("out.xlsx: %+v", r)
	}
	if r := res[pipedPath]; r.Error != "" || len(r.Openpyxl["Sheet1"]) != 2 || len(r.Openpyxl["Sheet1"][1]) != 2 || r.Openpyxl["Sheet1"][1][1].V != "z" {
		t.Errorf("piped: %+v", r)
	}
}
