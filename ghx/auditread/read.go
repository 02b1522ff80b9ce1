// Package auditread gathers what `aayu audit` reconciles, read-only: the
// ship records on the ledger, the ledger's commits and their trailers, and
// the Solo-mode bypass comments on merged pull requests with their merge
// times. model/audit turns these facts into the report.
package auditread

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/audit"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/pass"

	"github.com/aayudha/aayu/model/untrusted"
)

// MaxCommits bounds the walk of the ledger's history, one request per
// commit; a longer history is said to be read in part.
const MaxCommits = 2000

// planPath is specs/STORY/plan-review.json, aayu plan's record.
var planPath = lazyre.New(`^specs/(\d+)/plan-review\.json$`)

// shipPath is proof/STORY/HEAD/authoritative/ship.json.
var shipPath = lazyre.New(`^proof/(\d+)/([0-9a-fA-F]{7,64})/authoritative/ship\.json$`)

// Read gathers the facts from the repository's ledger branch and its
// merged pull requests.
func Read(ctx context.Context, client *github.Client, owner, repo, ledger string) (audit.Facts, error) {
	f := audit.Facts{Merged: map[int]audit.MergedPR{}}
	tree, _, err := client.Git.GetTree(ctx, owner, repo, ledger, true)
	switch {
	case ghx.IsNotFound(err):
		// No ledger yet: nothing was shipped or written to it.
	case err != nil:
		return f, fmt.Errorf("reading the ledger branch %s: %w", ledger, err)
	default:
		if tree.GetTruncated() {
			f.Incomplete = append(f.Incomplete, "GitHub listed the ledger's files in part, so some ship records may be missing")
		}
		for _, e := range tree.Entries {
			if e.GetType() == "blob" && planPath().MatchString(e.GetPath()) {
				if p, ok, err := readPlan(ctx, client, owner, repo, e); err != nil {
					return f, err
				} else if ok {
					f.Plans = append(f.Plans, p)
				}
				continue
			}
			if e.GetType() != "blob" || !shipPath().MatchString(e.GetPath()) {
				continue
			}
			rec, err := readShip(ctx, client, owner, repo, e)
			if err != nil {
				return f, err
			}
			f.Ships = append(f.Ships, rec)
		}
		commits, more, err := history(ctx, client, owner, repo, ledger)
		if err != nil {
			return f, err
		}
		f.Commits = commits
		h, err := ghx.CheckLedger(ctx, client, owner, repo, ledger, "")
		if err != nil {
			return f, fmt.Errorf("checking the history of the ledger branch %s: %w", ledger, err)
		}
		for _, t := range h.Findings {
			f.Tampering = append(f.Tampering, t.Line())
		}
		if h.Partial {
			f.Incomplete = append(f.Incomplete, fmt.Sprintf("only %d ledger commits were checked for tampering so far", h.Commits))
		}
		if more {
			f.Incomplete = append(f.Incomplete, fmt.Sprintf("only the newest %d ledger commits were read for human-fallback writes", MaxCommits))
		}
	}
	pulls, err := ghx.ListAll(ctx, func(opts *github.ListOptions) ([]*github.PullRequest, *github.Response, error) {
		return client.PullRequests.List(ctx, owner, repo, &github.PullRequestListOptions{State: "all", ListOptions: *opts})
	})
	if err != nil {
		return f, fmt.Errorf("listing the pull requests: %w", err)
	}
	for _, pr := range pulls {
		comments, err := ghx.ListAll(ctx, func(opts *github.ListOptions) ([]*github.IssueComment, *github.Response, error) {
			return client.Issues.ListComments(ctx, owner, repo, pr.GetNumber(), &github.IssueListCommentsOptions{ListOptions: *opts})
		})
		if err != nil {
			return f, fmt.Errorf("reading the comments on #%d: %w", pr.GetNumber(), err)
		}
		m := audit.MergedPR{Number: pr.GetNumber(), MergedAt: pr.GetMergedAt().Time}
		for _, c := range comments {
			ac := audit.Comment{ID: c.GetID(), URL: c.GetHTMLURL(), Login: c.GetUser().GetLogin(), CreatedAt: c.GetCreatedAt().Time}
			switch body := strings.TrimSpace(c.GetBody()); {
			case strings.HasPrefix(body, audit.UnusedPrefix):
				// A bypass ship posted and marked unused when its merge was
				// refused: listed whether the pull request merged later or not.
				f.Unused = append(f.Unused, audit.Unused{PR: pr.GetNumber(), Comment: ac})
			case strings.HasPrefix(body, audit.BypassPrefix) && pr.MergedAt != nil:
				m.Bypasses = append(m.Bypasses, ac)
			}
		}
		if pr.MergedAt != nil {
			f.Merged[m.Number] = m
		}
	}
	return f, nil
}

