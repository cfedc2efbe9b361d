package xlsx

// Element names by namespace, not by prefix. A part may bind any prefix
// to its namespace: Excel writes a chart's series as <c:f>, openpyxl as
// <f> in the default namespace, .NET's Open XML SDK a table as <x:table>.
// The template writer's patterns name elements with § for "the prefix
// this part binds to the namespace, and its colon".

import (
	"regexp"
	"strings"
	"sync"
)

// The chart namespace (nsMain, SpreadsheetML's, is write_xml.go's).
const nsChart = "http://schemas.openxmlformats.org/drawingml/2006/chart"

var xmlnsRe = regexp.MustCompile(`\bxmlns(?::([A-Za-z_][\w.-]*))?\s*=\s*["']([^"']*)["']`)

// nsPrefix is the prefix part x binds to namespace uri, with its colon
// ("c:"), or "" where uri is the default namespace. Declarations are read
// from the part's start (the root element and the first elements, where
// every writer puts them); without one, the conventional prefix.
func nsPrefix(x []byte, uri, conventional string) string {
	head := x[:min(len(x), 64<<10)]
	for _, m := range xmlnsRe.FindAllSubmatch(head, -1) {
		if string(m[2]) != uri {
			continue
		}
		if len(m[1]) == 0 {
			return ""
		}
		return string(m[1]) + ":"
	}
	return conventional
}

// nsPattern is a pattern whose § stands for a part's prefix; it compiles
// once per prefix met.
type nsPattern struct {
	pattern string
	mu      sync.Mutex
	by      map[string]*regexp.Regexp
}

func newNSPattern(pattern string) *nsPattern { return &nsPattern{pattern: pattern} }

// with is the pattern for prefix ("c:", or "" for the default
// namespace).
func (p *nsPattern) with(prefix string) *regexp.Regexp {
	p.mu.Lock()
	defer p.mu.Unlock()
	if re := p.by[prefix]; re != nil {
		return re
	}
	if p.by == nil {
		p.by = map[string]*regexp.Regexp{}
	}
	re := regexp.MustCompile(strings.ReplaceAll(p.pattern, "§", regexp.QuoteMeta(prefix)))
	p.by[prefix] = re
	return re
}
