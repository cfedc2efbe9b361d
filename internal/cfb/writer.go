package cfb

import (
	"encoding/binary"
	"fmt"
	"maps"
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
	var t tree
	t.nodes = []node{{name: "Root Entry"}}
	large, err := t.add(l.Large, true)
	if err != nil {
		return nil, nil, err
	}
	t.nodes[large].size = l.LargeSize
	mini, miniFAT, err := t.addSmall(l.Small)
	if err != nil {
		return nil, nil, err
	}
	p, err := planSectors(uint32(l.LargeSectors()), len(mini), len(t.nodes), len(miniFAT))
	if err != nil {
		return nil, nil, err
	}
	tail = append(tail, mini...)
	tail = padSector(tail)
	tail = append(tail, t.directory(p, len(mini))...)
	for _, v := range miniFAT {
		tail = put32(tail, v)
	}
	for len(tail)%sectorSize != 0 {
		tail = put32(tail, freeSect)
	}
	tail = p.appendFATAndDIFAT(tail)
	return p.header(), tail, nil
}

var le = binary.LittleEndian

func put32(b []byte, v uint32) []byte { return le.AppendUint32(b, v) }

// padSector pads b with zeros to a whole number of sectors.
func padSector(b []byte) []byte {
	if r := len(b) % sectorSize; r != 0 {
		b = append(b, make([]byte, sectorSize-r)...)
	}
	return b
}

// node is one directory entry: the root, a storage or a stream.
type node struct {
	name     string
	stream   bool
	size     int64
	start    uint32
	children []int
}

// tree is the directory being built; nodes[0] is the root.
type tree struct{ nodes []node }

func (t *tree) find(parent int, name string) int {
	for _, c := range t.nodes[parent].children {
		if t.nodes[c].name == name {
			return c
		}
	}
	return -1
}

// add puts path ("a/b": stream b in storage a) in the tree, making its
// storages, and returns its node.
func (t *tree) add(path string, stream bool) (int, error) {
	parent := 0
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if p == "" || len(utf16.Encode([]rune(p))) > 31 {
			return 0, fmt.Errorf("cfb: bad name %q in %q", p, path)
		}
		last := i == len(parts)-1
		c := t.find(parent, p)
		if c < 0 {
			t.nodes = append(t.nodes, node{name: p, stream: last && stream})
			c = len(t.nodes) - 1
			t.nodes[parent].children = append(t.nodes[parent].children, c)
		} else if last || t.nodes[c].stream {
			return 0, fmt.Errorf("cfb: %q given twice", path)
		}
		parent = c
	}
	return parent, nil
}

// addSmall adds the small streams, in path order, and lays them out in
// the mini stream, 64-byte mini sectors each, chained by the mini FAT.
func (t *tree) addSmall(small map[string][]byte) (mini []byte, miniFAT []uint32, err error) {
	for _, path := range slices.Sorted(maps.Keys(small)) {
		data := small[path]
		if len(data) >= miniCutoff {
			return nil, nil, fmt.Errorf("cfb: small stream %q has %d bytes", path, len(data))
		}
		id, err := t.add(path, true)
		if err != nil {
			return nil, nil, err
		}
		t.nodes[id].size = int64(len(data))
		t.nodes[id].start = endOfChain
		if len(data) == 0 {
			continue
		}
		first := uint32(len(miniFAT))
		t.nodes[id].start = first
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
	return mini, miniFAT, nil
}

// sectorPlan places what follows the large stream: the mini stream, the
// directory, the mini FAT, then the FAT itself and DIFAT sectors (for a
// FAT over 109 sectors); fat is the allocation table of all of it.
type sectorPlan struct {
	miniStart, miniSectors       uint32
	dirStart, dirSectors         uint32
	miniFATStart, miniFATSectors uint32
	fatStart, fatSectors         uint32
	difatStart, difatSectors     uint32
	fat                          []uint32
}

const perSector = uint32(sectorSize / 4)

func planSectors(largeSectors uint32, miniBytes, dirEntries, miniFATEntries int) (*sectorPlan, error) {
	p := &sectorPlan{
		miniSectors:    uint32((miniBytes + sectorSize - 1) / sectorSize),
		dirSectors:     uint32((dirEntries*dirEntrySize + sectorSize - 1) / sectorSize),
		miniFATSectors: uint32((miniFATEntries*4 + sectorSize - 1) / sectorSize),
	}
	other := largeSectors + p.miniSectors + p.dirSectors + p.miniFATSectors
	// The FAT covers itself and the DIFAT: grow both until they hold.
	for {
		total := other + p.fatSectors + p.difatSectors
		needFAT := (total + perSector - 1) / perSector
		needDIFAT := uint32(0)
		if needFAT > headerDIFAT {
			needDIFAT = (needFAT - headerDIFAT + perSector - 2) / (perSector - 1)
		}
		if needFAT == p.fatSectors && needDIFAT == p.difatSectors {
			break
		}
		p.fatSectors, p.difatSectors = needFAT, needDIFAT
	}
	if total := other + p.fatSectors + p.difatSectors; total > maxRegSect {
		return nil, fmt.Errorf("cfb: %d sectors are more than a compound file holds", total)
	}
	p.fat = make([]uint32, p.fatSectors*perSector)
	for i := range p.fat {
		p.fat[i] = freeSect
	}
	p.chain(0, largeSectors)
	p.miniStart = largeSectors
	p.chain(p.miniStart, p.miniSectors)
	p.dirStart = p.miniStart + p.miniSectors
	p.chain(p.dirStart, p.dirSectors)
	p.miniFATStart = p.dirStart + p.dirSectors
	p.chain(p.miniFATStart, p.miniFATSectors)
	p.fatStart = p.miniFATStart + p.miniFATSectors
	for i := range p.fatSectors {
		p.fat[p.fatStart+i] = fatSect
	}
	p.difatStart = p.fatStart + p.fatSectors
	for i := range p.difatSectors {
		p.fat[p.difatStart+i] = difSect
	}
	return p, nil
}

// chain links n sectors from first in the FAT.
func (p *sectorPlan) chain(first, n uint32) {
	for i := range n {
		if i == n-1 {
			p.fat[first+i] = endOfChain
		} else {
			p.fat[first+i] = first + i + 1
		}
	}
}

// directory encodes the directory entries, each storage's children as a
// balanced tree in CFB's name order (shorter first, then upper case).
func (t *tree) directory(p *sectorPlan, miniBytes int) []byte {
	nodes := t.nodes
	dir := make([]byte, p.dirSectors*sectorSize)
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
		slices.SortFunc(ids, func(a, b int) int { return compareNames(nodes[a].name, nodes[b].name) })
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
			start, size = endOfChain, uint64(miniBytes)
			if miniBytes > 0 {
				start = p.miniStart
			}
		case !n.stream:
			start, size = 0, 0
		}
		le.PutUint32(e[116:], start)
		le.PutUint64(e[120:], size)
	}
	return dir
}

