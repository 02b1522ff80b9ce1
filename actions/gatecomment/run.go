package gatecomment

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/proof/sigstore"
)

// PackArtifact is the name of the run artifact the merge gate uploads.
const PackArtifact = "aayudha-pack"

// Config is what `aayu comment PR --ci` needs.
type Config struct {
	Client      *github.Client
	Owner, Repo string
	PR          int
	// Dir is the pack folder (--dir). Empty: .aayudha/proof/STORY/ in
	// Checkout for the story the pull request links.
	Dir      string
	Checkout string // the repository checkout; "" is the working folder
	Ledger   string // the ledger branch; "" is "ledger"
	// Login is who the comment is written as; "" asks GitHub (see Login).
	Login string
	// Getenv reads GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_RUN_ID
	// for the links; nil means no links.
	Getenv func(string) string
	// Preview builds the comment and posts nothing (--dry-run): the only
	// use --dir has, since no folder stands in for the run's own pack.
	Preview bool
	// WorkflowOnly refuses to write when the token turns out to be a
	// person's account (GitHub's workflow token cannot read /user).
	WorkflowOnly bool
	// SetStatus also sets the commit status aayudha/merge-gate on the
	// head for the verdict, after the comment (status.go).
	SetStatus bool
	// TrustedRoot gives the Sigstore roots the pack's attestation is
	// checked with (as ship checks it); nil, or nil roots, and the comment
	// says the attestation could not be checked. Getenv's
	// AAYU_ATTESTATION_ID and AAYU_ATTESTATION_URL name the attestation
	// this run's pack job reported (attestation.go).
	TrustedRoot func() (*sigstore.TrustedRoot, error)
	// InspectDir is where the inspect job's judgement was downloaded;
	// "" is InspectDir in Checkout. With SetStatus, a judgement of this
	// head is also posted as the status aayudha/inspect.
	InspectDir string
}

// Run verifies the gate's pack for pull request cfg.PR and keeps the one
// comment on it. code is the gate's verdict (0, 3 or 4), or 1 with err
// when GitHub or the pack folder could not be read or the comment not
// written. body is the comment as written (or as it would have been).
// Nothing is written anywhere but that one comment.
func Run(ctx context.Context, cfg Config) (code int, body string, err error) {
	if cfg.Client == nil || cfg.Owner == "" || cfg.Repo == "" || cfg.PR <= 0 {
		return ExitFailed, "", errors.New("aayu comment needs a repository (--repo OWNER/NAME) and a pull request number")
	}
	ledger := cfg.Ledger
	if ledger == "" {
		ledger = "ledger"
	}
	pull, _, err := cfg.Client.PullRequests.Get(ctx, cfg.Owner, cfg.Repo, cfg.PR)
	if err != nil {
		return ExitFailed, "", fmt.Errorf("reading pull request #%d: %s Nothing was written", cfg.PR, ghx.Describe(err))
	}
	head := pull.GetHead().GetSHA()
	dir, story, missing := packFolder(cfg, pull)

	var report *proof.Report
	var floors *proof.FloorPolicy // the base's, which judged the pack
	var bots []string             // the base's bot logins, which accept no waiver
	if missing == "" {
		ready, err := readReady(ctx, cfg.Client, cfg.Owner, cfg.Repo, ledger, story)
		if err != nil {
			return ExitFailed, "", err
		}
		rules, err := readGateRules(ctx, cfg.Client, cfg.Owner, cfg.Repo, pull, story)
		if err != nil {
			return ExitFailed, "", err
		}
		if missing = rules.refusal; missing == "" {
			bots = rules.bots
			opts := rules.opts
			floors = &proof.FloorPolicy{Required: opts.RequiredFloors, CoverageThreshold: opts.CoverageThreshold}
			opts.Ready, opts.HeadSHA, opts.Story, opts.PR = ready, head, story, cfg.PR
			report, err = proof.VerifyDir(ctx, dir, opts)
			if err != nil {
				return ExitFailed, "", fmt.Errorf("verifying the pack folder %s: %w; nothing was written", dir, err)
			}
		}
	}
	// A floor that does not hold is judged against the ledger's accepted
	// waivers for this head by ship's rule, before any verdict is written.
	waived, err := readWaivers(ctx, cfg.Client, cfg.Owner, cfg.Repo, cfg.PR, head, report, bots)
	if err != nil {
		return ExitFailed, "", err
	}
	code = gateCode(report, waived)
	links := runLinks(ctx, cfg)
	att := checkAttestation(ctx, cfg, pull, dir, report)
	insp := readInspect(cfg, cfg.PR, head)
	if insp.j != nil && !report.Verified() {
		// A judgement of evidence the gate does not accept counts for
		// nothing, and a human rung on it would ask the person to review
		// a head the gate refused: it is shown as not posted.
		insp = inspectRead{why: "not posted: the pack does not verify, so no judgement of its evidence counts"}
	}
	body = actions.Neutralize(Body(report, BodyOptions{Marker: Marker, Heading: "aayudha/pack (merge gate)", Links: links, Missing: missing,
		Attestation: att, Floors: floors, Inspect: insp, Waivers: waived}))

	if cfg.Preview {
		return code, body, nil
	}
	login := cfg.Login
	if login == "" {
		var person bool
		if login, person, err = writer(ctx, cfg.Client); err != nil {
			return ExitFailed, body, err
		}
		if person && cfg.WorkflowOnly {
			return ExitRefused, body, fmt.Errorf("the token writes as @%s, a person's account, not the workflow's %s; the gate's comment is never written under a person's name. Nothing was written",
				login, ActionsBot)
		}
	}
	if _, err := Upsert(ctx, cfg.Client, cfg.Owner, cfg.Repo, cfg.PR, Marker, body, login); err != nil {
		return ExitFailed, body, err
	}
	if cfg.SetStatus {
		// inspect's judgement first, the gate's verdict last: the newest
		// status on the head is aayudha/merge-gate.
		if err := setInspectStatus(ctx, cfg.Client, cfg.Owner, cfg.Repo, head, insp.j, links); err != nil {
			return ExitFailed, body, err
		}
		if err := setStatus(ctx, cfg.Client, cfg.Owner, cfg.Repo, head, code, missing, waived, links); err != nil {
			return ExitFailed, body, err
		}
	}
	return code, body, nil
}

