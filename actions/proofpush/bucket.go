package proofpush

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/aayudha/aayu/proof"
)

// The standard AWS variables a bucket's credential and endpoint come from,
// the same ones the AWS CLI and SDKs read, so a person's existing set-up
// works unchanged. Their values are never printed.
const (
	envAccessKey    = "AWS_ACCESS_KEY_ID"
	envSecretKey    = "AWS_SECRET_ACCESS_KEY"
	envSessionToken = "AWS_SESSION_TOKEN"
	envRegion       = "AWS_REGION"
	envDefaultReg   = "AWS_DEFAULT_REGION"
	envEndpointS3   = "AWS_ENDPOINT_URL_S3"
	envEndpoint     = "AWS_ENDPOINT_URL"
)

// lifecycleRuleID names aayu's one lifecycle rule in the bucket, so a later
// push replaces it and leaves every other rule alone.
const lifecycleRuleID = "aayu-proof-media"

// ErrNoBucketCredential is matched when [proof] media names a bucket but
// the environment holds no credential for it.
var ErrNoBucketCredential = errors.New("no credential for the media bucket")

// Bucket is the private media bucket [proof] media names, reached with a
// real S3 client (s3Client, SigV4-signed): Amazon S3 itself, or any S3-speaking server
// (R2, MinIO, the tests' gofakes3) named by AWS_ENDPOINT_URL_S3.
type Bucket struct {
	client *s3Client
	name   string
	prefix string // key prefix from the URL's path, without slashes at either end
	where  string // "s3://name/prefix" for messages: no credential ever
	owner  string
	repo   string
	// secrets are the credential's values, scrubbed from every error the
	// client returns, since a server may echo them.
	secrets []string
}

// OpenBucket reads mediaURL (s3://BUCKET/PREFIX, or r2://BUCKET/PREFIX with
// an endpoint) and the AWS variables through getenv. Nothing is sent until
// Put. azblob:// and gs:// are valid [proof] media values but have no
// client in this build, so they are refused in words rather than skipped.
func OpenBucket(mediaURL, owner, repo string, getenv func(string) string) (*Bucket, error) {
	if err := proof.CheckMediaBucket(mediaURL); err != nil {
		return nil, err
	}
	u, err := url.Parse(mediaURL)
	if err != nil {
		return nil, fmt.Errorf("[proof] media is not a bucket URL: %w", err)
	}
	endpoint := firstSet(getenv(envEndpointS3), getenv(envEndpoint))
	switch {
	case u.Scheme == "s3":
	case u.Scheme == "r2" && endpoint != "":
	case u.Scheme == "r2":
		return nil, fmt.Errorf("[proof] media names an r2:// bucket; set %s to the account's R2 endpoint (https://ACCOUNT.r2.cloudflarestorage.com)", envEndpointS3)
	default:
		return nil, fmt.Errorf("[proof] media names a %s:// bucket, and this build copies media to s3:// and r2:// buckets only; use one, or push without --media (media then keep only their hash)", u.Scheme)
	}
	id, secret, token := getenv(envAccessKey), getenv(envSecretKey), getenv(envSessionToken)
	if id == "" || secret == "" {
		return nil, fmt.Errorf("%w: set %s and %s (as for the AWS CLI) to a key that may write to the bucket", ErrNoBucketCredential, envAccessKey, envSecretKey)
	}
	region := firstSet(getenv(envRegion), getenv(envDefaultReg), "us-east-1")
	// Amazon S3 itself: the region's endpoint, the bucket in the host
	// (virtual-hosted style), except a bucket whose name has a dot, which
	// the endpoint's TLS certificate does not cover, in the path.
	client := &s3Client{http: http.DefaultClient, scheme: "https", host: "s3." + region + ".amazonaws.com",
		pathStyle: strings.Contains(u.Host, "."), region: region, id: id, secret: secret, token: token, now: time.Now}
	if endpoint != "" {
		e, err := url.Parse(endpoint)
		if err != nil || (e.Scheme != "http" && e.Scheme != "https") || e.Host == "" || e.User != nil {
			return nil, fmt.Errorf("%s (or %s) must be an http or https URL with a host and no credential, such as https://s3.example.com", envEndpointS3, envEndpoint)
		}
		// Any other S3-speaking server (R2, MinIO, …) is reached with the
		// bucket in the path, which they all serve.
		client.scheme, client.host, client.pathStyle = e.Scheme, e.Host, true
	}
	b := &Bucket{client: client, name: u.Host, prefix: strings.Trim(u.Path, "/"), owner: owner, repo: repo,
		secrets: []string{id, secret, token}}
	b.where = u.Scheme + "://" + path.Join(b.name, b.prefix)
	return b, nil
}

// Where names the bucket and prefix, for messages.
func (b *Bucket) Where() string { return b.where }

// Key is the object key of one media artifact: under the URL's prefix,
// then the repository, the story and the head, so two packs never share a
// key and a key says which pack it belongs to.
func (b *Bucket) Key(story int, head, artifact string) string {
	return path.Join(b.prefix, b.owner, b.repo, strconv.Itoa(story), head, artifact)
}

// Put copies one media artifact's bytes to the bucket under Key and
// returns the key. The artifact's SHA-256 rides along as object metadata,
// so whoever fetches the object can check it against the pack.
func (b *Bucket) Put(ctx context.Context, story int, head, artifact string, body []byte, sha256 string) (string, error) {
	key := b.Key(story, head, artifact)
	// The body goes with its Content-MD5, so S3 refuses it (BadDigest)
	// unless it stored exactly these bytes.
	if err := b.client.putObject(ctx, b.name, key, body, sha256); err != nil {
		return "", fmt.Errorf("copying %s to %s: %s", artifact, b.where, b.scrub(err))
	}
	return key, nil
}

// Expire sets the bucket's lifecycle rule so objects under the prefix
// expire after days (seed 000: "the push sets the bucket's lifecycle rule
// to [proof] retention_days where its credential can"). A credential or
// server that cannot is not a reason to refuse the push; the caller
// reports what came back.
func (b *Bucket) Expire(ctx context.Context, days int) error {
	if days <= 0 {
		return nil
	}
	// S3 replaces a bucket's whole lifecycle configuration on each write,
	// so the rules already there are read first and kept; only aayu's own
	// rule (by its ID) is added or replaced.
	rules, err := b.client.getLifecycle(ctx, b.name)
	if err != nil {
		return fmt.Errorf("reading %s's lifecycle rules: %s", b.where, b.scrub(err))
	}
	var kept []lifecycleRule
	for _, r := range rules {
		if r.ID != lifecycleRuleID {
			kept = append(kept, r)
		}
	}
	prefix := ""
	if b.prefix != "" {
		prefix = b.prefix + "/"
	}
	if err := b.client.putLifecycle(ctx, b.name, lifecycleRuleID, prefix, days, kept); err != nil {
		return fmt.Errorf("setting %s's lifecycle rule to %d days: %s", b.where, days, b.scrub(err))
	}
	return nil
}

// scrub is err's text with every credential value cut out.
func (b *Bucket) scrub(err error) string {
	s := err.Error()
	for _, v := range b.secrets {
		if v != "" {
			s = strings.ReplaceAll(s, v, "[redacted]")
		}
	}
	return s
}

func firstSet(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
