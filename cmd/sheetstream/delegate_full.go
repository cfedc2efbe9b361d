//go:build !lite

package main

// The full build runs every command itself (a lite build hands some to
// it: delegate_lite.go).
func delegate([]string) error { return nil }
