package xlsx_test

import (
	"archive/zip"
	"io"
	"path/filepath"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Pictures' twins: rust_xlsxwriter's image tests. The pictures' bytes
// come from the twins themselves (their media parts).

// twinMedia reads a media part of a twin in testdata/excel.
func twinMedia(file, part string) []byte {
	zr, err := zip.OpenReader(filepath.Join("testdata", "excel", file))
	if err != nil {
		panic(err)
	}
	defer zr.Close()
	rc, err := zr.Open(part)
	if err != nil {
		panic(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		panic(err)
	}
	return b
}

func (s *sheetOf) image(ref string, img xlsx.Image) *sheetOf {
	return s.do(func(sh *xlsx.Sheet) error {
		row, col, err := xlsx.ParseCellName(ref)
		if err != nil {
			return err
		}
		return sh.AddImage(row, col, img)
	})
}

// imageTwin places the twin's own picture at ref, with the rows of
// heights (from row 2) and the column widths (from column 3) the test
// sets.
func imageTwin(file, media, name, ref string, offX, offY float64, widths []float64, heights ...float64) twin {
	return twin{file: file, build: func(w *xlsx.Writer) error {
		s := add(w, "Sheet1")
		for first := 0; first < len(widths); {
			last := first
			for last+1 < len(widths) && widths[last+1] == widths[first] {
				last++
			}
			s.do(func(sh *xlsx.Sheet) error {
				return sh.SetColumn(3+first, 3+last, xlsx.ColumnOptions{Width: inverseWidth(widths[first])})
			})
			first = last + 1
		}
		img := xlsx.Image{Data: twinMedia(file, media), Name: name, OffsetX: offX, OffsetY: offY}
		if name == "grey.png" {
			img.ScaleX, img.ScaleY = 0.5, 0.5 // as image08 shrinks it
		}
		s.image(ref, img)
		for i, h := range heights {
			s.rowAt(xlsx.CellName(i+2, 1), &xlsx.RowOptions{Height: h})
		}
		return s.err
	}}
}

var imageTwins = []twin{
	imageTwin("rust_xlsxwriter/image01.xlsx", "xl/media/image1.png", "red.png", "E9", 0, 0, nil),
	imageTwin("rust_xlsxwriter/image02.xlsx", "xl/media/image1.png", "yellow.png", "D7", 1, 2, nil),
	imageTwin("rust_xlsxwriter/image03.xlsx", "xl/media/image1.jpeg", "red.jpg", "E9", 0, 0, nil),
	imageTwin("rust_xlsxwriter/image08.xlsx", "xl/media/image1.png", "grey.png", "B3", 0, 0, nil),
	imageTwin("rust_xlsxwriter/image09.xlsx", "xl/media/image1.png", "red_64x20.png", "E9", 0, 0, nil),
	imageTwin("rust_xlsxwriter/image10.xlsx", "xl/media/image1.png", "logo.png", "C2", 0, 0, nil),
	imageTwin("rust_xlsxwriter/image11.xlsx", "xl/media/image1.png", "logo.png", "C2", 8, 5, nil),
	imageTwin("rust_xlsxwriter/image12.xlsx", "xl/media/image1.png", "logo.png", "C2", 0, 0, []float64{32.7109375}, 75),
	imageTwin("rust_xlsxwriter/image13.xlsx", "xl/media/image1.png", "logo.png", "C2", 8, 5, []float64{32.7109375}, 75),
	imageTwin("rust_xlsxwriter/image14.xlsx", "xl/media/image1.png", "logo.png", "C2", 0, 0, []float64{4, 4, 4, 11.42578125}, 4.5, 35.25),
	imageTwin("rust_xlsxwriter/image15.xlsx", "xl/media/image1.png", "logo.png", "C2", 13, 2, []float64{4, 4, 4, 11.42578125}, 4.5, 35.25),
	imageTwin("rust_xlsxwriter/image16.xlsx", "xl/media/image1.png", "issue32.png", "C2", 0, 0, nil),
	imageTwin("rust_xlsxwriter/image17.xlsx", "xl/media/image1.png", "issue32.png", "C2", 0, 0, []float64{18.7109375}, 96),
	imageTwin("rust_xlsxwriter/image18.xlsx", "xl/media/image1.png", "issue32.png", "C2", 5, 5, []float64{18.7109375}, 96),
	imageTwin("rust_xlsxwriter/image19.xlsx", "xl/media/image1.jpeg", "train.jpg", "C2", 0, 0, nil),
}

// anchorTwin is one of XlsxWriter's image_anchor tests: a picture in a
// placement.
func anchorTwin(n, media, name, ref string, off float64, placement xlsx.ImagePlacement) twin {
	file := "XlsxWriter/image_anchor" + n + ".xlsx"
	return twin{file: file, build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1").image(ref, xlsx.Image{Data: twinMedia(file, media), Name: name, OffsetX: off, OffsetY: 2 * off, Placement: placement}).err
	}}
}

// imageAnchorTwins: one picture, each way it can follow its cells.
var imageAnchorTwins = []twin{
	anchorTwin("01", "xl/media/image1.png", "red.png", "E9", 0, xlsx.ImageAbsolute),
	anchorTwin("02", "xl/media/image1.png", "red.png", "E9", 0, xlsx.ImageMove),
	anchorTwin("03", "xl/media/image1.png", "red.png", "E9", 0, xlsx.ImageMoveAndSize),
	anchorTwin("04", "xl/media/image1.png", "yellow.png", "D7", 1, xlsx.ImageAbsolute),
	anchorTwin("05", "xl/media/image1.png", "yellow.png", "D7", 1, xlsx.ImageMove),
	anchorTwin("06", "xl/media/image1.png", "yellow.png", "D7", 1, xlsx.ImageMoveAndSize),
}