// shipJSON is the part of ship.json audit reads.
type shipJSON struct {
	Story     int    `json:"story"`
	PR        int    `json:"pr"`
	Head      string `json:"pr_head_sha"`
	ShippedAt string `json:"shipped_at"`
	ShippedBy string `json:"shipped_by"`
	HumanPass struct {
		Kind       string `json:"kind"`
		Login      string `json:"login"`
		CommentURL string `json:"comment_url"`
		Commit     string `json:"commit"`
	} `json:"human_pass"`
	PlanReview struct {
		Bypass *struct {
			As         string `json:"as"`
			RecordedBy string `json:"recorded_by"`
			RecordedAt string `json:"recorded_at"`
			CommentURL string `json:"comment_url"`
		} `json:"bypass"`
	} `json:"plan_review"`
}

func readShip(ctx context.Context, client *github.Client, owner, repo string, e *github.TreeEntry) (audit.ShipRecord, error) {
	blob, _, err := client.Git.GetBlob(ctx, owner, repo, e.GetSHA())
	if err != nil {
		return audit.ShipRecord{}, fmt.Errorf("reading %s on the ledger: %w", e.GetPath(), err)
	}
	b, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(blob.GetContent(), "\n", ""))
	if err != nil {
		return audit.ShipRecord{}, fmt.Errorf("reading %s on the ledger: GitHub's content did not decode: %w", e.GetPath(), err)
	}
	var s shipJSON
	if err := json.Unmarshal(b, &s); err != nil {
		return audit.ShipRecord{}, fmt.Errorf("%s on the ledger is not a ship record: %w", e.GetPath(), err)
	}
	rec := audit.ShipRecord{Path: e.GetPath(), Story: s.Story, PR: s.PR, Head: s.Head, Kind: s.HumanPass.Kind,
		Login: s.HumanPass.Login, Comment: s.HumanPass.CommentURL, Commit: s.HumanPass.Commit,
		ShippedAt: parseTime(s.ShippedAt), ShippedBy: s.ShippedBy}
	if b := s.PlanReview.Bypass; b != nil && b.As == "solo-bypass" {
		rec.Plan = &audit.PlanBypass{RecordedBy: b.RecordedBy, RecordedAt: parseTime(b.RecordedAt), Comment: b.CommentURL}
	}
	return rec, nil
}

// readPlan reads one plan review record; only a bypass is a fact for the
// audit (a review is a person's, nothing to count). A record that does not
// read is said by the plan and ship that read it, not counted here.
func readPlan(ctx context.Context, client *github.Client, owner, repo string, e *github.TreeEntry) (audit.PlanRecord, bool, error) {
	blob, _, err := client.Git.GetBlob(ctx, owner, repo, e.GetSHA())
	if err != nil {
		return audit.PlanRecord{}, false, fmt.Errorf("reading %s on the ledger: %w", e.GetPath(), err)
	}
	b, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(blob.GetContent(), "\n", ""))
	if err != nil {
		return audit.PlanRecord{}, false, fmt.Errorf("reading %s on the ledger: GitHub's content did not decode: %w", e.GetPath(), err)
	}
	rec, err := pass.ParsePlanRecord(b)
	if err != nil || rec.Kind != pass.KindSoloBypass {
		return audit.PlanRecord{}, false, nil
	}
	return audit.PlanRecord{Story: rec.Story, RecordedBy: rec.RecordedBy, RecordedAt: parseTime(rec.RecordedAt), Comment: rec.CommentURL}, true, nil
}

// history walks the ledger's commits from its tip through every parent.
func history(ctx context.Context, client *github.Client, owner, repo, ledger string) ([]audit.LedgerCommit, bool, error) {
	ref, _, err := client.Git.GetRef(ctx, owner, repo, "heads/"+ledger)
	if err != nil {
		return nil, false, fmt.Errorf("reading the ledger branch %s: %w", ledger, err)
	}
	var out []audit.LedgerCommit
	seen := map[string]bool{}
	todo := []string{ref.GetObject().GetSHA()}
	for len(todo) > 0 {
		sha := todo[0]
		todo = todo[1:]
		if seen[sha] {
			continue
		}
		if len(out) >= MaxCommits {
			return out, true, nil
		}
		seen[sha] = true
		c, _, err := client.Git.GetCommit(ctx, owner, repo, sha)
		if err != nil {
			return nil, false, fmt.Errorf("reading ledger commit %s: %w", gitsha.Short(sha), err)
		}
		out = append(out, audit.LedgerCommit{SHA: sha, Message: untrusted.Text(c.GetMessage()), Author: untrusted.Text(c.GetAuthor().GetName()), When: c.GetAuthor().GetDate().Time})
		for _, p := range c.Parents {
			todo = append(todo, p.GetSHA())
		}
	}
	return out, false, nil
}

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t
}