// compareNames orders names as CFB's red-black trees do: shorter first,
// then by upper-cased UTF-16 code units.
func compareNames(a, b string) int {
	ua, ub := utf16.Encode([]rune(strings.ToUpper(a))), utf16.Encode([]rune(strings.ToUpper(b)))
	if len(ua) != len(ub) {
		return len(ua) - len(ub)
	}
	return slices.Compare(ua, ub)
}

// appendFATAndDIFAT appends the FAT sectors, then the DIFAT sectors: the
// FAT sectors past the header's 109, chained.
func (p *sectorPlan) appendFATAndDIFAT(tail []byte) []byte {
	for _, v := range p.fat {
		tail = put32(tail, v)
	}
	for d := range p.difatSectors {
		for j := range perSector - 1 {
			k := headerDIFAT + d*(perSector-1) + j
			v := uint32(freeSect)
			if k < p.fatSectors {
				v = p.fatStart + k
			}
			tail = put32(tail, v)
		}
		next := uint32(endOfChain)
		if d+1 < p.difatSectors {
			next = p.difatStart + d + 1
		}
		tail = put32(tail, next)
	}
	return tail
}

// header encodes the 512-byte header: version 3, where the directory,
// mini FAT and DIFAT start, and the first 109 FAT sectors.
func (p *sectorPlan) header() []byte {
	header := make([]byte, 0, headerSize)
	header = append(header, Signature...)
	header = append(header, make([]byte, 16)...) // CLSID
	header = le.AppendUint16(header, 0x003E)     // minor version
	header = le.AppendUint16(header, 3)          // major version
	header = le.AppendUint16(header, 0xFFFE)     // byte order
	header = le.AppendUint16(header, 9)          // sector shift
	header = le.AppendUint16(header, 6)          // mini sector shift
	header = append(header, make([]byte, 6)...)  // reserved
	header = put32(header, 0)                    // directory sectors (version 3)
	header = put32(header, p.fatSectors)         // FAT sectors
	header = put32(header, p.dirStart)           // first directory sector
	header = put32(header, 0)                    // transaction signature
	header = put32(header, miniCutoff)           // mini stream cutoff
	miniFATFirst := uint32(endOfChain)
	if p.miniFATSectors > 0 {
		miniFATFirst = p.miniFATStart
	}
	header = put32(header, miniFATFirst)
	header = put32(header, p.miniFATSectors)
	difatFirst := uint32(endOfChain)
	if p.difatSectors > 0 {
		difatFirst = p.difatStart
	}
	header = put32(header, difatFirst)
	header = put32(header, p.difatSectors)
	for i := range uint32(headerDIFAT) {
		v := uint32(freeSect)
		if i < p.fatSectors {
			v = p.fatStart + i
		}
		header = put32(header, v)
	}
	return header
}
