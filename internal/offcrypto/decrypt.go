// Package offcrypto decrypts password-protected OOXML packages (MS-OFFCRYPTO
// ECMA-376 document encryption): the EncryptionInfo stream says how, and
// the EncryptedPackage stream holds the zip package, encrypted.
//
// Agile encryption (what Excel 2010 and later write: AES with SHA-1 to
// SHA-512, a spun password hash, the package in 4,096-byte segments each
// with its own IV, an HMAC over it all) and Standard encryption (Excel
// 2007's AES-ECB with SHA-1) are read. The package is decrypted where it
// is read, segment by segment through io.ReaderAt, so a zip reader above
// works as on a plain file and memory stays a few segments.
package offcrypto

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"hash"
	"io"
	"sync"
	"unicode/utf16"
)

// Errors, testable with errors.Is.
var (
	ErrPassword    = errors.New("wrong password")
	ErrIntegrity   = errors.New("the encrypted package fails its integrity check (damaged or tampered with)")
	ErrUnsupported = errors.New("unsupported encryption")
	ErrMalformed   = errors.New("malformed encryption information")
)

// MaxSpinCount bounds the password hash's iterations a file may ask for:
// Excel uses 100,000; a file asking billions would hold the reader for
// hours.
const MaxSpinCount = 10_000_000

// segmentSize is the unit Agile encryption encrypts the package in.
const segmentSize = 4096

// Package is a decrypted package, read through ReadAt.
type Package struct {
	size  int64
	enc   io.ReaderAt // the EncryptedPackage stream
	block cipher.Block
	// Agile: IVs per segment from the key data's salt and hash.
	agile    bool
	ivHash   func() hash.Hash
	ivSalt   []byte
	blockLen int
	ivh      hash.Hash // ivHash's state, reused
	ivSum    []byte

	scheme string // for people: "Agile (AES-256, SHA512)"

	mu    sync.Mutex
	cache [4]segment // the last segments decrypted, for small reads
	next  int
}

type segment struct {
	index int64
	data  []byte
	valid bool
}

// Scheme names the encryption, for people: "Agile (AES-256, SHA512)".
func (p *Package) Scheme() string { return p.scheme }

// Size is the decrypted package's length.
func (p *Package) Size() int64 { return p.size }

// Open decrypts with password the package whose EncryptionInfo stream is
// info and whose EncryptedPackage stream is enc (of encSize bytes).
//
// Errors: ErrPassword; ErrIntegrity when an Agile package's HMAC does not
// match; ErrUnsupported naming schemes it does not read (RC4 CryptoAPI,
// extensible encryption, certificate-only files, other ciphers);
// ErrMalformed for information it cannot parse.
func Open(info []byte, enc io.ReaderAt, encSize int64, password string) (*Package, error) {
	if len(info) < 8 {
		return nil, fmt.Errorf("%w: %d bytes of EncryptionInfo", ErrMalformed, len(info))
	}
	major, minor := binary.LittleEndian.Uint16(info), binary.LittleEndian.Uint16(info[2:])
	var size [8]byte
	if encSize < 8 {
		return nil, fmt.Errorf("%w: the encrypted package is %d bytes", ErrMalformed, encSize)
	}
	if _, err := enc.ReadAt(size[:], 0); err != nil {
		return nil, fmt.Errorf("%w: reading the package size: %v", ErrMalformed, err)
	}
	plain := int64(binary.LittleEndian.Uint64(size[:]))
	if plain < 0 || plain > encSize-8 {
		return nil, fmt.Errorf("%w: the package claims %d bytes in a stream of %d", ErrMalformed, plain, encSize)
	}
	switch {
	case major == 4 && minor == 4:
		return openAgile(info[8:], enc, encSize, plain, password)
	case (major == 3 || major == 4) && minor == 3:
		return nil, fmt.Errorf("%w: extensible encryption", ErrUnsupported)
	case (major == 2 || major == 3 || major == 4) && minor == 2:
		return openStandard(info[8:], enc, plain, password)
	}
	return nil, fmt.Errorf("%w: EncryptionInfo version %d.%d", ErrUnsupported, major, minor)
}

