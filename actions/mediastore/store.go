package mediastore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"
)

// The refusals a store answers with, matched with errors.Is. Each error
// that wraps one names the bucket and what the server said, never the
// credential.
var (
	// ErrNotFound: the object is not in the bucket.
	ErrNotFound = errors.New("no such object in the media bucket")
	// ErrOverwrite: Put found the key holding other bytes. Objects are
	// write-once: a key names its bytes' SHA-256, so other bytes under it
	// mean a tampered or broken object, never a newer version.
	ErrOverwrite = errors.New("the media bucket already holds other bytes under this key; objects are never overwritten")
	// ErrCredentialRefused: the server refused the credential (401 or 403,
	// or the token exchange's refusal).
	ErrCredentialRefused = errors.New("the media bucket refused the credential")
	// ErrNoCredential: the URL's kind of bucket needs a credential the
	// caller did not give.
	ErrNoCredential = errors.New("no credential for the media bucket")
	// ErrUnusable: the URL or the endpoint cannot make a client.
	ErrUnusable = errors.New("the media bucket cannot be used")
	// ErrRetentionNotSet: the bucket's lifecycle rule could not be set
	// with this credential or on this server; the words say which and what
	// to do by hand. Objects stay until removed.
	ErrRetentionNotSet = errors.New("the media bucket's lifecycle rule was not set")
)

// lifecycleRuleID names aayu's one lifecycle rule in a bucket, so a later
// push replaces it and leaves every other rule alone.
const lifecycleRuleID = "aayu-proof-media"

// Credential is what a bucket's client signs with, and where it sends.
// Only the fields of the URL's kind are read. Every secret in it is cut
// out of every error the store returns.
type Credential struct {
	// s3:// and r2://: an access key (and session token), and the region
	// it signs for (r2 signs for "auto").
	AccessKeyID, SecretAccessKey, SessionToken, Region string
	// gs://: a service-account JSON key, exchanged for an OAuth 2.0
	// token (JWT bearer grant, RS256), or an OAuth 2.0 access token.
	ServiceAccountJSON []byte
	AccessToken        string
	// azblob://: the storage account and its key (SharedKey), or a SAS
	// token (the query string, with or without "?").
	Account, AccountKey, SAS string
	// Endpoint replaces the service's own (https://ACCOUNT.r2.cloudflarestorage.com,
	// an Azure blob endpoint, a test server): scheme and host, no credential.
	Endpoint string
}

// secrets are c's values that must never be printed.
func (c Credential) secrets() []string {
	out := []string{c.SecretAccessKey, c.SessionToken, c.AccessToken, c.AccountKey, c.SAS, strings.TrimPrefix(c.SAS, "?")}
	if len(c.ServiceAccountJSON) > 0 {
		out = append(out, string(c.ServiceAccountJSON))
		if k, err := parseServiceAccount(c.ServiceAccountJSON); err == nil {
			out = append(out, k.PrivateKey, k.PrivateKeyID)
		}
	}
	return out
}

// Attrs are what Stat reads of an object.
type Attrs struct {
	Size int64
	// SHA256 is the hex SHA-256 the object was stored with (its metadata),
	// "" when the object carries none.
	SHA256 string
}

// driver is one protocol's client. Keys are whole object keys in the
// bucket. put creates only: an object already under key is errExists.
type driver interface {
	put(ctx context.Context, key string, body []byte, sha256Hex string) error
	get(ctx context.Context, key string) ([]byte, error)
	stat(ctx context.Context, key string) (Attrs, error)
	del(ctx context.Context, key string) error
	// setRetention makes objects under prefix expire after days, keeping
	// the bucket's other rules, and checks the bucket kept it.
	setRetention(ctx context.Context, prefix string, days int) error
}

// errExists is a driver's answer to a create-only put of a key that is
// there: Put then compares the bytes.
var errExists = errors.New("the object exists")

// Store is one private media bucket ([proof] media), reached through its
// protocol's driver. It is the one API media go through: proof push
// --media and ship copy with Put, the pack viewer reads with Get.
type Store struct {
	d       driver
	bucket  string
	prefix  string // key prefix from the URL's path, without slashes at either end
	where   string // "s3://bucket/prefix" for messages: no credential ever
	root    string // "s3://bucket", which keys follow in messages
	secrets []string
}

