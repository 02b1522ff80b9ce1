// Package ready freezes a Story's Completion Goal as its Ready snapshot
// (SPEC §4, §10): specs/STORY/ready.md on the ledger and the label
// status:ready. Read only reads and says what would be written, or why
// nothing may be; Apply writes exactly that.
package ready

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/exitcode"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/proof"
)

// LedgerBranch is where snapshots live (SPEC §4).
const LedgerBranch = "ledger"

// StatusReady is the label a frozen Story carries.
const StatusReady = "status:ready"

// Path is the snapshot's path on the ledger.
func Path(story int) string { return fmt.Sprintf("specs/%d/ready.md", story) }

// Command is the command as a person types it, for the presence check.
func Command(story int, again bool) string {
	if again {
		return fmt.Sprintf("aayu ready %d --again", story)
	}
	return fmt.Sprintf("aayu ready %d", story)
}

// Refusal is a reason nothing may be written, in words; it ends the run
// with exit 4. It is the one refusal type every action returns.
type Refusal = exitcode.Refusal

var refuse = exitcode.Refuse

// Options say which Story to freeze and how.
type Options struct {
	Client      *github.Client
	Owner, Repo string
	Story       int
	// Again allows re-freezing a goal that changed since its snapshot.
	Again bool
	// Now stamps frozen_at; nil is time.Now.
	Now func() time.Time
}

// Plan is what Read found and what Apply would write.
type Plan struct {
	Owner, Repo string
	Story       int
	Kind        string // "Story" or "Bug"
	Title       string // one neutral line (untrusted.RecordLine)
	Criteria    []string
	Hash        string // completion_goal_hash of the snapshot to write
	Snapshot    []byte // specs/STORY/ready.md as it will be written
	// Previous is the recorded hash of the snapshot on the ledger now, or
	// "" when there is none.
	Previous string
	// Same: the ledger already holds a snapshot with this hash; nothing is
	// to be written.
	Same bool
	// Labels the Story carries now, for the status change.
	Labels []string
}

// Changed says this is a re-freeze of a goal that changed (--again).
func (p Plan) Changed() bool { return p.Previous != "" && !p.Same }

// Writes are the writes Apply makes, in order, in words.
func (p Plan) Writes() []string {
	if p.Same {
		return nil
	}
	var out []string
	what := fmt.Sprintf("%s on the %s branch: the Ready snapshot of #%d, completion_goal_hash %s (one commit, fast-forward only)", Path(p.Story), LedgerBranch, p.Story, p.Hash)
	if p.Changed() {
		what += fmt.Sprintf("; the snapshot with hash %s stays in the ledger's history", p.Previous)
	}
	out = append(out, what)
	if p.Changed() {
		out = append(out, fmt.Sprintf("a comment on #%d that its Completion Goal changed, so packs built for the old goal (hash %s) no longer verify", p.Story, gitsha.Short(p.Previous)))
	}
	for _, w := range inbox.StatusWrites(p.Story, p.Labels, StatusReady) {
		switch w.Kind {
		case inbox.WriteRemoveLabel:
			out = append(out, fmt.Sprintf("the label %s removed from #%d", untrusted.RecordLine(w.Label), p.Story))
		case inbox.WriteAddLabel:
			out = append(out, fmt.Sprintf("the label %s added to #%d", w.Label, p.Story))
		}
	}
	return out
}

