package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/memory"
)

// A seeded demo is the same for the same seeding time and options:
// seeding makes some thousand git objects and decodes the web demo's
// screenshots, most of what New costs (the larger part of many a test). So
// each seeding this process makes is kept, read-only, and a server asking
// for the same one starts from a copy: the state through its JSON (as a
// state folder is saved and loaded), the git objects shared (they never
// change; each server keeps its own references and writes its own new
// objects), written to a state folder as one pack.

// seedKey names a seeding: its time (zero with ShareSeed: the process's
// first) and the options seed reads.
type seedKey struct {
	t0     int64
	bot    bool
	botApp bool
	scale  int
}

// seeding is one kept seeding of the demo.
type seeding struct {
	state []byte // the seeded state, as state.json holds it
	objs  *memory.ObjectStorage
	refs  []*plumbing.Reference
	// pack is every object as one packfile, made at the first state
	// folder's need.
	pack func() ([]byte, error)
	err  error
}

var (
	seedingsMu sync.Mutex
	seedings   = map[seedKey]*keptEntry{}
)

// keptEntry is a seeding made (or being made, once) at t0 at.
type keptEntry struct {
	at  time.Time
	get func() *seeding
}

// keptSeeding returns the seeding for s's options at t0, seeding it the
// first time it is asked for.
func (s *Server) keptSeeding(t0 time.Time) *seeding {
	k := seedKey{t0: t0.Unix(), bot: s.opts.BotIdentity, botApp: s.opts.BotApp, scale: s.opts.Scale}
	if s.opts.ShareSeed {
		k.t0 = 0
	}
	seedingsMu.Lock()
	e := seedings[k]
	if e == nil || t0.Sub(e.at) > sharedSeedMaxAge {
		opts := s.opts
		e = &keptEntry{at: t0, get: sync.OnceValue(func() *seeding { return seedTemplate(opts, t0) })}
		seedings[k] = e
	}
	seedingsMu.Unlock()
	return e.get()
}

// sharedSeedMaxAge bounds how much older than its server's clock a shared
// seeding may be: seeded dates are relative to the seeding (the latest, a
// running gate run, 54 minutes before it), so a copy is never more than
// this older than a demo seeded by the server itself.
const sharedSeedMaxAge = 5 * time.Minute

// seedTemplate seeds the demo into memory on a throwaway server with
// opts and keeps what it made.
func seedTemplate(opts Options, t0 time.Time) *seeding {
	g := newMemoryGitStore()
	tmp := &Server{opts: opts, st: &state{NextID: 4000}, git: g}
	tmp.opts.StateDir = ""
	if err := tmp.seedAt(t0); err != nil {
		return &seeding{err: fmt.Errorf("seeding the demo repository: %w", err)}
	}
	b, err := json.Marshal(tmp.st)
	if err != nil {
		return &seeding{err: fmt.Errorf("encoding the seeded demo: %w", err)}
	}
	mem := g.st.(*memory.Storage)
	sd := &seeding{state: b, objs: &mem.ObjectStorage}
	iter, err := mem.IterReferences()
	if err != nil {
		return &seeding{err: err}
	}
	if err := iter.ForEach(func(r *plumbing.Reference) error {
		sd.refs = append(sd.refs, r)
		return nil
	}); err != nil {
		return &seeding{err: err}
	}
	sd.pack = sync.OnceValues(func() ([]byte, error) {
		hashes := make([]plumbing.Hash, 0, len(sd.objs.Objects))
		for h := range sd.objs.Objects {
			hashes = append(hashes, h)
		}
		var buf bytes.Buffer
		if _, err := packfile.NewEncoder(&buf, sd.objs, false).Encode(hashes, 0); err != nil {
			return nil, fmt.Errorf("packing the seeded demo: %w", err)
		}
		return buf.Bytes(), nil
	})
	return sd
}

// restore puts a copy of the kept seeding into s.st and g.
func (sd *seeding) restore(s *Server, g *gitStore) error {
	if sd.err != nil {
		return sd.err
	}
	var st state
	if err := json.Unmarshal(sd.state, &st); err != nil {
		return fmt.Errorf("copying the seeded demo: %w", err)
	}
	if mem, ok := g.st.(*memory.Storage); ok {
		objs := &mem.ObjectStorage
		for h, o := range sd.objs.Objects {
			objs.Objects[h] = o
		}
		for h, o := range sd.objs.Commits {
			objs.Commits[h] = o
		}
		for h, o := range sd.objs.Trees {
			objs.Trees[h] = o
		}
		for h, o := range sd.objs.Blobs {
			objs.Blobs[h] = o
		}
		for h, o := range sd.objs.Tags {
			objs.Tags[h] = o
		}
	} else {
		pw, ok := g.st.(storer.PackfileWriter)
		if !ok {
			return fmt.Errorf("copying the seeded demo: the git storage cannot take a pack")
		}
		pack, err := sd.pack()
		if err != nil {
			return err
		}
		if err := packfile.WritePackfileToObjectStorage(pw, bytes.NewReader(pack)); err != nil {
			return fmt.Errorf("copying the seeded demo's git objects: %w", err)
		}
	}
	for _, r := range sd.refs {
		if err := g.st.SetReference(r); err != nil {
			return fmt.Errorf("copying the seeded demo's references: %w", err)
		}
	}
	// NextID and every id in st are the seeding's; a reset's state (into)
	// never comes here.
	s.st = &st
	return nil
}
