// Package inflate decompresses raw deflate streams (RFC 1951), the
// compression of nearly every part of an .xlsx package and the largest
// single cost of reading one.
//
// It is written for throughput on long streams: input is read in large
// blocks and taken into a 64-bit bit buffer eight bytes at a time, codes
// are decoded through one table lookup (two for the rare long codes) that
// also carries each length's and distance's base and extra-bit count,
// and output goes straight into a history buffer from which matches are
// copied, several bytes a step where they do not overlap. It is as strict
// as the standard library's compress/flate: over-subscribed or incomplete
// codes (one code of one bit aside), lengths and distances out of range
// and truncated streams are errors, never a silent partial result.
package inflate

import (
	"encoding/binary"
	"errors"
	"io"
	"math/bits"
	"slices"
)

// ErrCorrupt reports a stream that is not valid deflate.
var ErrCorrupt = errors.New("inflate: corrupt deflate stream")

const (
	maxDist = 32 << 10 // deflate's window
	maxLen  = 258      // the longest match
	// outSize is how much a Read may decode ahead of its caller, past the
	// window kept for matches.
	outSize = 256 << 10
	// histSize leaves room after the output for a longest match and the
	// eight bytes its last copying step may write past it.
	histSize = maxDist + outSize + maxLen + 8
	inSize   = 64 << 10
	// inPad is the slack after the input's end that lets the decoder load
	// eight bytes at a time; bits read from it past the real end make the
	// stream truncated.
	inPad = 16

	litBits  = 10 // bits of the first lookup for literals and lengths
	distBits = 8
	preBits  = 7 // code-length codes are at most 7 bits long: no subtables
)

// A table entry: bits 0-4 the bits to consume, 5-7 its kind, 8-11 the
// extra bits that follow, 16-31 its value (a literal, a length's or
// distance's base, a subtable's offset).
const (
	kindLiteral = iota << 5
	kindLength
	kindEnd
	kindSub
	kindInvalid
	kindMask = 7 << 5
)

func entry(kind, consume, extra, value uint32) uint32 {
	return consume | kind | extra<<8 | value<<16
}

