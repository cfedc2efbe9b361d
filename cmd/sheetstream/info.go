package main

import (
	"encoding/json"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/sheetstream/sheetstream/xlsx"
)

// sheetSummary is what info reports of one sheet.
type sheetSummary struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	State     string `json:"state"`
	Dimension string `json:"dimension,omitempty"` // as the sheet declares it
	UsedRange string `json:"used_range,omitempty"`
	Rows      int    `json:"rows"`  // rows with cells
	Cols      int    `json:"cols"`  // last column with a cell
	Cells     int    `json:"cells"` // non-empty cells
	Merged    int    `json:"merged_ranges"`
	Links     int    `json:"hyperlinks"`
	Error     string `json:"error,omitempty"`
}

type workbookSummary struct {
	File         string         `json:"file"`
	Format       string         `json:"format"`
	Producer     string         `json:"producer,omitempty"`
	Encryption   string         `json:"encryption,omitempty"`
	Date1904     bool           `json:"date1904"`
	DefinedNames int            `json:"defined_names"`
	Sheets       []sheetSummary `json:"sheets"`
}

func infoCmd() *cobra.Command {
	var (
		asJSON bool
		pw     password
	)
	cmd := &cobra.Command{
		Use:   "info FILE.xlsx|.xlsm|.xlsb|.xls|.ods|-",
		Short: "Describe a workbook: sheets, visibility, sizes, producer",
		Long: `Describe a workbook: its producer (docProps/app.xml), date system, and for
each sheet its kind, visibility, declared dimension, the range its cells
really use, and counts of rows, columns, cells, merged ranges and links.
Every sheet is read to count them.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			wb, closeWB, err := openWorkbook(args[0], xlsx.ReadOptions{}, os.Stdin, &pw)
			if err != nil {
				return err
			}
			defer closeWB()
			sum := workbookSummary{File: args[0], Format: formatName(wb.Format()), Producer: wb.Application(), Encryption: wb.Encryption(), Date1904: wb.Date1904(), DefinedNames: len(wb.DefinedNames())}
			var firstErr error
			for _, s := range wb.Sheets() {
				ss, err := summarize(cmd, wb, s)
				if err != nil {
					ss.Error = err.Error()
					if firstErr == nil {
						firstErr = err
					}
				}
				sum.Sheets = append(sum.Sheets, ss)
			}
			if asJSON {
				enc := json.NewEncoder(os.Stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(sum); err != nil {
					return err
				}
			} else {
				printSummary(sum)
			}
			return firstErr
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	pw.readFlags(cmd)
	return cmd
}

func summarize(cmd *cobra.Command, wb *xlsx.Workbook, s xlsx.SheetInfo) (sheetSummary, error) {
	ss := sheetSummary{Name: s.Name, Kind: s.Kind.String(), State: s.State.String()}
	rows, err := wb.Rows(cmd.Context(), s.Index)
	if err != nil {
		return ss, err
	}
	defer rows.Close()
	used := xlsx.Range{}
	for rows.Next() {
		r := rows.Row()
		ss.Rows++
		ss.Cells += len(r.Cells)
		first, last := r.Cells[0].Col(), r.Cells[len(r.Cells)-1].Col()
		if used.FirstRow == 0 {
			used = xlsx.Range{FirstRow: r.Num, FirstCol: first, LastRow: r.Num, LastCol: last}
		}
		used.FirstCol = min(used.FirstCol, first)
		used.LastCol = max(used.LastCol, last)
		used.LastRow = r.Num
	}
	if d, ok := rows.Dimension(); ok {
		ss.Dimension = d.String()
	}
	if used.FirstRow > 0 {
		ss.UsedRange = used.String()
		ss.Cols = used.LastCol
	}
	ss.Merged, ss.Links = len(rows.MergedCells()), len(rows.Hyperlinks())
	return ss, rows.Err()
}

// formatName says which format a workbook was read from, as people name
// them.
func formatName(f xlsx.Format) string {
	switch f {
	case xlsx.FormatXLSB:
		return "xlsb (Excel binary workbook)"
	case xlsx.FormatXLS:
		return "xls (Excel 97-2003)"
	case xlsx.FormatODS:
		return "ods (OpenDocument spreadsheet)"
	}
	return "xlsx (Office Open XML)"
}

func printSummary(sum workbookSummary) {
	fmt.Printf("file:      %s\n", sum.File)
	fmt.Printf("format:    %s\n", sum.Format)
	if sum.Producer != "" {
		fmt.Printf("producer:  %s\n", sum.Producer)
	}
	if sum.Encryption != "" {
		fmt.Printf("encrypted: %s\n", sum.Encryption)
	}
	system := "1900"
	if sum.Date1904 {
		system = "1904"
	}
	fmt.Printf("dates:     %s system\n", system)
	fmt.Printf("names:     %d defined\n", sum.DefinedNames)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tsheet\tkind\tstate\tdimension\tused\trows\tcols\tcells\tmerged\tlinks\t")
	for i, s := range sum.Sheets {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\n", i+1, s.Name, s.Kind, s.State,
			dash(s.Dimension), dash(s.UsedRange), s.Rows, s.Cols, s.Cells, s.Merged, s.Links, s.Error)
	}
	tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
