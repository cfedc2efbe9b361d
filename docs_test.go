package sheetstream

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocLinks: every relative link of the README and the guides points at
// a file that exists, and every #anchor at a heading of that file, so the
// front page's links to the guides keep working as they move.
func TestDocLinks(t *testing.T) {
	pages, _ := filepath.Glob("docs/*.md")
	pages = append(pages, "README.md", "CHANGELOG.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s links to %s, which does not exist", page, target)
					continue
				}
			}
			if anchor != "" && !hasAnchor(t, path, anchor) {
				t.Errorf("%s links to %s: %s has no heading with that anchor", page, target, path)
			}
		}
	}
	b, _ := os.ReadFile("README.md")
	if n := strings.Count(string(b), "\n"); n > 200 {
		t.Errorf("README.md has %d lines; it is the front page (at most 200), the manual is in docs/", n)
	}
}

// hasAnchor reports whether a Markdown file has a heading whose GitHub
// anchor is anchor: lower case, spaces as hyphens, punctuation dropped.
func hasAnchor(t *testing.T, path, anchor string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		var id strings.Builder
		for _, r := range h {
			switch {
			case r == ' ':
				id.WriteByte('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
				id.WriteRune(r)
			}
		}
		if id.String() == anchor {
			return true
		}
	}
	return false
}
