package cfb

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
)

// Layout is a compound file to write around one large stream: the large
// stream fills the sectors from 0 on, so it can be written first, as it
// is produced, and everything else (small streams in the mini stream, the
// directory, the allocation tables) follows it. The header, which says
// where all that is, is written last, at the start. Version 3, 512-byte
// sectors.
type Layout struct {
	Large     string // path of the large stream, such as "EncryptedPackage"
	LargeSize int64
	// Small holds the other streams by path ("a/b" puts b in storage a);
	// each must be under 4,096 bytes.
	Small map[string][]byte
}

const sectorSize = 512

// LargeSectors is how many sectors the large stream takes.
func (l *Layout) LargeSectors() int64 { return (l.LargeSize + sectorSize - 1) / sectorSize }

// Build returns the header (512 bytes, for offset 0) and the tail, to be
// written right after the large stream's last sector (offset
// (LargeSectors()+1)*512; pad the stream's last sector with zeros).
//
// The large stream must hold at least 4,096 bytes: readers look for a
// smaller stream in the mini stream.
func (l *Layout) Build() (header, tail []byte, err error) {
	if l.LargeSize < miniCutoff {
		return nil, nil, fmt.Errorf("cfb: a large stream of %d bytes (under 4,096 it is a small one)", l.LargeSize)
	}
	// The directory: root, storages and streams, as a tree.
	type node struct {
		name     string
		stream   bool
		size     int64
		start    uint32
		children []int
	}
	nodes := []node{{name: "Root Entry"}}
	find := func(parent int, name string) int {
		for _, c := range nodes[parent].children {
			if nodes[c].name == name {
				return c
			}
		}
		return -1
	}
	add := func(path string, stream bool) (int, error) {
		parent := 0
		parts := strings.Split(path, "/")
		for i, p := range parts {
			if p == "" || len(utf16.Encode([]rune(p))) > 31 {
				return 0, fmt.Errorf("cfb: bad name %q in %q", p, path)
			}
			last := i == len(parts)-1
			c := find(parent, p)
			if c < 0 {
				nodes = append(nodes, node{name: p, stream: last && stream})
				c = len(nodes) - 1
				nodes[parent].children = append(nodes[parent].children, c)
			} else if last || nodes[c].stream {
				return 0, fmt.Errorf("cfb: %q given twice", path)
			}
			parent = c
		}
		return parent, nil
	}
	large, err := add(l.Large, true)
	if err != nil {
		return nil, nil, err
	}
	nodes[large].size = l.LargeSize
	// Small streams go into the mini stream, 64-byte mini sectors each.
	var mini []byte
	var miniFAT []uint32
	for _, path := range slices.Sorted(func(yield func(string) bool) {
		for p := range l.Small {
			if !yield(p) {
				return
			}
		}
	}) {
		data := l.Small[path]
		if len(data) >= miniCutoff {
			return nil, nil, fmt.Errorf("cfb: small stream %q has %d bytes", path, len(data))
		}
		id, err := add(path, true)
		if err != nil {
			return nil, nil, err
		}
		nodes[id].size = int64(len(data))
		nodes[id].start = endOfChain
		if len(data) == 0 {
			continue
		}
		first := uint32(len(miniFAT))
		nodes[id].start = first
		n := (len(data) + miniSectorSize - 1) / miniSectorSize
		for i := range n {
			next := first + uint32(i) + 1
			if i == n-1 {
				next = endOfChain
			}
			miniFAT = append(miniFAT, next)
		}
		mini = append(mini, data...)
		mini = append(mini, make([]byte, n*miniSectorSize-len(data))...)
	}

	// Sectors after the large stream: mini stream, directory, mini FAT,
	// then the FAT itself (and DIFAT sectors, for a FAT over 109 sectors).
	largeSectors := uint32(l.LargeSectors())
	miniSectors := uint32((len(mini) + sectorSize - 1) / sectorSize)
	dirSectors := uint32((len(nodes)*dirEntrySize + sectorSize - 1) / sectorSize)
	miniFATSectors := uint32((len(miniFAT)*4 + sectorSize - 1) / sectorSize)
	perSector := uint32(sectorSize / 4)
	other := largeSectors + miniSectors + dirSectors + miniFATSectors
	var fatSectors, difatSectors uint32
	for {
		total := other + fatSectors + difatSectors
		needFAT := (total + perSector - 1) / perSector
		needDIFAT := uint32(0)
		if needFAT > headerDIFAT {
			needDIFAT = (needFAT - headerDIFAT + perSector - 2) / (perSector - 1)
		}
		if needFAT == fatSectors && needDIFAT == difatSectors {
			break
		}
		fatSectors, difatSectors = needFAT, needDIFAT
	}
	total := other + fatSectors + difatSectors
	if total > maxRegSect {
		return nil, nil, fmt.Errorf("cfb: %d sectors are more than a compound file holds", total)
	}
	fat := make([]uint32, fatSectors*perSector)
	for i := range fat {
		fat[i] = freeSect
	}
	chain := func(first, n uint32) {
		for i := range n {
			if i == n-1 {
				fat[first+i] = endOfChain
			} else {
				fat[first+i] = first + i + 1
			}
		}
	}
	chain(0, largeSectors)
	miniStart := largeSectors
	chain(miniStart, miniSectors)
	dirStart := miniStart + miniSectors
	chain(dirStart, dirSectors)
	miniFATStart := dirStart + dirSectors
	chain(miniFATStart, miniFATSectors)
	fatStart := miniFATStart + miniFATSectors
	for i := range fatSectors {
		fat[fatStart+i] = fatSect
	}
	difatStart := fatStart + fatSectors
	for i := range difatSectors {
		fat[difatStart+i] = difSect
	}

	le := binary.LittleEndian
	put32 := func(b []byte, v uint32) []byte { return le.AppendUint32(b, v) }
	pad := func(b []byte) []byte {
		if r := len(b) % sectorSize; r != 0 {
			b = append(b, make([]byte, sectorSize-r)...)
		}
		return b
	}

	// Directory entries; each storage's children as a balanced tree in
	// CFB's name order (shorter first, then upper case).
	dir := make([]byte, dirSectors*sectorSize)
	for i := len(nodes) * dirEntrySize; i < len(dir); i += dirEntrySize {
		le.PutUint32(dir[i+68:], noStream)
		le.PutUint32(dir[i+72:], noStream)
		le.PutUint32(dir[i+76:], noStream)
	}
	left, right := make([]uint32, len(nodes)), make([]uint32, len(nodes))
	child := make([]uint32, len(nodes))
	for i := range nodes {
		left[i], right[i], child[i] = noStream, noStream, noStream
	}
	less := func(a, b string) int {
		ua, ub := utf16.Encode([]rune(strings.ToUpper(a))), utf16.Encode([]rune(strings.ToUpper(b)))
		if len(ua) != len(ub) {
			return len(ua) - len(ub)
		}
		return slices.Compare(ua, ub)
	}
	var balance func(ids []int) uint32
	balance = func(ids []int) uint32 {
		if len(ids) == 0 {
			return noStream
		}
		m := len(ids) / 2
		left[ids[m]] = balance(ids[:m])
		right[ids[m]] = balance(ids[m+1:])
		return uint32(ids[m])
	}
	for i, n := range nodes {
		if n.stream {
			continue
		}
		ids := slices.Clone(n.children)
		slices.SortFunc(ids, func(a, b int) int { return less(nodes[a].name, nodes[b].name) })
		child[i] = balance(ids)
	}
	for i, n := range nodes {
		e := dir[i*dirEntrySize : (i+1)*dirEntrySize]
		units := utf16.Encode([]rune(n.name))
		for j, u := range units {
			le.PutUint16(e[2*j:], u)
		}
		le.PutUint16(e[64:], uint16(2*len(units)+2))
		switch {
		case i == 0:
			e[66] = typeRoot
		case n.stream:
			e[66] = typeStream
		default:
			e[66] = typeStorage
		}
		e[67] = 1 // black
		le.PutUint32(e[68:], left[i])
		le.PutUint32(e[72:], right[i])
		le.PutUint32(e[76:], child[i])
		start, size := n.start, uint64(n.size)
		switch {
		case i == 0:
			start, size = endOfChain, uint64(len(mini))
			if len(mini) > 0 {
				start = miniStart
			}
		case !n.stream:
			start, size = 0, 0
		}
		le.PutUint32(e[116:], start)
		le.PutUint64(e[120:], size)
	}

	tail = append(tail, mini...)
	tail = pad(tail)
	tail = append(tail, dir...)
	for _, v := range miniFAT {
		tail = put32(tail, v)
	}
	for len(tail)%sectorSize != 0 {
		tail = put32(tail, freeSect)
	}
	for _, v := range fat {
		tail = put32(tail, v)
	}
	// DIFAT sectors: the FAT sectors past the header's 109, chained.
	for d := range difatSectors {
		for j := range perSector - 1 {
			k := headerDIFAT + d*(perSector-1) + j
			v := uint32(freeSect)
			if k < fatSectors {
				v = fatStart + k
			}
			tail = put32(tail, v)
		}
		next := uint32(endOfChain)
		if d+1 < difatSectors {
			next = difatStart + d + 1
		}
		tail = put32(tail, next)
	}

	header = make([]byte, 0, headerSize)
	header = append(header, Signature...)
	header = append(header, make([]byte, 16)...) // CLSID
	header = le.AppendUint16(header, 0x003E)     // minor version
	header = le.AppendUint16(header, 3)          // major version
	header = le.AppendUint16(header, 0xFFFE)     // byte order
	header = le.AppendUint16(header, 9)          // sector shift
	header = le.AppendUint16(header, 6)          // mini sector shift
	header = append(header, make([]byte, 6)...)  // reserved
	header = put32(header, 0)                    // directory sectors (version 3)
	header = put32(header, fatSectors)           // FAT sectors
	header = put32(header, dirStart)             // first directory sector
	header = put32(header, 0)                    // transaction signature
	header = put32(header, miniCutoff)           // mini stream cutoff
	miniFATFirst := uint32(endOfChain)
	if miniFATSectors > 0 {
		miniFATFirst = miniFATStart
	}
	header = put32(header, miniFATFirst)
	header = put32(header, miniFATSectors)
	difatFirst := uint32(endOfChain)
	if difatSectors > 0 {
		difatFirst = difatStart
	}
	header = put32(header, difatFirst)
	header = put32(header, difatSectors)
	for i := range uint32(headerDIFAT) {
		v := uint32(freeSect)
		if i < fatSectors {
			v = fatStart + i
		}
		header = put32(header, v)
	}
	return header, tail, nil
}
