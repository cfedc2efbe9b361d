package xlsx

import (
	"encoding/base64"
	"testing"
)

// TestProtectionHash compares the password hash with one computed by
// Python's hashlib from MS-OFFCRYPTO 2.4.2.4's description (salt 0..15,
// 100,000 spins), a non-ASCII password included.
func TestProtectionHash(t *testing.T) {
	salt := make([]byte, 16)
	for i := range salt {
		salt[i] = byte(i)
	}
	const want = "avMNDEhNmYPC6r8AqolkB9WnA9ZPTWw470G/nUk1DUFOxQ2EMH496E4yu22MqVCaNjtaq/izqN/20Vak7vixPA=="
	if got := base64.StdEncoding.EncodeToString(protectionHash("Pässwörd 42", salt, spinCount)); got != want {
		t.Errorf("hash %s, want %s", got, want)
	}
}