// Open reads a [proof] media URL (s3://, r2://, gs:// or azblob://, a
// bucket and an optional prefix) and makes its client with c. Nothing is
// sent until the first call.
func Open(rawURL string, c Credential) (*Store, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" {
		return nil, fmt.Errorf("%w: [proof] media must be SCHEME://BUCKET/PREFIX, with no credential or query in it", ErrUnusable)
	}
	s := &Store{bucket: u.Host, prefix: strings.Trim(u.Path, "/"), secrets: c.secrets()}
	s.root = u.Scheme + "://" + s.bucket
	s.where = u.Scheme + "://" + path.Join(s.bucket, s.prefix)
	switch u.Scheme {
	case "s3", "r2":
		s.d, err = newS3(u.Scheme, u.Host, c)
	case "gs":
		s.d, err = newGCS(u.Host, c)
	case "azblob":
		s.d, err = newAzure(u.Host, c)
	default:
		return nil, fmt.Errorf("%w: [proof] media names a %s:// store; use s3://, r2://, gs:// or azblob://", ErrUnusable, clip(u.Scheme))
	}
	if err != nil {
		return nil, s.refuse(s.scrub(err.Error()), err)
	}
	return s, nil
}

// checkEndpoint parses an endpoint override: http or https, a host, no
// credential, no query.
func checkEndpoint(name, endpoint string) (*url.URL, error) {
	e, err := url.Parse(endpoint)
	if err != nil || (e.Scheme != "http" && e.Scheme != "https") || e.Host == "" || e.User != nil || e.RawQuery != "" {
		return nil, fmt.Errorf("%w: the %s endpoint must be an http or https URL with a host and no credential, such as https://storage.example.com", ErrUnusable, name)
	}
	return e, nil
}

// Where names the bucket and prefix, for messages.
func (s *Store) Where() string { return s.where }

// Key is the object key of media whose bytes hash to sha256Hex: under the
// URL's prefix, the repository, then the hash itself (with the file's
// extension, so whoever opens it knows its type). Content-addressed: the
// same bytes always have the same key, two packs that share a screenshot
// share its object, and a key's bytes can be checked against its name.
func (s *Store) Key(owner, repo, sha256Hex, name string) string {
	return path.Join(s.prefix, owner, repo, "sha256", sha256Hex+strings.ToLower(path.Ext(name)))
}

// Put stores body under key, once. An object already there with the same
// bytes is kept (a second push of the same pack is not an error); one with
// other bytes is refused with ErrOverwrite and left as it is. The body's
// SHA-256 rides along as object metadata.
func (s *Store) Put(ctx context.Context, key string, body []byte) error {
	sum := sha256.Sum256(body)
	sumHex := hex.EncodeToString(sum[:])
	_, err := s.d.stat(ctx, key)
	switch {
	case err == nil:
		return s.same(ctx, key, body)
	case !errors.Is(err, ErrNotFound):
		return s.fail("storing", key, err)
	}
	if err := s.d.put(ctx, key, body, sumHex); errors.Is(err, errExists) {
		// Someone stored it between the look and the write.
		return s.same(ctx, key, body)
	} else if err != nil {
		return s.fail("storing", key, err)
	}
	return nil
}

// same is Put's answer when key is already there: nil when it holds body.
func (s *Store) same(ctx context.Context, key string, body []byte) error {
	got, err := s.d.get(ctx, key)
	if err != nil {
		return s.fail("reading the existing", key, err)
	}
	if !bytes.Equal(got, body) {
		return fmt.Errorf("%w: %s/%s; it was left as it is", ErrOverwrite, s.root, clip(key))
	}
	return nil
}

// Get reads an object's bytes.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	b, err := s.d.get(ctx, key)
	if err != nil {
		return nil, s.fail("reading", key, err)
	}
	return b, nil
}

// Stat reads an object's size and the SHA-256 it was stored with.
func (s *Store) Stat(ctx context.Context, key string) (Attrs, error) {
	a, err := s.d.stat(ctx, key)
	if err != nil {
		return Attrs{}, s.fail("looking up", key, err)
	}
	return a, nil
}

// Delete removes an object; one not there is ErrNotFound.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := s.d.del(ctx, key); err != nil {
		return s.fail("deleting", key, err)
	}
	return nil
}

