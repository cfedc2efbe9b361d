//go:build !unix

package main

// umask is the usual mask where the system has none to read.
var umask uint32 = 0o022
