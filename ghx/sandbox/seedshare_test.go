package sandbox

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/memory"
)

// TestACopiedSeedingIsTheSeeding: a server whose demo is a copy of a kept
// seeding (in memory, and written to a state folder as one pack) holds
// the very state, references and git objects a seeding of its own makes.
func TestACopiedSeedingIsTheSeeding(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	clock := func() time.Time { return at }
	for _, opts := range []Options{{Now: clock}, {Now: clock, BotIdentity: true}, {Now: clock, StateDir: t.TempDir()}} {
		own := &Server{opts: opts, st: &state{NextID: 4000}, git: newMemoryGitStore()}
		if err := own.seedAt(at); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ { // the first seeds the kept one, the second copies it
			if opts.StateDir != "" {
				opts.StateDir = t.TempDir()
			}
			s := &Server{opts: opts}
			if err := s.load(); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(own.st, s.st) {
				a, _ := json.Marshal(own.st)
				b, _ := json.Marshal(s.st)
				i := 0
				for i < len(a) && i < len(b) && a[i] == b[i] {
					i++
				}
				t.Fatalf("%v %v: the copied state differs from a seeding's at byte %d: %.200s", opts.BotIdentity, opts.StateDir != "", i, b[max(0, i-100):])
			}
			mem := own.git.st.(*memory.Storage)
			for h := range mem.ObjectStorage.Objects {
				if _, err := s.git.st.EncodedObject(plumbing.AnyObject, h); err != nil {
					t.Fatalf("%v: the copy lacks object %s: %v", opts.StateDir != "", h, err)
				}
			}
			refs, _ := mem.IterReferences()
			_ = refs.ForEach(func(r *plumbing.Reference) error {
				got, err := s.git.st.Reference(r.Name())
				if err != nil || got.String() != r.String() {
					t.Fatalf("%v: reference %s is %v (%v), want %s", opts.StateDir != "", r.Name(), got, err, r)
				}
				return nil
			})
		}
	}
}

// TestASharedSeedingIsAtMostFiveMinutesOld: with ShareSeed a server starts
// from the process's seeding while it is at most sharedSeedMaxAge older
// than the server's clock, and from a new one after.
func TestASharedSeedingIsAtMostFiveMinutesOld(t *testing.T) {
	t.Parallel()
	// Scale 3 keys these seedings apart from every other test's.
	s := &Server{opts: Options{ShareSeed: true, Scale: 3, Now: time.Now}}
	t0 := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	first := s.keptSeeding(t0)
	if again := s.keptSeeding(t0.Add(sharedSeedMaxAge)); again != first {
		t.Errorf("a seeding %v old was seeded again", sharedSeedMaxAge)
	}
	if later := s.keptSeeding(t0.Add(sharedSeedMaxAge + time.Second)); later == first {
		t.Errorf("a seeding older than %v was shared", sharedSeedMaxAge)
	}
	s.opts.ShareSeed = false
	if own := s.keptSeeding(t0.Add(time.Minute)); own == first {
		t.Error("without ShareSeed a seeding at another second was shared")
	}
}
