// xlsbfull IN.xlsb OUT.xlsb rewrites a workbook's short cell records
// (BrtShortRk, BrtShortSt, ... 12-18, which SheetJS and Excel 2016 write
// for a cell right after another in its row) as the full cell records
// with their column (BrtCellRk, BrtCellSt, ... 1-7), so that readers that
// skip short records, calamine among them, see every cell: the legacy
// benchmark then compares readers on the same cells.
package main

import (
	"archive/zip"
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: xlsbfull IN.xlsb OUT.xlsb")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "xlsbfull:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
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
			err = rewrite(bufio.NewReader(rc), w)
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

// rewrite copies records, giving short cells their column.
func rewrite(r *bufio.Reader, w io.Writer) error {
	bw := bufio.NewWriter(w)
	col := -1
	var head []byte
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
		case typ == 0: // a row starts
			col = -1
		case typ >= 1 && typ <= 11 && size >= 4: // full cells
			col = int(binary.LittleEndian.Uint32(body))
		case typ >= 12 && typ <= 18: // short cells: the next column
			col++
			body = append(binary.LittleEndian.AppendUint32(nil, uint32(col)), body...)
			typ -= 11
		}
		head = putVarint(head[:0], typ)
		head = putVarint(head, len(body))
		bw.Write(head)
		bw.Write(body)
	}
}
