package xlsx

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// FuzzStructTag parses tags as a struct's field would carry them: a tag is
// refused with ErrStructTag or planned as it reads, header first, and a
// format takes the rest of the tag.
func FuzzStructTag(f *testing.F) {
	for _, seed := range []string{"", "-", "Name", "Name,omitempty", ",width=12,format=#,##0.00", ",format=", ",width=300",
		"a,b", ",style=x,decimal", ",date,format=dd/mm/yyyy", ",format=0,omitempty", "Order ID,width=8.5", ",width=NaN", "\x00,\""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		fp := plannedField{header: "Field"}
		err := parseFieldTag(tag, &fp)
		if err != nil {
			if !errors.Is(err, ErrStructTag) {
				t.Fatalf("%q: %v is not ErrStructTag", tag, err)
			}
			return
		}
		head, opts, _ := strings.Cut(tag, ",")
		if head != "" && fp.header != head || head == "" && fp.header != "Field" {
			t.Errorf("%q: header %q", tag, fp.header)
		}
		if fp.width != 0 && !(fp.width > 0 && fp.width <= 255) {
			t.Errorf("%q: width %g", tag, fp.width)
		}
		if fp.format != "" && !strings.HasSuffix(opts, "format="+fp.format) {
			t.Errorf("%q: format %q is not the rest of the tag", tag, fp.format)
		}
		// The same tag on a real struct field: planned, or refused as a
		// whole, never half.
		if !strconv.CanBackquote(tag) || strings.Contains(tag, "`") {
			return
		}
		st := reflect.StructOf([]reflect.StructField{{Name: "A", Type: reflect.TypeFor[string](), Tag: reflect.StructTag(`xlsx:` + strconv.Quote(tag))}})
		plan, err := makePlan(st)
		switch {
		case tag == "-":
			if err == nil {
				t.Errorf("%q: a struct with its only field skipped was planned", tag)
			}
		case err != nil:
			if !errors.Is(err, ErrStructTag) {
				t.Errorf("%q: %v", tag, err)
			}
		case len(plan.fields) != 1 || plan.fields[0].key != headerKey(plan.fields[0].header):
			t.Errorf("%q: plan %+v", tag, plan.fields)
		}
	})
}
