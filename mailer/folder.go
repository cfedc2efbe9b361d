package mailer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// Folder writes each message into a folder as an .eml file (RFC 5322, as
// a mail client saves one and opens it again), for a service with no
// SMTP server: the demo, a test, a pickup directory another program
// sends from. A message's file is named after its ID, so a delivery
// retried is one file.
type Folder struct {
	dir, from string
}

// NewFolder makes dir if need be and returns its Sender; from is the
// sender's address the files say.
//
// Errors: a From that is not an address, a folder that cannot be made.
func NewFolder(dir, from string) (*Folder, error) {
	if from == "" {
		from = "sheetstream@localhost"
	}
	if _, err := build(from, &Message{To: "check@example.com"}); err != nil {
		return nil, fmt.Errorf("mail from: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &Folder{dir: dir, from: from}, nil
}

func (f *Folder) String() string { return "folder " + f.dir }

// Send writes m to a temporary file, then renames it to its name: a
// reader of the folder never sees half a message.
func (f *Folder) Send(_ context.Context, m *Message) error {
	msg, err := build(f.from, m)
	if err != nil {
		return err
	}
	id := m.ID
	if id == "" {
		id = msg.GetMessageID()
	}
	sum := sha256.Sum256([]byte(id))
	name := filepath.Join(f.dir, hex.EncodeToString(sum[:8])+".eml")
	tmp, err := os.CreateTemp(f.dir, ".mail-*")
	if err != nil {
		return err
	}
	if _, err := msg.WriteTo(tmp); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), name)
}
