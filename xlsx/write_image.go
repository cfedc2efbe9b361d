package xlsx

import (
	"crypto/sha256"
	"fmt"
	"math"
	"strconv"
)

// Pictures go in a sheet's drawing part, each placed from a cell with
// pixel offsets; their bytes go once each in the workbook's media parts,
// written when the workbook closes.

const emuPerPixel = 9525

// sheetImage is a picture with what its place needs.
type sheetImage struct {
	Image
	row, col      int // 1-based
	top           rowTop
	media         int // the workbook's media part, from 1
	width, height float64
}

// media is one picture's bytes, stored once.
type media struct {
	data []byte
	info imageInfo
}

// AddImage places a picture with its top-left corner in the cell at row
// and col (1-based), moved by the Image's offsets. The cell's row must be
// the last row written or a later one: the picture's place depends on the
// heights of the rows under it.
//
// Errors (in a *CellError, leaving the sheet and the Writer as they
// were): ErrImage for bytes that are not a PNG, JPEG, GIF or BMP image;
// ErrRange for a cell outside the sheet or on a row already passed,
// negative offsets or scales, an unknown placement, or alt text, name or
// URL that XML cannot carry.
func (s *Sheet) AddImage(row, col int, img Image) error {
	if err := s.check(); err != nil {
		return err
	}
	refuse := func(err error) error { return s.refuse(row, col, err) }
	switch {
	case row < 1 || row > MaxRows || col < 1 || col > MaxColumns:
		return refuse(fmt.Errorf("%w: a picture outside the sheet", ErrRange))
	case row < s.row:
		return refuse(fmt.Errorf("%w: a picture goes on the last row written (%d) or a later one", ErrRange, s.row))
	case img.OffsetX < 0 || img.OffsetY < 0 || img.ScaleX < 0 || img.ScaleY < 0 || math.IsNaN(img.OffsetX+img.OffsetY+img.ScaleX+img.ScaleY):
		return refuse(fmt.Errorf("%w: picture offsets and scales must be positive", ErrRange))
	case img.Placement > ImageAbsolute:
		return refuse(fmt.Errorf("%w: placement %d", ErrRange, img.Placement))
	case !validAttrText(img.Name) || !validAttrText(img.AltText) || !validAttrText(img.URL):
		return refuse(fmt.Errorf("%w: picture text XML cannot carry", ErrRange))
	}
	info, err := readImage(img.Data)
	if err != nil {
		return refuse(err)
	}
	si := sheetImage{Image: img, row: row, col: col, top: s.topOf(row)}
	si.Data = nil // the workbook keeps the bytes
	sx, sy := img.ScaleX, img.ScaleY
	if sx == 0 {
		sx = 1
	}
	if sy == 0 {
		sy = 1
	}
	si.width, si.height = info.width*sx, info.height*sy
	s.trackHeights(row)
	s.w.lockShared()
	si.media = s.w.addMedia(img.Data, info)
	if s.drawing == 0 {
		s.w.drawings++
		s.drawing = s.w.drawings
	}
	s.w.unlockShared()
	s.images = append(s.images, si)
	return nil
}

// addMedia stores a picture's bytes once and returns its media part's
// number.
func (w *Writer) addMedia(data []byte, info imageInfo) int {
	sum := sha256.Sum256(data)
	if n, ok := w.mediaIndex[sum]; ok {
		return n
	}
	if w.mediaIndex == nil {
		w.mediaIndex = map[[32]byte]int{}
	}
	w.media = append(w.media, media{data: append([]byte(nil), data...), info: info})
	n := len(w.media)
	w.mediaIndex[sum] = n
	return n
}

// mediaParts are the workbook's pictures.
func (w *Writer) mediaParts() []packagePart {
	parts := make([]packagePart, len(w.media))
	for i, m := range w.media {
		parts[i] = packagePart{mediaName(i+1, m.info.ext), m.data}
	}
	return parts
}

func mediaName(n int, ext string) string { return "xl/media/image" + strconv.Itoa(n) + "." + ext }

