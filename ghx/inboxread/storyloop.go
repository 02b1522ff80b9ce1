package inboxread

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/pass"
)

// storyLoopCandidates are the open Stories and Bugs a Ready card could be
// for, and the open pull requests (by number) that link one: only those
// can wait for a Ready snapshot or a plan review.
func storyLoopCandidates(snap *inbox.Snapshot) (stories map[int]bool, pulls []inbox.PullRequest) {
	stories = map[int]bool{}
	for _, is := range snap.Issues {
		if is.Open() && (is.HasLabel(inbox.LabelStory) || is.HasLabel(inbox.LabelBug)) {
			stories[is.Number] = true
		}
	}
	for _, pr := range snap.PullRequests {
		if !pr.Open() || pr.BaseRef == "" {
			continue
		}
		for _, n := range inbox.LinkedIssues(pr.HeadRef.Raw(), pr.Body.Raw()) {
			if stories[n] {
				pulls = append(pulls, pr)
				break
			}
		}
	}
	return stories, pulls
}

// readStoryLoop reads what the story loop's cards depend on: which open
// Stories and Bugs have a Ready snapshot on the ledger (specs/N/ready.md),
// the never layers each open pull request that links one touches (its
// files over its base's LAYERS.md and autonomy.never, read by the one
// base-policy reader), and the plan review records
// (specs/N/plan-review.json) of the Stories those pull requests link.
// The ledger's specs are one listing of the ledger's root and one of the
// specs tree, whole; every request is conditional, so a read with nothing
// changed costs GitHub nothing. only, when not nil, limits the files read
// again to those pull requests (a refresh's changes; the others keep what
// the last read found).
func (s *session) readStoryLoop(snap *inbox.Snapshot, only map[int]bool) error {
	stories, pulls := storyLoopCandidates(snap)
	never := map[int][]string{}
	for n, layers := range snap.NeverLayers {
		if only != nil && !only[n] {
			never[n] = layers
		}
	}
	bases := map[string]basePlan{}
	for _, pr := range pulls {
		if only != nil && !only[pr.Number] {
			continue
		}
		b, ok := bases[pr.BaseRef.Raw()]
		if !ok {
			var err error
			if b, err = s.basePlanOf(pr.BaseRef.Raw()); err != nil {
				return err
			}
			bases[pr.BaseRef.Raw()] = b
		}
		if len(b.never) == 0 || len(b.layers) == 0 {
			continue
		}
		changed, err := s.changedFiles(pr)
		if err != nil {
			return err
		}
		if layers := pass.NeverTouched(changed, b.layers, b.never); len(layers) > 0 {
			sort.Strings(layers)
			never[pr.Number] = layers
		}
	}
	snap.NeverLayers = never
	if len(stories) == 0 {
		snap.ReadySnapshots, snap.PlanRecords = map[int]bool{}, map[int]pass.PlanRecord{}
		return nil
	}
	paths, err := s.ledgerSpecs()
	if err != nil {
		return err
	}
	ready := map[int]bool{}
	for n := range stories {
		if paths[fmt.Sprintf("%d/ready.md", n)] {
			ready[n] = true
		}
	}
	records := map[int]pass.PlanRecord{}
	for _, pr := range pulls {
		if len(never[pr.Number]) == 0 {
			continue
		}
		for _, story := range inbox.LinkedIssues(pr.HeadRef.Raw(), pr.Body.Raw()) {
			if _, done := records[story]; done || !stories[story] || !paths[fmt.Sprintf("%d/plan-review.json", story)] {
				continue
			}
			b, err := ghx.ReadFile(s.ctx, s.r.gh, s.r.owner, s.r.repo, LedgerBranch, pass.PlanRecordPath(story))
			if ghx.IsNotFound(err) {
				continue
			}
			if err != nil {
				return fmt.Errorf("reading %s on the %s branch: %w", pass.PlanRecordPath(story), LedgerBranch, err)
			}
			if rec, err := pass.ParsePlanRecord(b); err == nil {
				records[story] = rec // one that does not read stands for nothing
			}
		}
	}
	snap.ReadySnapshots, snap.PlanRecords = ready, records
	return nil
}

// basePlan is what a base branch's policy says about plan reviews: its
// layers and its never layers.
type basePlan struct {
	layers []pass.Layer
	never  []string
}

