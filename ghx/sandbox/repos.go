package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// FreshRepoName is the second repository, acme/fresh: a small Go module with
// no aayudha set-up at all, there to try `aayu init` and `aayu doctor` on.
const (
	FreshRepoName = "fresh"
	freshRepoID   = 70002
	freshState    = "fresh.json"
	freshGitDir   = "fresh.git"
)

// repoSlot is one repository's state and git objects. The server keeps the
// demo repository in s.st and s.git; a request for acme/fresh swaps fresh's
// slot in for the length of the request (requests are served one at a
// time under s.mu), so every handler serves either repository unchanged.
type repoSlot struct {
	st  *state
	git *gitStore
}

// knownRepo says whether owner/name is one of the sandbox's repositories.
func knownRepo(owner, name string) bool {
	return strings.EqualFold(owner, RepoOwner) && (strings.EqualFold(name, RepoName) || strings.EqualFold(name, FreshRepoName))
}

// repoOfPath names the repository a REST path addresses ("" for none).
func repoOfPath(p string) string {
	rest, ok := strings.CutPrefix(p, "/repos/")
	if !ok {
		return ""
	}
	parts := strings.SplitN(rest, "/", 3)
	if len(parts) < 2 || !strings.EqualFold(parts[0], RepoOwner) {
		return ""
	}
	return strings.ToLower(parts[1])
}

// enter makes the repository the request addresses the current one and
// returns the function that puts the demo back. Call with s.mu held.
func (s *Server) enter(r *http.Request) func() {
	if repoOfPath(r.URL.Path) != FreshRepoName || s.fresh == nil {
		return func() {}
	}
	demo := repoSlot{st: s.st, git: s.git}
	s.st, s.git, s.cur = s.fresh.st, s.fresh.git, FreshRepoName
	return func() {
		s.fresh.st, s.fresh.git = s.st, s.git
		s.st, s.git, s.cur = demo.st, demo.git, ""
	}
}

// currentStateFile is where the current repository's state is saved.
func (s *Server) currentStateFile() string {
	if s.cur == FreshRepoName {
		return freshState
	}
	return stateFile
}

// renameCurrent rewrites the demo's names in a repository object for the
// repository being served.
func (s *Server) renameCurrent(m map[string]any, base string) {
	if s.cur != FreshRepoName {
		return
	}
	api := base + "/repos/" + RepoOwner + "/" + FreshRepoName
	html := base + "/" + RepoOwner + "/" + FreshRepoName
	m["id"], m["node_id"], m["name"], m["full_name"] = s.repoID(), s.repoNodeID(), FreshRepoName, RepoOwner+"/"+FreshRepoName
	m["description"], m["url"], m["html_url"], m["svn_url"] = "A small Go module with no aayudha set-up", api, html, html
	m["clone_url"], m["git_url"], m["ssh_url"] = html+".git", "git://sandbox/acme/fresh.git", "git@sandbox:acme/fresh.git"
}

// loadFresh opens acme/fresh's saved state, or seeds it.
func (s *Server) loadFresh() error {
	dir := s.opts.StateDir
	if dir == "" {
		return s.seedFreshRepo(nil)
	}
	b, err := os.ReadFile(filepath.Join(dir, freshState))
	if errors.Is(err, fs.ErrNotExist) {
		_ = os.RemoveAll(filepath.Join(dir, freshGitDir))
		return s.seedFreshRepo(nil)
	}
	if err != nil {
		return fmt.Errorf("reading the sandbox state of acme/fresh: %w", err)
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("the sandbox state of acme/fresh in %s is damaged (run reset to start over): %w", dir, err)
	}
	g, err := openGitStore(filepath.Join(dir, freshGitDir))
	if err != nil {
		return err
	}
	s.fresh = &repoSlot{st: &st, git: g}
	return nil
}

