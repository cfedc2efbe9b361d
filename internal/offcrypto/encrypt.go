package offcrypto

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash"
)

// Encryptor encrypts a package with Agile encryption as current Excel
// does: AES-256 in CBC mode, SHA-512, a password hash spun SpinCount
// times, random salts and keys from crypto/rand, and an HMAC over the
// encrypted stream for its integrity.
type Encryptor struct {
	block   cipher.Block
	key     []byte // the intermediate key that encrypts the package
	keySalt []byte // keyData's salt: the segments' IVs come from it
	hmacKey []byte
	mac     hash.Hash
	ivh     hash.Hash // the segments' IV hash, reused
	ivSum   []byte

	passwordSalt                 []byte
	encVerifierInput, encVerHash []byte
	encKey                       []byte
	spinCount                    int
}

// SpinCount is the password hash's iteration count Excel writes.
const SpinCount = 100_000

// NewEncryptor derives the keys for password.
func NewEncryptor(password string) (*Encryptor, error) {
	random := func(n int) []byte {
		b := make([]byte, n)
		rand.Read(b)
		return b
	}
	e := &Encryptor{key: random(32), keySalt: random(16), passwordSalt: random(16), hmacKey: random(64), spinCount: SpinCount, ivh: sha512.New()}
	var err error
	if e.block, err = aes.NewCipher(e.key); err != nil {
		return nil, err
	}
	base := spin(sha512.New(), e.passwordSalt, utf16le(password), e.spinCount)
	derive := func(blockKey []byte) []byte {
		h := sha512.New()
		h.Write(base)
		h.Write(blockKey)
		return h.Sum(nil)[:32]
	}
	verifierInput := random(16)
	verifierHash := sha512.Sum512(verifierInput)
	if e.encVerifierInput, err = cbcEncrypt(derive(blockVerifierInput), e.passwordSalt, verifierInput); err != nil {
		return nil, err
	}
	if e.encVerHash, err = cbcEncrypt(derive(blockVerifierHash), e.passwordSalt, verifierHash[:]); err != nil {
		return nil, err
	}
	if e.encKey, err = cbcEncrypt(derive(blockKeyValue), e.passwordSalt, e.key); err != nil {
		return nil, err
	}
	e.mac = hmac.New(sha512.New, e.hmacKey)
	return e, nil
}

func cbcEncrypt(key, iv, src []byte) ([]byte, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	if len(src)%aes.BlockSize != 0 {
		return nil, fmt.Errorf("offcrypto: %d bytes are not whole blocks", len(src))
	}
	out := make([]byte, len(src))
	cipher.NewCBCEncrypter(block, iv).CryptBlocks(out, src)
	return out, nil
}

// segmentIV is segment i's IV: SHA-512 of the key salt and i, cut to a
// block.
//
// One hash serves every segment; the IV is valid until the next call.
func (e *Encryptor) segmentIV(blockKey []byte) []byte {
	e.ivh.Reset()
	e.ivh.Write(e.keySalt)
	e.ivh.Write(blockKey)
	e.ivSum = e.ivh.Sum(e.ivSum[:0])
	return e.ivSum[:aes.BlockSize]
}

// SegmentSize is the unit the package is encrypted in.
const SegmentSize = segmentSize

// EncryptSegment encrypts segment i of the package in place: buf holds
// up to SegmentSize bytes of plaintext, and room after them for the
// padding to a whole AES block, which the returned slice includes.
func (e *Encryptor) EncryptSegment(i int64, buf []byte) []byte {
	n := (len(buf) + aes.BlockSize - 1) / aes.BlockSize * aes.BlockSize
	buf = buf[:n:n]
	var idx [4]byte
	binary.LittleEndian.PutUint32(idx[:], uint32(i))
	cipher.NewCBCEncrypter(e.block, e.segmentIV(idx[:])).CryptBlocks(buf, buf)
	return buf
}

// HMAC is what the EncryptedPackage stream is fed through, from its first
// byte (the 8-byte size) to its last, for the integrity check.
func (e *Encryptor) HMAC() hash.Hash { return e.mac }

