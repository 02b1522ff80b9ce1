package release

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/untrusted"
)

// Record is releases/TAG.json on the ledger (SPEC §11): who approved the
// promotion, by which means and from which lane, every Story it carries
// with its pack and ship record, every merge it carries without proof,
// and the two tips.
type Record struct {
	Tag         string     `json:"tag"`
	From        string     `json:"from"`
	To          string     `json:"to"`
	FromSHA     string     `json:"from_sha"`
	ToSHA       string     `json:"to_sha"`
	ApprovedBy  string     `json:"approved_by"`
	Via         string     `json:"via"`
	AgentMarker string     `json:"agent_marker"`
	At          string     `json:"at"`
	Stories     []Story    `json:"stories"`
	Unproven    []Unproven `json:"unproven"`
}

// Approval is the person's presence check: who approved, and the agent
// marker of the shell that asked ("" for none).
type Approval struct {
	Login       string
	Via         string // "device-flow"
	AgentMarker string
}

// RecordOf is the promotion record of p as approval approved it.
func RecordOf(p Plan, a Approval, at time.Time) Record {
	r := Record{Tag: p.Tag, From: p.From, To: p.To, FromSHA: p.FromSHA, ToSHA: p.ToSHA, ApprovedBy: a.Login, Via: a.Via,
		AgentMarker: a.AgentMarker, At: at.UTC().Format(time.RFC3339), Stories: p.Stories, Unproven: p.Unproven}
	if r.Stories == nil {
		r.Stories = []Story{}
	}
	if r.Unproven == nil {
		r.Unproven = []Unproven{}
	}
	return r
}

// Notes are the GitHub release's notes: each Story's title and Completion
// Goal, then what the release carries without proof. Every title and
// criterion is untrusted text, made inert (model/untrusted) and set as
// plain text, so no mention, link or HTML in it acts on GitHub.
func Notes(p Plan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Promoted from %s (%s) to %s by aayu release.\n\n", p.From, gitsha.Short(p.FromSHA), p.To)
	if len(p.Stories) > 0 {
		b.WriteString("## Stories\n\n")
	}
	for _, s := range p.Stories {
		fmt.Fprintf(&b, "- #%d %s (pull request #%d)\n", s.Story, inert(s.Title), s.PR)
		for i, c := range s.Goal {
			fmt.Fprintf(&b, "  %d. %s\n", i+1, inert(c))
		}
	}
	if len(p.Unproven) > 0 {
		b.WriteString("\n## Carried without proof\n\n")
		for _, u := range p.Unproven {
			fmt.Fprintf(&b, "- #%d: %s\n", u.PR, u.Why)
		}
	}
	return b.String()
}