// drawingParts are the sheet's drawing and its relationships.
func (s *Sheet) drawingParts() []packagePart {
	n := strconv.Itoa(s.drawing)
	b := []byte(xmlHeader + `<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">`)
	var rels relsWriter
	mediaRel := map[int]int{}
	for i := range s.images {
		img := &s.images[i]
		left, top := img.OffsetX, img.top.px(s)+img.OffsetY
		for c := 1; c < img.col; c++ {
			left += s.columnPx(c)
		}
		editAs := [...]string{ImageMove: "oneCell", ImageMoveAndSize: "", ImageAbsolute: "absolute"}[img.Placement]
		b = s.appendTwoCellAnchor(b, editAs, anchor{img.row, img.col, img.OffsetX, img.OffsetY, img.width, img.height})
		b = append(b, `<xdr:pic><xdr:nvPicPr>`...)
		b = appendIntAttr(append(b, `<xdr:cNvPr`...), "id", i+2)
		b = append(b, ` name="Picture `...)
		b = strconv.AppendInt(b, int64(i+1), 10)
		b = append(b, '"')
		descr := img.AltText
		if descr == "" {
			descr = img.Name
		}
		if descr != "" {
			b = appendStringAttr(b, "descr", descr)
		}
		if img.URL != "" {
			b = append(b, `><a:hlinkClick xmlns:r="`+nsRelations+`"`...)
			b = appendStringAttr(b, "r:id", "rId"+strconv.Itoa(rels.add("hyperlink", img.URL, true)))
			b = append(b, `/></xdr:cNvPr>`...)
		} else {
			b = append(b, "/>"...)
		}
		b = append(b, `<xdr:cNvPicPr><a:picLocks noChangeAspect="1"/></xdr:cNvPicPr></xdr:nvPicPr><xdr:blipFill><a:blip xmlns:r="`+nsRelations+`" r:embed="rId`...)
		r, ok := mediaRel[img.media]
		if !ok {
			m := s.w.media[img.media-1]
			r = rels.add("image", "../media/image"+strconv.Itoa(img.media)+"."+m.info.ext, false)
			mediaRel[img.media] = r
		}
		b = strconv.AppendInt(b, int64(r), 10)
		b = append(b, `"/><a:stretch><a:fillRect/></a:stretch></xdr:blipFill><xdr:spPr><a:xfrm><a:off`...)
		b = appendIntAttr(b, "x", emu(left))
		b = appendIntAttr(b, "y", emu(top))
		b = append(b, `/><a:ext`...)
		b = appendIntAttr(b, "cx", emu(img.width))
		b = appendIntAttr(b, "cy", emu(img.height))
		b = append(b, `/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr></xdr:pic><xdr:clientData/></xdr:twoCellAnchor>`...)
	}
	for j, sc := range s.charts {
		b = s.appendChartAnchor(b, sc, len(s.images)+j+2, j+1, rels.add("chart", "../charts/chart"+strconv.Itoa(sc.id)+".xml", false))
	}
	b = append(b, "</xdr:wsDr>"...)
	return []packagePart{{"xl/drawings/drawing" + n + ".xml", b}, {"xl/drawings/_rels/drawing" + n + ".xml.rels", rels.bytes()}}
}

// anchor is where a drawing object sits: its top-left cell, the offsets
// into it and its size, in pixels.
type anchor struct {
	row, col                  int
	offX, offY, width, height float64
}

// appendTwoCellAnchor opens a drawing object's anchor: from its cell moved
// by the offsets, to where its size ends, in the cells' sizes; editAs says
// how it follows them ("oneCell", "absolute", or "" to move and size).
func (s *Sheet) appendTwoCellAnchor(b []byte, editAs string, at anchor) []byte {
	fromCol, fromColOff := s.walkColumns(at.col, at.offX)
	fromRow, fromRowOff := s.walkRows(at.row, at.offY)
	toCol, toColOff := s.walkColumns(fromCol, fromColOff+at.width)
	toRow, toRowOff := s.walkRows(fromRow, fromRowOff+at.height)
	b = append(b, `<xdr:twoCellAnchor`...)
	if editAs != "" {
		b = appendStringAttr(b, "editAs", editAs)
	}
	b = append(b, '>')
	b = appendMarker(b, "from", fromCol, fromColOff, fromRow, fromRowOff)
	return appendMarker(b, "to", toCol, toColOff, toRow, toRowOff)
}

// walkColumns moves px pixels right from the left edge of column col,
// returning the column it lands in and the offset into it.
func (s *Sheet) walkColumns(col int, px float64) (int, float64) {
	for col < MaxColumns && px >= s.columnPx(col) {
		px -= s.columnPx(col)
		col++
	}
	return col, px
}

// walkRows moves px pixels down from the top of row.
func (s *Sheet) walkRows(row int, px float64) (int, float64) {
	for row < MaxRows && px >= s.rowPx(row) {
		px -= s.rowPx(row)
		row++
	}
	return row, px
}

func emu(px float64) int { return int(math.Round(px * emuPerPixel)) }

func appendMarker(b []byte, tag string, col int, colOff float64, row int, rowOff float64) []byte {
	b = append(append(append(b, "<xdr:"...), tag...), "><xdr:col>"...)
	b = strconv.AppendInt(b, int64(col-1), 10)
	b = append(b, "</xdr:col><xdr:colOff>"...)
	b = strconv.AppendInt(b, int64(emu(colOff)), 10)
	b = append(b, "</xdr:colOff><xdr:row>"...)
	b = strconv.AppendInt(b, int64(row-1), 10)
	b = append(b, "</xdr:row><xdr:rowOff>"...)
	b = strconv.AppendInt(b, int64(emu(rowOff)), 10)
	b = append(b, "</xdr:rowOff></xdr:"...)
	b = append(b, tag...)
	return append(b, '>')
}
