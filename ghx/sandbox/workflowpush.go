package sandbox

import (
	"bytes"
	"net/http"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/memory"
)

// Workflow files need their own grant. GitHub refuses a push (git or the
// Git Data API) whose new commits add, change or remove a file under
// .github/workflows/ unless the token may write workflows: a person's
// OAuth or classic token needs the `workflow` scope, a GitHub App's
// installation token the `workflows` permission, and a job's GITHUB_TOKEN
// never holds it. Its words, as git shows them:
//
//	! [remote rejected] x -> x (refusing to allow an OAuth App to create or update workflow `.github/workflows/x.yml` without `workflow` scope)
//	! [remote rejected] x -> x (refusing to allow a GitHub App to create or update workflow `.github/workflows/x.yml` without `workflows` permission)
//
// (docs.github.com, "Scopes for OAuth apps": workflow "Grants the ability
// to add and update GitHub Actions workflow files"; "Permissions required
// for GitHub Apps": Workflows, write.)

const workflowsDir = ".github/workflows/"

// accountScopes are the scopes of each sandbox person's token, as GitHub
// reports them in X-OAuth-Scopes. The founder set the repository up and
// pushes its workflows, so their token carries `workflow`; the writer and
// the reader hold what `gh auth login` asks for (repo, read:org, gist),
// which cannot touch a workflow file. The agent bot is an App: no scopes.
var accountScopes = map[string][]string{
	"founder": {"gist", "read:org", "repo", "workflow"},
	"writer":  {"gist", "read:org", "repo"},
	"reader":  {"gist", "read:org", "repo"},
}

// botAppPermissions are the agent App's (agent-bot) permissions: what an
// agent needs to push branches, open pull requests, comment, and report
// statuses and check runs as a CI App does; never `workflows`, so no
// agent can change the gate that judges it (SPEC §11).
var botAppPermissions = map[string]string{"contents": "write", "issues": "write", "pull_requests": "write",
	"metadata": "read", "checks": "write", "statuses": "write"}

// scopes are a person's token's scopes; ok is false for an App's token
// (a job's, an installation's, the agent bot's), which has none.
func (c caller) scopes() (list []string, ok bool) {
	if c.anonymous || c.integrationID() != 0 || c.app != nil {
		return nil, false
	}
	if c.user != nil {
		// A device-flow token: an OAuth App's carries the scopes it was
		// granted; a GitHub App's user token has none, its permissions
		// are the App's (appPermissions).
		if c.user.app {
			return nil, false
		}
		return c.user.scopes, true
	}
	if sc, known := accountScopes[strings.ToLower(c.Key)]; known {
		return sc, true
	}
	return []string{"repo"}, true
}

// appPermissions are the permissions of an App's token: a job's (as its
// workflow granted them), an installation token's, or the agent bot's.
func (c caller) appPermissions() (map[string]string, bool) {
	switch {
	case c.job != nil:
		return c.job.perms, true
	case c.user != nil && c.user.app:
		return c.user.perms, true
	case c.install != nil:
		if c.install.perms != nil {
			return c.install.perms, true
		}
		return c.install.app.Permissions, true
	case strings.EqualFold(c.Login, BotLogin):
		return botAppPermissions, true
	}
	return nil, false
}

// workflowRefusal is GitHub's reason for refusing c's change of file, ""
// when c may write workflows.
func (c caller) workflowRefusal(file string) string {
	if perms, isApp := c.appPermissions(); isApp {
		if c.job == nil && perms["workflows"] == "write" {
			return ""
		}
		return "refusing to allow a GitHub App to create or update workflow `" + file + "` without `workflows` permission"
	}
	sc, _ := c.scopes()
	for _, s := range sc {
		if s == "workflow" {
			return ""
		}
	}
	return "refusing to allow an OAuth App to create or update workflow `" + file + "` without `workflow` scope"
}

