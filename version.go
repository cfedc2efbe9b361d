// Package sheetstream holds what the whole module shares: its version,
// read from CHANGELOG.md so that the changelog is the one place a release
// is named. The library is in the xlsx, sqlsheet and csvsheet packages.
package sheetstream

import (
	_ "embed"
	"regexp"
)

//go:embed CHANGELOG.md
var changelog string

// releaseHeading is a Keep a Changelog release heading: "## [1.2.0] - 2026-11-24".
var releaseHeading = regexp.MustCompile(`(?m)^## \[(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\] - \d{4}-\d{2}-\d{2}\s*$`)

// Version is the newest release CHANGELOG.md names, as "v0.6.0", or
// "v0.0.0" when it names none. Work since that release is listed under
// [Unreleased] there.
func Version() string {
	m := releaseHeading.FindStringSubmatch(changelog)
	if m == nil {
		return "v0.0.0"
	}
	return "v" + m[1]
}
