package jobs

// The service's list of logged-out sessions, kept in the queue's
// database so that every instance of a fleet refuses a session any one
// of them ended (the Queue is an auth.Revocations).

import (
	"context"
	"time"
)

// revokedTable holds the ids of logged-out sessions until they would
// have expired (Unix seconds).
const revokedTable = `CREATE TABLE IF NOT EXISTS sheetstream_revoked_session (
	sid TEXT PRIMARY KEY,
	until_unix BIGINT NOT NULL
)`

// Revoke records that the page's session sid was logged out; the record
// goes once until has passed.
func (q *Queue) Revoke(ctx context.Context, sid string, until time.Time) error {
	now := time.Now().Unix()
	if _, err := q.schedules.exec(ctx, "DELETE FROM sheetstream_revoked_session WHERE until_unix < ?", now); err != nil {
		return err
	}
	_, err := q.schedules.exec(ctx, "INSERT INTO sheetstream_revoked_session (sid, until_unix) VALUES (?, ?) ON CONFLICT (sid) DO UPDATE SET until_unix = excluded.until_unix",
		sid, until.Unix())
	if err != nil {
		return err
	}
	return nil
}

// Revoked says whether session sid was logged out.
func (q *Queue) Revoked(ctx context.Context, sid string) (bool, error) {
	n, err := q.schedules.count(ctx, "SELECT count(*) FROM sheetstream_revoked_session WHERE sid = ?", sid)
	if err != nil {
		return false, err
	}
	return n > 0, nil
}