// Read reads the Story and the ledger and plans the freeze, or refuses
// with a *Refusal naming why.
func Read(ctx context.Context, o Options) (Plan, error) {
	p := Plan{Owner: o.Owner, Repo: o.Repo, Story: o.Story}
	is, _, err := o.Client.Issues.Get(ctx, o.Owner, o.Repo, o.Story)
	if ghx.IsNotFound(err) {
		return p, refuse("%s/%s has no issue #%d", o.Owner, o.Repo, o.Story)
	}
	if err != nil {
		return p, fmt.Errorf("reading issue #%d of %s/%s: %w", o.Story, o.Owner, o.Repo, err)
	}
	if is.IsPullRequest() {
		return p, refuse("#%d is a pull request, not a Story; aayu ready freezes the goal of an issue labelled type:story or type:bug", o.Story)
	}
	for _, l := range is.Labels {
		p.Labels = append(p.Labels, l.GetName())
		switch strings.ToLower(l.GetName()) {
		case "type:story":
			p.Kind = "Story"
		case "type:bug":
			if p.Kind == "" {
				p.Kind = "Bug"
			}
		}
	}
	if p.Kind == "" {
		return p, refuse("#%d is not a Story: it carries neither type:story nor type:bug, so it has no Completion Goal to freeze", o.Story)
	}
	p.Title = untrusted.RecordLine(is.GetTitle())
	items, err := proof.CompletionGoal(fmt.Sprintf("%s #%d's body", p.Kind, o.Story), is.GetBody())
	if err != nil {
		next := "add a \"## Completion Goal\" section with numbered criteria (1. …, 2. …) to the issue, then run aayu ready again"
		if !errors.Is(err, proof.ErrNoGoalSection) && !errors.Is(err, proof.ErrNoGoalItems) {
			next = "fix the Completion Goal in the issue, then run aayu ready again"
		}
		return p, refuse("%s; %s", untrusted.Line(err.Error()), next)
	}
	for _, it := range items {
		p.Criteria = append(p.Criteria, safeCriterion(it.Text))
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	p.Snapshot = proof.RenderReady(o.Story, p.Title, now(), p.Criteria)
	snap, err := proof.ParseReady(p.Snapshot)
	if err != nil {
		return p, fmt.Errorf("the snapshot aayu made for #%d does not read back: %w", o.Story, err)
	}
	p.Hash = snap.RecordedHash

	prev, err := current(ctx, o.Client, o.Owner, o.Repo, o.Story)
	if err != nil {
		return p, err
	}
	if prev == nil {
		return p, nil
	}
	p.Previous = prev.RecordedHash
	p.Same = prev.RecordedHash == p.Hash
	if !p.Same && !o.Again {
		return p, refuse("#%d is already frozen with completion_goal_hash %s and its Completion Goal now hashes to %s; packs built for the frozen goal would no longer verify. If the goal really changed, run %s", o.Story, gitsha.Short(prev.RecordedHash), gitsha.Short(p.Hash), Command(o.Story, true))
	}
	return p, nil
}

// current reads the Story's snapshot on the ledger; nil when there is none.
func current(ctx context.Context, gh *github.Client, owner, repo string, story int) (*proof.Ready, error) {
	b, err := ghx.ReadFile(ctx, gh, owner, repo, LedgerBranch, Path(story))
	if ghx.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the Ready snapshot of #%d on the ledger: %w", story, err)
	}
	r, err := proof.ParseReady(b)
	if err != nil {
		// A snapshot that cannot be read is not one to keep silently: the
		// person decides with --again, which replaces it.
		return &proof.Ready{RecordedHash: "unreadable (" + untrusted.RecordLine(err.Error()) + ")"}, nil
	}
	return r, nil
}

// safeCriterion makes each line of a criterion one neutral line, so no
// escape sequence or line break from the issue reaches the snapshot.
func safeCriterion(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = untrusted.RecordLine(l)
	}
	return strings.Join(lines, "\n")
}

// Result is what Apply wrote.
type Result struct {
	Commit     string // the ledger commit holding the snapshot
	CommentURL string // the goal-changed comment, with --again
	Labelled   bool
}