// utf16le is the password as the key derivation hashes it.
func utf16le(s string) []byte {
	units := utf16.Encode([]rune(s))
	b := make([]byte, 2*len(units))
	for i, u := range units {
		binary.LittleEndian.PutUint16(b[2*i:], u)
	}
	return b
}

// spin hashes salt and password, then the result spinCount times more
// with the iteration number before it (MS-OFFCRYPTO 2.3.4.7, 2.3.4.11).
func spin(h hash.Hash, salt, password []byte, spinCount int) []byte {
	h.Reset()
	h.Write(salt)
	h.Write(password)
	sum := h.Sum(nil)
	var it [4]byte
	for i := range spinCount {
		binary.LittleEndian.PutUint32(it[:], uint32(i))
		h.Reset()
		h.Write(it[:])
		h.Write(sum)
		sum = h.Sum(sum[:0])
	}
	return sum
}

// fit truncates b to n bytes or pads it with pad.
func fit(b []byte, n int, pad byte) []byte {
	if len(b) >= n {
		return b[:n]
	}
	return append(b, bytes.Repeat([]byte{pad}, n-len(b))...)
}

// Agile encryption (MS-OFFCRYPTO 2.3.4.10 to 2.3.4.15).

type agileInfo struct {
	KeyData       cipherParams `xml:"keyData"`
	DataIntegrity *struct {
		EncryptedHmacKey   string `xml:"encryptedHmacKey,attr"`
		EncryptedHmacValue string `xml:"encryptedHmacValue,attr"`
	} `xml:"dataIntegrity"`
	KeyEncryptors []struct {
		URI          string `xml:"uri,attr"`
		EncryptedKey *struct {
			cipherParams
			SpinCount                  int    `xml:"spinCount,attr"`
			EncryptedVerifierHashInput string `xml:"encryptedVerifierHashInput,attr"`
			EncryptedVerifierHashValue string `xml:"encryptedVerifierHashValue,attr"`
			EncryptedKeyValue          string `xml:"encryptedKeyValue,attr"`
		} `xml:"encryptedKey"`
	} `xml:"keyEncryptors>keyEncryptor"`
}

// cipherParams are the attributes the package's key data and a password
// key encryptor share: a cipher, a hash and a salt.
type cipherParams struct {
	SaltSize        int    `xml:"saltSize,attr"`
	BlockSize       int    `xml:"blockSize,attr"`
	KeyBits         int    `xml:"keyBits,attr"`
	HashSize        int    `xml:"hashSize,attr"`
	CipherAlgorithm string `xml:"cipherAlgorithm,attr"`
	CipherChaining  string `xml:"cipherChaining,attr"`
	HashAlgorithm   string `xml:"hashAlgorithm,attr"`
	SaltValue       string `xml:"saltValue,attr"`
}

// open checks the cipher and returns the hash and the salt.
func (c *cipherParams) open(what string) (func() hash.Hash, []byte, error) {
	if err := checkCipher(c.CipherAlgorithm, c.CipherChaining, c.KeyBits, c.BlockSize); err != nil {
		return nil, nil, err
	}
	h, err := hashNamed(c.HashAlgorithm)
	if err != nil {
		return nil, nil, err
	}
	salt, err := decodeB64(c.SaltValue, what+"'s salt")
	return h, salt, err
}

const passwordKeyEncryptor = "http://schemas.microsoft.com/office/2006/keyEncryptor/password"

// Block keys of the Agile key derivation.
var (
	blockVerifierInput = []byte{0xfe, 0xa7, 0xd2, 0x76, 0x3b, 0x4b, 0x9e, 0x79}
	blockVerifierHash  = []byte{0xd7, 0xaa, 0x0f, 0x6d, 0x30, 0x61, 0x34, 0x4e}
	blockKeyValue      = []byte{0x14, 0x6e, 0x0b, 0xe7, 0xab, 0xac, 0xd0, 0xd6}
	blockHmacKey       = []byte{0x5f, 0xb2, 0xad, 0x01, 0x0c, 0xb9, 0xe1, 0xf6}
	blockHmacValue     = []byte{0xa0, 0x67, 0x7f, 0x02, 0xb2, 0x2c, 0x84, 0x33}
)

