package sqlsheet

import (
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/xlsx"
)

func TestIsDecimalText(t *testing.T) {
	for s, want := range map[string]bool{
		"1": true, "-1.5": true, "+.5": true, "5.": true, "1.8446744073709552E+19": true, "1e-300": true, "0042": true,
		"": false, ".": false, "-": false, "1.2.3": false, "1e": false, "e5": false, "1e+": false, "1e12345": false,
		" 1": false, "1 ": false, "0x10": false, "1,5": false, "NaN": false, "1e5e5": false, "--1": false,
	} {
		if got := isDecimalText(s); got != want {
			t.Errorf("%q: %v", s, got)
		}
	}
	var decimal bool
	if n := testing.AllocsPerRun(100, func() { decimal = isDecimalText("0.14285714285714285E-3") }); n != 0 || !decimal {
		t.Errorf("%v allocations, %v", n, decimal)
	}
}

// TestContradicts holds contradicts, which skips typing the cells a
// guess takes whatever they hold, to its definition: a cell contradicts
// the guessed types when it has a type and its column is one right of
// every column seen (unless columns are picked by name), or left out as
// blank, or checked and widened by it.
func TestContradicts(t *testing.T) {
	day := time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)
	cells := []xlsx.Cell{
		xlsx.Int(3), xlsx.Float(2.5), xlsx.Float(1 << 60), xlsx.String("x"), xlsx.String(""),
		xlsx.String("2024-01-01 08:00:00+00"), xlsx.Bool(true), xlsx.Date(day),
		xlsx.Time(day.Add(90 * time.Minute)), xlsx.Duration(90 * time.Minute), xlsx.Blank(), xlsx.Error(xlsx.ErrorNA),
	}
	definition := func(imp *importer, c *xlsx.Value) bool {
		t := imp.cellType(c)
		if t == columnEmpty {
			return false
		}
		col := c.Col() - 1 - imp.colBase
		switch {
		case col >= len(imp.checked):
			return len(imp.opts.Columns) == 0
		case !imp.checked[col]:
			return false
		case imp.byCol[col] < 0:
			return true
		}
		return widen(imp.guess[col], t) != imp.guess[col]
	}
	var guesses []ColumnType
	for g := ColumnText; g <= columnEmpty; g++ {
		guesses = append(guesses, g)
	}
	// Each guess three times: checked, not checked (a type the user or
	// the schema gave), checked but left out as blank.
	imp := &importer{colBase: 1}
	for round := range 3 {
		for _, g := range guesses {
			imp.guess = append(imp.guess, g)
			imp.checked = append(imp.checked, round != 1)
			imp.byCol = append(imp.byCol, len(imp.byCol))
			if round == 2 {
				imp.byCol[len(imp.byCol)-1] = -1
			}
		}
	}
	for _, engine := range []Engine{EngineSQLite, EnginePostgres} {
		for _, picked := range [][]string{nil, {"a"}} {
			imp.engine, imp.opts.Columns = engine, picked
			for col := 1; col <= len(imp.guess)+3; col++ {
				for _, cell := range cells {
					v := xlsx.ValueOf(col+imp.colBase, cell)
					if got, want := imp.contradicts(&v), definition(imp, &v); got != want {
						t.Errorf("%s, columns %v, column %d (guess %v), %s %q: %v, want %v",
							engine, picked, col, imp.guess[min(col-1, len(imp.guess)-1)], v.Type(), v.String(), got, want)
					}
				}
			}
		}
	}
}

func TestMySQLTime(t *testing.T) {
	for s, want := range map[string]bool{
		"12:00:00": true, "-838:59:59": true, "838:59:59.000000": true, "100:00:01.5": true, "0:00:00": true,
		"838:59:59.1": false, "839:00:00": false, "12:60:00": false, "12:00:60": false, "1000:00:00": false,
		"12:00": false, "12:00:00.": false, "12:00:00.1234567": false, "a:00:00": false, "--1:00:00": false, "": false,
	} {
		if got := mysqlTime(s); got != want {
			t.Errorf("%q: %v", s, got)
		}
	}
}

func TestAppendElapsed(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0:00:00", 26*time.Hour + 3*time.Minute + 4500*time.Millisecond: "26:03:04.5",
		-1250 * time.Millisecond: "-0:00:01.25", 838*time.Hour + 59*time.Minute + 59*time.Second: "838:59:59",
		time.Millisecond: "0:00:00.001",
	} {
		if got := string(appendElapsed(nil, d)); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
}