// packFolder picks the pack folder: --dir, else the first story the pull
// request links whose local pack exists. missing says, when there is none,
// why, in words.
func packFolder(cfg Config, pull *github.PullRequest) (dir string, story int, missing string) {
	linked := inbox.LinkedIssues(pull.GetHead().GetRef(), pull.GetBody())
	if cfg.Dir != "" {
		if p, _, err := proof.ReadPackDir(cfg.Dir, proof.Limits{}); err == nil {
			return cfg.Dir, p.Story, ""
		}
		if len(linked) > 0 {
			return cfg.Dir, linked[0], "" // the decode problem is the report's
		}
		return cfg.Dir, 0, ""
	}
	checkout := cfg.Checkout
	if checkout == "" {
		checkout = "."
	}
	for _, n := range linked {
		d := filepath.Join(checkout, ".aayudha", "proof", strconv.Itoa(n))
		if fi, err := os.Lstat(filepath.Join(d, "pack.json")); err == nil && fi.Mode().IsRegular() {
			return d, n, ""
		}
	}
	if len(linked) == 0 {
		return "", 0, fmt.Sprintf("Pull request #%d links no story (no story/N-… branch and no Refs #N in its body), so there is no pack to verify.", cfg.PR)
	}
	names := make([]string, len(linked))
	for i, n := range linked {
		names[i] = filepath.ToSlash(filepath.Join(".aayudha", "proof", strconv.Itoa(n))) + "/"
	}
	return "", 0, fmt.Sprintf("No pack folder was found (looked for %s): aayu verify did not build one in this run.", strings.Join(names, ", "))
}

// readReady reads the story's Ready snapshot from the ledger. A missing or
// unreadable snapshot is not an error: verification then reports that the
// criteria and the goal hash could not be checked, and the pack does not
// verify. Only a failure to reach GitHub is an error.
func readReady(ctx context.Context, client *github.Client, owner, repo, ledger string, story int) (*proof.Ready, error) {
	if story <= 0 {
		return nil, nil
	}
	b, err := ghx.ReadFile(ctx, client, owner, repo, ledger, fmt.Sprintf("specs/%d/ready.md", story))
	switch {
	case ghx.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("reading the Ready snapshot of story %d: %s Nothing was written", story, ghx.Describe(err))
	case len(b) > proof.MaxReadyBytes:
		return nil, nil
	}
	r, err := proof.ParseReady(b)
	if err != nil {
		return nil, nil
	}
	return r, nil
}

// runLinks builds the links to this Actions run and its aayudha-pack
// artifact from the variables Actions sets. Outside Actions there are none.
func runLinks(ctx context.Context, cfg Config) Links {
	if cfg.Getenv == nil {
		return Links{}
	}
	server := strings.TrimSuffix(cfg.Getenv("GITHUB_SERVER_URL"), "/")
	repo := cfg.Getenv("GITHUB_REPOSITORY")
	id, err := strconv.ParseInt(cfg.Getenv("GITHUB_RUN_ID"), 10, 64)
	if server == "" || repo == "" || err != nil || id <= 0 || proof.CheckPath(repo) != nil {
		return Links{}
	}
	l := Links{RunID: id, Run: fmt.Sprintf("%s/%s/actions/runs/%d", server, repo, id)}
	l.Artifact = l.Run + "#artifacts"
	arts, _, err := cfg.Client.Actions.ListWorkflowRunArtifacts(ctx, cfg.Owner, cfg.Repo, id, &github.ListOptions{PerPage: 100})
	if err == nil {
		for _, a := range arts.Artifacts {
			if a.GetName() == PackArtifact {
				l.Artifact = fmt.Sprintf("%s/artifacts/%d", l.Run, a.GetID())
			}
		}
	}
	return l
}
