package xlsx

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Image is a picture placed over a sheet's cells: PNG, JPEG, GIF or BMP
// bytes (the format is read from them). The same bytes used again are
// stored once in the workbook. Add one with Sheet.AddImage.
type Image struct {
	Data []byte
	// Name is shown as the picture's description when AltText is empty
	// (Excel puts the file's name there).
	Name    string
	AltText string
	// OffsetX and OffsetY move the picture right and down from its
	// cell's top-left corner, in pixels.
	OffsetX, OffsetY float64
	// ScaleX and ScaleY resize it (0 is 1).
	ScaleX, ScaleY float64
	// Placement says how the picture follows its cells.
	Placement ImagePlacement
	// URL makes the picture a link.
	URL string
}

// ImagePlacement is how a picture follows the cells under it.
type ImagePlacement uint8

// Image placements.
const (
	// ImageMove moves the picture with its cells but keeps its size, as
	// Excel does for an inserted picture.
	ImageMove ImagePlacement = iota
	// ImageMoveAndSize moves and sizes it with its cells.
	ImageMoveAndSize
	// ImageAbsolute leaves it in place whatever the cells do.
	ImageAbsolute
)

// imageInfo is what the bytes of an image say: its format (the media
// part's extension and content type) and size in pixels at 96 dpi.
type imageInfo struct {
	ext, contentType string
	width, height    float64
}

// readImage reads an image's format and size from its bytes.
func readImage(b []byte) (imageInfo, error) {
	var w, h, dpiX, dpiY float64
	info := imageInfo{}
	switch {
	case len(b) >= 24 && string(b[:8]) == "\x89PNG\r\n\x1a\n" && string(b[12:16]) == "IHDR":
		info.ext, info.contentType = "png", "image/png"
		w, h = float64(binary.BigEndian.Uint32(b[16:])), float64(binary.BigEndian.Uint32(b[20:]))
		for at := 8; at+12 <= len(b); {
			n := int(binary.BigEndian.Uint32(b[at:]))
			if n < 0 || at+12+n > len(b) {
				break
			}
			if string(b[at+4:at+8]) == "pHYs" && n >= 9 && b[at+16] == 1 { // per metre
				dpiX = float64(binary.BigEndian.Uint32(b[at+8:])) * 0.0254
				dpiY = float64(binary.BigEndian.Uint32(b[at+12:])) * 0.0254
			}
			if string(b[at+4:at+8]) == "IDAT" {
				break
			}
			at += 12 + n
		}
	case len(b) >= 4 && b[0] == 0xFF && b[1] == 0xD8:
		info.ext, info.contentType = "jpeg", "image/jpeg"
		for at := 2; at+4 <= len(b); {
			if b[at] != 0xFF {
				break
			}
			marker := b[at+1]
			n := int(binary.BigEndian.Uint16(b[at+2:]))
			if n < 2 || at+2+n > len(b) {
				break
			}
			seg := b[at+4 : at+2+n]
			switch {
			case marker == 0xE0 && len(seg) >= 12 && string(seg[:5]) == "JFIF\x00":
				x, y := float64(binary.BigEndian.Uint16(seg[8:])), float64(binary.BigEndian.Uint16(seg[10:]))
				switch seg[7] {
				case 1:
					dpiX, dpiY = x, y
				case 2:
					dpiX, dpiY = x*2.54, y*2.54
				}
			case marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC && len(seg) >= 5:
				h, w = float64(binary.BigEndian.Uint16(seg[1:])), float64(binary.BigEndian.Uint16(seg[3:]))
			}
			if w > 0 {
				break
			}
			at += 2 + n
		}
	case len(b) >= 10 && (string(b[:6]) == "GIF87a" || string(b[:6]) == "GIF89a"):
		info.ext, info.contentType = "gif", "image/gif"
		w, h = float64(binary.LittleEndian.Uint16(b[6:])), float64(binary.LittleEndian.Uint16(b[8:]))
	case len(b) >= 26 && string(b[:2]) == "BM":
		info.ext, info.contentType = "bmp", "image/bmp"
		w, h = float64(int32(binary.LittleEndian.Uint32(b[18:]))), math.Abs(float64(int32(binary.LittleEndian.Uint32(b[22:]))))
	default:
		return info, fmt.Errorf("%w: not a PNG, JPEG, GIF or BMP image", ErrImage)
	}
	if w <= 0 || h <= 0 || w > 1<<20 || h > 1<<20 {
		return info, fmt.Errorf("%w: a %s image of %gx%g pixels", ErrImage, info.ext, w, h)
	}
	if math.Round(dpiX) >= 1 && math.Round(dpiY) >= 1 {
		w, h = w*96/math.Round(dpiX), h*96/math.Round(dpiY)
	}
	info.width, info.height = w, h
	return info, nil
}
