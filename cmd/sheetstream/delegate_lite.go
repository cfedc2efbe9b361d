//go:build lite

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// A lite build is the front of a pair (make build): it runs the library's
// commands itself, in half the memory at start, and hands the service's
// commands and the Arrow and Parquet conversions to the full build beside
// it, sheetstream-full, by exec: the same process, arguments, standard
// streams and exit code, with the full build's libraries paid only by the
// commands that use them (bench/RESULTS.md, M6). Without a full build to
// hand to, those commands say where they are (service_lite.go,
// columnar_lite.go).

// fullName is the full build's file name beside the lite one or on PATH.
const fullName = "sheetstream-full"

// fullEnv names the full build to hand to, over fullName's search.
const fullEnv = "SHEETSTREAM_FULL"

// handedEnv is set for the full build a lite one ran: a lite build found
// under the full build's name hands nothing on again, instead of running
// itself for ever.
const handedEnv = "SHEETSTREAM_HANDED_OVER"

// delegate runs the full build in this process's place when args need
// it and one is at hand; it returns only when it did not (or could not,
// with the reason).
func delegate(args []string) error {
	if !needsFull(args) || os.Getenv(handedEnv) != "" {
		return nil
	}
	path := findFull()
	if path == "" {
		return nil
	}
	argv := append([]string{path}, args...)
	env := append(os.Environ(), handedEnv+"=1")
	err := syscall.Exec(path, argv, env)
	// Where exec cannot replace a process (Windows), the full build runs
	// as a child with this one's streams, and its exit code is ours.
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr, cmd.Env = os.Stdin, os.Stdout, os.Stderr, env
	if runErr := cmd.Run(); runErr != nil {
		var exit *exec.ExitError
		if errors.As(runErr, &exit) {
			os.Exit(exit.ExitCode())
		}
		return errors.Join(err, runErr)
	}
	os.Exit(0)
	return nil
}

// findFull is the full build to hand to: $SHEETSTREAM_FULL, else
// sheetstream-full beside this executable, else on PATH; "" for none.
func findFull() string {
	if path := os.Getenv(fullEnv); path != "" {
		return path
	}
	if self, err := os.Executable(); err == nil {
		path := filepath.Join(filepath.Dir(self), fullName+filepath.Ext(self)) // .exe on Windows
		if st, err := os.Stat(path); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return path
		}
	}
	path, err := exec.LookPath(fullName)
	if err != nil {
		return ""
	}
	return path
}
