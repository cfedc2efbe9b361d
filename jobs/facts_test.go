package jobs

import (
	"errors"
	"testing"

	"github.com/riverqueue/river/rivertype"
)

// TestFactsAsValues: what an attempt's failure says is recorded as values
// (failed for good, the error id, the attempt), and a rescue is told from
// the attempt the output names, never from an error's text.
func TestFactsAsValues(t *testing.T) {
	base := errors.New("the export failed")
	for _, c := range []struct {
		err    error
		failed bool
		id     string
	}{
		{base, false, ""},
		{Permanent(base), true, ""},
		{WithErrorID(base, "ab12"), false, "ab12"},
		{Permanent(WithErrorID(base, "cd34")), true, "cd34"},
		{WithErrorID(Permanent(base), "ef56"), true, "ef56"},
	} {
		o := outputOf(c.err, 3)
		if o.Failed != c.failed || o.ErrorID != c.id || o.Attempt != 3 || o.Error != "the export failed" {
			t.Errorf("%#v: %+v", c.err, o)
		}
	}
	for _, c := range []struct {
		attempt int
		meta    string
		want    bool
	}{
		{1, `{}`, false},
		{2, `{}`, true}, // attempt 1 recorded nothing: its worker vanished
		{2, `{"output":{"error":"x","attempt":1}}`, false}, // attempt 1 failed and said so
		{3, `{"output":{"error":"x","attempt":1}}`, true},  // attempt 2 vanished
		{3, `{"output":{"error":"x","attempt":2}}`, false},
		{2, `{"output":{"error":"rescued","attempt":1}}`, false}, // the text is not read
	} {
		row := &rivertype.JobRow{Attempt: c.attempt, Metadata: []byte(c.meta)}
		if got := rescued(row); got != c.want {
			t.Errorf("attempt %d after %s: rescued %t, want %t", c.attempt, c.meta, got, c.want)
		}
	}
}
