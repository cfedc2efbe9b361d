package jobs

// What happens after a job: its webhook, and its removal once kept long
// enough.

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Notify is where a finished job is told: its JSON POSTed to Webhook,
// never following a redirect, and, with SecretEnv (the environment
// variable holding the secret), signed as the Standard Webhooks
// specification says: headers webhook-id (the delivery's id, the same on
// every retry), webhook-timestamp (Unix seconds) and webhook-signature
// ("v1," and the base64 HMAC-SHA256 of "ID.TIMESTAMP.BODY" under the
// secret: a "whsec_" secret's base64 bytes, any other the text's own
// bytes). A receiver refuses old timestamps and ids it has seen, so a
// delivery cannot be replayed. X-Sheetstream-Signature ("sha256=" and the
// HMAC of the body alone, hex) is kept for receivers written before.
type Notify struct {
	Webhook   string `json:"webhook"`
	SecretEnv string `json:"secret_env,omitempty"`
}

// SignatureHeader carries a webhook body's signature.
const SignatureHeader = "X-Sheetstream-Signature"

// Sign is the signature of body under secret, as SignatureHeader carries
// it: a receiver computes it again and compares in constant time.
func Sign(secret, body []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// The Standard Webhooks headers.
const (
	WebhookIDHeader        = "webhook-id"
	WebhookTimestampHeader = "webhook-timestamp"
	WebhookSignatureHeader = "webhook-signature"
)

// WebhookSecret is the key a webhook secret stands for: the bytes of a
// "whsec_" secret's base64, or the text's own bytes.
func WebhookSecret(secret string) []byte {
	if b64, ok := strings.CutPrefix(secret, "whsec_"); ok {
		if key, err := base64.StdEncoding.DecodeString(b64); err == nil {
			return key
		}
	}
	return []byte(secret)
}

// SignStandard is a delivery's webhook-signature value under key:
// "v1," and the base64 HMAC-SHA256 of "ID.TIMESTAMP.BODY".
func SignStandard(key []byte, id string, timestamp int64, body []byte) string {
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%d.", id, timestamp)
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// RedactURL is u for logs: without user information, query or fragment
// (where a webhook's credentials would be).
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a URL that does not parse)"
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String()
}

// noRedirects keeps a webhook's signed body at the address configured:
// a redirect is answered as the failure it is for a delivery.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// webhookArgs is a webhook delivery: a River job of its own, so that it
// is retried with River's backoff, by any worker, after restarts.
type webhookArgs struct {
	Job    int64  `json:"job"`
	Notify Notify `json:"notify"`
}

func (webhookArgs) Kind() string { return "sheetstream_webhook" }

// webhookAttempts is how often a delivery is tried: River's backoff makes
// that about a day and a half.
const webhookAttempts = 12

type webhookWorker struct {
	river.WorkerDefaults[webhookArgs]
	q *Queue
}

func (w *webhookWorker) Timeout(*river.Job[webhookArgs]) time.Duration { return 30 * time.Second }

// Work posts the finished job's JSON; a job not final yet (its worker's
// completion is written just after it queued this) is looked at again in
// a second.
func (w *webhookWorker) Work(ctx context.Context, job *river.Job[webhookArgs]) error {
	row, err := w.q.client.JobGet(ctx, job.Args.Job)
	if errors.Is(err, river.ErrNotFound) {
		return river.JobCancel(fmt.Errorf("job %d is gone (removed after its keep)", job.Args.Job))
	}
	if err != nil {
		return err
	}
	if row.FinalizedAt == nil && row.State != rivertype.JobStateRetryable {
		return river.JobSnooze(time.Second)
	}
	j, err := w.q.view(row)
	if err != nil {
		return river.JobCancel(err)
	}
	body, err := json.Marshal(webhookPayload{Job: j, Download: w.q.downloadURL(j)})
	if err != nil {
		return river.JobCancel(err)
	}
	where := RedactURL(job.Args.Notify.Webhook)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, job.Args.Notify.Webhook, bytes.NewReader(body))
	if err != nil {
		return river.JobCancel(fmt.Errorf("webhook %s: the URL does not make a request", where))
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "sheetstream")
	if env := job.Args.Notify.SecretEnv; env != "" {
		secret := os.Getenv(env)
		if secret == "" {
			return fmt.Errorf("webhook: %s, which holds its secret, is not set on this worker", env)
		}
		// The delivery's id is its River job's: the same on every retry,
		// so a receiver takes each delivery once.
		id, ts := "msg_sheetstream_"+strconv.FormatInt(job.ID, 10), time.Now().Unix()
		req.Header.Set(WebhookIDHeader, id)
		req.Header.Set(WebhookTimestampHeader, strconv.FormatInt(ts, 10))
		req.Header.Set(WebhookSignatureHeader, SignStandard(WebhookSecret(secret), id, ts, body))
		req.Header.Set(SignatureHeader, Sign([]byte(secret), body))
	}
	resp, err := w.q.webhookClient.Do(req)
	if err != nil {
		// The client's error names the URL, with its user information:
		// only what went wrong is kept.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("webhook %s: %v", where, err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		if resp.StatusCode/100 == 3 {
			return fmt.Errorf("webhook %s: %s (redirects are not followed: configure the address it names)", where, resp.Status)
		}
		return fmt.Errorf("webhook %s: %s", where, resp.Status)
	}
	return nil
}