func hashNamed(name string) (func() hash.Hash, error) {
	switch name {
	case "SHA1", "SHA-1":
		return sha1.New, nil
	case "SHA256", "SHA-256":
		return sha256.New, nil
	case "SHA384", "SHA-384":
		return sha512.New384, nil
	case "SHA512", "SHA-512":
		return sha512.New, nil
	}
	return nil, fmt.Errorf("%w: hash algorithm %q", ErrUnsupported, name)
}

func checkCipher(alg, chaining string, keyBits, blockSize int) error {
	if alg != "AES" {
		return fmt.Errorf("%w: cipher %q", ErrUnsupported, alg)
	}
	if chaining != "ChainingModeCBC" {
		return fmt.Errorf("%w: chaining mode %q", ErrUnsupported, chaining)
	}
	if keyBits != 128 && keyBits != 192 && keyBits != 256 || blockSize != aes.BlockSize {
		return fmt.Errorf("%w: AES with %d-bit keys and %d-byte blocks", ErrMalformed, keyBits, blockSize)
	}
	return nil
}

func decodeB64(s string, what string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not base64", ErrMalformed, what)
	}
	return b, nil
}

// cbcDecrypt decrypts whole blocks of src with key and iv into a new slice.
func cbcDecrypt(key, iv, src []byte) ([]byte, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	if len(src) == 0 || len(src)%aes.BlockSize != 0 || len(iv) != aes.BlockSize {
		return nil, fmt.Errorf("%w: %d bytes are not whole AES blocks", ErrMalformed, len(src))
	}
	out := make([]byte, len(src))
	cipher.NewCBCDecrypter(block, iv).CryptBlocks(out, src)
	return out, nil
}

