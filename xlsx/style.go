package xlsx

import (
	"fmt"
	"strings"
)

// Color is an RGB colour as hex, "RRGGBB" (or "#RRGGBB", or "AARRGGBB").
// The empty Color means the default.
type Color string

// argb returns the colour as Excel stores it, "FFRRGGBB".
func (c Color) argb() (string, error) {
	s := strings.TrimPrefix(string(c), "#")
	if len(s) == 6 {
		s = "FF" + s
	}
	if len(s) != 8 {
		return "", fmt.Errorf("%w: colour %q is not RRGGBB hex", ErrStyle, string(c))
	}
	for _, ch := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", ch) {
			return "", fmt.Errorf("%w: colour %q is not RRGGBB hex", ErrStyle, string(c))
		}
	}
	return strings.ToUpper(s), nil
}

// Underline is how text is underlined.
type Underline uint8

// Underline styles.
const (
	UnderlineNone Underline = iota
	UnderlineSingle
	UnderlineDouble
	UnderlineSingleAccounting
	UnderlineDoubleAccounting
)

// Script raises or lowers text: superscript and subscript (a font's
// vertAlign in the file; a cell's vertical alignment is VAlign).
type Script uint8

// Script positions.
const (
	ScriptBaseline Script = iota
	ScriptSuperscript
	ScriptSubscript
)

// Font describes a font. Zero fields take Excel's default (Calibri 11,
// automatic colour).
type Font struct {
	Name      string
	Size      float64
	Bold      bool
	Italic    bool
	Strike    bool
	Underline Underline
	Script    Script
	Color     Color
}

// Pattern is a fill pattern.
type Pattern string

// Fill patterns. PatternSolid is the usual background colour.
const (
	PatternNone            Pattern = ""
	PatternSolid           Pattern = "solid"
	PatternGray125         Pattern = "gray125"
	PatternGray0625        Pattern = "gray0625"
	PatternDarkGray        Pattern = "darkGray"
	PatternMediumGray      Pattern = "mediumGray"
	PatternLightGray       Pattern = "lightGray"
	PatternDarkHorizontal  Pattern = "darkHorizontal"
	PatternDarkVertical    Pattern = "darkVertical"
	PatternDarkDown        Pattern = "darkDown"
	PatternDarkUp          Pattern = "darkUp"
	PatternDarkGrid        Pattern = "darkGrid"
	PatternDarkTrellis     Pattern = "darkTrellis"
	PatternLightHorizontal Pattern = "lightHorizontal"
	PatternLightVertical   Pattern = "lightVertical"
	PatternLightDown       Pattern = "lightDown"
	PatternLightUp         Pattern = "lightUp"
	PatternLightGrid       Pattern = "lightGrid"
	PatternLightTrellis    Pattern = "lightTrellis"
)

// Fill is a cell background. Color is the pattern's foreground (the
// colour of a solid fill), Background the colour between pattern dots.
type Fill struct {
	Pattern    Pattern
	Color      Color
	Background Color
}

// LineStyle is a border line style.
type LineStyle string

// Border line styles.
const (
	LineNone             LineStyle = ""
	LineThin             LineStyle = "thin"
	LineMedium           LineStyle = "medium"
	LineThick            LineStyle = "thick"
	LineDashed           LineStyle = "dashed"
	LineDotted           LineStyle = "dotted"
	LineDouble           LineStyle = "double"
	LineHair             LineStyle = "hair"
	LineMediumDashed     LineStyle = "mediumDashed"
	LineDashDot          LineStyle = "dashDot"
	LineMediumDashDot    LineStyle = "mediumDashDot"
	LineDashDotDot       LineStyle = "dashDotDot"
	LineMediumDashDotDot LineStyle = "mediumDashDotDot"
	LineSlantDashDot     LineStyle = "slantDashDot"
)

// BorderLine is one side of a border: its line style and colour.
type BorderLine struct {
	Style LineStyle
	Color Color
}

// Border is a cell's border.
type Border struct {
	Left, Right, Top, Bottom BorderLine
	Diagonal                 BorderLine
	DiagonalUp, DiagonalDown bool
}

// HAlign is horizontal alignment.
type HAlign string

// Horizontal alignments.
const (
	HAlignGeneral          HAlign = ""
	HAlignLeft             HAlign = "left"
	HAlignCenter           HAlign = "center"
	HAlignRight            HAlign = "right"
	HAlignFill             HAlign = "fill"
	HAlignJustify          HAlign = "justify"
	HAlignCenterContinuous HAlign = "centerContinuous"
	HAlignDistributed      HAlign = "distributed"
)

// VAlign is vertical alignment.
type VAlign string

// Vertical alignments.
const (
	VAlignBottom      VAlign = ""
	VAlignTop         VAlign = "top"
	VAlignCenter      VAlign = "center"
	VAlignJustify     VAlign = "justify"
	VAlignDistributed VAlign = "distributed"
)

// Alignment places text in a cell.
type Alignment struct {
	Horizontal  HAlign
	Vertical    VAlign
	Wrap        bool
	ShrinkToFit bool
	Indent      uint8
	// Rotation is in degrees, -90..90, or 255 for vertical stacked text.
	Rotation int16
}

// Style is everything a cell's look is made of. Register one with
// Writer.AddStyle; equal styles share one entry in the file.
type Style struct {
	Font      Font
	Fill      Fill
	Border    Border
	Alignment Alignment
	// NumFmt is a number format code such as "0.00", "#,##0",
	// "yyyy-mm-dd" or "[h]:mm:ss"; "" is General. Excel's built-in
	// formats are recognised and referenced by their id.
	NumFmt string
	// Protection takes effect when the sheet is protected
	// (SheetOptions.Protect).
	Protection CellProtection
}

// CellProtection says what a protected sheet allows for a cell. Cells
// are locked by default: Unlocked cells can be edited, the input cells
// of a form; Hidden cells do not show their formulas.
type CellProtection struct {
	Unlocked, Hidden bool
}
