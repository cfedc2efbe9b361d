package xlsx

import (
	"fmt"
	"strconv"
	"strings"
)

// sheetValidation is a validation with its range and formulas, written
// after the sheet's rows.
type sheetValidation struct {
	Validation
	ref                streamRange
	formula1, formula2 string
}

// AddValidation checks what is typed into the cells of r (see
// Validation), and may come at any time before the sheet ends: the
// validations go after the rows. A range with LastRow 0 ends with the
// sheet's last row written.
//
// Errors (in a *CellError, leaving the sheet and the Writer as they
// were): ErrRange for an invalid range; ErrValidation for an unknown type,
// operator or error style, a missing or unusable value (text where a
// number is compared, a list with a comma in a choice or over 255
// characters), or a title or message over Excel's length.
func (s *Sheet) AddValidation(r Range, v Validation) error {
	if err := s.check(); err != nil {
		return err
	}
	refuse := func(err error) error { return s.refuse(r.FirstRow, r.FirstCol, err) }
	ref, err := s.streamRange(r, "validation")
	if err != nil {
		return err
	}
	sv := sheetValidation{Validation: v, ref: ref}
	if err := s.validationFormulas(&sv); err != nil {
		return refuse(err)
	}
	for _, text := range []struct {
		what string
		s    string
		max  int
	}{{"input title", v.InputTitle, 32}, {"input message", v.InputMessage, 255}, {"error title", v.ErrorTitle, 32}, {"error message", v.ErrorMessage, 255}} {
		if !validAttrText(text.s) {
			return refuse(fmt.Errorf("%w: the %s holds a character XML cannot carry", ErrValidation, text.what))
		}
		if n := utf16Len(text.s); n > text.max {
			return refuse(fmt.Errorf("%w: the %s is %d characters; Excel takes %d", ErrValidation, text.what, n, text.max))
		}
	}
	sv.List = nil // kept in formula1
	s.validations = append(s.validations, sv)
	return nil
}

// validationFormulas checks a validation and sets its formulas.
func (s *Sheet) validationFormulas(sv *sheetValidation) error {
	v := &sv.Validation
	switch {
	case int(v.Type) >= len(validationTypes):
		return fmt.Errorf("%w: unknown type %d", ErrValidation, v.Type)
	case int(v.Operator) >= len(operatorNames):
		return fmt.Errorf("%w: unknown operator %d", ErrValidation, v.Operator)
	case int(v.ErrorStyle) >= len(validationErrorStyles):
		return fmt.Errorf("%w: unknown error style %d", ErrValidation, v.ErrorStyle)
	}
	var err error
	switch v.Type {
	case ValidateAny:
		return nil
	case ValidateList:
		if len(v.List) > 0 {
			sv.formula1, err = inlineList(v.List)
			return err
		}
		if sv.formula1, err = s.validationValue(v.Value1, v.Type, true); err == nil && v.Value1.kind != kindFormula {
			err = fmt.Errorf("%w: a list takes its choices from List or from a formula in Value1", ErrValidation)
		}
		return err
	case ValidateCustom:
		if sv.formula1, err = s.validationValue(v.Value1, v.Type, true); err == nil && v.Value1.kind != kindFormula {
			err = fmt.Errorf("%w: a custom validation takes its rule from a formula in Value1", ErrValidation)
		}
		return err
	}
	if sv.formula1, err = s.validationValue(v.Value1, v.Type, true); err != nil {
		return err
	}
	two := v.Operator == Between || v.Operator == NotBetween
	if sv.formula2, err = s.validationValue(v.Value2, v.Type, two); err != nil {
		return err
	}
	if !two && v.Value2.kind != kindEmpty {
		return fmt.Errorf("%w: Value2 is for Between and NotBetween", ErrValidation)
	}
	return nil
}

// validationValue writes a value a validation compares with as the
// formula Excel keeps.
func (s *Sheet) validationValue(c Cell, typ ValidationType, required bool) (string, error) {
	if c.kind == kindEmpty {
		if required {
			return "", fmt.Errorf("%w: a %s validation needs a value", ErrValidation, validationTypes[typ])
		}
		return "", nil
	}
	f, ok, err := s.operand(c)
	switch {
	case err != nil:
		return "", fmt.Errorf("%w: %w", ErrValidation, err)
	case !ok:
		return "", fmt.Errorf("%w: a %s validation compares with a number, a date or time, or a formula", ErrValidation, validationTypes[typ])
	}
	return f, nil
}

