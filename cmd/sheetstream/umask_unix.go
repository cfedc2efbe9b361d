//go:build unix

package main

import "syscall"

// umask is the process's file mode creation mask, read once at start
// (setting it is the only way to read it, so it is put back at once,
// before any goroutine could create a file).
var umask = func() uint32 {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return uint32(m)
}()