// Info is the EncryptionInfo stream, carrying the HMAC of the
// EncryptedPackage stream fed to HMAC.
func (e *Encryptor) Info() ([]byte, error) {
	encHmacKey, err := cbcEncrypt(e.key, e.segmentIV(blockHmacKey), e.hmacKey)
	if err != nil {
		return nil, err
	}
	encHmacValue, err := cbcEncrypt(e.key, e.segmentIV(blockHmacValue), e.mac.Sum(nil))
	if err != nil {
		return nil, err
	}
	b64 := base64.StdEncoding.EncodeToString
	xml := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\r\n" +
		`<encryption xmlns="http://schemas.microsoft.com/office/2006/encryption" xmlns:p="http://schemas.microsoft.com/office/2006/keyEncryptor/password" xmlns:c="http://schemas.microsoft.com/office/2006/keyEncryptor/certificate">` +
		`<keyData saltSize="16" blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512" saltValue="` + b64(e.keySalt) + `"/>` +
		`<dataIntegrity encryptedHmacKey="` + b64(encHmacKey) + `" encryptedHmacValue="` + b64(encHmacValue) + `"/>` +
		`<keyEncryptors><keyEncryptor uri="` + passwordKeyEncryptor + `">` +
		fmt.Sprintf(`<p:encryptedKey spinCount="%d" saltSize="16" blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512" saltValue="%s" encryptedVerifierHashInput="%s" encryptedVerifierHashValue="%s" encryptedKeyValue="%s"/>`,
			e.spinCount, b64(e.passwordSalt), b64(e.encVerifierInput), b64(e.encVerHash), b64(e.encKey)) +
		`</keyEncryptor></keyEncryptors></encryption>`
	info := binary.LittleEndian.AppendUint16(nil, 4)
	info = binary.LittleEndian.AppendUint16(info, 4)
	info = binary.LittleEndian.AppendUint32(info, 0x40)
	return append(info, xml...), nil
}

// DataSpaces are the \x06DataSpaces storage's streams (MS-OFFCRYPTO 2.2)
// that say the package is encrypted, as Excel writes them beside
// EncryptionInfo and EncryptedPackage.
func DataSpaces() map[string][]byte {
	le := binary.LittleEndian
	// A length-prefixed UTF-16 string padded to 4 bytes.
	str := func(b []byte, s string) []byte {
		u := utf16le(s)
		b = le.AppendUint32(b, uint32(len(u)))
		b = append(b, u...)
		for len(u)%4 != 0 {
			b = append(b, 0)
			u = append(u, 0)
		}
		return b
	}
	// Reader, updater and writer versions, each 1.0.
	versions := []byte{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}
	version := append(str(nil, "Microsoft.Container.DataSpaces"), versions...)

	// DataSpaceMap: one entry mapping the EncryptedPackage stream to the
	// StrongEncryptionDataSpace.
	entry := le.AppendUint32(nil, 1)  // reference components
	entry = le.AppendUint32(entry, 0) // a stream
	entry = str(entry, "EncryptedPackage")
	entry = str(entry, "StrongEncryptionDataSpace")
	dsMap := le.AppendUint32(nil, 8)  // header length
	dsMap = le.AppendUint32(dsMap, 1) // entries
	dsMap = le.AppendUint32(dsMap, uint32(len(entry)+4))
	dsMap = append(dsMap, entry...)

	// The data space: one transform.
	dsInfo := le.AppendUint32(nil, 8)
	dsInfo = le.AppendUint32(dsInfo, 1)
	dsInfo = str(dsInfo, "StrongEncryptionTransform")

	// The transform: encryption, by its class id, at version 1.0.
	const classID = "{FF9A3F03-56EF-4613-BDD5-5A41C1D07246}"
	transform := le.AppendUint32(nil, 1) // transform type
	transform = str(transform, classID)
	transformHeader := le.AppendUint32(nil, uint32(len(transform)+4))
	transformHeader = append(transformHeader, transform...)
	primary := str(transformHeader, "Microsoft.Container.EncryptionTransform")
	primary = append(primary, versions...)
	primary = le.AppendUint32(primary, 0) // EncryptionTransformInfo: no name
	primary = le.AppendUint32(primary, 0) // block size
	primary = le.AppendUint32(primary, 0) // cipher mode
	primary = le.AppendUint32(primary, 4) // reserved
	return map[string][]byte{
		"\x06DataSpaces/Version":                                             version,
		"\x06DataSpaces/DataSpaceMap":                                        dsMap,
		"\x06DataSpaces/DataSpaceInfo/StrongEncryptionDataSpace":             dsInfo,
		"\x06DataSpaces/TransformInfo/StrongEncryptionTransform/\x06Primary": primary,
	}
}
