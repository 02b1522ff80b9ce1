package inboxread_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
)

func TestCacheRoundTripAndNoToken(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	snap := read(t, f.reader)
	readAt := f.reader.LastReadAt()
	dir := filepath.Join(t.TempDir(), "aayu", "inbox")

	if err := f.reader.SaveCache(dir, "founder", snap, readAt); err != nil {
		t.Fatalf("SaveCache: %v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 {
		t.Fatalf("the cache folder should hold exactly one file: %v %v", entries, err)
	}
	path := filepath.Join(dir, entries[0].Name())
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("cache file mode: %v %v, want 0600", info.Mode(), err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{sandbox.TokenPrefix + "founder", sandbox.TokenPrefix, "Bearer", "device_code", "user_code"} {
		if bytes.Contains(raw, []byte(secret)) {
			t.Errorf("the cache file contains %q", secret)
		}
	}
	if bytes.Contains([]byte(entries[0].Name()), []byte("founder")) || bytes.Contains([]byte(entries[0].Name()), []byte("benefits")) {
		t.Errorf("the file name %q gives away the user or the repository", entries[0].Name())
	}

	got, gotAt, err := f.reader.LoadCache(dir, "founder")
	if err != nil {
		t.Fatalf("LoadCache: %v", err)
	}
	if !gotAt.Equal(readAt) {
		t.Errorf("read at %v, want %v", gotAt, readAt)
	}
	want, _ := json.Marshal(snap)
	have, _ := json.Marshal(got)
	if !bytes.Equal(want, have) {
		t.Error("the snapshot did not survive the round trip")
	}
	if len(inbox.Derive(got)) != len(inbox.Derive(snap)) {
		t.Error("the cached snapshot derives different steps")
	}

	// Saving again replaces the file and leaves no temporary behind.
	if err := f.reader.SaveCache(dir, "founder", snap, readAt.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("after a second save the folder holds %d files", len(entries))
	}

	misses := []struct {
		name  string
		user  string
		write []byte // replaces the file first, when set
	}{
		{"another user", "writer", nil},
		{"damaged file", "founder", []byte(`{"version":1,"api_host":`)},
		{"not JSON", "founder", []byte("\x00\x01garbage")},
		{"newer version", "founder", []byte(`{"version":99}`)},
		{"empty file", "founder", []byte{}},
	}
	for _, m := range misses {
		t.Run(m.name, func(t *testing.T) {
			if m.write != nil {
				if err := os.WriteFile(path, m.write, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if _, _, err := f.reader.LoadCache(dir, m.user); !errors.Is(err, inboxread.ErrNoCache) {
				t.Errorf("LoadCache = %v, want a miss (ErrNoCache)", err)
			}
		})
	}
}

func TestCachePathSeparatesEverything(t *testing.T) {
	t.Parallel()
	base := inboxread.CachePath("d", "api.github.com", "acme/benefits", "founder")
	for _, other := range []string{
		inboxread.CachePath("d", "ghes.example.com", "acme/benefits", "founder"),
		inboxread.CachePath("d", "api.github.com", "acme/other", "founder"),
		inboxread.CachePath("d", "api.github.com", "acme/benefits", "writer"),
		inboxread.CachePath("d", "api.github.co", "macme/benefits", "founder"),
	} {
		if other == base {
			t.Errorf("%s is shared", other)
		}
	}
	if inboxread.CachePath("d", "API.github.com", "Acme/Benefits", "Founder") != base {
		t.Error("GitHub names are case-insensitive; the path should be too")
	}
}
