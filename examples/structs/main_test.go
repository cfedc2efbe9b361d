package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
)

// TestRoundTrip runs the example: what it prints is what it wrote, less
// the field the sheet leaves out.
func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "orders.xlsx")
	want := orders()
	if err := write(path, want); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := readBack(path, &out); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&out)
	for i := range want {
		want[i].Notes = ""
		var line, wantLine map[string]any
		if err := dec.Decode(&line); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		b, _ := json.Marshal(want[i])
		json.Unmarshal(b, &wantLine)
		if !reflect.DeepEqual(line, wantLine) {
			t.Errorf("line %d:\n got %v\nwant %v", i+1, line, wantLine)
		}
	}
	if dec.More() {
		t.Error("more lines than orders")
	}
}
