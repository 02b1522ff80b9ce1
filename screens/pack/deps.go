package pack

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/actions/ledgerpack"
	"github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/proof"
)

// LedgerConfig is what StoryFromLedger needs to read a story's packs from
// GitHub and push the local one.
type LedgerConfig struct {
	Client      *github.Client
	Owner, Repo string
	Story       int
	// Checkout is the repository checkout holding .aayudha/proof/STORY/;
	// "" is the working folder.
	Checkout string
	// WorkDir receives the folders fetched from the ledger and the gate's
	// artifact; the caller creates it and removes it when the screen ends.
	WorkDir     string
	CI          bool
	MediaBucket string // [proof] media
	Login       string // who pushes; "" asks GitHub
	Log         *actions.Log
	Trailers    []string // end the push's ledger commit (the human-fallback tag)
	// RequiredFloors are [verify] required_floors; nil: proof's defaults.
	RequiredFloors []string
	// CoverageThreshold is [verify] coverage_threshold; nil: proof's default.
	CoverageThreshold *float64
}

// StoryFromLedger builds the StoryOptions of `aayu pack STORY` on GitHub:
// each read or write is a method of ledgerSource, and nothing here runs
// until the screen's commands call it.
func StoryFromLedger(cfg LedgerConfig) StoryOptions {
	s := newLedgerSource(cfg)
	o := StoryOptions{Story: cfg.Story, CI: cfg.CI, LocalDir: s.local, Ledger: s.ledger, Gate: s.gate, ShipRun: s.shipRun}
	if s.local != "" {
		o.Local, o.Push = s.localPack, s.push
	}
	return o
}

// ledgerSource is where `aayu pack STORY` reads its pack from: the ledger,
// the checkout's own pack folder (local; "" when it has none) and the merge
// gate's artifact.
type ledgerSource struct {
	cfg      LedgerConfig
	checkout string
	local    string
}

func newLedgerSource(cfg LedgerConfig) ledgerSource {
	checkout := cfg.Checkout
	if checkout == "" {
		checkout = "."
	}
	local := filepath.Join(checkout, ".aayudha", "proof", strconv.Itoa(cfg.Story))
	if fi, err := os.Lstat(filepath.Join(local, "pack.json")); err != nil || !fi.Mode().IsRegular() {
		local = ""
	}
	return ledgerSource{cfg: cfg, checkout: checkout, local: local}
}

// workDir is a fresh folder for one download, under the configured one.
func (s ledgerSource) workDir(name string) (string, error) {
	d, err := os.MkdirTemp(s.cfg.WorkDir, name+"-*")
	if err != nil {
		return "", fmt.Errorf("preparing a folder for the %s: %w", name, err)
	}
	return filepath.Join(d, "pack"), nil
}

// ledger reads the Story's best pack on the ledger.
func (s ledgerSource) ledger(ctx context.Context) (Fetched, error) {
	dir, err := s.workDir("ledger")
	if err != nil {
		return Fetched{}, err
	}
	l, err := ledgerpack.Load(ctx, s.cfg.Client, s.cfg.Owner, s.cfg.Repo, s.cfg.Story, dir, ledgerpack.Caps{})
	if err != nil {
		return Fetched{}, err
	}
	f := Fetched{Dir: l.Dir, Label: l.Kind + " pack at " + l.Path, Ready: l.Ready, ReadyProblem: l.ReadyProblem,
		Head: l.PRHead, HeadProblem: l.HeadProblem, PR: l.PR, RequiredFloors: s.cfg.RequiredFloors, CoverageThreshold: s.cfg.CoverageThreshold,
		Waivers: s.waivers}
	f.EvidenceMap, f.ModulePath = checkoutEvidence(s.checkout, s.cfg.Story)
	if l.Problem != "" {
		f.Notes = append(f.Notes, "this pack: "+l.Problem)
	}
	for _, c := range l.Others {
		f.Notes = append(f.Notes, "also on the ledger: "+c.String())
	}
	return f, nil
}

// localPack reads the checkout's own pack folder, which never counts for
// ship, and the pull request it names.
func (s ledgerSource) localPack(ctx context.Context) (Fetched, error) {
	f := Fetched{Dir: s.local, Label: "local pack at " + filepath.ToSlash(s.local) + " (never counts for ship)", RequiredFloors: s.cfg.RequiredFloors, CoverageThreshold: s.cfg.CoverageThreshold}
	f.EvidenceMap, f.ModulePath = checkoutEvidence(s.checkout, s.cfg.Story)
	var err error
	f.Ready, f.ReadyProblem, err = ledgerpack.ReadReady(ctx, s.cfg.Client, s.cfg.Owner, s.cfg.Repo, s.cfg.Story)
	if err != nil {
		return Fetched{}, err
	}
	p, _, err := proof.ReadPackDir(s.local, proof.Limits{})
	if err != nil || p.PR == 0 {
		f.HeadProblem = "The local pack names no pull request, so its head could not be compared with one."
		return f, nil
	}
	f.PR = p.PR
	pull, _, err := s.cfg.Client.PullRequests.Get(ctx, s.cfg.Owner, s.cfg.Repo, p.PR)
	if err != nil {
		return Fetched{}, fmt.Errorf("reading pull request #%d: %w", p.PR, err)
	}
	f.Head = pull.GetHead().GetSHA()
	return f, nil
}

