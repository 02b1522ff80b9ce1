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

// StoryFromLedger builds the StoryOptions of `aayu pack STORY` on GitHub.
// Nothing here runs until the screen's commands call it. Its cyclomatic
// complexity (21) is the sum of the small closures it returns, which
// gocyclo counts into the function that builds them.
func StoryFromLedger(cfg LedgerConfig) StoryOptions {
	checkout := cfg.Checkout
	if checkout == "" {
		checkout = "."
	}
	local := filepath.Join(checkout, ".aayudha", "proof", strconv.Itoa(cfg.Story))
	if fi, err := os.Lstat(filepath.Join(local, "pack.json")); err != nil || !fi.Mode().IsRegular() {
		local = ""
	}
	o := StoryOptions{Story: cfg.Story, CI: cfg.CI, LocalDir: local}
	workDir := func(name string) (string, error) {
		d, err := os.MkdirTemp(cfg.WorkDir, name+"-*")
		if err != nil {
			return "", fmt.Errorf("preparing a folder for the %s: %w", name, err)
		}
		return filepath.Join(d, "pack"), nil
	}
	o.Ledger = func(ctx context.Context) (Fetched, error) {
		dir, err := workDir("ledger")
		if err != nil {
			return Fetched{}, err
		}
		l, err := ledgerpack.Load(ctx, cfg.Client, cfg.Owner, cfg.Repo, cfg.Story, dir, ledgerpack.Caps{})
		if err != nil {
			return Fetched{}, err
		}
		f := Fetched{Dir: l.Dir, Label: l.Kind + " pack at " + l.Path, Ready: l.Ready, ReadyProblem: l.ReadyProblem,
			Head: l.PRHead, HeadProblem: l.HeadProblem, PR: l.PR, RequiredFloors: cfg.RequiredFloors, CoverageThreshold: cfg.CoverageThreshold}
		f.EvidenceMap, f.ModulePath = checkoutEvidence(checkout, cfg.Story)
		if l.Problem != "" {
			f.Notes = append(f.Notes, "this pack: "+l.Problem)
		}
		for _, c := range l.Others {
			f.Notes = append(f.Notes, "also on the ledger: "+c.String())
		}
		return f, nil
	}
	if local != "" {
		o.Local = func(ctx context.Context) (Fetched, error) {
			f := Fetched{Dir: local, Label: "local pack at " + filepath.ToSlash(local) + " (never counts for ship)", RequiredFloors: cfg.RequiredFloors, CoverageThreshold: cfg.CoverageThreshold}
			f.EvidenceMap, f.ModulePath = checkoutEvidence(checkout, cfg.Story)
			var err error
			f.Ready, f.ReadyProblem, err = ledgerpack.ReadReady(ctx, cfg.Client, cfg.Owner, cfg.Repo, cfg.Story)
			if err != nil {
				return Fetched{}, err
			}
			p, _, err := proof.ReadPackDir(local, proof.Limits{})
			if err != nil || p.PR == 0 {
				f.HeadProblem = "The local pack names no pull request, so its head could not be compared with one."
				return f, nil
			}
			f.PR = p.PR
			pull, _, err := cfg.Client.PullRequests.Get(ctx, cfg.Owner, cfg.Repo, p.PR)
			if err != nil {
				return Fetched{}, fmt.Errorf("reading pull request #%d: %w", p.PR, err)
			}
			f.Head = pull.GetHead().GetSHA()
			return f, nil
		}
		o.Push = func(ctx context.Context) (string, error) {
			pushed, err := ledgerpack.PushAdvisory(ctx, cfg.Client, cfg.Owner, cfg.Repo, local,
				ledgerpack.PushOptions{CI: cfg.CI, MediaBucket: cfg.MediaBucket, Login: cfg.Login, Log: cfg.Log, Trailers: cfg.Trailers})
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
	}
	o.Gate = func(ctx context.Context, pr int, head string) (Fetched, error) {
		dir, err := workDir("gate")
		if err != nil {
			return Fetched{}, err
		}
		g, err := ledgerpack.GateArtifact(ctx, cfg.Client, cfg.Owner, cfg.Repo, pr, head, dir, ledgerpack.GateOptions{})
		if err != nil {
			return Fetched{}, err
		}
		f := Fetched{Dir: g.Dir, Label: fmt.Sprintf("aayudha-pack artifact of merge-gate run %d", g.RunID), Head: head, PR: pr, RunID: g.RunID,
			RequiredFloors: cfg.RequiredFloors, CoverageThreshold: cfg.CoverageThreshold}
		f.EvidenceMap, f.ModulePath = checkoutEvidence(checkout, cfg.Story)
		f.Ready, f.ReadyProblem, err = ledgerpack.ReadReady(ctx, cfg.Client, cfg.Owner, cfg.Repo, cfg.Story)
		if err != nil {
			return Fetched{}, err
		}
		if g.RunURL != "" {
			f.Notes = append(f.Notes, "run: "+g.RunURL)
		}
		return f, nil
	}
	o.ShipRun = func(ctx context.Context, pr int) (ShipChoice, error) {
		dir, err := workDir("ship")
		if err != nil {
			return ShipChoice{}, err
		}
		// Ship's own rule, read-only: never a second copy of it here.
		c, err := ship.SelectRun(ctx, ship.Config{Client: cfg.Client, Owner: cfg.Owner, Repo: cfg.Repo, WorkDir: dir}, pr)
		if err != nil {
			return ShipChoice{}, err
		}
		return ShipChoice{RunID: c.RunID, Attempt: c.Attempt, Head: c.Head, Verdict: c.Verdict, FloorsHold: c.FloorsHold}, nil
	}
	return o
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