// inert is one line of untrusted text as plain Markdown text: controls
// made visible, and every character Markdown or GitHub acts on escaped.
func inert(s string) string {
	s = untrusted.Line(s)
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_{}[]()<>#+-.!|@~&:", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Result is what the writes did, each confirmed by reading it back.
type Result struct {
	Promoted   string // the stable branch's tip after the promotion, as read back
	PR         int    // the promotion's pull request (MethodPullRequest)
	Record     string // the ledger commit holding the record
	Tag        string // the tag, as read back
	TagSHA     string
	ReleaseURL string // the GitHub release's page
	ReleaseID  int64
	// Run says what the release workflow did with the tag so far, read
	// from GitHub after the release landed.
	Run          string
	ApprovedBy   string
	RecordedPath string
}

// Apply makes the writes of p, in order, each read back before the next:
// the promotion (refused when the stable branch moved since p was read),
// the promotion record, the tag, the release. What landed is in the
// result even when a later write fails.
func Apply(ctx context.Context, c *github.Client, p Plan, a Approval, now time.Time) (Result, error) {
	res := Result{ApprovedBy: a.Login}
	if len(p.Blocks) > 0 {
		return res, &Refusal{Reason: p.Blocks[0]}
	}
	o, r := p.Owner, p.Repo
	cur, err := tip(ctx, c, o, r, p.To)
	if err != nil {
		return res, err
	}
	if cur != p.ToSHA {
		return res, &Refusal{Reason: fmt.Sprintf("%s moved since the screen read it (it was %s, it is %s now), so nothing was promoted; run aayu release --to %s again to read it as it is", p.To, gitsha.Short(p.ToSHA), gitsha.Short(cur), p.To)}
	}
	if err := promote(ctx, c, p, &res); err != nil {
		return res, err
	}
	rec := RecordOf(p, a, now)
	body, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return res, fmt.Errorf("encoding the promotion record: %w", err)
	}
	res.RecordedPath = RecordPath(p.Tag)
	sha, err := ghx.CommitFiles(ctx, c, o, r, LedgerBranch, map[string][]byte{res.RecordedPath: append(body, '\n')},
		fmt.Sprintf("ledger: release %s (%s to %s), approved by %s via %s", p.Tag, p.From, p.To, a.Login, a.Via), ghx.CommitOptions{})
	if err != nil {
		return res, fmt.Errorf("writing %s on the ledger: %s", res.RecordedPath, ghx.Describe(err))
	}
	if _, err := ghx.ReadFile(ctx, c, o, r, LedgerBranch, res.RecordedPath); err != nil {
		return res, fmt.Errorf("reading %s back from the ledger: %s", res.RecordedPath, ghx.Describe(err))
	}
	res.Record = sha
	if _, _, err := c.Git.CreateRef(ctx, o, r, &github.Reference{Ref: github.String("refs/tags/" + p.Tag), Object: &github.GitObject{SHA: github.String(res.Promoted)}}); err != nil {
		return res, fmt.Errorf("creating the tag %s: %s", p.Tag, ghx.Describe(err))
	}
	ref, _, err := c.Git.GetRef(ctx, o, r, "tags/"+p.Tag)
	if err != nil || ref.GetObject().GetSHA() != res.Promoted {
		return res, fmt.Errorf("the tag %s did not read back at %s", p.Tag, gitsha.Short(res.Promoted))
	}
	res.Tag, res.TagSHA = p.Tag, res.Promoted
	if _, _, err := c.Repositories.CreateRelease(ctx, o, r, &github.RepositoryRelease{TagName: github.String(p.Tag),
		Name: github.String(p.Tag), Body: github.String(Notes(p))}); err != nil {
		return res, fmt.Errorf("creating the GitHub release %s: %s", p.Tag, ghx.Describe(err))
	}
	rel, _, err := c.Repositories.GetReleaseByTag(ctx, o, r, p.Tag)
	if err != nil {
		return res, fmt.Errorf("reading the release %s back: %s", p.Tag, ghx.Describe(err))
	}
	res.ReleaseURL, res.ReleaseID = rel.GetHTMLURL(), rel.GetID()
	res.Run = RunWords(ctx, c, p.Owner, p.Repo, p.Tag)
	return res, nil
}

// WorkflowFile is the release workflow aayu init --gates writes.
const WorkflowFile = "aayudha-release.yml"

// RunWords says, from what GitHub holds, what the release workflow did
// with tag: its newest run's state and page, or that none started yet.
func RunWords(ctx context.Context, c *github.Client, owner, repo, tag string) string {
	runs, err := ghx.ListWorkflowRuns(ctx, c, owner, repo, WorkflowFile, &github.ListWorkflowRunsOptions{Branch: tag, Event: "push"})
	if ghx.IsNotFound(err) {
		return fmt.Sprintf("the release workflow %s is not on the default branch, so nothing builds or attests %s; aayu init --gates proposes it", WorkflowFile, tag)
	}
	if err != nil {
		return fmt.Sprintf("the release workflow's runs could not be read (%s)", ghx.Describe(err))
	}
	if len(runs) == 0 {
		return fmt.Sprintf("the release workflow (%s) has no run for %s yet: once GitHub starts it, it builds the tag's artifacts and attests them", WorkflowFile, tag)
	}
	r := runs[0]
	state := r.GetStatus()
	if r.GetConclusion() != "" {
		state += ", " + r.GetConclusion()
	}
	return fmt.Sprintf("the release workflow's run %d for %s: %s (%s)", r.GetID(), tag, state, untrusted.Line(r.GetHTMLURL()))
}