// webhookPayload is a webhook's body: the job as the API shows it.
type webhookPayload struct {
	Job
	// Download is the absolute URL of a done job's file (the API's
	// /api/jobs/ID/file under Config.PublicURL, with the receiver's own
	// credentials).
	Download string `json:"download,omitempty"`
}

// downloadURL is the absolute address of a done job's file, "" when the
// job is not done or the service says no public URL.
func (q *Queue) downloadURL(j Job) string {
	if j.State != Done || q.cfg.PublicURL == "" {
		return ""
	}
	return strings.TrimSuffix(q.cfg.PublicURL, "/") + "/api/jobs/" + url.PathEscape(j.ID) + "/file"
}

// notify queues the webhook of a job that is ending.
func (q *Queue) notify(ctx context.Context, jobID int64, n *Notify) {
	if n == nil || n.Webhook == "" {
		return
	}
	if _, err := q.client.Insert(context.WithoutCancel(ctx), webhookArgs{Job: jobID, Notify: *n},
		&river.InsertOpts{MaxAttempts: webhookAttempts}); err != nil {
		q.cfg.Log.Error("queueing a webhook", "job", jobID, "webhook", RedactURL(n.Webhook), "err", err)
	}
}

// DefaultKeep is how long a job and its file are kept when its request
// says nothing.
const DefaultKeep = 7 * 24 * time.Hour

// cleanupArgs is the periodic removal of expired jobs.
type cleanupArgs struct{}

func (cleanupArgs) Kind() string { return "sheetstream_cleanup" }

type cleanupWorker struct {
	river.WorkerDefaults[cleanupArgs]
	q *Queue
}

func (w *cleanupWorker) Work(ctx context.Context, _ *river.Job[cleanupArgs]) error {
	n, err := w.q.Cleanup(ctx, time.Now())
	if n > 0 {
		w.q.cfg.Log.Info("expired export jobs removed", "jobs", n)
	}
	return err
}

// Cleanup removes the finished jobs whose Request.Keep (DefaultKeep when
// unset) has passed by now, with their files, and returns how many.
func (q *Queue) Cleanup(ctx context.Context, now time.Time) (int, error) {
	removed := 0
	params := river.NewJobListParams().Kinds((exportArgs{}).Kind()).
		States(rivertype.JobStateCompleted, rivertype.JobStateCancelled, rivertype.JobStateDiscarded).
		OrderBy(river.JobListOrderByID, river.SortOrderAsc).First(200)
	for {
		res, err := q.client.JobList(ctx, params)
		if err != nil {
			return removed, err
		}
		for _, row := range res.Jobs {
			var args exportArgs
			if json.Unmarshal(row.EncodedArgs, &args) != nil || row.FinalizedAt == nil {
				continue
			}
			keep := DefaultKeep
			if args.Keep > 0 {
				keep = args.Keep
			}
			if row.FinalizedAt.Add(keep).After(now) {
				continue
			}
			// A newer job with the same key (a schedule's fixed key, such
			// as reports/latest.xlsx) owns what is there now: only the
			// expiring job's row goes.
			newer, err := q.keyUsed(ctx, args.Key, row.ID, true)
			if err != nil {
				return removed, err
			}
			if !newer {
				if err := q.cfg.Storage.Delete(ctx, args.Key); err != nil {
					return removed, err
				}
			}
			if _, err := q.client.JobDelete(ctx, row.ID); err != nil && !errors.Is(err, river.ErrNotFound) {
				return removed, err
			}
			removed++
		}
		if len(res.Jobs) == 0 || res.LastCursor == nil {
			return removed, q.cleanupDeliveries(ctx, now)
		}
		params = params.After(res.LastCursor)
	}
}

// cleanupDeliveries removes the webhooks, mails and cleanups finished
// DefaultKeep before now: the record of a delivery outlives the export
// job's default keep, not for ever.
func (q *Queue) cleanupDeliveries(ctx context.Context, now time.Time) error {
	params := river.NewJobListParams().Kinds((webhookArgs{}).Kind(), (mailArgs{}).Kind(), (cleanupArgs{}).Kind()).
		States(rivertype.JobStateCompleted, rivertype.JobStateCancelled, rivertype.JobStateDiscarded).
		OrderBy(river.JobListOrderByID, river.SortOrderAsc).First(200)
	for {
		res, err := q.client.JobList(ctx, params)
		if err != nil {
			return err
		}
		for _, row := range res.Jobs {
			if row.FinalizedAt == nil || row.FinalizedAt.Add(DefaultKeep).After(now) {
				continue
			}
			if _, err := q.client.JobDelete(ctx, row.ID); err != nil && !errors.Is(err, river.ErrNotFound) {
				return err
			}
		}
		if len(res.Jobs) == 0 || res.LastCursor == nil {
			return nil
		}
		params = params.After(res.LastCursor)
	}
}