// operand writes a value that a validation or a conditional format
// compares cells with, as the formula Excel keeps: a number, a date or
// time as its serial, or a formula. ok is false for other kinds of cell.
func (s *Sheet) operand(c Cell) (_ string, ok bool, err error) {
	var b []byte
	switch c.kind {
	case kindFormula:
		f := strings.TrimPrefix(c.formula(), "=")
		if f == "" || !validAttrText(f) {
			return "", true, fmt.Errorf("formula %q", c.formula())
		}
		return f, true, nil
	case kindInt:
		b = strconv.AppendInt(b, c.i, 10)
	case kindUint:
		b = strconv.AppendUint(b, c.uint(), 10)
	case kindFloat, kindFloat32:
		b, err = appendXMLNumber(b, c.num, c.kind == kindFloat32)
	case kindDecimal:
		b, err = appendDecimal(b, c.s)
	case kindDateTime, kindDate, kindTimeOfDay, kindDuration:
		var v float64
		if v, err = s.w.timeValue(c.kind, &c); err == nil {
			b, err = appendXMLNumber(b, v, false)
		}
	default:
		return "", false, nil
	}
	return string(b), true, err
}

// inlineList is a list of choices as Excel keeps it: in quotes, joined
// by commas, quotes doubled, 255 characters at most.
func inlineList(choices []string) (string, error) {
	var b strings.Builder
	b.WriteByte('"')
	for i, c := range choices {
		if strings.ContainsRune(c, ',') || !validAttrText(c) {
			return "", fmt.Errorf("%w: list choice %q: a comma or a character XML cannot carry", ErrValidation, c)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strings.ReplaceAll(c, `"`, `""`))
	}
	b.WriteByte('"')
	if n := utf16Len(b.String()) - 2; n > 255 {
		return "", fmt.Errorf("%w: the list's choices take %d characters; Excel takes 255 (use a range of cells in Value1)", ErrValidation, n)
	}
	return b.String(), nil
}

// appendValidations writes the sheet's <dataValidations>.
func (s *Sheet) appendValidations(b []byte) []byte {
	if len(s.validations) == 0 {
		return b
	}
	b = appendIntAttr(append(b, "<dataValidations"...), "count", len(s.validations))
	b = append(b, '>')
	for i := range s.validations {
		v := &s.validations[i]
		b = append(b, "<dataValidation"...)
		if v.Type != ValidateAny {
			b = appendStringAttr(b, "type", validationTypes[v.Type])
		}
		if v.ErrorStyle != ErrorStyleStop {
			b = appendStringAttr(b, "errorStyle", validationErrorStyles[v.ErrorStyle])
		}
		if v.Operator != Between && v.Type != ValidateAny && v.Type != ValidateList && v.Type != ValidateCustom {
			b = appendStringAttr(b, "operator", operatorNames[v.Operator])
		}
		if !v.RejectBlank {
			b = append(b, ` allowBlank="1"`...)
		}
		if v.HideDropDown {
			b = append(b, ` showDropDown="1"`...) // sic: the attribute hides it
		}
		if !v.NoInputMessage {
			b = append(b, ` showInputMessage="1"`...)
		}
		if !v.NoErrorMessage {
			b = append(b, ` showErrorMessage="1"`...)
		}
		for _, a := range [...]struct{ name, value string }{
			{"errorTitle", v.ErrorTitle}, {"error", v.ErrorMessage}, {"promptTitle", v.InputTitle}, {"prompt", v.InputMessage},
		} {
			if a.value != "" {
				b = appendStringAttr(b, a.name, a.value)
			}
		}
		b = append(b, ` sqref="`...)
		b = v.ref.final(s.row).append(b, false)
		b = append(b, '"')
		if v.formula1 == "" {
			b = append(b, "/>"...)
			continue
		}
		b = append(b, '>')
		b = appendElem(b, "formula1", v.formula1)
		if v.formula2 != "" {
			b = appendElem(b, "formula2", v.formula2)
		}
		b = append(b, "</dataValidation>"...)
	}
	return append(b, "</dataValidations>"...)
}