// promote brings the stable branch to the integration branch's tip read.
func promote(ctx context.Context, c *github.Client, p Plan, res *Result) error {
	o, r := p.Owner, p.Repo
	if p.Method == MethodPullRequest {
		pr, _, err := c.PullRequests.Create(ctx, o, r, &github.NewPullRequest{Title: github.String("Release " + p.Tag + ": " + p.From + " into " + p.To),
			Head: github.String(p.From), Base: github.String(p.To), Body: github.String(fmt.Sprintf("Promotes %s (%s) into %s; opened by aayu release.", p.From, p.FromSHA, p.To))})
		if err != nil {
			return fmt.Errorf("opening the pull request from %s into %s: %s", p.From, p.To, ghx.Describe(err))
		}
		res.PR = pr.GetNumber()
		if _, _, err := c.PullRequests.Merge(ctx, o, r, res.PR, "", &github.PullRequestOptions{SHA: p.FromSHA, MergeMethod: "merge"}); err != nil {
			return fmt.Errorf("merging pull request #%d into %s: %s", res.PR, p.To, ghx.Describe(err))
		}
	} else {
		_, _, err := c.Git.UpdateRef(ctx, o, r, &github.Reference{Ref: github.String("heads/" + p.To), Object: &github.GitObject{SHA: github.String(p.FromSHA)}}, false)
		if ghx.IsNotFastForward(err) {
			return &Refusal{Reason: fmt.Sprintf("%s moved since the screen read it: moving it to %s is no longer a fast-forward, so nothing was promoted", p.To, gitsha.Short(p.FromSHA))}
		}
		if err != nil {
			return fmt.Errorf("moving %s to %s: %s", p.To, gitsha.Short(p.FromSHA), ghx.Describe(err))
		}
	}
	now, err := tip(ctx, c, o, r, p.To)
	if err != nil {
		return err
	}
	if p.Method == MethodFastForward && now != p.FromSHA {
		return errors.New(p.To + " did not read back at " + gitsha.Short(p.FromSHA) + " after the fast-forward")
	}
	res.Promoted = now
	return nil
}

// Held is what GitHub holds of p's writes, read again after they stopped
// early: the last words say what landed as GitHub has it, not as the run
// believed.
func Held(ctx context.Context, c *github.Client, p Plan) []string {
	var out []string
	if sha, err := tip(ctx, c, p.Owner, p.Repo, p.To); err == nil {
		if sha == p.ToSHA {
			out = append(out, fmt.Sprintf("GitHub holds %s at %s: not promoted.", p.To, gitsha.Short(sha)))
		} else {
			out = append(out, fmt.Sprintf("GitHub holds %s at %s.", p.To, gitsha.Short(sha)))
		}
	}
	if _, err := ghx.ReadFile(ctx, c, p.Owner, p.Repo, LedgerBranch, RecordPath(p.Tag)); err == nil {
		out = append(out, fmt.Sprintf("The ledger holds %s.", RecordPath(p.Tag)))
	} else if ghx.IsNotFound(err) {
		out = append(out, fmt.Sprintf("The ledger holds no %s.", RecordPath(p.Tag)))
	}
	if _, _, err := c.Git.GetRef(ctx, p.Owner, p.Repo, "tags/"+p.Tag); ghx.IsNotFound(err) {
		out = append(out, "No tag "+p.Tag+".")
	} else if err == nil {
		out = append(out, "The tag "+p.Tag+" exists.")
	}
	return out
}