// Apply writes the plan: the snapshot on the ledger (Git Data API,
// fast-forward only; one that is already there is not written twice),
// then, for a changed goal, the comment, then the status label (every
// other status removed first). Each step is safe to run again.
func Apply(ctx context.Context, gh *github.Client, p Plan, trailers []string) (Result, error) {
	var res Result
	if p.Same {
		return res, nil
	}
	msg := fmt.Sprintf("Ready: freeze the Completion Goal of #%d (completion_goal_hash %s)", p.Story, p.Hash)
	if p.Changed() {
		msg = fmt.Sprintf("Ready: freeze the changed Completion Goal of #%d again (completion_goal_hash %s, was %s)", p.Story, p.Hash, gitsha.Short(p.Previous))
	}
	sha, err := ghx.CommitFiles(ctx, gh, p.Owner, p.Repo, LedgerBranch, map[string][]byte{Path(p.Story): p.Snapshot}, msg, ghx.CommitOptions{
		Trailers: trailers,
		Unless: func(ctx context.Context, tip string) (bool, error) {
			b, err := ghx.ReadFile(ctx, gh, p.Owner, p.Repo, tip, Path(p.Story))
			if ghx.IsNotFound(err) {
				return false, nil
			}
			if err != nil {
				return false, err
			}
			r, err := proof.ParseReady(b)
			if err != nil {
				return false, nil
			}
			if r.RecordedHash != p.Hash && r.RecordedHash != p.Previous {
				return false, fmt.Errorf("the Ready snapshot of #%d changed on the ledger while you decided (now hash %s); nothing was written, run aayu ready again", p.Story, gitsha.Short(r.RecordedHash))
			}
			return r.RecordedHash == p.Hash, nil
		},
	})
	if err != nil && !errors.Is(err, ghx.ErrAlreadyThere) {
		return res, fmt.Errorf("writing %s to the ledger: %w", Path(p.Story), err)
	}
	res.Commit = sha
	if p.Changed() {
		url, err := commentOnce(ctx, gh, p)
		if err != nil {
			return res, err
		}
		res.CommentURL = url
	}
	for _, w := range inbox.StatusWrites(p.Story, p.Labels, StatusReady) {
		switch w.Kind {
		case inbox.WriteRemoveLabel:
			_, err = gh.Issues.RemoveLabelForIssue(ctx, p.Owner, p.Repo, p.Story, url.PathEscape(w.Label))
			if ghx.IsNotFound(err) {
				err = nil // already gone
			}
		case inbox.WriteAddLabel:
			_, _, err = gh.Issues.AddLabelsToIssue(ctx, p.Owner, p.Repo, p.Story, []string{w.Label})
		}
		if err != nil {
			return res, fmt.Errorf("setting #%d's status to %s (%s %s): %w", p.Story, StatusReady, w.Kind, untrusted.RecordLine(w.Label), err)
		}
	}
	res.Labelled = true
	return res, nil
}

// ChangedComment is the comment --again leaves on the Story.
func ChangedComment(p Plan) string {
	return fmt.Sprintf("The Completion Goal of this %s changed and was frozen again with `aayu ready %d --again`.\n\n"+
		"- new completion_goal_hash: `%s`\n- old completion_goal_hash: `%s` (its snapshot stays in the history of `%s` on the `%s` branch)\n\n"+
		"Proof packs built for the old goal no longer verify: build them again for the new goal.",
		strings.ToLower(p.Kind), p.Story, p.Hash, p.Previous, Path(p.Story), LedgerBranch)
}

// commentOnce posts ChangedComment unless the same text is there already
// (a second run after a failure does not comment twice).
func commentOnce(ctx context.Context, gh *github.Client, p Plan) (string, error) {
	body := ChangedComment(p)
	comments, err := ghx.ListAll(ctx, func(opts *github.ListOptions) ([]*github.IssueComment, *github.Response, error) {
		return gh.Issues.ListComments(ctx, p.Owner, p.Repo, p.Story, &github.IssueListCommentsOptions{ListOptions: *opts})
	})
	if err != nil {
		return "", fmt.Errorf("reading the comments on #%d: %w", p.Story, err)
	}
	for _, c := range comments {
		if strings.TrimSpace(c.GetBody()) == body {
			return c.GetHTMLURL(), nil
		}
	}
	c, _, err := gh.Issues.CreateComment(ctx, p.Owner, p.Repo, p.Story, &github.IssueComment{Body: github.String(body)})
	if err != nil {
		return "", fmt.Errorf("commenting on #%d that its goal changed: %w", p.Story, err)
	}
	return c.GetHTMLURL(), nil
}