// basePlanOf judges base's LAYERS.md with its config (read once per
// session, as the settings read it) through the base-policy reader
// (ghx.ReadBaseLayers, the same parse ship and aayu plan judge by); a
// config that does not read fails the read closed, as the settings' do.
func (s *session) basePlanOf(base string) (basePlan, error) {
	cfg, err := s.baseConfig(base)
	if err != nil {
		return basePlan{}, fmt.Errorf("the base branch %s: %w", base, err)
	}
	if err := cfg.ConfigErr(); err != nil {
		return basePlan{}, fmt.Errorf("the base branch %s: %w", base, err)
	}
	pol, err := ghx.ReadBaseLayers(s.ctx, s.r.gh, s.r.owner, s.r.repo, base, cfg.Raw())
	if err != nil {
		return basePlan{}, fmt.Errorf("reading the policy of the base branch %s: %w", base, err)
	}
	// A LAYERS.md that does not parse offers no card: ship refuses with
	// its own words (the footprint cannot be computed).
	return basePlan{layers: pol.Layers(), never: pol.Pass().Never}, nil
}

// ledgerSpecs lists every file under specs/ on the ledger, as paths
// relative to it ("17/ready.md"): the ledger's root, then the specs tree
// by its SHA, recursively. No ledger or no specs folder lists none.
func (s *session) ledgerSpecs() (map[string]bool, error) {
	out := map[string]bool{}
	root, err := ghx.ListTree(s.ctx, s.r.gh, s.r.owner, s.r.repo, LedgerBranch, "")
	if ghx.IsNotFound(err) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the %s branch: %w", LedgerBranch, err)
	}
	sha := ""
	for _, e := range root {
		if e.Name == "specs" && e.Type == "dir" {
			sha = e.SHA
		}
	}
	if sha == "" {
		return out, nil
	}
	tree, _, err := s.r.gh.Git.GetTree(s.ctx, s.r.owner, s.r.repo, sha, true)
	if err != nil {
		return nil, fmt.Errorf("reading the specs on the %s branch: %w", LedgerBranch, err)
	}
	if tree.GetTruncated() {
		return nil, fmt.Errorf("the specs on the %s branch are more than GitHub lists in one tree", LedgerBranch)
	}
	for _, e := range tree.Entries {
		if e.GetType() == "blob" {
			out[strings.ToLower(e.GetPath())] = true
		}
	}
	return out, nil
}

// storyLoopChanged says which pull requests a refresh must read the
// story loop's facts of again, and whether it must at all: a Story or Bug
// that changed (aayu ready labels it, aayu plan comments on it), or an
// open pull request that is new or has a new head (its files). A comment
// on a pull request or a Decision changes none of it and costs nothing.
func storyLoopChanged(prev, snap inbox.Snapshot, issues, pulls []int) (map[int]bool, bool) {
	heads := map[int]string{}
	for _, pr := range prev.PullRequests {
		heads[pr.Number] = pr.HeadSHA
	}
	again := map[int]bool{}
	for _, pr := range snap.PullRequests {
		if pr.Open() && slices.Contains(pulls, pr.Number) && heads[pr.Number] != pr.HeadSHA {
			again[pr.Number] = true
		}
	}
	story := false
	for _, is := range snap.Issues {
		if slices.Contains(issues, is.Number) && (is.HasLabel(inbox.LabelStory) || is.HasLabel(inbox.LabelBug)) {
			story = true
		}
	}
	return again, story || len(again) > 0 || prev.ReadySnapshots == nil
}

// changedFiles are pr's changed files: from the GraphQL page a full read
// already asked for, when it holds them whole for this head, else one REST
// listing (a rename's old path, which ship counts too, is only there).
func (s *session) changedFiles(pr inbox.PullRequest) ([]pass.ChangedFile, error) {
	if s.future != nil {
		if batch, err := s.future.wait(); err == nil {
			if g, ok := batch[pr.Number]; ok && !g.partial && g.HeadRefOid == pr.HeadSHA && g.Files.TotalCount == len(g.Files.Nodes) &&
				!slices.ContainsFunc(g.Files.Nodes, func(f gqlFile) bool { return f.ChangeType == "RENAMED" || f.ChangeType == "COPIED" }) {
				out := make([]pass.ChangedFile, 0, len(g.Files.Nodes))
				for _, f := range g.Files.Nodes {
					out = append(out, pass.ChangedFile{Path: f.Path})
				}
				return out, nil
			}
		}
	}
	files, err := ghx.ListAll(s.ctx, func(lo *github.ListOptions) ([]*github.CommitFile, *github.Response, error) {
		return s.r.gh.PullRequests.ListFiles(s.ctx, s.r.owner, s.r.repo, pr.Number, lo)
	})
	if err != nil {
		return nil, fmt.Errorf("reading the files of pull request #%d: %w", pr.Number, err)
	}
	out := make([]pass.ChangedFile, 0, len(files))
	for _, f := range files {
		out = append(out, pass.ChangedFile{Path: f.GetFilename(), PreviousPath: f.GetPreviousFilename()})
	}
	return out, nil
}
