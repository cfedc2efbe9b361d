package xlsx_test

import (
	"strings"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Data validations' twins: rust_xlsxwriter's and XlsxWriter's tests.

func (s *sheetOf) validate(ref string, v xlsx.Validation) *sheetOf {
	return s.do(func(sh *xlsx.Sheet) error { return sh.AddValidation(rng(ref), v) })
}

var foobarbaz = []string{"Foo", "Bar", "Baz"}

var validationTwins = []twin{
	{file: "rust_xlsxwriter/data_validation01.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1").validate("C2", xlsx.Validation{Type: xlsx.ValidateList, List: foobarbaz}).err
	}},
	{file: "rust_xlsxwriter/data_validation02.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1").validate("C2", xlsx.Validation{Type: xlsx.ValidateList, List: foobarbaz,
			InputTitle: "This is the input title", InputMessage: "This is the input message"}).err
	}},
	{file: "rust_xlsxwriter/data_validation03.xlsx", build: func(w *xlsx.Writer) error {
		var long []string
		for a := 'a'; a <= 'c'; a++ {
			for b := 'a'; b <= 'z'; b++ {
				if choice := "Foob" + string(a) + string(b); choice >= "Foobar" && choice <= "Foobca" {
					long = append(long, choice)
				}
			}
		}
		return add(w, "Sheet1").
			validate("C2", xlsx.Validation{Type: xlsx.ValidateList, List: foobarbaz,
				InputTitle: "This is the input title", InputMessage: "This is the input message"}).
			validate("D6", xlsx.Validation{Type: xlsx.ValidateList, List: append(long, "End"),
				InputTitle: "This is the longest input title1", InputMessage: "This is the longest input message " + strings.Repeat("a", 221)}).err
	}},
	{file: "XlsxWriter/data_validation07.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1").validate("C2", xlsx.Validation{Type: xlsx.ValidateList, List: []string{"coffee", "café"}}).err
	}},
	{file: "XlsxWriter/data_validation08.xlsx", build: func(w *xlsx.Writer) error {
		return add(w, "Sheet1").validate("C2", xlsx.Validation{InputTitle: "This is the input title", InputMessage: "This is the input message"}).err
	}},
}
