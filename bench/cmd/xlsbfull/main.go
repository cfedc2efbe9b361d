// xlsbfull [-repeat N] IN.xlsb OUT.xlsb rewrites a workbook's short cell
// records (BrtShortRk, BrtShortSt, ... 12-18, which SheetJS and Excel
// 2016 write for a cell right after another in its row) as the full cell
// records with their column (BrtCellRk, BrtCellSt, ... 1-7), so that
// readers that skip short records, calamine among them, see every cell:
// the legacy benchmark then compares readers on the same cells. With
// -repeat N each sheet's rows are written N times, one copy under the
// other, and its dimension says so: a large .xlsb from a small one that
// a real writer made.
package main

import (
	"archive/zip"
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	repeat := flag.Int("repeat", 1, "write each sheet's rows this many times")
	flag.Parse()
	if flag.NArg() != 2 || *repeat < 1 {
		fmt.Fprintln(os.Stderr, "usage: xlsbfull [-repeat N] IN.xlsb OUT.xlsb")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), flag.Arg(1), *repeat); err != nil {
		fmt.Fprintln(os.Stderr, "xlsbfull:", err)
		os.Exit(1)
	}
}

func run(in, out string, repeat int) error {
	zr, err := zip.OpenReader(in)
	if err != nil {
		return err
	}
	defer zr.Close()
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	for _, file := range zr.File {
		rc, err := file.Open()
		if err != nil {
			return err
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: file.Name, Method: zip.Deflate})
		if err != nil {
			return err
		}
		if strings.HasPrefix(file.Name, "xl/worksheets/") && strings.HasSuffix(file.Name, ".bin") {
			err = rewrite(bufio.NewReader(rc), w, repeat)
		} else {
			_, err = io.Copy(w, rc)
		}
		rc.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", file.Name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}

func varint(r *bufio.Reader, n int) (int, error) {
	v := 0
	for i := range n {
		b, err := r.ReadByte()
		if err != nil {
			return 0, err
		}
		v |= int(b&0x7f) << (7 * i)
		if b&0x80 == 0 {
			break
		}
	}
	return v, nil
}

func putVarint(b []byte, v int) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v > 0 {
			c |= 0x80
		}
		b = append(b, c)
		if v == 0 {
			return b
		}
	}
}

// Record types this rewrite looks at.
const (
	rowHeader      = 0
	beginSheetData = 145
	endSheetData   = 146
	sheetDimension = 148
)

// rewrite copies records, giving short cells their column, and writes
// the rows repeat times.
func rewrite(r *bufio.Reader, w io.Writer, repeat int) error {
	bw := bufio.NewWriter(w)
	col := -1
	var head []byte
	var rows [][2]any // the sheet data's records, to write again
	inData := false
	rowCount := 0
	emit := func(typ int, body []byte) {
		head = putVarint(head[:0], typ)
		head = putVarint(head, len(body))
		bw.Write(head)
		bw.Write(body)
	}
	for {
		typ, err := varint(r, 2)
		if err == io.EOF {
			return bw.Flush()
		}
		if err != nil {
			return err
		}
		size, err := varint(r, 4)
		if err != nil {
			return err
		}
		body := make([]byte, size)
		if _, err := io.ReadFull(r, body); err != nil {
			return err
		}
		switch {
		case typ == rowHeader:
			col = -1
			if size >= 4 {
				rowCount = max(rowCount, int(binary.LittleEndian.Uint32(body))+1)
			}
		case typ >= 1 && typ <= 11 && size >= 4: // full cells
			col = int(binary.LittleEndian.Uint32(body))
		case typ >= 12 && typ <= 18: // short cells: the next column
			col++
			body = append(binary.LittleEndian.AppendUint32(nil, uint32(col)), body...)
			typ -= 11
		case typ == sheetDimension && size >= 8 && repeat > 1:
			last := binary.LittleEndian.Uint32(body[4:])
			binary.LittleEndian.PutUint32(body[4:], (last+1)*uint32(repeat)-1)
		case typ == beginSheetData:
			inData = true
		case typ == endSheetData:
			inData = false
			for copy := 1; copy < repeat; copy++ {
				for _, rec := range rows {
					typ, body := rec[0].(int), rec[1].([]byte)
					if typ == rowHeader {
						body = append([]byte{}, body...)
						row := binary.LittleEndian.Uint32(body)
						binary.LittleEndian.PutUint32(body, row+uint32(copy*rowCount))
					}
					emit(typ, body)
				}
			}
			rows = nil
		}
		if inData && typ != beginSheetData && repeat > 1 {
			rows = append(rows, [2]any{typ, body})
		}
		emit(typ, body)
	}
}
