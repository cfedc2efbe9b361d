package main

// Which commands a lite build hands to the full one (delegate_lite.go):
// decided from the arguments alone, before anything is read.

import "strings"

// serviceCommands are the commands only the full build has.
var serviceCommands = map[string]bool{"serve": true, "worker": true, "migrate": true, "jobs": true, "token": true}

// needsFull says whether args ask for what only the full build has: a
// service command, or a file or --format of Parquet or Arrow anywhere
// among them. A false yes costs only the full build's start (it runs
// any command alike); a false no ends in the lite build's message.
func needsFull(args []string) bool {
	if len(args) > 0 && serviceCommands[args[0]] {
		return true
	}
	for i, arg := range args {
		if columnarFormat(arg) != "" || arrowFormat(arg) != "" {
			return true
		}
		name, value, inline := strings.Cut(arg, "=")
		if name != "--format" {
			continue
		}
		if !inline && i+1 < len(args) {
			value = args[i+1]
		}
		if columnarFormat("."+value) != "" || arrowFormat("."+value) != "" {
			return true
		}
	}
	return false
}
