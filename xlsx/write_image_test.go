package xlsx_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

// testPicture encodes a w x h picture in a format.
func testPicture(t *testing.T, format string, w, h int) []byte {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, w, h), []color.Color{color.White, color.RGBA{200, 30, 30, 255}})
	for x := range w {
		img.SetColorIndex(x, x%h, 1)
	}
	var buf bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&buf, img)
	case "jpeg":
		err = jpeg.Encode(&buf, img, nil)
	case "gif":
		err = gif.Encode(&buf, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestImages places PNG, JPEG and GIF pictures over streamed rows of
// mixed heights (one before its row, one with a link, the PNG twice,
// stored once) and reads them back with openpyxl, runs the validator,
// and has LibreOffice keep them.
func TestImages(t *testing.T) {
	logo, photo, anim := testPicture(t, "png", 120, 40), testPicture(t, "jpeg", 64, 48), testPicture(t, "gif", 30, 30)
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("Report", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		if err := sh.SetColumn(1, 1, xlsx.ColumnOptions{Width: 20}); err != nil {
			return err
		}
		if err := sh.AddImage(1, 1, xlsx.Image{Data: logo, AltText: "Company logo", OffsetX: 4, OffsetY: 2, URL: "https://example.com/"}); err != nil {
			return err
		}
		for i := 1; i <= 60; i++ {
			opts := xlsx.RowOptions{}
			if i%3 == 0 {
				opts.Height = 30
			}
			if err := sh.WriteRowWith([]xlsx.Cell{xlsx.Int(int64(i))}, opts); err != nil {
				return err
			}
			if i == 10 {
				if err := sh.AddImage(10, 3, xlsx.Image{Data: photo, Name: "photo.jpg", Placement: xlsx.ImageMoveAndSize}); err != nil {
					return err
				}
				if err := sh.AddImage(40, 2, xlsx.Image{Data: anim, Name: "dot.gif", ScaleX: 2, ScaleY: 2, Placement: xlsx.ImageAbsolute}); err != nil {
					return err
				}
				if err := sh.AddImage(50, 4, xlsx.Image{Data: logo, Name: "again.png"}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	var media []string
	zr, err := zip.NewReader(bytes.NewReader(book), int64(len(book)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "xl/media/") {
			media = append(media, f.Name)
		}
	}
	if strings.Join(media, " ") != "xl/media/image1.png xl/media/image2.jpeg xl/media/image3.gif" {
		t.Errorf("media parts %q (the PNG once)", media)
	}

	path, res := auditBook(t, "images.xlsx", book)
	dir := filepath.Dir(path)
	pics := res.Images["Report"]
	if len(pics) != 4 {
		t.Fatalf("%d pictures: %+v", len(pics), pics)
	}
	formats := []string{}
	for _, p := range pics {
		formats = append(formats, p.Format)
	}
	if strings.Join(formats, " ") != "png jpeg gif png" {
		t.Errorf("formats %q", formats)
	}
	// Row 40's top: 39 rows, 13 of them 30 points (40 pixels) high.
	if p := pics[2]; len(p.From) != 4 || p.From[0] != 1 || p.From[2] != 39 || p.EditAs == nil || *p.EditAs != "absolute" {
		t.Errorf("the GIF: %+v", p)
	}
	if p := pics[0]; len(p.From) != 4 || p.From[1] != 4*9525 || p.From[3] != 2*9525 {
		t.Errorf("the logo's offsets: %+v", p)
	}

	resaved := pyread.Resave(t, filepath.Join(dir, "lo"), path)[0]
	again := pyread.ReadValues(t, resaved)[resaved]
	if again == nil || again.Error != "" || len(again.Images["Report"]) != 4 {
		t.Errorf("LibreOffice's copy: %+v", again)
	}
}

// TestImageErrors: bytes that are no picture, and pictures on rows
// already passed, are refused with the Writer still usable.
func TestImageErrors(t *testing.T) {
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	defer w.Close()
	sh, _ := w.AddSheet("S", xlsx.SheetOptions{})
	for range 3 {
		sh.WriteRow([]xlsx.Cell{xlsx.Int(1)})
	}
	png := testPicture(t, "png", 4, 4)
	if err := sh.AddImage(3, 1, xlsx.Image{Data: []byte("GIF89a")}); !errors.Is(err, xlsx.ErrImage) {
		t.Errorf("a truncated GIF: %v", err)
	}
	if err := sh.AddImage(3, 1, xlsx.Image{Data: []byte("%PDF-1.7")}); !errors.Is(err, xlsx.ErrImage) {
		t.Errorf("a PDF: %v", err)
	}
	if err := sh.AddImage(1, 1, xlsx.Image{Data: png}); !errors.Is(err, xlsx.ErrRange) {
		t.Errorf("a passed row: %v", err)
	}
	if err := sh.AddImage(3, 1, xlsx.Image{Data: png, ScaleX: -1}); !errors.Is(err, xlsx.ErrRange) {
		t.Errorf("a negative scale: %v", err)
	}
	if err := sh.WriteRow([]xlsx.Cell{xlsx.Int(1)}); err != nil {
		t.Errorf("the Writer stopped: %v", err)
	}
}
