// Package workload defines the benchmark workloads of bench/README.md, so
// every Go program writes identical values (the Python, Rust, C and Java
// programs follow the same definitions).
package workload

import (
	"fmt"
	"strconv"
)

// Kind of a cell value.
type Kind uint8

const (
	Int Kind = iota
	Float
	String
)

// Value is one cell: I for Int, F for Float, S for String.
type Value struct {
	Kind Kind
	I    int64
	F    float64
	S    string
}

// Workload describes a sheet: an optional header, Rows rows of Cols cells.
type Workload struct {
	Name   string
	Header []string
	Rows   int
	Cols   int
	// Fill sets row i into vals (len Cols), reusing buf for strings.
	Fill func(i int, vals []Value, buf []byte)
}

var w3Phrases = []string{"alpha & beta", "Café résumé", "x < y > z", "中文字符测试", "plain text value",
	"Tom & Jerry <b>", "naïve façade", "数据-data-mix"}

// ByName returns a workload; rows overrides the row count when > 0.
func ByName(name string, rows int) (Workload, error) {
	var w Workload
	switch name {
	case "W1":
		w = Workload{Name: name, Rows: 1_000_000, Cols: 10, Fill: fillW1}
		for j := range 10 {
			w.Header = append(w.Header, "col"+strconv.Itoa(j+1))
		}
	case "W2":
		w = Workload{Name: name, Rows: 100_000, Cols: 100, Fill: fillW2}
	case "W3":
		w = Workload{Name: name, Rows: 200_000, Cols: 10, Fill: fillW3}
	default:
		return w, fmt.Errorf("unknown workload %q (W1, W2, W3)", name)
	}
	if rows > 0 {
		w.Rows = rows
	}
	return w, nil
}

// Strings are built fresh per row: a real producer hands the writer new
// strings, so the benchmark includes that cost for every library alike.
func fillW1(i int, v []Value, _ []byte) {
	v[0] = Value{Kind: Int, I: int64(i)}
	v[1] = Value{Kind: Int, I: int64(i * 7 % 100000)}
	v[2] = Value{Kind: Int, I: int64(i * 13 % 1000)}
	v[3] = Value{Kind: Int, I: int64(i * 31 % 1000000)}
	v[4] = Value{Kind: Float, F: float64(i)*1.25 + 0.5}
	v[5] = Value{Kind: Float, F: float64(i%10000) / 100}
	v[6] = Value{Kind: Float, F: float64(i) / 7}
	v[7] = Value{Kind: String, S: "name-" + strconv.Itoa(i%1000)}
	v[8] = Value{Kind: String, S: "city-" + strconv.Itoa(i%50)}
	v[9] = Value{Kind: String, S: "x" + strconv.Itoa(i)}
}

func fillW2(i int, v []Value, _ []byte) {
	for j := range v {
		if j%2 == 0 {
			v[j] = Value{Kind: Int, I: int64(i*(j+1)) % 1000003}
		} else {
			v[j] = Value{Kind: Float, F: float64((i*j)%100000) / 100}
		}
	}
}

func fillW3(i int, v []Value, _ []byte) {
	for j := range v {
		v[j] = Value{Kind: String, S: "row " + strconv.Itoa(i) + " col " + strconv.Itoa(j) + ": " + w3Phrases[(3*i+j)%8]}
	}
}
