package sqlsheet

import "testing"

// TestCopyLines maps the lines of a load back to source rows across the
// gaps blank and rejected rows leave, and maps none it could get wrong
// once its runs are capped.
func TestCopyLines(t *testing.T) {
	var sent copyLines
	for _, num := range []int{2, 3, 4, 6, 7, 10} {
		sent.add(num)
	}
	for line, want := range map[int]int{0: 0, 1: 2, 3: 4, 4: 6, 5: 7, 6: 10, 7: 0} {
		if got := sent.row(line); got != want {
			t.Errorf("line %d: row %d, want %d", line, got, want)
		}
	}

	var capped copyLines
	for i := range maxCopyRuns + 10 {
		capped.add(2 * (i + 1)) // every row a run of its own
	}
	if got := capped.row(maxCopyRuns - 1); got != 2*(maxCopyRuns-1) {
		t.Errorf("a line within the runs kept: row %d", got)
	}
	for _, line := range []int{maxCopyRuns, maxCopyRuns + 5} {
		if got := capped.row(line); got != 0 {
			t.Errorf("line %d past the runs kept: row %d, want 0 (unknown)", line, got)
		}
	}
	if len(capped.runs) != maxCopyRuns {
		t.Errorf("%d runs kept, want at most %d", len(capped.runs), maxCopyRuns)
	}
}

func TestCopyErrorLines(t *testing.T) {
	for where, want := range map[string]int{
		"COPY refused, line 3":                  3,
		`COPY refused, line 12, column id: "x"`: 12,
		"COPY s.t, line 7: \"7\tx\"":            7,
		"PL/pgSQL function f() line 3 at RAISE": 0,
		"":                                      0,
		"COPY refused, line ":                   0,
	} {
		if got := copyLine(where); got != want {
			t.Errorf("copyLine(%q) = %d, want %d", where, got, want)
		}
	}
	for msg, want := range map[string]int{
		"Out of range value for column 'at' at row 3": 3,
		"Duplicate entry '3' for key 'PRIMARY'":       0,
		"Data truncated for column 'v' at row x":      0,
		"Data truncated for column 'v' at row -2":     0,
	} {
		if got, _ := loadDataLine(msg); got != want {
			t.Errorf("loadDataLine(%q) = %d, want %d", msg, got, want)
		}
	}
}

// FuzzCopyLines checks the runs against the plain list of source rows,
// for rows numbered upward with gaps the bytes give, and reads server
// messages of any shape without a panic or a line below 0.
func FuzzCopyLines(f *testing.F) {
	f.Add([]byte{0, 0, 3, 0, 1}, "COPY t, line 3, column v: \"x\"")
	f.Add([]byte{5}, "Out of range value for column 'at' at row 12")
	f.Add([]byte{}, "x at row -3")
	f.Fuzz(func(t *testing.T, gaps []byte, msg string) {
		var sent copyLines
		var model []int
		num := 1
		for _, g := range gaps {
			num += 1 + int(g%8) // a gap of g%8 rows: blank or rejected
			sent.add(num)
			model = append(model, num)
		}
		for line := -1; line <= len(model)+1; line++ {
			want := 0
			if line >= 1 && line <= len(model) {
				want = model[line-1]
			}
			if got := sent.row(line); got != want {
				t.Fatalf("line %d: row %d, want %d (rows %v)", line, got, want, model)
			}
		}
		if n := copyLine(msg); n < 0 {
			t.Errorf("copyLine(%q) = %d", msg, n)
		}
		if n, at := loadDataLine(msg); n < 0 || at < 0 || at > len(msg) {
			t.Errorf("loadDataLine(%q) = %d, %d", msg, n, at)
		}
	})
}
