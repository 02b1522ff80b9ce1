package proofpush

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/actions/ledgerpack"
	"github.com/aayudha/aayu/actions/mediastore"
	"github.com/aayudha/aayu/proof"
)

// ErrNoLocalPack is matched when .aayudha/proof/STORY/pack.json is not
// there (or is not a regular file): there is nothing to push.
var ErrNoLocalPack = errors.New("no local pack")

// ErrOtherStory is matched when the local pack's pack.json names another
// story than the one asked for.
var ErrOtherStory = errors.New("the local pack is for another story")

// ErrCIPush is ledgerpack's: CI writes nothing to the ledger.
var ErrCIPush = ledgerpack.ErrCIPush

// ErrBucketUnusable is matched when [proof] media or the bucket's
// variables cannot make a bucket client (an r2:// bucket without its
// endpoint, an endpoint that is not a URL, a key that is not one).
var ErrBucketUnusable = errors.New("the media bucket cannot be used")

// IsRefusal says whether err is one of the push's refusals (exit 4), as
// against a failure to reach GitHub or the bucket (exit 1).
func IsRefusal(err error) bool {
	for _, r := range []error{ErrCIPush, ErrNoLocalPack, ErrOtherStory, ledgerpack.ErrPackIntegrity,
		proof.ErrMediaRefused, ErrNoBucketCredential, ErrBucketUnusable, mediastore.ErrUnusable,
		mediastore.ErrCredentialRefused, mediastore.ErrOverwrite} {
		if errors.Is(err, r) {
			return true
		}
	}
	return false
}

// Options are one push.
type Options struct {
	Client      *github.Client
	Owner, Repo string
	Story       int
	// Checkout holds .aayudha/proof/STORY/; "" is the working directory.
	Checkout string
	CI       bool // --ci: always refused
	Media    bool // --media: copy media to the bucket
	// MediaURL is [proof] media; RetentionDays is [proof] retention_days,
	// the bucket's lifecycle rule.
	MediaURL      string
	RetentionDays int
	// Getenv reads the bucket's credential (mediastore.CredentialFromEnv).
	Getenv   func(string) string
	Login    string
	Log      *actions.Log
	Trailers []string
}

// Result is what landed, and the bucket's lifecycle outcome in words.
type Result struct {
	*ledgerpack.Pushed
	Dir    string // the local pack pushed
	Bucket string // SCHEME://bucket/prefix when media were asked for
	// LifecycleNote says what became of the bucket's lifecycle rule when
	// it could not be set; the push stands all the same.
	LifecycleNote string
}

// Dir is where `aayu verify STORY` writes the local pack of story in
// checkout.
func Dir(checkout string, story int) string {
	if checkout == "" {
		checkout = "."
	}
	return filepath.Join(checkout, ".aayudha", "proof", strconv.Itoa(story))
}

// Push checks every refusal, then lands the pack. Nothing is written to
// GitHub or the bucket before the last refusal has been passed.
func Push(ctx context.Context, o Options) (*Result, error) {
	if o.CI {
		return nil, fmt.Errorf("%w. Nothing was pushed", ErrCIPush)
	}
	dir := Dir(o.Checkout, o.Story)
	fi, err := os.Lstat(filepath.Join(dir, "pack.json"))
	if err != nil || !fi.Mode().IsRegular() {
		why := "it is not there"
		if err == nil {
			why = "it is not a regular file"
		} else if !errors.Is(err, fs.ErrNotExist) {
			why = err.Error()
		}
		return nil, fmt.Errorf("%w: %s/pack.json: %s; aayu verify %d builds it. Nothing was pushed", ErrNoLocalPack, filepath.ToSlash(dir), why, o.Story)
	}
	p, _, err := proof.ReadPackDir(dir, proof.Limits{})
	if err != nil {
		return nil, fmt.Errorf("%w: %s/pack.json cannot be read: %v; nothing was pushed", ledgerpack.ErrPackIntegrity, filepath.ToSlash(dir), err)
	}
	if p.Story != o.Story {
		return nil, fmt.Errorf("%w: %s/pack.json names story %d, not %d; nothing was pushed", ErrOtherStory, filepath.ToSlash(dir), p.Story, o.Story)
	}
	res := &Result{Dir: dir}
	popts := ledgerpack.PushOptions{MediaBucket: o.MediaURL, Login: o.Login, Log: o.Log, Trailers: o.Trailers}
	var bucket *Bucket
	if o.Media {
		if o.MediaURL == "" {
			return nil, fmt.Errorf("%w: --media copies media to the private bucket [proof] media names, and none is set (set it to s3://, r2://, gs:// or azblob://BUCKET/PREFIX, or push without --media: media then keep only their hash). Nothing was pushed", proof.ErrMediaRefused)
		}
		getenv := o.Getenv
		if getenv == nil {
			getenv = func(string) string { return "" }
		}
		if bucket, err = OpenBucket(o.MediaURL, o.Owner, o.Repo, getenv); err != nil {
			if !errors.Is(err, ErrNoBucketCredential) {
				err = fmt.Errorf("%w: %w", ErrBucketUnusable, err)
			}
			return nil, fmt.Errorf("%w. Nothing was pushed", err)
		}
		popts.Media, res.Bucket = bucket, bucket.Where()
	}
	pushed, err := ledgerpack.PushAdvisory(ctx, o.Client, o.Owner, o.Repo, dir, popts)
	if err != nil {
		return nil, err
	}
	res.Pushed = pushed
	if bucket != nil && len(pushed.Media) > 0 {
		if err := bucket.Expire(ctx, o.RetentionDays); err != nil {
			res.LifecycleNote = err.Error() + "; the objects stay until removed by hand"
		}
	}
	return res, nil
}
