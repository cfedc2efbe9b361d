package xlsx

// What several of the package's internal test files share: packages built
// by hand, and every cell of a sheet read as text.

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
)

// pkg builds a package by hand from part names and contents, for files
// our writer would never make.
func pkg(t testing.TB, parts map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range slices.Sorted(maps.Keys(parts)) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(parts[name]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// minimal returns the parts of a one-sheet workbook around sheet XML.
func minimal(sheetData string, extra map[string]string) map[string]string {
	parts := map[string]string{
		"[Content_Types].xml": `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
		"_rels/.rels":         `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml":     `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
			`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>` +
			`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
		"xl/worksheets/sheet1.xml": `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` + sheetData + `</sheetData></worksheet>`,
	}
	for k, v := range extra {
		if v == "" {
			delete(parts, k)
		} else {
			parts[k] = v
		}
	}
	return parts
}

// readAll reads every row of the first sheet as "A1=type:text" strings.
func readAll(t testing.TB, data []byte, opts ReadOptions) ([]string, error) {
	t.Helper()
	wb, err := NewReader(bytes.NewReader(data), int64(len(data)), opts)
	if err != nil {
		return nil, err
	}
	rows, err := wb.Rows(context.Background(), 0)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		r := rows.Row()
		for i := range r.Cells {
			c := &r.Cells[i]
			out = append(out, fmt.Sprintf("%s=%s:%s", CellName(r.Num, c.Col()), c.Type(), c.String()))
		}
	}
	return out, rows.Err()
}
