package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// signingAlgs are the algorithms a token may name: the asymmetric ones
// only. A token's header chooses among them, but the key it names must be
// of that algorithm's kind (an RSA key verifies RS* and PS* only), so the
// header can never turn a public key into an HMAC secret, nor ask for no
// signature at all ("none" is not parsed).
var signingAlgs = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512, jose.EdDSA,
}

// keySet is the issuer's published signing keys (its JWKS), fetched once
// and kept. A token naming a key not in it makes one refetch, so that a
// key the issuer rotated in is taken up without a restart; but at most
// one every refetchEvery, so that tokens naming made-up keys cannot make
// the service hammer the issuer. It implements go-oidc's KeySet: go-oidc
// checks the claims, go-jose the signature; this decides only which key.
type keySet struct {
	url          string
	client       *http.Client
	refetchEvery time.Duration
	maxAge       time.Duration // keys older than this are refetched, so a key the issuer withdrew stops working
	now          func() time.Time

	mu       sync.Mutex
	keys     []jose.JSONWebKey
	fetched  time.Time // of the last fetch attempt
	inflight chan struct{}
	fetchErr error

	fetches atomic.Int64
}

// errUnknownKey: the token names a key the issuer has not published.
var errUnknownKey = errors.New("the token is signed with a key the issuer has not published")

// VerifySignature checks jwt's signature with the issuer's key it names,
// and returns its payload.
func (k *keySet) VerifySignature(ctx context.Context, jwt string) ([]byte, error) {
	jws, err := jose.ParseSignedCompact(jwt, signingAlgs)
	if err != nil {
		return nil, err
	}
	if len(jws.Signatures) != 1 {
		return nil, errors.New("a token must have exactly one signature")
	}
	header := jws.Signatures[0].Header
	keys, stale := k.cached()
	key, found := pick(keys, header)
	if !found || stale {
		if refreshed, err := k.refetch(ctx, !found); err == nil {
			key, found = pick(refreshed, header)
		} else if !found {
			return nil, err
		}
	}
	if !found {
		return nil, errUnknownKey
	}
	if !algFits(key, jose.SignatureAlgorithm(header.Algorithm)) {
		return nil, fmt.Errorf("the token names algorithm %s, which its key (%s) is not for", header.Algorithm, keyKind(key))
	}
	return jws.Verify(key.Key)
}

// cached is the keys held and whether they are older than maxAge.
func (k *keySet) cached() ([]jose.JSONWebKey, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.keys, k.maxAge > 0 && k.now().Sub(k.fetched) > k.maxAge
}

// pick is the signing key header names by its kid (without a kid, the
// set's only signing key).
func pick(keys []jose.JSONWebKey, header jose.Header) (jose.JSONWebKey, bool) {
	var match []jose.JSONWebKey
	for _, key := range keys {
		if header.KeyID == "" || key.KeyID == header.KeyID {
			match = append(match, key)
		}
	}
	if len(match) != 1 {
		return jose.JSONWebKey{}, false
	}
	return match[0], true
}

// algFits says whether alg is one the key may verify: the key's own alg
// when it states one, else one of its kind's.
func algFits(key jose.JSONWebKey, alg jose.SignatureAlgorithm) bool {
	if key.Algorithm != "" {
		return key.Algorithm == string(alg)
	}
	switch pub := key.Key.(type) {
	case *rsa.PublicKey:
		switch alg {
		case jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512:
			return true
		}
	case *ecdsa.PublicKey:
		switch alg {
		case jose.ES256:
			return pub.Curve.Params().BitSize == 256
		case jose.ES384:
			return pub.Curve.Params().BitSize == 384
		case jose.ES512:
			return pub.Curve.Params().BitSize == 521
		}
	case ed25519.PublicKey:
		return alg == jose.EdDSA
	}
	return false
}

func keyKind(key jose.JSONWebKey) string {
	if key.Algorithm != "" {
		return key.Algorithm
	}
	return fmt.Sprintf("%T", key.Key)
}

// refetch fetches the keys again, unless the last fetch was less than
// refetchEvery ago (then it returns the keys held, or the last fetch's
// error). Concurrent callers share one fetch. unknown says a token named
// a key not held; a stale set is refetched in any case.
func (k *keySet) refetch(ctx context.Context, unknown bool) ([]jose.JSONWebKey, error) {
	k.mu.Lock()
	if wait := k.inflight; wait != nil {
		k.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		k.mu.Lock()
		defer k.mu.Unlock()
		return k.keys, k.fetchErr
	}
	if !k.fetched.IsZero() && k.now().Sub(k.fetched) < k.refetchEvery {
		defer k.mu.Unlock()
		if unknown && k.fetchErr == nil {
			return k.keys, nil
		}
		return k.keys, k.fetchErr
	}
	done := make(chan struct{})
	k.inflight = done
	k.fetched = k.now()
	k.mu.Unlock()

	// The fetch outlives a request that gives up on it: the next one
	// would only start it again.
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	keys, err := k.fetch(fctx)
	cancel()

	k.mu.Lock()
	if err == nil {
		k.keys = keys
	}
	k.fetchErr = err
	k.inflight = nil
	close(done)
	defer k.mu.Unlock()
	return k.keys, err
}

// fetch reads the JWKS document: its signing keys, public ones only (a
// key of a kind go-jose does not know, or an encryption key, is left
// out rather than failing the set).
func (k *keySet) fetch(ctx context.Context) ([]jose.JSONWebKey, error) {
	k.fetches.Add(1)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, k.url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := k.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("the issuer's keys (%s): %w", k.url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the issuer's keys (%s): %s", k.url, resp.Status)
	}
	var doc struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&doc); err != nil {
		return nil, fmt.Errorf("the issuer's keys (%s): %w", k.url, err)
	}
	var keys []jose.JSONWebKey
	for _, raw := range doc.Keys {
		var key jose.JSONWebKey
		if key.UnmarshalJSON(raw) != nil || !key.Valid() || !key.IsPublic() || key.Use == "enc" {
			continue
		}
		if _, symmetric := key.Key.([]byte); symmetric {
			continue
		}
		keys = append(keys, key)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("the issuer's keys (%s): no signing keys", k.url)
	}
	return keys, nil
}
