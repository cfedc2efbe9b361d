package xlsx

import (
	"fmt"
	"path"
	"strings"

	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

// Relationship type suffixes the reader follows. Transitional and Strict
// OOXML differ only in the namespace before them.
const (
	relOfficeDocument     = "/officeDocument"
	relExtendedProperties = "/extended-properties"
	relWorksheet          = "/worksheet"
	relChartsheet         = "/chartsheet"
	relDialogsheet        = "/dialogsheet"
	relMacrosheet         = "/xlMacrosheet"
	relStyles             = "/styles"
	relSharedStrings      = "/sharedStrings"
	relHyperlink          = "/hyperlink"
	relCustomXML          = "/customXml"
)

type relationship struct {
	id, typ, target string
	external        bool
}

type relationships []relationship

// target is the part named by the first relationship of the given type.
func (rs relationships) target(typeSuffix string) string {
	for _, r := range rs {
		if !r.external && strings.HasSuffix(r.typ, typeSuffix) {
			return r.target
		}
	}
	return ""
}

func (rs relationships) byID(id string) (relationship, bool) {
	for _, r := range rs {
		if r.id == id {
			return r, true
		}
	}
	return relationship{}, false
}

// relsPart is where the relationships of source live: beside it in a
// _rels folder ("" is the package itself).
func relsPart(source string) string {
	if source == "" {
		return "_rels/.rels"
	}
	return path.Join(path.Dir(source), "_rels", path.Base(source)+".rels")
}

// readRels reads the relationships of source, with internal targets
// resolved to part names.
func (wb *Workbook) readRels(source string) (relationships, error) {
	name := relsPart(source)
	buf, err := wb.readPart(name)
	if err != nil {
		return nil, err
	}
	var rs relationships
	sc := wb.scanner(buf)
	var scratch []byte
	attr := func(n string) string {
		v, _ := sc.Attr(n)
		scratch, _ = xmlscan.DecodeAttr(scratch[:0], v)
		return string(scratch)
	}
	for k := sc.Next(); k != xmlscan.EOF; k = sc.Next() {
		if (k == xmlscan.Start || k == xmlscan.Empty) && sc.Is("Relationship") {
			r := relationship{id: attr("Id"), typ: attr("Type"), target: attr("Target")}
			r.external = strings.EqualFold(attr("TargetMode"), "External")
			if !r.external {
				r.target = resolve(source, r.target)
			}
			rs = append(rs, r)
		}
	}
	if err := sc.Err(); err != nil {
		return rs, wb.errorf(name, fmt.Errorf("%w: %w", ErrMalformed, err))
	}
	return rs, nil
}