// workflowChanges lists the workflow files the commits of new that the
// repository does not hold yet (reachable from no branch, and not from
// old) add, change or remove; g holds the push's objects.
func (s *Server) workflowChanges(g *gitStore, old, new plumbing.Hash) []string {
	if new.IsZero() {
		return nil
	}
	known := map[plumbing.Hash]bool{}
	mark := func(h plumbing.Hash) {
		for x := range s.git.ancestors(h) {
			known[x] = true
		}
	}
	mark(old)
	if iter, err := s.git.st.IterReferences(); err == nil {
		_ = iter.ForEach(func(ref *plumbing.Reference) error {
			if ref.Type() == plumbing.HashReference && ref.Name().IsBranch() {
				mark(ref.Hash())
			}
			return nil
		})
	}
	changed := map[string]bool{}
	seen := map[plumbing.Hash]bool{}
	queue := []plumbing.Hash{new}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		if seen[h] || known[h] {
			continue
		}
		seen[h] = true
		c, err := g.commit(h)
		if err != nil {
			continue
		}
		mine := workflowFilesOf(g, c.TreeHash)
		var parents []map[string]plumbing.Hash
		for _, p := range c.ParentHashes {
			if pc, err := g.commit(p); err == nil {
				parents = append(parents, workflowFilesOf(g, pc.TreeHash))
			}
			queue = append(queue, p)
		}
		if len(parents) == 0 {
			parents = []map[string]plumbing.Hash{{}}
		}
		// A file counts when it differs from every parent's: a merge that
		// only brings in a parent's workflow adds nothing new.
		paths := map[string]bool{}
		for p := range mine {
			paths[p] = true
		}
		for _, pm := range parents {
			for p := range pm {
				paths[p] = true
			}
		}
		for p := range paths {
			differs := true
			for _, pm := range parents {
				if pm[p] == mine[p] {
					differs = false
				}
			}
			if differs {
				changed[p] = true
			}
		}
	}
	var out []string
	for p := range changed {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// workflowFilesOf maps each file under .github/workflows/ in a tree to its
// blob.
func workflowFilesOf(g *gitStore, tree plumbing.Hash) map[string]plumbing.Hash {
	out := map[string]plumbing.Hash{}
	t, err := g.tree(tree)
	if err != nil {
		return out
	}
	sub, err := t.Tree(strings.TrimSuffix(workflowsDir, "/"))
	if err != nil {
		return out
	}
	walker := object.NewTreeWalker(sub, true, nil)
	defer walker.Close()
	for {
		name, entry, err := walker.Next()
		if err != nil {
			break
		}
		if entry.Mode.IsFile() {
			out[workflowsDir+name] = entry.Hash
		}
	}
	return out
}

// workflowPushRefusal is the reason to refuse c's move of a ref from old
// to new for the workflow files it brings, "" when none.
func (s *Server) workflowPushRefusal(c caller, g *gitStore, old, new plumbing.Hash) string {
	if c.workflowRefusal(workflowsDir) == "" {
		return "" // a token that may write workflows: nothing to look for
	}
	for _, f := range s.workflowChanges(g, old, new) {
		if why := c.workflowRefusal(f); why != "" {
			return why
		}
	}
	return ""
}

// refuseWorkflowChange answers the Git Data API's ref writes as GitHub
// does when the new commits change a workflow file the caller may not
// write (422 with the same words git shows), and says whether it did.
func (s *Server) refuseWorkflowChange(w http.ResponseWriter, c caller, g *gitStore, old, new plumbing.Hash) bool {
	why := s.workflowPushRefusal(c, g, old, new)
	if why == "" {
		return false
	}
	writeErrorDoc(w, http.StatusUnprocessableEntity, why, gitDocs)
	return true
}

// overlayStorer holds a push's objects apart from the repository's until
// git itself takes the push: reads fall back to the repository, writes
// stay in memory, so a declined push leaves nothing behind.
type overlayStorer struct {
	*memory.Storage
	base storage.Storer
}

func (o overlayStorer) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	if obj, err := o.Storage.EncodedObject(t, h); err == nil {
		return obj, nil
	}
	return o.base.EncodedObject(t, h)
}

func (o overlayStorer) HasEncodedObject(h plumbing.Hash) error {
	if o.Storage.HasEncodedObject(h) == nil {
		return nil
	}
	return o.base.HasEncodedObject(h)
}

func (o overlayStorer) EncodedObjectSize(h plumbing.Hash) (int64, error) {
	if n, err := o.Storage.EncodedObjectSize(h); err == nil {
		return n, nil
	}
	return o.base.EncodedObjectSize(h)
}

// pushObjects reads a push's packfile (thin packs resolve against the
// repository) into a store that sees both; a pack that does not parse is
// left to git, and only the repository's objects are judged.
func (s *Server) pushObjects(pack []byte) *gitStore {
	ov := overlayStorer{Storage: memory.NewStorage(), base: s.git.st}
	if len(pack) > 0 {
		if p, err := packfile.NewParserWithStorage(packfile.NewScanner(bytes.NewReader(pack)), ov); err == nil {
			_, _ = p.Parse()
		}
	}
	return &gitStore{st: ov}
}
