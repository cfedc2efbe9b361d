package sheetstream

import (
	"regexp"
	"strings"
	"testing"
)

func TestVersionIsTheNewestRelease(t *testing.T) {
	if got := Version(); !regexp.MustCompile(`^v\d+\.\d+\.\d+`).MatchString(got) {
		t.Fatalf("Version() = %q, not a semantic version", got)
	}
	// The first release heading after [Unreleased] is the version.
	i := strings.Index(changelog, "\n## [")
	j := strings.Index(changelog[i+1:], "\n## [")
	if i < 0 || j < 0 {
		t.Fatal("CHANGELOG.md has no [Unreleased] section followed by a release")
	}
	first := changelog[i+1+j+1:]
	want := "## [" + strings.TrimPrefix(Version(), "v") + "] - "
	if !strings.HasPrefix(first, want) {
		t.Fatalf("Version() = %s, but the first release heading is %q", Version(), first[:strings.IndexByte(first, '\n')])
	}
}

func TestVersionWithoutReleases(t *testing.T) {
	saved := changelog
	defer func() { changelog = saved }()
	changelog = "# Changelog\n\n## [Unreleased]\n- something\n"
	if got := Version(); got != "v0.0.0" {
		t.Fatalf("Version() = %q with no release, want v0.0.0", got)
	}
	changelog = "## [Unreleased]\n\n## [1.10.2-rc.1] - 2026-01-02\n\n## [1.9.0] - 2025-01-01\n"
	if got := Version(); got != "v1.10.2-rc.1" {
		t.Fatalf("Version() = %q, want v1.10.2-rc.1", got)
	}
}
