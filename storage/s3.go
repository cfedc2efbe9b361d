package storage

// Objects in an S3 bucket, through the AWS SDK for Go v2.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// S3 keeps files as objects of a bucket, under a prefix.
type S3 struct {
	client   *s3.Client
	presign  *s3.PresignClient
	bucket   string
	prefix   string // "" or ending in "/"
	endpoint string // for String
	// partSize is the first parts' size; see nextPartSize.
	partSize int
}

// MinPartSize is the smallest part S3 takes (but for the last): the part
// buffer a Put holds, and so most of the memory an upload costs.
const MinPartSize = 5 << 20

// maxParts is how many parts one upload may have.
const maxParts = 10000

// openS3 opens s3://BUCKET/PREFIX?region=...&endpoint=...
func openS3(ctx context.Context, u *url.URL) (*S3, error) {
	if u.Host == "" {
		return nil, errors.New("an s3 URL names its bucket: s3://BUCKET/PREFIX")
	}
	q := u.Query()
	for k := range q {
		if k != "region" && k != "endpoint" {
			return nil, fmt.Errorf("s3 URL: unknown parameter %q (region, endpoint)", k)
		}
	}
	var opts []func(*config.LoadOptions) error
	if r := q.Get("region"); r != "" {
		opts = append(opts, config.WithRegion(r))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1" // S3-compatible stores mostly ignore it, and signing needs one
	}
	endpoint := q.Get("endpoint")
	if endpoint != "" {
		if e, err := url.Parse(endpoint); err != nil || (e.Scheme != "http" && e.Scheme != "https") || e.Host == "" {
			return nil, fmt.Errorf("s3 URL: endpoint %q is not an http(s) URL", endpoint)
		}
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
			o.UsePathStyle = true
		}
		// Checksums only where an operation requires them: many
		// S3-compatible stores refuse the SDK's newer default ones.
		o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	})
	prefix := strings.Trim(u.Path, "/")
	if prefix != "" {
		if err := CheckKey(prefix); err != nil {
			return nil, fmt.Errorf("s3 URL: prefix: %w", err)
		}
		prefix += "/"
	}
	return &S3{client: client, presign: s3.NewPresignClient(client), bucket: u.Host, prefix: prefix,
		endpoint: endpoint, partSize: MinPartSize}, nil
}

func (s *S3) String() string {
	out := "s3://" + s.bucket + "/" + s.prefix
	if s.endpoint != "" {
		out += " at " + s.endpoint
	}
	return out
}

func (s *S3) key(key string) (string, error) {
	if err := CheckKey(key); err != nil {
		return "", err
	}
	return s.prefix + key, nil
}

// nextPartSize is the size of part n (from 1): the minimum for the first
// thousand parts, growing by the minimum every thousand after, so that one
// upload holds up to about 260 GiB within S3's 10,000 parts while the
// buffer, for the exports most people make, stays at 5 MiB.
func (s *S3) nextPartSize(n int) int { return s.partSize * (1 + (n-1)/1000) }

// Put streams what write writes into a multipart upload, one part buffer
// at a time, and completes it at the end, or aborts it.
func (s *S3) Put(ctx context.Context, key string, write func(w io.Writer) error) (size int64, err error) {
	k, err := s.key(key)
	if err != nil {
		return 0, err
	}
	created, err := s.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{
		Bucket: &s.bucket, Key: &k, ContentType: aws.String(contentType(key)),
	})
	if err != nil {
		return 0, s.fail("starting the upload of", key, err)
	}
	up := &upload{s: s, ctx: ctx, key: k, id: created.UploadId, buf: make([]byte, 0, s.nextPartSize(1))}
	defer func() {
		if err != nil {
			// Aborted even when ctx has ended: the upload's parts cost
			// storage until it is.
			actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			s.client.AbortMultipartUpload(actx, &s3.AbortMultipartUploadInput{Bucket: &s.bucket, Key: &k, UploadId: up.id})
		}
	}()
	if err := write(up); err != nil {
		return 0, err
	}
	if up.err != nil {
		return 0, up.err
	}
	if len(up.buf) > 0 || len(up.parts) == 0 {
		if err := up.flush(); err != nil {
			return 0, err
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	_, err = s.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{
		Bucket: &s.bucket, Key: &k, UploadId: up.id,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: up.parts},
	})
	if err != nil {
		return 0, s.fail("completing the upload of", key, err)
	}
	return up.size, nil
}

// upload is an io.Writer into a multipart upload.
type upload struct {
	s     *S3
	ctx   context.Context
	key   string
	id    *string
	buf   []byte
	parts []types.CompletedPart
	size  int64
	err   error
}

