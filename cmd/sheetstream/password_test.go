package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
)

// TestPasswords encrypts a workbook with convert and opens it with every
// source of a password: the flag, a file, the environment, through a
// pipe; without one, or with a wrong one, the message says what to do.
func TestPasswords(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "in.csv")
	os.WriteFile(csvPath, []byte("name,amount\nAda,12.5\nBo,7\n"), 0o644)
	pwFile := filepath.Join(dir, "pw.txt")
	os.WriteFile(pwFile, []byte("correct horse\n"), 0o600)
	run := func(env []string, stdin string, args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env...)
		if stdin != "" {
			f, err := os.Open(stdin)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cmd.Stdin = f
		}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	enc := filepath.Join(dir, "enc.xlsx")
	if out, err := run(nil, "", "convert", "--password-file", pwFile, csvPath, enc); err != nil {
		t.Fatalf("convert: %v\n%s", err, out)
	}
	envEnc := filepath.Join(dir, "env.xlsx")
	if out, err := run([]string{"SHEETSTREAM_PASSWORD=correct horse"}, "", "convert", "--encrypt", csvPath, envEnc); err != nil {
		t.Fatalf("convert --encrypt: %v\n%s", err, out)
	}
	for name, c := range map[string]struct {
		env   []string
		stdin string
		args  []string
	}{
		"flag":        {nil, "", []string{"cat", "--format", "csv", "--password", "correct horse", enc}},
		"file":        {nil, "", []string{"cat", "--format", "csv", "--password-file", pwFile, enc}},
		"environment": {[]string{"SHEETSTREAM_PASSWORD=correct horse"}, "", []string{"cat", "--format", "csv", envEnc}},
		"pipe":        {[]string{"SHEETSTREAM_PASSWORD=correct horse"}, enc, []string{"cat", "--format", "csv", "-"}},
		"convert":     {nil, "", []string{"convert", "--password-file", pwFile, enc, "-"}},
	} {
		out, err := run(c.env, c.stdin, c.args...)
		if err != nil || !strings.Contains(out, "Ada,12.5") {
			t.Errorf("%s: %v\n%s", name, err, out)
		}
	}
	if out, err := run(nil, "", "cat", enc); err == nil || !strings.Contains(out, "password-protected") || !strings.Contains(out, "--password-file") {
		t.Errorf("no password: %v\n%s", err, out)
	}
	if out, err := run(nil, "", "info", "--password-file", pwFile, enc); err != nil || !strings.Contains(out, "encrypted: Agile (AES-256, SHA512)") {
		t.Errorf("info: %v\n%s", err, out)
	}
	if out, err := run(nil, "", "info", "--password", "wrong", enc); err == nil || !strings.Contains(out, "wrong password") {
		t.Errorf("wrong password: %v\n%s", err, out)
	}
	// An independent implementation opens what convert encrypted.
	python := pyread.Python(t)
	out, err := exec.Command(python, "-c", `import msoffcrypto, sys, io, openpyxl
f = msoffcrypto.OfficeFile(open(sys.argv[1], "rb"))
f.load_key(password="correct horse")
buf = io.BytesIO()
f.decrypt(buf)
print([[c.value for c in row] for row in openpyxl.load_workbook(buf).active.iter_rows()])
`, enc).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "[['name', 'amount'], ['Ada', 12.5], ['Bo', 7]]") {
		t.Errorf("msoffcrypto-tool and openpyxl: %v\n%s", err, out)
	}
}
