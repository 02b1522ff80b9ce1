package proofpush

import (
	"context"
	"fmt"

	"github.com/aayudha/aayu/actions/mediastore"
	"github.com/aayudha/aayu/proof"
)

// ErrNoBucketCredential is matched when [proof] media names a bucket but
// the environment holds no credential for it.
var ErrNoBucketCredential = mediastore.ErrNoCredential

// Bucket is the private media bucket [proof] media names (s3://, r2://,
// gs:// or azblob://), reached through mediastore, the one bucket API.
type Bucket struct {
	store       *mediastore.Store
	owner, repo string
}

// OpenBucket reads mediaURL and the credential its kind of bucket needs
// from getenv (mediastore.CredentialFromEnv: the cloud's own variables).
// Nothing is sent until Put.
func OpenBucket(mediaURL, owner, repo string, getenv func(string) string) (*Bucket, error) {
	if err := proof.CheckMediaBucket(mediaURL); err != nil {
		return nil, err
	}
	cred, err := mediastore.CredentialFromEnv(mediaURL, getenv)
	if err != nil {
		return nil, err
	}
	s, err := mediastore.Open(mediaURL, cred)
	if err != nil {
		return nil, err
	}
	return &Bucket{store: s, owner: owner, repo: repo}, nil
}

// Where names the bucket and prefix, for messages.
func (b *Bucket) Where() string { return b.store.Where() }

// Put copies one media artifact's bytes to the bucket under its
// content-addressed key (mediastore.Store.Key) and returns the key. The
// bytes were checked against sha256 as they were read; they are checked
// once more here, since the key names them.
func (b *Bucket) Put(ctx context.Context, _ int, _, artifact string, body []byte, sha256 string) (string, error) {
	key := b.store.Key(b.owner, b.repo, sha256, artifact)
	if err := b.store.Put(ctx, key, body); err != nil {
		return "", fmt.Errorf("copying %s: %w", artifact, err)
	}
	return key, nil
}

// Expire sets the bucket's lifecycle rule so objects under the prefix
// expire after days (seed 000: "the push sets the bucket's lifecycle rule
// to [proof] retention_days where its credential can"). A credential or
// server that cannot is not a reason to refuse the push; the caller
// reports what came back, in words.
func (b *Bucket) Expire(ctx context.Context, days int) error {
	return b.store.SetRetention(ctx, days)
}
