package xlsx

import (
	"crypto/rand"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strconv"
	"unicode/utf16"
)

// passwordHash is a protection password as Excel keeps it (MS-OFFCRYPTO
// 2.4.2.4): SHA-512 over a random salt and the password in UTF-16LE,
// then over the hash and a little-endian counter, spinCount times.
type passwordHash struct {
	hash, salt string // base64
}

func hashPassword(password string) (passwordHash, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return passwordHash{}, err
	}
	return passwordHash{hash: base64.StdEncoding.EncodeToString(protectionHash(password, salt, spinCount)), salt: base64.StdEncoding.EncodeToString(salt)}, nil
}

func protectionHash(password string, salt []byte, spins int) []byte {
	h := sha512.New()
	h.Write(salt)
	for _, u := range utf16.Encode([]rune(password)) {
		h.Write([]byte{byte(u), byte(u >> 8)})
	}
	sum := h.Sum(nil)
	var counter [4]byte
	for i := range spins {
		h.Reset()
		h.Write(sum)
		binary.LittleEndian.PutUint32(counter[:], uint32(i))
		h.Write(counter[:])
		sum = h.Sum(sum[:0])
	}
	return sum
}

// appendHashAttrs writes a password hash's attributes, each name
// prefixed (workbookProtection's are "workbookAlgorithmName"...).
func appendHashAttrs(b []byte, prefix string, p passwordHash) []byte {
	name := func(n string) string {
		if prefix == "" {
			return n
		}
		return prefix + string(n[0]-'a'+'A') + n[1:]
	}
	b = appendStringAttr(b, name("algorithmName"), "SHA-512")
	b = appendStringAttr(b, name("hashValue"), p.hash)
	b = appendStringAttr(b, name("saltValue"), p.salt)
	return appendIntAttr(b, name("spinCount"), spinCount)
}

// sheetProtection is a sheet's protection, its passwords hashed when the
// sheet is added.
type sheetProtection struct {
	SheetProtection
	password passwordHash
	ranges   []passwordHash // one per editable range, empty hash for none
}

func newSheetProtection(p *SheetProtection) (*sheetProtection, error) {
	sp := &sheetProtection{SheetProtection: *p}
	sp.EditableRanges = append([]EditableRange(nil), p.EditableRanges...)
	var err error
	if p.Password != "" {
		if sp.password, err = hashPassword(p.Password); err != nil {
			return nil, err
		}
	}
	names := map[string]bool{}
	for i := range sp.EditableRanges {
		r := &sp.EditableRanges[i]
		if !r.Range.valid() {
			return nil, fmt.Errorf("%w: editable range %v", ErrRange, r.Range)
		}
		if r.Name == "" {
			r.Name = "Range" + strconv.Itoa(i+1)
		}
		if !validAttrText(r.Name) || names[r.Name] {
			return nil, fmt.Errorf("%w: editable range name %q (invalid or repeated)", ErrRange, r.Name)
		}
		names[r.Name] = true
		var h passwordHash
		if r.Password != "" {
			if h, err = hashPassword(r.Password); err != nil {
				return nil, err
			}
		}
		sp.ranges = append(sp.ranges, h)
	}
	if !validAttrText(p.Password) {
		return nil, fmt.Errorf("%w: the password holds a character XML cannot carry", ErrRange)
	}
	return sp, nil
}

// appendProtection writes <sheetProtection> and <protectedRanges>, which
// follow the rows.
func (p *sheetProtection) append(b []byte) []byte {
	b = append(b, "<sheetProtection"...)
	if p.Password != "" {
		b = appendHashAttrs(b, "", p.password)
	}
	b = append(b, ` sheet="1"`...)
	if !p.EditObjects {
		b = append(b, ` objects="1"`...)
	}
	if !p.EditScenarios {
		b = append(b, ` scenarios="1"`...)
	}
	// These say what is protected: "0" allows the action.
	for _, a := range [...]struct {
		name    string
		allowed bool
	}{{"formatCells", p.FormatCells}, {"formatColumns", p.FormatColumns}, {"formatRows", p.FormatRows},
		{"insertColumns", p.InsertColumns}, {"insertRows", p.InsertRows}, {"insertHyperlinks", p.InsertHyperlinks},
		{"deleteColumns", p.DeleteColumns}, {"deleteRows", p.DeleteRows}} {
		if a.allowed {
			b = append(append(append(b, ' '), a.name...), `="0"`...)
		}
	}
	if p.NoSelectLockedCells {
		b = append(b, ` selectLockedCells="1"`...)
	}
	for _, a := range [...]struct {
		name    string
		allowed bool
	}{{"sort", p.Sort}, {"autoFilter", p.AutoFilter}, {"pivotTables", p.PivotTables}} {
		if a.allowed {
			b = append(append(append(b, ' '), a.name...), `="0"`...)
		}
	}
	if p.NoSelectUnlockedCells {
		b = append(b, ` selectUnlockedCells="1"`...)
	}
	b = append(b, "/>"...)
	if len(p.EditableRanges) == 0 {
		return b
	}
	b = append(b, "<protectedRanges>"...)
	for i, r := range p.EditableRanges {
		b = append(b, "<protectedRange"...)
		if r.Password != "" {
			b = appendHashAttrs(b, "", p.ranges[i])
		}
		b = append(b, ` sqref="`...)
		b = r.Range.append(b, false)
		b = append(b, '"')
		b = appendStringAttr(b, "name", r.Name)
		b = append(b, "/>"...)
	}
	return append(b, "</protectedRanges>"...)
}
