package xlsx

import (
	"fmt"
	"hash/crc32"
	"strconv"

	"github.com/klauspost/compress/flate"
)

const contentTypeBase = "application/vnd.openxmlformats-officedocument."

func appendOverride(b []byte, part, typ string) []byte {
	b = append(b, `<Override PartName="`...)
	b = append(b, part...)
	b = append(b, `" ContentType="`...)
	b = append(b, typ...)
	return append(b, `"/>`...)
}

func (w *Writer) contentTypes(hasSST bool) []byte {
	b := []byte(xmlHeader + `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
		`<Default Extension="xml" ContentType="application/xml"/>`)
	types := map[string]bool{}
	for _, m := range w.media {
		if !types[m.info.ext] {
			types[m.info.ext] = true
			b = append(b, `<Default Extension="`+m.info.ext+`" ContentType="`+m.info.contentType+`"/>`...)
		}
	}
	if w.noteSheets > 0 {
		b = append(b, `<Default Extension="vml" ContentType="`+contentTypeBase+`vmlDrawing"/>`...)
	}
	b = appendOverride(b, "/xl/workbook.xml", contentTypeBase+"spreadsheetml.sheet.main+xml")
	for _, s := range w.sheets {
		if s.chartSheet {
			b = appendOverride(b, "/xl/chartsheets/sheet"+strconv.Itoa(s.part)+".xml", contentTypeBase+"spreadsheetml.chartsheet+xml")
		} else {
			b = appendOverride(b, "/xl/worksheets/sheet"+strconv.Itoa(s.part)+".xml", contentTypeBase+"spreadsheetml.worksheet+xml")
		}
	}
	for _, sc := range w.charts {
		b = appendOverride(b, "/xl/charts/chart"+strconv.Itoa(sc.id)+".xml", contentTypeBase+"drawingml.chart+xml")
	}
	for _, s := range w.sheets {
		if s.drawing > 0 {
			b = appendOverride(b, "/xl/drawings/drawing"+strconv.Itoa(s.drawing)+".xml", contentTypeBase+"drawing+xml")
		}
	}
	for _, s := range w.sheets {
		if s.vmlIndex > 0 {
			b = appendOverride(b, "/xl/comments"+strconv.Itoa(s.vmlIndex)+".xml", contentTypeBase+"spreadsheetml.comments+xml")
		}
	}
	for _, part := range w.tableParts() {
		b = appendOverride(b, "/"+part, contentTypeBase+"spreadsheetml.table+xml")
	}
	for _, p := range w.pivots {
		n := strconv.Itoa(p.id)
		b = appendOverride(b, "/xl/pivotTables/pivotTable"+n+".xml", contentTypeBase+"spreadsheetml.pivotTable+xml")
		b = appendOverride(b, "/xl/pivotCache/pivotCacheDefinition"+n+".xml", contentTypeBase+"spreadsheetml.pivotCacheDefinition+xml")
		if p.spool != nil {
			b = appendOverride(b, "/xl/pivotCache/pivotCacheRecords"+n+".xml", contentTypeBase+"spreadsheetml.pivotCacheRecords+xml")
		}
	}
	b = appendOverride(b, "/xl/theme/theme1.xml", contentTypeBase+"theme+xml")
	b = appendOverride(b, "/xl/styles.xml", contentTypeBase+"spreadsheetml.styles+xml")
	if hasSST {
		b = appendOverride(b, "/xl/sharedStrings.xml", contentTypeBase+"spreadsheetml.sharedStrings+xml")
	}
	if w.dynamicArrays.Load() {
		b = appendOverride(b, "/xl/metadata.xml", contentTypeBase+"spreadsheetml.sheetMetadata+xml")
	}
	b = appendOverride(b, "/docProps/core.xml", "application/vnd.openxmlformats-package.core-properties+xml")
	b = appendOverride(b, "/docProps/app.xml", contentTypeBase+"extended-properties+xml")
	for i := range w.customXML {
		b = appendOverride(b, "/customXml/itemProps"+strconv.Itoa(i+1)+".xml", contentTypeBase+"customXmlProperties+xml")
	}
	return append(b, "</Types>"...)
}

// packagePart is a small part, written whole.
type packagePart struct {
	name string
	data []byte
}

// partError says which part could not be written.
func partError(name string, err error) error {
	return fmt.Errorf("writing %s: %w", name, err)
}

// writePart deflates a small part whole and adds it to the archive.
func (w *Writer) writePart(name string, data []byte) error {
	if err := w.loadErr(); err != nil {
		return err
	}
	if w.partFW == nil {
		fw, err := flate.NewWriter(nil, w.level)
		if err != nil {
			return w.fail(partError(name, err))
		}
		w.partFW = fw
	}
	w.partBuf.Reset()
	w.partFW.Reset(&w.partBuf)
	if _, err := w.partFW.Write(data); err != nil {
		return w.fail(partError(name, err))
	}
	if err := w.partFW.Close(); err != nil {
		return w.fail(partError(name, err))
	}
	crc := crc32.ChecksumIEEE(data)
	if err := w.zip.WriteFile(name, w.partBuf.Bytes(), crc, uint64(len(data))); err != nil {
		return w.fail(partError(name, err))
	}
	return nil
}

// writeSharedStrings streams the shared strings part, which may be large.
func (w *Writer) writeSharedStrings() error {
	entry, err := w.zip.Create("xl/sharedStrings.xml")
	if err != nil {
		return w.fail(partError("xl/sharedStrings.xml", err))
	}
	stream := w.pool.NewStream(entry)
	b, err := w.sst.writeTo(w.pool.Buffer(), w.pool.ChunkSize(), stream.Submit)
	if err != nil {
		stream.Abort()
		return w.fail(partError("xl/sharedStrings.xml", err))
	}
	crc, size, err := stream.Close(b)
	if err == nil {
		err = entry.Close(crc, size)
	}
	if err != nil {
		return w.fail(partError("xl/sharedStrings.xml", err))
	}
	return nil
}

// Abort discards the workbook instead of finishing it: the writer stops
// (later calls fail with ErrAborted), nothing more is written to the
// underlying io.Writer, and the buffers and temporary files the writer
// holds are released: concurrent sheets' output waiting in Options.TempDir
// and an encrypted package held back there. What the io.Writer already
// has is an incomplete file, not to be used. Abort after Close, or twice,
// does nothing. Call it on every path that does not end in Close, such as
// a failed or cancelled export.
func (w *Writer) Abort() {
	if w.closed {
		return
	}
	w.fail(ErrAborted)
	w.Close()
}

// Close finishes the last sheet, writes the workbook's remaining parts and
// the zip directory. It does not close the underlying io.Writer. A
// workbook with no sheets gets an empty "Sheet1", since Excel needs one.
//
// Errors: the Writer's first error, if any write failed before (the file
// is then incomplete and must not be used); ErrSheetName when every sheet
// is hidden; a defined name whose Sheet was never added; and errors of
// the underlying io.Writer, naming the part being written.
func (w *Writer) Close() error {
	if w.encrypted != nil {
		defer w.encrypted.discard()
	}
	if w.closed {
		return w.loadErr()
	}
	w.closed = true
	defer w.pool.Close()
	defer w.discardPivotRecords()
	if len(w.sheets) == 0 && w.loadErr() == nil {
		if _, err := w.addSheet("Sheet1", SheetOptions{}); err != nil {
			return err
		}
	}
	// Sheets still open are finished in order; after a failure this only
	// releases their buffers.
	for _, s := range w.sheets {
		s.Close()
	}
	if err := w.loadErr(); err != nil {
		return err
	}
	for _, ps := range w.pivotWatch {
		return w.fail(fmt.Errorf("%w %q: no sheet named %q, its source, was added", ErrPivot, ps[0].def.Name, ps[0].def.Source))
	}
	if w.activeSheet() < 0 {
		return w.fail(fmt.Errorf("%w: a workbook needs at least one visible sheet", ErrSheetName))
	}
	for _, n := range w.names {
		if n.Sheet != "" && w.sheetIndex(n.Sheet) < 0 {
			return w.fail(fmt.Errorf("defined name %q refers to unknown sheet %q", n.Name, n.Sheet))
		}
	}
	for _, s := range w.sheets {
		w.sst.refs += s.sstRefs
	}
	hasSST := len(w.sst.entries) > 0
	if hasSST {
		if err := w.writeSharedStrings(); err != nil {
			return err
		}
	}
	if err := w.writePivotRecords(); err != nil {
		return err
	}
	parts := []packagePart{
		{"xl/styles.xml", w.styles.xml()},
		{"xl/theme/theme1.xml", []byte(themeXML)},
		{"xl/workbook.xml", w.workbookXML()},
		{"xl/_rels/workbook.xml.rels", w.workbookRels(hasSST)},
		{"docProps/app.xml", w.appXML()},
		{"docProps/core.xml", w.coreXML()},
		{"_rels/.rels", []byte(packageRels)},
		{"[Content_Types].xml", w.contentTypes(hasSST)},
	}
	charts, err := w.chartParts()
	if err != nil {
		return w.fail(err)
	}
	parts = append(parts, charts...)
	for _, s := range w.sheets {
		if s.chartSheet {
			parts = append(parts, s.chartSheetParts()...)
		}
	}
	parts = append(parts, w.pivotParts()...)
	parts = append(parts, w.customXMLParts()...)
	parts = append(parts, w.mediaParts()...)
	if w.dynamicArrays.Load() {
		parts = append(parts, packagePart{"xl/metadata.xml", []byte(dynamicArrayMetadata)})
	}
	for _, p := range parts {
		if err := w.writePart(p.name, p.data); err != nil {
			return err
		}
	}
	if err := w.zip.Close(); err != nil {
		return w.fail(fmt.Errorf("writing the zip directory: %w", err))
	}
	if w.encrypted != nil {
		if err := w.encrypted.Close(); err != nil {
			return w.fail(fmt.Errorf("encrypting: %w", err))
		}
	}
	return nil
}

// dynamicArrayMetadata is the metadata part that marks formulas with
// cm="1" as dynamic arrays (MS-XLSX 2.6.99 and 2.3.8).
const dynamicArrayMetadata = xmlHeader + `<metadata xmlns="` + nsMain + `" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">` +
	`<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>` +
	`<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>` +
	`<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>`
