package main

// The columnar formats' names: what the command line needs whether or
// not the build has Arrow and Parquet (the lite build has not:
// columnar_lite.go).

import (
	"path/filepath"
	"strings"
)

// arrowFormat is "file" or "stream" for a path of an Arrow extension,
// "" for any other.
func arrowFormat(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".arrow", ".feather":
		return "file"
	case ".arrows":
		return "stream"
	}
	return ""
}

// isParquet says whether path names a Parquet file.
func isParquet(path string) bool { return strings.EqualFold(filepath.Ext(path), ".parquet") }

// columnarFormat is the columnar format a path's extension names, "" for
// none.
func columnarFormat(path string) string {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".parquet", ".arrow", ".feather":
		return ext[1:]
	}
	return ""
}
