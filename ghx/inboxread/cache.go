package inboxread

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/model/inbox"
)

// ErrNoCache is matched by LoadCache's error whenever there is no usable
// last read: no file, a damaged one, or one written for something else.
// The caller treats it as a miss, never as a failure.
var ErrNoCache = errors.New("no cached inbox")

// cacheVersion changes whenever the file's shape does; an older file is a
// miss.
const cacheVersion = 2

// maxCacheFile bounds what LoadCache reads.
const maxCacheFile = 64 << 20

// cacheFile is what SaveCache writes. It holds only what the inbox read —
// never a token or a device code, which the Reader never sees.
type cacheFile struct {
	Version  int            `json:"version"`
	APIHost  string         `json:"api_host"`
	Repo     string         `json:"repo"`
	User     string         `json:"user"`
	ReadAt   time.Time      `json:"read_at"`
	Snapshot inbox.Snapshot `json:"snapshot"`
}

// CachePath names the file of one user's inbox of one repository on one
// GitHub: SHA-256 of the three, so the name says nothing about any of them.
func CachePath(dir, apiHost, ownerRepo, user string) string {
	h := sha256.New()
	for _, part := range []string{strings.ToLower(apiHost), strings.ToLower(ownerRepo), strings.ToLower(user)} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return filepath.Join(dir, hex.EncodeToString(h.Sum(nil))+".json")
}

func (r *Reader) cachePath(dir, user string) string {
	return CachePath(dir, r.apiHost, r.owner+"/"+r.repo, user)
}

// SaveCache keeps snap, read at readAt, as user's last read of this
// repository: written to a temporary file, synced, then renamed over the
// old one, readable by the user only.
func (r *Reader) SaveCache(dir, user string, snap inbox.Snapshot, readAt time.Time) error {
	if user == "" {
		return errors.New("saving the inbox cache: no user to keep it for")
	}
	b, err := json.Marshal(cacheFile{Version: cacheVersion, APIHost: r.apiHost, Repo: r.owner + "/" + r.repo,
		User: user, ReadAt: readAt.UTC(), Snapshot: snap})
	if err != nil {
		return fmt.Errorf("saving the inbox cache: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("saving the inbox cache: %w", err)
	}
	return writeAtomic(r.cachePath(dir, user), b)
}

// LoadCache returns user's last read of this repository and when it was
// read. Anything but a whole, matching file is ErrNoCache. The screen shows
// it at once, marked as cached, and never acts on it.
func (r *Reader) LoadCache(dir, user string) (inbox.Snapshot, time.Time, error) {
	f, err := os.Open(r.cachePath(dir, user))
	if err != nil {
		return inbox.Snapshot{}, time.Time{}, fmt.Errorf("%w: %v", ErrNoCache, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxCacheFile+1))
	if err != nil || len(b) > maxCacheFile {
		return inbox.Snapshot{}, time.Time{}, fmt.Errorf("%w: the file could not be read whole", ErrNoCache)
	}
	var c cacheFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return inbox.Snapshot{}, time.Time{}, fmt.Errorf("%w: the file is damaged", ErrNoCache)
	}
	if c.Version != cacheVersion || c.APIHost != r.apiHost || !strings.EqualFold(c.Repo, r.owner+"/"+r.repo) || !strings.EqualFold(c.User, user) {
		return inbox.Snapshot{}, time.Time{}, fmt.Errorf("%w: the file belongs to another version, GitHub, repository or user", ErrNoCache)
	}
	return c.Snapshot, c.ReadAt, nil
}

func writeAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".inbox-*.tmp")
	if err != nil {
		return fmt.Errorf("saving the inbox cache: %w", err)
	}
	defer os.Remove(tmp.Name()) // gone after the rename; removes the leftover on failure
	err = tmp.Chmod(0o600)
	if err == nil {
		_, err = tmp.Write(b)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("saving the inbox cache: %w", err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		_ = d.Sync() // make the rename itself durable where the system allows
		d.Close()
	}
	return nil
}

// DropCache removes user's last read of ownerRepo on the GitHub client
// talks to, so the next inbox shows nothing it did not read from GitHub:
// ship calls it once a write of its landed, since the kept cards (a Story
// ready to ship) would be stale at once. A missing file is no error.
func DropCache(dir string, client *github.Client, ownerRepo, user string) error {
	host := ""
	if client.BaseURL != nil {
		host = client.BaseURL.Host
	}
	if err := os.Remove(CachePath(dir, host, ownerRepo, user)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("dropping the inbox cache: %w", err)
	}
	return nil
}