// push puts the checkout's pack on the ledger as advisory.
func (s ledgerSource) push(ctx context.Context) (string, error) {
	pushed, err := ledgerpack.PushAdvisory(ctx, s.cfg.Client, s.cfg.Owner, s.cfg.Repo, s.local,
		ledgerpack.PushOptions{CI: s.cfg.CI, MediaBucket: s.cfg.MediaBucket, Login: s.cfg.Login, Log: s.cfg.Log, Trailers: s.cfg.Trailers})
	if err != nil {
		return "", err
	}
	said := fmt.Sprintf("pushed: %d files landed at %s on the ledger as advisory (pack.json sha256 %s)", pushed.Files, pushed.Path, pushed.PackSHA256)
	if pushed.Unchanged {
		said = fmt.Sprintf("already on the ledger: %s holds this pack (pack.json sha256 %s); nothing new was committed", pushed.Path, pushed.PackSHA256)
	}
	if pushed.CommentProblem != "" {
		said += "; " + pushed.CommentProblem
	}
	return said + "; b reads the ledger's best again", nil
}

// gate reads the merge gate's pack artifact for the pull request's head.
func (s ledgerSource) gate(ctx context.Context, pr int, head string) (Fetched, error) {
	dir, err := s.workDir("gate")
	if err != nil {
		return Fetched{}, err
	}
	g, err := ledgerpack.GateArtifact(ctx, s.cfg.Client, s.cfg.Owner, s.cfg.Repo, pr, head, dir, ledgerpack.GateOptions{})
	if err != nil {
		return Fetched{}, err
	}
	f := Fetched{Dir: g.Dir, Label: fmt.Sprintf("aayudha-pack artifact of merge-gate run %d", g.RunID), Head: head, PR: pr, RunID: g.RunID,
		RequiredFloors: s.cfg.RequiredFloors, CoverageThreshold: s.cfg.CoverageThreshold, Waivers: s.waivers}
	f.EvidenceMap, f.ModulePath = checkoutEvidence(s.checkout, s.cfg.Story)
	f.Ready, f.ReadyProblem, err = ledgerpack.ReadReady(ctx, s.cfg.Client, s.cfg.Owner, s.cfg.Repo, s.cfg.Story)
	if err != nil {
		return Fetched{}, err
	}
	if g.RunURL != "" {
		f.Notes = append(f.Notes, "run: "+g.RunURL)
	}
	return f, nil
}

// waivers judges the pack's failing floors by ship's floor-waiver rule
// (ship.FloorWaivers): the words of each one an accepted waiver covers.
func (s ledgerSource) waivers(ctx context.Context, pr int, head string, floors []string) (map[string]string, error) {
	if pr == 0 || head == "" {
		return nil, nil
	}
	vs, err := ship.FloorWaivers(ctx, s.cfg.Client, s.cfg.Owner, s.cfg.Repo, pr, head, floors, nil)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for f, v := range vs {
		if v.Waived {
			out[f] = v.Words()
		}
	}
	return out, nil
}

// shipRun names the run ship would take, by ship's own rule.
func (s ledgerSource) shipRun(ctx context.Context, pr int) (ShipChoice, error) {
	dir, err := s.workDir("ship")
	if err != nil {
		return ShipChoice{}, err
	}
	// Ship's own rule, read-only: never a second copy of it here.
	c, err := ship.SelectRun(ctx, ship.Config{Client: s.cfg.Client, Owner: s.cfg.Owner, Repo: s.cfg.Repo, WorkDir: dir}, pr)
	if err != nil {
		return ShipChoice{}, err
	}
	return ShipChoice{RunID: c.RunID, Attempt: c.Attempt, Head: c.Head, Verdict: c.Verdict, FloorsHold: c.FloorsHold}, nil
}

// checkoutEvidence reads the story's evidence map and go.mod's module path
// from the checkout, when it has them; without them the pack's criteria are
// still held to events showing a test passing and none failing.
func checkoutEvidence(checkout string, story int) (proof.EvidenceMap, string) {
	raw, err := proof.ReadFileCapped(filepath.Join(checkout, ".aayudha", "evidence", strconv.Itoa(story)+".toml"), proof.MaxEvidenceMapBytes)
	if err != nil {
		return nil, ""
	}
	m, err := proof.LoadEvidenceMap(raw)
	if err != nil {
		return nil, ""
	}
	gomod, err := proof.ReadFileCapped(filepath.Join(checkout, "go.mod"), 1<<20)
	if err != nil {
		return m, ""
	}
	return m, proof.ModulePathOf(gomod)
}

func isNoPack(err error) bool { return errors.Is(err, ledgerpack.ErrNoPack) }