// SetRetention sets the bucket's lifecycle rule so objects under the
// URL's prefix expire after days (seed 000: "the push sets the bucket's
// lifecycle rule to [proof] retention_days where its credential can"),
// and reads it back. Where the credential or the server cannot, the error
// wraps ErrRetentionNotSet and says so in words; the objects are stored
// all the same.
func (s *Store) SetRetention(ctx context.Context, days int) error {
	if days <= 0 {
		return nil
	}
	prefix := ""
	if s.prefix != "" {
		prefix = s.prefix + "/"
	}
	if err := s.d.setRetention(ctx, prefix, days); err != nil {
		hint := ""
		if !errors.Is(err, ErrRetentionNotSet) {
			// The credential may not write lifecycle rules, or the server
			// has none: the person can, in the cloud's console.
			hint = fmt.Sprintf("; set a rule on the bucket by hand that expires objects under %q after %d days", prefix, days)
		}
		return &refusal{msg: fmt.Sprintf("setting %s's lifecycle rule to %d days: %s%s", s.where, days, s.scrub(err.Error()), hint), is: ErrRetentionNotSet}
	}
	return nil
}

// fail wraps a driver's error with what was being done and where, the
// credential cut out, keeping the refusal errors.Is matches.
func (s *Store) fail(doing, key string, err error) error {
	msg := fmt.Sprintf("%s %s/%s: %s", doing, s.root, clip(key), s.scrub(err.Error()))
	if errors.Is(err, ErrCredentialRefused) {
		msg += " (" + ErrCredentialRefused.Error() + ": check the proof-media credential)"
	}
	return s.refuse(msg, err)
}

// refuse is msg (already scrubbed) as an error matching the refusal err
// matches, if any.
func (s *Store) refuse(msg string, err error) error {
	for _, sentinel := range []error{ErrNotFound, ErrCredentialRefused, ErrUnusable, ErrNoCredential} {
		if errors.Is(err, sentinel) {
			return &refusal{msg: msg, is: sentinel}
		}
	}
	return errors.New(msg)
}

// refusal is an error whose text is already scrubbed and which matches
// one sentinel, without carrying the driver's unscrubbed error along.
type refusal struct {
	msg string
	is  error
}

func (r *refusal) Error() string        { return r.msg }
func (r *refusal) Is(target error) bool { return target == r.is }

// scrub is text with every credential value cut out: a server may echo
// what it was sent.
func (s *Store) scrub(text string) string {
	for _, v := range s.secrets {
		if len(v) >= 4 {
			text = strings.ReplaceAll(text, v, "[redacted]")
		}
	}
	return text
}

// clip shortens a value for a message.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// httpError is a server's refusal: its status and, when the body said,
// its code and message.
type httpError struct {
	Status        int
	Code, Message string
}

func (e *httpError) Error() string {
	switch {
	case e.Code == "" && e.Message == "":
		return fmt.Sprintf("the server answered %d %s", e.Status, http.StatusText(e.Status))
	case e.Message == "":
		return fmt.Sprintf("the server answered %d %s", e.Status, clip(e.Code))
	case e.Code == "":
		return fmt.Sprintf("the server answered %d: %s", e.Status, clip(e.Message))
	}
	return fmt.Sprintf("the server answered %d %s: %s", e.Status, clip(e.Code), clip(e.Message))
}

// Is makes a 401 or 403 a refused credential and a 404 a missing object.
func (e *httpError) Is(target error) bool {
	switch target {
	case ErrCredentialRefused:
		return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden
	case ErrNotFound:
		return e.Status == http.StatusNotFound
	}
	return false
}

// maxResponse caps what is read of an answer that is not an object: a
// lifecycle configuration or an error.
const maxResponse = 4 << 20

// send is every driver's one request: it sends req and reads the answer,
// at most limit bytes of a success and maxResponse of anything else (an
// error's body is words, never an object). ok says the status was 2xx; the
// caller reads its protocol's error body from got when it was not.
func send(client *http.Client, req *http.Request, limit int64) (resp *http.Response, got []byte, ok bool, err error) {
	resp, err = client.Do(req)
	if err != nil {
		return nil, nil, false, err
	}
	defer func() { _ = resp.Body.Close() }()
	ok = resp.StatusCode/100 == 2
	if !ok {
		limit = maxResponse
	}
	got, err = io.ReadAll(io.LimitReader(resp.Body, limit))
	if err != nil {
		return nil, nil, false, fmt.Errorf("reading the answer: %w", err)
	}
	return resp, got, ok, nil
}

// maxObject caps what Get reads of one object: the pack's own cap on one
// artifact is below it.
const maxObject = 1 << 30

// httpClient is the one client every driver sends with: a whole request
// may take long (a recording), a stuck connection may not.
var httpClient = &http.Client{Timeout: 10 * time.Minute}
