// Package mailer sends the service's mails: one message to one recipient,
// through an SMTP server (SMTP) or into a folder as .eml files (Folder,
// where no server is configured: the demo, a test, a pickup directory).
// Both are a Sender, so the job that delivers a file is one code path
// whatever the destination.
//
// The SMTP conversation, MIME and base64 are github.com/wneessen/go-mail's;
// this package decides what a message holds and which failures are worth
// retrying: a server that cannot be reached or answers 4xx is temporary,
// a 5xx answer or an address that does not parse is permanent (a
// *RefusedError), so that a bad address fails alone and at once.
package mailer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Message is one mail to one recipient.
type Message struct {
	To      string
	Subject string
	Body    string // plain text
	// ID is the Message-ID without its angle brackets: the same on every
	// attempt, so that a receiver (and a Folder) takes a retried delivery
	// once.
	ID string
	// Date is when the delivery was made (the Date header); now when zero.
	Date time.Time
	// Attachment, when set, is the file the mail carries.
	Attachment *Attachment
}

// Attachment is a file a message carries: whole in memory, since the
// caller bounds its size (a larger file goes as a link).
type Attachment struct {
	Name        string
	ContentType string
	Data        []byte
}

// Sender sends messages.
type Sender interface {
	// Send delivers m. A *RefusedError is permanent; any other error is
	// worth trying again later.
	Send(ctx context.Context, m *Message) error
	// String says where messages go, without credentials, for logs.
	String() string
}

// RefusedError is a delivery that retrying cannot mend: the server
// refused it with a permanent (5xx) reply, or an address does not parse.
type RefusedError struct {
	Code int // the server's reply code, 0 when no server was asked
	Err  error
}

func (e *RefusedError) Error() string { return e.Err.Error() }
func (e *RefusedError) Unwrap() error { return e.Err }

// Permanent reports whether err is a refusal retrying cannot mend.
func Permanent(err error) bool {
	var r *RefusedError
	return errors.As(err, &r)
}

// EncodedSize is the size of n bytes as an attachment travels: base64
// (4 bytes for each 3) in lines of 76 characters and a CRLF. A limit on
// what a mail may carry is a limit on this, not on the file.
func EncodedSize(n int64) int64 {
	chars := (n + 2) / 3 * 4
	return chars + (chars+75)/76*2
}

// build makes m into go-mail's message, from from.
func build(from string, m *Message) (*gomail.Msg, error) {
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	if err := msg.From(from); err != nil {
		return nil, &RefusedError{Err: fmt.Errorf("from address %q: %w", from, err)}
	}
	if err := msg.To(m.To); err != nil {
		return nil, &RefusedError{Err: fmt.Errorf("address %q: %w", m.To, err)}
	}
	if strings.ContainsAny(m.Subject, "\r\n") {
		return nil, &RefusedError{Err: errors.New("a subject on more than one line")}
	}
	msg.Subject(m.Subject)
	if m.ID != "" {
		msg.SetMessageIDWithValue(m.ID)
	} else {
		msg.SetMessageID()
	}
	if m.Date.IsZero() {
		msg.SetDate()
	} else {
		msg.SetDateWithValue(m.Date)
	}
	msg.SetGenHeader("X-Mailer", "sheetstream")
	msg.SetBodyString(gomail.TypeTextPlain, m.Body)
	if a := m.Attachment; a != nil {
		ctype := a.ContentType
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		if err := msg.AttachReader(a.Name, bytes.NewReader(a.Data), gomail.WithFileContentType(gomail.ContentType(ctype))); err != nil {
			return nil, err
		}
	}
	return msg, nil
}

// ContentTypeOf is the media type of a file by its name's extension
// (.xlsx, .csv...), application/octet-stream when unknown.
func ContentTypeOf(name string) string {
	i := strings.LastIndexByte(name, '.')
	if i >= 0 {
		switch strings.ToLower(name[i:]) {
		case ".xlsx":
			return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
		case ".csv":
			return "text/csv"
		}
		if t := mime.TypeByExtension(name[i:]); t != "" {
			return t
		}
	}
	return "application/octet-stream"
}

// Check says what is wrong with m's addresses and subject, as Send
// would: a *RefusedError.
func (m *Message) Check() error {
	_, err := build("check@example.com", m)
	return err
}

// Refused marks err as a refusal retrying cannot mend.
func Refused(err error) error { return &RefusedError{Err: err} }