var (
	lengthBase  = [29]uint32{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint32{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]uint32{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]uint32{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	// precodeOrder is the order in which a dynamic block lists the
	// lengths of the code-length codes.
	precodeOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
)

func litEntry(sym int, consume uint32) uint32 {
	switch {
	case sym < 256:
		return entry(kindLiteral, consume, 0, uint32(sym))
	case sym == 256:
		return entry(kindEnd, consume, 0, 0)
	case sym < 286:
		return entry(kindLength, consume, lengthExtra[sym-257], lengthBase[sym-257])
	}
	return entry(kindInvalid, consume, 0, 0)
}

func distEntry(sym int, consume uint32) uint32 {
	if sym < 30 {
		return entry(kindLength, consume, distExtra[sym], distBase[sym])
	}
	return entry(kindInvalid, consume, 0, 0)
}

func preEntry(sym int, consume uint32) uint32 { return entry(kindLiteral, consume, 0, uint32(sym)) }

// table is a decoding table: 1<<bits entries indexed by the next bits of
// the stream, then the subtables of the codes longer than bits.
type table struct {
	bits    uint
	entries []uint32
}

// build fills t for the code with the given lengths (0: unused symbol).
// The code must be complete, or a single code of one bit, or empty (then
// every lookup is invalid), as compress/flate requires.
func (t *table) build(lengths []uint8, tableBits uint, entryOf func(sym int, consume uint32) uint32) error {
	var count [16]int
	longest := uint(0)
	for _, l := range lengths {
		count[l]++
		if l > 0 {
			longest = max(longest, uint(l))
		}
	}
	t.bits = tableBits
	size := 1 << tableBits
	if longest == 0 {
		t.entries = fill(t.entries[:0], size, entry(kindInvalid, 0, 0, 0))
		return nil
	}
	left := 1
	for l := 1; l <= 15; l++ {
		left = left<<1 - count[l]
		if left < 0 {
			return ErrCorrupt // over-subscribed
		}
	}
	if left > 0 && !(longest == 1 && count[1] == 1) {
		return ErrCorrupt // incomplete
	}
	var next [16]uint32
	code := uint32(0)
	for l := 1; l <= 15; l++ {
		code = (code + uint32(count[l-1])) << 1
		next[l] = code
	}
	next[0] = 0
	// Unused entries (an incomplete single code's other half) decode as
	// invalid.
	t.entries = fill(t.entries[:0], size, entry(kindInvalid, 1, 0, 0))
	subBits := uint(0)
	if longest > tableBits {
		subBits = longest - tableBits
	}
	// A subtable per first-lookup prefix of the long codes, allocated as
	// the prefixes come: codes sharing their first tableBits bits share
	// one. Offsets are past the first table: 0 is none yet.
	var subOf [1 << litBits]uint32
	for sym, l := range lengths {
		if l == 0 {
			continue
		}
		c := next[l]
		next[l]++
		rev := bits.Reverse32(c) >> (32 - uint32(l))
		if uint(l) <= tableBits {
			e := entryOf(sym, uint32(l))
			for i := rev; i < uint32(size); i += 1 << l {
				t.entries[i] = e
			}
			continue
		}
		prefix := rev & (1<<tableBits - 1)
		off := subOf[prefix]
		if off == 0 {
			off = uint32(len(t.entries))
			subOf[prefix] = off
			t.entries = fill(t.entries, 1<<subBits, entry(kindInvalid, 1, 0, 0))
			t.entries[prefix] = entry(kindSub, uint32(tableBits), uint32(subBits), off)
		}
		rest := uint(l) - tableBits
		e := entryOf(sym, uint32(rest))
		for i := rev >> tableBits; i < 1<<subBits; i += 1 << rest {
			t.entries[off+i] = e
		}
	}
	return nil
}

// fill appends n entries v to s.
func fill(s []uint32, n int, v uint32) []uint32 {
	s = slices.Grow(s, n)
	for range n {
		s = append(s, v)
	}
	return s
}

var fixedLit, fixedDist table

func init() {
	var l [288]uint8
	for i := range l {
		switch {
		case i < 144:
			l[i] = 8
		case i < 256:
			l[i] = 9
		case i < 280:
			l[i] = 7
		default:
			l[i] = 8
		}
	}
	if err := fixedLit.build(l[:], litBits, litEntry); err != nil {
		panic(err)
	}
	// 32 codes, of which 30 and 31 never occur in valid data.
	var d [32]uint8
	for i := range d {
		d[i] = 5
	}
	if err := fixedDist.build(d[:], distBits, distEntry); err != nil {
		panic(err)
	}
}

type state uint8

const (
	stateHeader state = iota // the next block's header
	stateStored              // inside a stored block
	stateCodes               // inside a Huffman block
	stateDone                // after the final block
)

// Reader decompresses a raw deflate stream read from its source.
type Reader struct {
	src    io.Reader
	srcErr error // the source's error once it has no more
	in     []byte
	inPos  int
	inEnd  int // the input read; in[inEnd:inEnd+inPad] is zeros at the end
	eof    bool
	bitbuf uint64
	bitcnt uint

	hist []byte // the window, then what is decoded and not yet read
	wpos int    // where output is decoded to
	rpos int    // what Read has handed out

	state   state
	final   bool
	stored  int // bytes left in a stored block
	lit     *table
	dist    *table
	dynLit  table
	dynDist table
	pre     table
	lengths [286 + 30]uint8
	err     error
}

// NewReader returns a Reader decompressing the deflate stream r holds.
func NewReader(r io.Reader) *Reader {
	z := &Reader{
		in:   make([]byte, inSize+inPad),
		hist: make([]byte, histSize),
	}
	z.Reset(r)
	return z
}

// Reset makes z decompress r from its start, keeping its buffers.
func (z *Reader) Reset(r io.Reader) {
	// The input buffer need not be cleared: nothing past inEnd is read
	// before fill has zeroed it.
	*z = Reader{src: r, in: z.in, hist: z.hist, dynLit: z.dynLit, dynDist: z.dynDist, pre: z.pre}
}

// Close does nothing to the source; the Reader may be Reset and used
// again.
func (z *Reader) Close() error { return nil }

// Read reads decompressed bytes. It returns io.EOF with the last of them,
// io.ErrUnexpectedEOF when the stream stops before it, ErrCorrupt (or
// the source's error) when it cannot be decoded.
func (z *Reader) Read(p []byte) (int, error) {
	for z.rpos == z.wpos {
		if z.err != nil {
			return 0, z.err
		}
		if z.wpos > maxDist+outSize-maxLen {
			// Keep the window for matches; hand out what follows it.
			copy(z.hist, z.hist[z.wpos-maxDist:z.wpos])
			z.wpos, z.rpos = maxDist, maxDist
		}
		z.err = z.decode()
	}
	n := copy(p, z.hist[z.rpos:z.wpos])
	z.rpos += n
	if z.rpos == z.wpos && z.state == stateDone && z.err == nil {
		// The last bytes come with io.EOF, as compress/flate gives them:
		// a caller reading in pieces learns at once that there is no
		// more.
		z.err = io.EOF
		return n, io.EOF
	}
	return n, nil
}

// fill reads more input when fewer than inPad bytes are left, keeping
// in[inPos:] and the zero padding after the input's end.
func (z *Reader) fill() {
	if z.eof || z.inEnd-z.inPos >= inPad {
		return
	}
	// The eight bytes before inPos stay: the bit buffer may hold them,
	// and a stored block gives them back.
	keep := max(z.inPos-8, 0)
	n := copy(z.in, z.in[keep:z.inEnd])
	z.inPos, z.inEnd = z.inPos-keep, n
	for empty := 0; z.inEnd-z.inPos < inPad && !z.eof; {
		if z.read() == 0 {
			if empty++; empty == 100 && !z.eof {
				z.eof, z.srcErr = true, io.ErrNoProgress
			}
		}
	}
	if !z.eof && z.inEnd < inSize {
		z.read() // read on while the source has it: fewer, larger reads
	}
	clear(z.in[z.inEnd : z.inEnd+inPad])
}

// read reads once from the source into the input buffer, noting its end
// or error.
func (z *Reader) read() int {
	n, err := z.src.Read(z.in[z.inEnd:inSize])
	z.inEnd += n
	if err != nil {
		z.eof = true
		if err != io.EOF {
			z.srcErr = err
		}
	}
	return n
}

// need makes at least n (<= 56) bits available, all of them the
// stream's.
func (z *Reader) need(n uint) error {
	if z.bitcnt < n {
		z.load()
	}
	return z.overrun(n)
}

// load fills the bit buffer to 56 bits or more, with zeros past the
// input's end: a lookup may read them, the overrun checks say whether
// what was taken was the stream's.
func (z *Reader) load() {
	z.fill()
	z.bitbuf |= binary.LittleEndian.Uint64(z.in[z.inPos:]) << z.bitcnt
	z.inPos += int(63-z.bitcnt) >> 3
	z.bitcnt |= 56
}

// overrun reports whether the bits taken, and n more, run past the
// input's end.
func (z *Reader) overrun(n uint) error {
	if z.eof && uint(z.inPos)*8-z.bitcnt+n > uint(z.inEnd)*8 {
		if z.srcErr != nil {
			return z.srcErr
		}
		return io.ErrUnexpectedEOF
	}
	return nil
}

func (z *Reader) take(n uint) uint32 {
	v := uint32(z.bitbuf & (1<<n - 1))
	z.bitbuf >>= n
	z.bitcnt -= n
	return v
}

// decode decodes until the output buffer is full or the stream ends.
func (z *Reader) decode() error {
	for {
		switch z.state {
		case stateDone:
			return io.EOF
		case stateHeader:
			if err := z.header(); err != nil {
				return err
			}
		case stateStored:
			if err := z.copyStored(); err != nil || z.state == stateStored {
				return err
			}
		case stateCodes:
			if err := z.codes(); err != nil || z.state == stateCodes {
				return err
			}
		}
		if z.state == stateHeader && z.final {
			z.state = stateDone
			if err := z.overrun(0); err != nil {
				return err
			}
			if z.wpos > z.rpos {
				return nil
			}
			return io.EOF
		}
	}
}

func (z *Reader) header() error {
	if err := z.need(3); err != nil {
		return err
	}
	z.final = z.take(1) == 1
	switch z.take(2) {
	case 0:
		// Stored: skip to a byte boundary, then LEN and its complement.
		z.take(z.bitcnt % 8)
		if err := z.need(32); err != nil {
			return err
		}
		n := z.take(16)
		if n != ^z.take(16)&0xFFFF {
			return ErrCorrupt
		}
		z.stored, z.state = int(n), stateStored
	case 1:
		z.lit, z.dist, z.state = &fixedLit, &fixedDist, stateCodes
	case 2:
		if err := z.dynamic(); err != nil {
			return err
		}
		z.lit, z.dist, z.state = &z.dynLit, &z.dynDist, stateCodes
	default:
		return ErrCorrupt
	}
	return nil
}

// dynamic reads a dynamic block's codes.
func (z *Reader) dynamic() error {
	if err := z.need(14); err != nil {
		return err
	}
	nlit := int(z.take(5)) + 257
	ndist := int(z.take(5)) + 1
	npre := int(z.take(4)) + 4
	if nlit > 286 || ndist > 30 {
		return ErrCorrupt
	}
	var pre [19]uint8
	for i := range npre {
		if err := z.need(3); err != nil {
			return err
		}
		pre[precodeOrder[i]] = uint8(z.take(3))
	}
	if err := z.pre.build(pre[:], preBits, preEntry); err != nil {
		return err
	}
	lengths := z.lengths[:nlit+ndist]
	for i := 0; i < len(lengths); {
		// A code and its extra bits, up to 14 bits, which may run past
		// the end of a valid stream's last block when only its first
		// bits are the code's: look ahead, then check what was taken.
		z.load()
		e := z.pre.entries[z.bitbuf&(1<<preBits-1)]
		if e&kindMask == kindInvalid {
			return ErrCorrupt
		}
		z.take(uint(e & 31))
		sym := e >> 16
		if sym < 16 {
			lengths[i] = uint8(sym)
			i++
			if err := z.overrun(0); err != nil {
				return err
			}
			continue
		}
		var repeat int
		var value uint8
		switch sym {
		case 16:
			if i == 0 {
				return ErrCorrupt
			}
			repeat, value = 3+int(z.take(2)), lengths[i-1]
		case 17:
			repeat = 3 + int(z.take(3))
		default:
			repeat = 11 + int(z.take(7))
		}
		if err := z.overrun(0); err != nil {
			return err
		}
		if i+repeat > len(lengths) {
			return ErrCorrupt
		}
		for range repeat {
			lengths[i] = value
			i++
		}
	}
	if lengths[256] == 0 {
		return ErrCorrupt // no end of block
	}
	if err := z.dynLit.build(lengths[:nlit], litBits, litEntry); err != nil {
		return err
	}
	return z.dynDist.build(lengths[nlit:], distBits, distEntry)
}

func (z *Reader) copyStored() error {
	// The bit buffer holds whole bytes after the header: give them back.
	z.inPos -= int(z.bitcnt / 8)
	z.bitbuf, z.bitcnt = 0, 0
	for z.stored > 0 && z.wpos < maxDist+outSize {
		z.fill()
		avail := z.inEnd - z.inPos
		if avail == 0 {
			if z.srcErr != nil {
				return z.srcErr
			}
			return io.ErrUnexpectedEOF
		}
		n := copy(z.hist[z.wpos:maxDist+outSize], z.in[z.inPos:z.inPos+min(avail, z.stored)])
		z.inPos += n
		z.wpos += n
		z.stored -= n
	}
	if z.stored == 0 {
		z.state = stateHeader
	}
	return nil
}

// codes decodes a Huffman block's symbols until the block ends or the
// output is full. The input is refilled before each symbol, so a length
// and its distance (at most 48 bits) always fit the 56 bits loaded.
func (z *Reader) codes() error {
	// The first lookups are fixed-size arrays indexed by masked bits: no
	// bounds checks; subtables follow them in the same slices.
	lit, dist := z.lit.entries, z.dist.entries
	litMain := (*[1 << litBits]uint32)(lit)
	distMain := (*[1 << distBits]uint32)(dist)
	hist := z.hist[:histSize]
	wpos := z.wpos
	const limit = maxDist + outSize - maxLen
	bitbuf, bitcnt := z.bitbuf, z.bitcnt
	in, inPos, inEnd := z.in, z.inPos, z.inEnd
	var err error
	for wpos <= limit {
		if inEnd-inPos < inPad {
			z.bitbuf, z.bitcnt, z.inPos = bitbuf, bitcnt, inPos
			if z.eof {
				if err = z.overrun(0); err != nil {
					break
				}
			} else {
				z.fill()
			}
			in, inPos, inEnd = z.in, z.inPos, z.inEnd
		}
		bitbuf |= binary.LittleEndian.Uint64(in[inPos:]) << bitcnt
		inPos += int(63-bitcnt) >> 3
		bitcnt |= 56

		e := litMain[bitbuf&(1<<litBits-1)]
		if e&kindMask == kindSub {
			bitbuf >>= litBits
			bitcnt -= litBits
			e = lit[uint64(e>>16)+bitbuf&(1<<(e>>8&15)-1)]
		}
		bitbuf >>= e & 31
		bitcnt -= uint(e & 31)
		if e&kindMask == kindLiteral {
			hist[wpos] = byte(e >> 16)
			wpos++
			// Another literal fits the bits left (41 or more).
			e = litMain[bitbuf&(1<<litBits-1)]
			if e&kindMask != kindLiteral || wpos > limit {
				continue
			}
			bitbuf >>= e & 31
			bitcnt -= uint(e & 31)
			hist[wpos] = byte(e >> 16)
			wpos++
			continue
		}
		if e&kindMask != kindLength {
			if e&kindMask == kindEnd {
				z.state = stateHeader
			} else {
				err = ErrCorrupt
			}
			break
		}
		length := int(e>>16) + int(bitbuf&(1<<(e>>8&15)-1))
		bitbuf >>= e >> 8 & 15
		bitcnt -= uint(e >> 8 & 15)
		d := distMain[bitbuf&(1<<distBits-1)]
		if d&kindMask == kindSub {
			bitbuf >>= distBits
			bitcnt -= distBits
			d = dist[uint64(d>>16)+bitbuf&(1<<(d>>8&15)-1)]
		}
		if d&kindMask != kindLength {
			err = ErrCorrupt
			break
		}
		bitbuf >>= d & 31
		bitcnt -= uint(d & 31)
		distance := int(d>>16) + int(bitbuf&(1<<(d>>8&15)-1))
		bitbuf >>= d >> 8 & 15
		bitcnt -= uint(d >> 8 & 15)
		// The window before wpos is all history: until the buffer first
		// turns over it starts with the stream, after that it is the
		// whole 32 KiB.
		from := wpos - distance
		if from < 0 {
			err = ErrCorrupt
			break
		}
		if distance >= 8 {
			// Eight bytes a step, the first two whatever the length
			// (most of a sheet's matches are 16 bytes or less): the
			// last step may write past the match, into space the next
			// symbols overwrite.
			binary.LittleEndian.PutUint64(hist[wpos:], binary.LittleEndian.Uint64(hist[from:]))
			binary.LittleEndian.PutUint64(hist[wpos+8:], binary.LittleEndian.Uint64(hist[from+8:]))
			for i := 16; i < length; i += 8 {
				binary.LittleEndian.PutUint64(hist[wpos+i:], binary.LittleEndian.Uint64(hist[from+i:]))
			}
		} else {
			for i := range length {
				hist[wpos+i] = hist[from+i]
			}
		}
		wpos += length
	}
	z.wpos = wpos
	z.bitbuf, z.bitcnt, z.inPos = bitbuf, bitcnt, inPos
	if err == nil && z.eof {
		err = z.overrun(0)
	}
	return err
}