// seedFreshRepo builds acme/fresh: one commit of a small Go module on main,
// no workflow, no config, no ledger, no variable; into as seedFresh's.
func (s *Server) seedFreshRepo(into *state) error {
	var g *gitStore
	if s.opts.StateDir == "" {
		g = newMemoryGitStore()
	} else {
		var err error
		if g, err = initGitStore(filepath.Join(s.opts.StateDir, freshGitDir)); err != nil {
			return err
		}
	}
	if into == nil {
		into = &state{NextID: 9000}
	}
	slot := &repoSlot{st: into, git: g}
	demo := repoSlot{st: s.st, git: s.git}
	s.st, s.git, s.cur = slot.st, slot.git, FreshRepoName
	defer func() { s.st, s.git, s.cur = demo.st, demo.git, "" }()
	sd := &seeder{s: s, t0: s.now().Truncate(time.Second)}
	s.st.RepoCreated, s.st.Retention = sd.ago(240), 30
	root := sd.commit(plumbing.ZeroHash, map[string]string{
		"go.mod": "module example.com/fresh\n\ngo 1.22\n", "README.md": "# fresh\n\nA greeting library.\n",
		"greet/greet.go": freshGreet, "greet/greet_test.go": freshGreetTest,
	}, "Start the greeting library", "founder", sd.ago(240))
	sd.branch("main", root)
	// A ruleset requires the merge gate on main before aayu init proposes
	// the gate, as on a repository that set its rules up first: until the
	// gate runs, only the admin role (the ruleset's bypass) can merge.
	s.st.Rulesets = []*rulesetRec{gateRuleset([]string{"refs/heads/main"}, []ruleRec{{Type: "required_status_checks",
		Parameters: map[string]any{"required_status_checks": []any{map[string]any{"context": GateCheck}}, "strict_required_status_checks_policy": false}}}, sd.ago(240))}
	s.st.PushedAt = sd.ago(240)
	if sd.err != nil {
		return fmt.Errorf("seeding acme/fresh: %w", sd.err)
	}
	s.fresh = slot
	return s.save()
}

// saveFresh writes acme/fresh's state (Close saves both repositories).
func (s *Server) saveFresh() error {
	if s.fresh == nil {
		return nil
	}
	demo := repoSlot{st: s.st, git: s.git}
	s.st, s.git, s.cur = s.fresh.st, s.fresh.git, FreshRepoName
	defer func() { s.st, s.git, s.cur = demo.st, demo.git, "" }()
	return s.save()
}

const freshGreet = `// Package greet says hello.
package greet

// Hello greets name.
func Hello(name string) string {
	if name == "" {
		name = "world"
	}
	return "Hello, " + name + "!"
}
`

const freshGreetTest = `package greet

import "testing"

func TestHello(t *testing.T) {
	if got := Hello(""); got != "Hello, world!" {
		t.Errorf("Hello(\"\") = %q", got)
	}
	if got := Hello("Ada"); got != "Hello, Ada!" {
		t.Errorf("Hello(\"Ada\") = %q", got)
	}
}
`

// renameBody points the demo's URLs in a response at acme/fresh while
// fresh is served: handlers build links from the demo's name.
func (s *Server) renameBody(bw *bufWriter) {
	if s.cur != FreshRepoName || bw.body.Len() == 0 {
		return
	}
	b := bytes.ReplaceAll(bw.body.Bytes(), []byte(RepoOwner+"/"+RepoName), []byte(RepoOwner+"/"+FreshRepoName))
	bw.body.Reset()
	bw.body.Write(b)
}

// File returns a file of the demo repository at ref, read from its git
// objects (for CI's lint of the demo's workflow, and for tests).
func (s *Server) File(ref, p string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.git.resolve(ref)
	if !ok {
		return nil, fmt.Errorf("no ref %s in the demo repository", ref)
	}
	c, err := s.git.commit(id)
	if err != nil {
		return nil, err
	}
	e, err := s.lookup(c.TreeHash, p)
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", p, ref, err)
	}
	return s.git.blob(e.Hash)
}

// repoID is the id of the repository being served: a reset gives a new
// one, as GitHub does a repository deleted and created again.
func (s *Server) repoID() int64 {
	switch {
	case s.st.RepoID != 0:
		return s.st.RepoID
	case s.cur == FreshRepoName:
		return freshRepoID
	}
	return RepoID
}

// repoNodeID is the repository's GraphQL id, new with its id.
func (s *Server) repoNodeID() string {
	switch s.repoID() {
	case RepoID:
		return "R_kgDOsandbox"
	case freshRepoID:
		return "R_kgDOsbfresh"
	}
	return nodeID("R", s.repoID())
}