func openAgile(descriptor []byte, enc io.ReaderAt, encSize, plain int64, password string) (*Package, error) {
	var info agileInfo
	if err := xml.Unmarshal(descriptor, &info); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	kd := info.KeyData
	dataHash, dataSalt, err := kd.open("keyData")
	if err != nil {
		return nil, err
	}
	var ek *cipherParams
	var spinCount int
	var encInput, encHash, encKey string
	for _, ke := range info.KeyEncryptors {
		if ke.URI == passwordKeyEncryptor && ke.EncryptedKey != nil {
			k := ke.EncryptedKey
			ek, spinCount = &k.cipherParams, k.SpinCount
			encInput, encHash, encKey = k.EncryptedVerifierHashInput, k.EncryptedVerifierHashValue, k.EncryptedKeyValue
			break
		}
	}
	if ek == nil {
		return nil, fmt.Errorf("%w: no password key encryptor (a certificate-only file?)", ErrUnsupported)
	}
	h, salt, err := ek.open("the key encryptor")
	if err != nil {
		return nil, err
	}
	if spinCount < 0 || spinCount > MaxSpinCount {
		return nil, fmt.Errorf("%w: spin count %d (at most %d)", ErrUnsupported, spinCount, MaxSpinCount)
	}
	if len(salt) != aes.BlockSize {
		return nil, fmt.Errorf("%w: a %d-byte salt", ErrMalformed, len(salt))
	}
	base := spin(h(), salt, utf16le(password), spinCount)
	// decrypt decrypts one of the encryptor's values with the key derived
	// for blockKey.
	decrypt := func(blockKey []byte, value, what string) ([]byte, error) {
		raw, err := decodeB64(value, "the encrypted "+what)
		if err != nil {
			return nil, err
		}
		hh := h()
		hh.Write(base)
		hh.Write(blockKey)
		return cbcDecrypt(fit(hh.Sum(nil), ek.KeyBits/8, 0x36), salt, raw)
	}
	input, err := decrypt(blockVerifierInput, encInput, "verifier input")
	if err != nil {
		return nil, err
	}
	hashValue, err := decrypt(blockVerifierHash, encHash, "verifier hash")
	if err != nil {
		return nil, err
	}
	hh := h()
	hh.Write(input[:min(len(input), max(ek.SaltSize, 0))])
	want := hh.Sum(nil)
	if len(hashValue) < len(want) || subtle.ConstantTimeCompare(hashValue[:len(want)], want) != 1 {
		return nil, ErrPassword
	}
	key, err := decrypt(blockKeyValue, encKey, "key")
	if err != nil {
		return nil, err
	}
	if len(key) < kd.KeyBits/8 {
		return nil, fmt.Errorf("%w: a %d-byte key", ErrMalformed, len(key))
	}
	key = key[:kd.KeyBits/8]
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	p := &Package{size: plain, enc: enc, block: block, agile: true, ivHash: dataHash, ivSalt: dataSalt, blockLen: kd.BlockSize,
		scheme: fmt.Sprintf("Agile (AES-%d, %s)", kd.KeyBits, kd.HashAlgorithm)}
	if info.DataIntegrity != nil {
		if err := p.checkIntegrity(key, info.DataIntegrity.EncryptedHmacKey, info.DataIntegrity.EncryptedHmacValue, encSize); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// iv is the IV of blockKey (a segment number or an integrity block key).
//
// One hash serves every segment, as segments are decrypted one at a time
// (under p.mu); the IV is valid until the next call.
func (p *Package) iv(blockKey []byte) []byte {
	if p.ivh == nil {
		p.ivh = p.ivHash()
	}
	p.ivh.Reset()
	p.ivh.Write(p.ivSalt)
	p.ivh.Write(blockKey)
	p.ivSum = p.ivh.Sum(p.ivSum[:0])
	return fit(p.ivSum, p.blockLen, 0x36)
}

// checkIntegrity computes the HMAC of the whole EncryptedPackage stream,
// read in chunks, and compares it with the one the file carries.
func (p *Package) checkIntegrity(key []byte, encKey, encValue string, encSize int64) error {
	rawKey, err := decodeB64(encKey, "the encrypted HMAC key")
	if err != nil {
		return err
	}
	rawValue, err := decodeB64(encValue, "the encrypted HMAC value")
	if err != nil {
		return err
	}
	hmacKey, err := cbcDecrypt(key, p.iv(blockHmacKey), rawKey)
	if err != nil {
		return err
	}
	hmacValue, err := cbcDecrypt(key, p.iv(blockHmacValue), rawValue)
	if err != nil {
		return err
	}
	size := p.ivHash().Size()
	if len(hmacKey) < size || len(hmacValue) < size {
		return fmt.Errorf("%w: HMAC key or value shorter than the hash", ErrMalformed)
	}
	mac := hmac.New(p.ivHash, hmacKey[:size])
	buf := make([]byte, 64<<10)
	for off := int64(0); off < encSize; {
		n, err := p.enc.ReadAt(buf[:min(int64(len(buf)), encSize-off)], off)
		mac.Write(buf[:n])
		off += int64(n)
		if err != nil && !(errors.Is(err, io.EOF) && off == encSize) {
			return fmt.Errorf("%w: reading the package: %v", ErrMalformed, err)
		}
	}
	if !hmac.Equal(mac.Sum(nil), hmacValue[:size]) {
		return ErrIntegrity
	}
	return nil
}

// Standard encryption (MS-OFFCRYPTO 2.3.4.5 to 2.3.4.9).

const (
	algAES128 = 0x660E
	algAES192 = 0x660F
	algAES256 = 0x6610
	algRC4    = 0x6801
	algSHA1   = 0x8004
	// standardSpins is Standard encryption's fixed iteration count.
	standardSpins = 50000
)

func openStandard(rest []byte, enc io.ReaderAt, plain int64, password string) (*Package, error) {
	le := binary.LittleEndian
	// rest follows the version and flags: the header's size, the header,
	// the verifier.
	if len(rest) < 4 {
		return nil, fmt.Errorf("%w: short Standard header", ErrMalformed)
	}
	headerSize := int(le.Uint32(rest))
	rest = rest[4:]
	if headerSize < 32 || headerSize > len(rest) {
		return nil, fmt.Errorf("%w: a %d-byte EncryptionHeader", ErrMalformed, headerSize)
	}
	header, verifier := rest[:headerSize], rest[headerSize:]
	algID, hashID, keyBits := le.Uint32(header[8:]), le.Uint32(header[12:]), int(le.Uint32(header[16:]))
	switch {
	case algID == algRC4:
		return nil, fmt.Errorf("%w: RC4 CryptoAPI encryption", ErrUnsupported)
	case algID != algAES128 && algID != algAES192 && algID != algAES256:
		return nil, fmt.Errorf("%w: algorithm %#x", ErrUnsupported, algID)
	case hashID != algSHA1 && hashID != 0:
		return nil, fmt.Errorf("%w: hash %#x", ErrUnsupported, hashID)
	case keyBits != 128 && keyBits != 192 && keyBits != 256:
		return nil, fmt.Errorf("%w: %d-bit AES keys", ErrMalformed, keyBits)
	}
	if len(verifier) < 4+16+16+4+32 || le.Uint32(verifier) != 16 {
		return nil, fmt.Errorf("%w: EncryptionVerifier", ErrMalformed)
	}
	salt, encVerifier, encHash := verifier[4:20], verifier[20:36], verifier[40:72]

	h := spin(sha1.New(), salt, utf16le(password), standardSpins)
	s := sha1.New()
	s.Write(h)
	s.Write([]byte{0, 0, 0, 0}) // block 0
	final := s.Sum(nil)
	derived := func(pad byte) []byte {
		buf := bytes.Repeat([]byte{pad}, 64)
		for i, b := range final {
			buf[i] ^= b
		}
		x := sha1.Sum(buf)
		return x[:]
	}
	key := append(derived(0x36), derived(0x5c)...)[:keyBits/8]
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	v := make([]byte, 16)
	block.Decrypt(v, encVerifier)
	vh := make([]byte, 32)
	block.Decrypt(vh[:16], encHash[:16])
	block.Decrypt(vh[16:], encHash[16:])
	want := sha1.Sum(v)
	if subtle.ConstantTimeCompare(vh[:20], want[:]) != 1 {
		return nil, ErrPassword
	}
	return &Package{size: plain, enc: enc, block: block, scheme: fmt.Sprintf("Standard (AES-%d, SHA1)", keyBits)}, nil
}

// ReadAt reads the decrypted package. It is safe for concurrent use.
func (p *Package) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("offcrypto: negative offset")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for n < len(b) {
		pos := off + int64(n)
		if pos >= p.size {
			return n, io.EOF
		}
		seg, err := p.segment(pos / segmentSize)
		if err != nil {
			return n, err
		}
		n += copy(b[n:], seg[pos%segmentSize:])
	}
	return n, nil
}

// segment returns decrypted segment i (4,096 bytes, fewer at the end),
// from the cache or decrypted now. p.mu is held: the cache's buffers are
// reused.
func (p *Package) segment(i int64) ([]byte, error) {
	start := i * segmentSize
	want := min(int64(segmentSize), p.size-start)
	for _, s := range p.cache {
		if s.valid && s.index == i {
			return s.data[:want], nil
		}
	}
	s := &p.cache[p.next]
	p.next = (p.next + 1) % len(p.cache)
	if s.data == nil {
		s.data = make([]byte, segmentSize)
	}
	s.valid = false
	// Ciphertext covers whole AES blocks.
	ct := (want + aes.BlockSize - 1) / aes.BlockSize * aes.BlockSize
	buf := s.data[:ct]
	if n, err := p.enc.ReadAt(buf, 8+start); int64(n) < ct {
		return nil, fmt.Errorf("%w: segment %d is cut short: %v", ErrMalformed, i, err)
	}
	if p.agile {
		var idx [4]byte
		binary.LittleEndian.PutUint32(idx[:], uint32(i))
		cipher.NewCBCDecrypter(p.block, p.iv(idx[:])).CryptBlocks(buf, buf)
	} else {
		for j := 0; j < len(buf); j += aes.BlockSize {
			p.block.Decrypt(buf[j:j+aes.BlockSize], buf[j:j+aes.BlockSize])
		}
	}
	s.index, s.valid = i, true
	return buf[:want], nil
}
