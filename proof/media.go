package proof

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"
)

// ErrMediaRefused is wrapped by every refusal to store media where they
// must not go: the ledger, Git LFS, or a bucket nobody configured.
var ErrMediaRefused = errors.New("media refused")

// isMediaExtension reports whether a lower-case file extension is an image,
// video, audio or PDF type, which count as media whatever kind the pack
// gives them.
func isMediaExtension(ext string) bool {
	switch ext {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".bmp", ".tiff", ".heic", ".avif",
		".mp4", ".webm", ".mov", ".mkv", ".avi", ".m4v",
		".mp3", ".wav", ".ogg", ".oga", ".flac", ".m4a", ".aac", ".opus",
		".pdf":
		return true
	}
	return false
}

// isMediaBucketScheme reports the private bucket stores [proof] media may name.
func isMediaBucketScheme(scheme string) bool {
	switch scheme {
	case "s3", "r2", "azblob", "gs":
		return true
	}
	return false
}

// IsMedia reports whether an artifact is media: a screenshot, recording or
// screen-reader transcript, or an image, video, audio or PDF file by its
// extension (in any case).
func IsMedia(a Artifact) bool {
	switch a.Kind {
	case KindScreenshot, KindRecording, KindSRTranscript:
		return true
	}
	return isMediaExtension(strings.ToLower(path.Ext(a.Path)))
}

// CheckMediaBucket checks a [proof] media value. Empty is valid (no bucket).
// Errors never repeat the value itself, which may carry a credential.
func CheckMediaBucket(mediaBucket string) error {
	if mediaBucket == "" {
		return nil
	}
	u, err := url.Parse(mediaBucket)
	if err != nil || u.Scheme == "" {
		return fmt.Errorf("[proof] media is not a bucket URL; use s3://, r2://, azblob:// or gs:// followed by the bucket name")
	}
	if !isMediaBucketScheme(u.Scheme) {
		return fmt.Errorf("[proof] media names a %s:// store; only s3://, r2://, azblob:// and gs:// buckets are supported", clipText(u.Scheme))
	}
	if u.User != nil {
		return fmt.Errorf("[proof] media carries a credential in its URL; remove it and keep the credential in the proof-media secret")
	}
	if u.Host == "" {
		return fmt.Errorf("[proof] media names no bucket after %s://", u.Scheme)
	}
	return nil
}

// CheckMediaStore refuses a new pack whose media would land where media
// must not: store git or lfs always (media never go to the ledger or Git
// LFS), and store bucket when [proof] media names no bucket. Media with
// store none are fine: only their hash and size are kept. Every refused
// path is named. Packs from before 0.2 are read, never written, so their
// lfs media do not pass through here.
func CheckMediaStore(artifacts []Artifact, mediaBucket string) error {
	if err := CheckMediaBucket(mediaBucket); err != nil {
		return err
	}
	var refused []string
	for _, a := range artifacts {
		if !IsMedia(a) {
			continue
		}
		switch {
		case a.Store == StoreGit || a.Store == StoreLFS:
			refused = append(refused, fmt.Sprintf("%s (store %s)", a.Path, a.Store))
		case a.Store == StoreBucket && mediaBucket == "":
			refused = append(refused, fmt.Sprintf("%s (store bucket, but no bucket is configured)", a.Path))
		}
	}
	if len(refused) == 0 {
		return nil
	}
	hint := "set [proof] media to a private bucket (s3://, r2://, azblob:// or gs://) or keep only their hashes with store none"
	if mediaBucket != "" {
		hint = "give them store bucket or store none"
	}
	return fmt.Errorf("%w: media never go to the ledger or Git LFS, and %d would: %s; %s", ErrMediaRefused, len(refused), strings.Join(refused, ", "), hint)
}

// LedgerCopy returns the form of p that may land on the ledger: media
// become store none (hash and size kept, object cleared), data artifacts
// are unchanged. p itself is not modified.
func LedgerCopy(p Pack) Pack {
	c := p
	c.Footprint = slices.Clone(p.Footprint)
	c.Criteria = slices.Clone(p.Criteria)
	for i := range c.Criteria {
		c.Criteria[i].Evidence = slices.Clone(c.Criteria[i].Evidence)
	}
	c.Checks = slices.Clone(p.Checks)
	for i := range c.Checks {
		c.Checks[i].Value = cloneFloat(c.Checks[i].Value)
		c.Checks[i].Threshold = cloneFloat(c.Checks[i].Threshold)
	}
	c.Artifacts = slices.Clone(p.Artifacts)
	for i := range c.Artifacts {
		a := &c.Artifacts[i]
		if a.Tombstone != nil {
			t := *a.Tombstone
			a.Tombstone = &t
		}
		if IsMedia(*a) {
			a.Store, a.Object = StoreNone, ""
		}
	}
	return c
}

func cloneFloat(f *float64) *float64 {
	if f == nil {
		return nil
	}
	v := *f
	return &v
}
