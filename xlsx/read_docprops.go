package xlsx

import (
	"strings"

	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

// readApplication reads the producer from the extended properties part:
// Application, then AppVersion when given. A damaged part gives "".
func (wb *Workbook) readApplication(part string) string {
	buf, err := wb.readPart(part)
	if err != nil {
		return ""
	}
	sc := wb.scanner(buf)
	var app, version string
	var scratch []byte
	for k := sc.Next(); k != xmlscan.EOF; k = sc.Next() {
		if k != xmlscan.Start {
			continue
		}
		switch {
		case sc.Is("Application"):
			app = strings.TrimSpace(string(sc.Content(&scratch)))
		case sc.Is("AppVersion"):
			version = strings.TrimSpace(string(sc.Content(&scratch)))
		}
		scratch = scratch[:0]
	}
	if version != "" && app != "" {
		return app + " " + version
	}
	return app
}