func (u *upload) Write(p []byte) (int, error) {
	if u.err != nil {
		return 0, u.err
	}
	n := len(p)
	for len(p) > 0 {
		room := cap(u.buf) - len(u.buf)
		if room == 0 {
			if err := u.flush(); err != nil {
				return n - len(p), err
			}
			continue
		}
		take := min(room, len(p))
		u.buf = append(u.buf, p[:take]...)
		p = p[take:]
	}
	return n, nil
}

// flush uploads the buffer as the next part.
func (u *upload) flush() error {
	number := int32(len(u.parts) + 1)
	if number > maxParts {
		u.err = fmt.Errorf("%s: more than %d parts", u.key, maxParts)
		return u.err
	}
	out, err := u.s.client.UploadPart(u.ctx, &s3.UploadPartInput{
		Bucket: &u.s.bucket, Key: &u.key, UploadId: u.id, PartNumber: aws.Int32(number),
		Body: bytes.NewReader(u.buf), ContentLength: aws.Int64(int64(len(u.buf))),
	})
	if err != nil {
		u.err = u.s.fail(fmt.Sprintf("uploading part %d of", number), strings.TrimPrefix(u.key, u.s.prefix), err)
		return u.err
	}
	u.parts = append(u.parts, types.CompletedPart{ETag: out.ETag, PartNumber: aws.Int32(number)})
	u.size += int64(len(u.buf))
	if next := u.s.nextPartSize(int(number) + 1); next > cap(u.buf) {
		u.buf = make([]byte, 0, next)
	} else {
		u.buf = u.buf[:0]
	}
	return nil
}

// Get opens the object under key.
func (s *S3) Get(ctx context.Context, key string) (io.ReadCloser, int64, error) {
	k, err := s.key(key)
	if err != nil {
		return nil, 0, err
	}
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: &k})
	if err != nil {
		return nil, 0, s.fail("reading", key, err)
	}
	return out.Body, aws.ToInt64(out.ContentLength), nil
}

// Presign returns a GET URL for the object, valid for ttl, whose response
// carries a Content-Disposition naming filename.
func (s *S3) Presign(ctx context.Context, key string, ttl time.Duration, filename string) (string, error) {
	k, err := s.key(key)
	if err != nil {
		return "", err
	}
	in := &s3.GetObjectInput{Bucket: &s.bucket, Key: &k}
	if filename != "" {
		in.ResponseContentDisposition = aws.String(mime.FormatMediaType("attachment", map[string]string{"filename": filename}))
	}
	req, err := s.presign.PresignGetObject(ctx, in, s3.WithPresignExpires(ttl))
	if err != nil {
		return "", s.fail("signing a link to", key, err)
	}
	return req.URL, nil
}

// Delete removes the object under key.
func (s *S3) Delete(ctx context.Context, key string) error {
	k, err := s.key(key)
	if err != nil {
		return err
	}
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.bucket, Key: &k}); err != nil {
		return s.fail("deleting", key, err)
	}
	return nil
}

// Abandon aborts the incomplete multipart uploads of key.
func (s *S3) Abandon(ctx context.Context, key string) (int, error) {
	k, err := s.key(key)
	if err != nil {
		return 0, err
	}
	n := 0
	var keyMarker, idMarker *string
	for {
		out, err := s.client.ListMultipartUploads(ctx, &s3.ListMultipartUploadsInput{
			Bucket: &s.bucket, Prefix: &k, KeyMarker: keyMarker, UploadIdMarker: idMarker,
		})
		if err != nil {
			return n, s.fail("listing the uploads of", key, err)
		}
		for _, up := range out.Uploads {
			if aws.ToString(up.Key) != k {
				continue // another key with this one as its prefix
			}
			if _, err := s.client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: &s.bucket, Key: &k, UploadId: up.UploadId}); err != nil {
				return n, s.fail("aborting an upload of", key, err)
			}
			n++
		}
		if !aws.ToBool(out.IsTruncated) {
			return n, nil
		}
		keyMarker, idMarker = out.NextKeyMarker, out.NextUploadIdMarker
	}
}

// fail names the operation, key and bucket in an S3 error, and maps a
// missing key to ErrNotFound.
func (s *S3) fail(what, key string, err error) error {
	var nsk *types.NoSuchKey
	var api smithy.APIError
	if errors.As(err, &nsk) || errors.As(err, &api) && (api.ErrorCode() == "NoSuchKey" || api.ErrorCode() == "NotFound") {
		return fmt.Errorf("%w: %s", ErrNotFound, key)
	}
	return fmt.Errorf("%s %s in s3://%s/%s: %w", what, key, s.bucket, s.prefix, err)
}

// contentType is the media type of a file by its name's extension.
func contentType(key string) string {
	switch {
	case strings.HasSuffix(key, ".xlsx"):
		return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	case strings.HasSuffix(key, ".csv"):
		return "text/csv; charset=utf-8"
	}
	return "application/octet-stream"
}
