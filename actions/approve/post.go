package approve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/actions/decide"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
)

// NewRecord makes the batch record of decide's plan: one item per pick,
// each with the Decision's title, body, door and options as they are now.
func NewRecord(p decide.Plan, forLogin, poster, way string, now time.Time) (Record, error) {
	var items []Item
	issues := map[int]inbox.Issue{}
	for _, is := range p.Snapshot().Issues {
		issues[is.Number] = is
	}
	for _, it := range p.Items {
		is, ok := issues[it.Pick.Decision]
		if !ok {
			return Record{}, fmt.Errorf("the read the batch was made from has no Decision #%d", it.Pick.Decision)
		}
		d, err := inbox.ParseDecision(is.Body.Raw())
		if err != nil {
			return Record{}, fmt.Errorf("reading Decision #%d: %w", it.Pick.Decision, err)
		}
		item := Item{Command: decide.Command([]decide.Pick{it.Pick}), Decision: it.Pick.Decision, Option: it.Pick.Option,
			Door: string(d.Door), Title: is.Title.Raw(), Body: is.Body.Raw()}
		for _, o := range d.Options {
			item.Options = append(item.Options, Option{Number: o.Number, Title: o.Title.Raw(), Recommended: o.Recommended})
		}
		items = append(items, item)
	}
	return NewRecordOf(p.Owner+"/"+p.Repo, items, forLogin, poster, way, now)
}

// newNonce makes two batches of the same steps in the same second two
// batches.
func newNonce() (string, error) {
	var nonce [6]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return "", fmt.Errorf("making the batch's nonce: %w", err)
	}
	return hex.EncodeToString(nonce[:]), nil
}

// Picks are the record's Decision steps as decide's picks.
func (r Record) Picks() []decide.Pick {
	var out []decide.Pick
	for _, it := range r.Items {
		if it.Kind == KindDecide {
			out = append(out, decide.Pick{Decision: it.Decision, Option: it.Option})
		}
	}
	return out
}

// Ledger is where batch records are read and written.
type Ledger struct {
	Client      *github.Client
	Owner, Repo string
	Branch      string   // "" means actions.LedgerBranch
	Trailers    []string // e.g. the human-fallback trailer
}

func (l Ledger) branch() string {
	if l.Branch == "" {
		return actions.LedgerBranch
	}
	return l.Branch
}

// Stored reads approvals/HASH.json; found is false when there is none.
func (l Ledger) Stored(ctx context.Context, hash string) (Stored, bool, error) {
	var s Stored
	found, err := l.readJSON(ctx, Path(hash), &s)
	return s, found, err
}

// Applied reads approvals/HASH.applied.json; found is false when the batch
// is still open.
func (l Ledger) Applied(ctx context.Context, hash string) (Applied, bool, error) {
	var a Applied
	found, err := l.readJSON(ctx, AppliedPath(hash), &a)
	return a, found, err
}

func (l Ledger) readJSON(ctx context.Context, path string, v any) (bool, error) {
	b, err := ghx.ReadFile(ctx, l.Client, l.Owner, l.Repo, l.branch(), path)
	if ghx.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading %s on the ledger: %s", path, ghx.Describe(err))
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("reading %s on the ledger: %w", path, err)
	}
	return true, nil
}

// write lands one file unless it is already there (a second writer, or a
// retry, finds it and writes nothing).
func (l Ledger) write(ctx context.Context, path string, v any, message string) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	_, err = ghx.CommitFiles(ctx, l.Client, l.Owner, l.Repo, l.branch(), map[string][]byte{path: append(b, '\n')},
		actions.Neutralize(message), ghx.CommitOptions{Trailers: l.Trailers,
			Unless: func(ctx context.Context, tip string) (bool, error) {
				_, err := ghx.ReadFile(ctx, l.Client, l.Owner, l.Repo, tip, path)
				if ghx.IsNotFound(err) {
					return false, nil
				}
				return err == nil, err
			}})
	if errors.Is(err, ghx.ErrAlreadyThere) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("writing %s on the ledger: %w", path, err)
	}
	return nil
}

// Posted is a batch on GitHub: its record and its comment.
type Posted struct {
	Stored  Stored
	Comment *github.IssueComment
}

// Post lands the batch record on the ledger first, then posts its comment
// on the first item's issue (the rendered text, and extra below it: the
// device code's lines). A comment carrying this batch's marker by the same
// poster is reused, so a retry never posts twice.
func Post(ctx context.Context, l Ledger, rec Record, extra string) (Posted, error) {
	hash := rec.Hash()
	st := Stored{Hash: hash, Record: rec, Rendered: Render(rec)}
	if err := l.write(ctx, Path(hash), st, fmt.Sprintf("approvals: batch %s of %d human-only %s for @%s", hash, len(rec.Items), plural(len(rec.Items), "step", "steps"), rec.For)); err != nil {
		return Posted{}, err
	}
	existing, err := FindBatchComment(ctx, l.Client, l.Owner, l.Repo, rec.Issue, hash, rec.PostedBy)
	if err != nil {
		return Posted{}, err
	}
	if existing != nil {
		return Posted{Stored: st, Comment: existing}, nil
	}
	body := st.Rendered + extra
	c, _, err := l.Client.Issues.CreateComment(ctx, l.Owner, l.Repo, rec.Issue, &github.IssueComment{Body: github.String(body)})
	if err != nil {
		return Posted{}, fmt.Errorf("posting batch %s on #%d: %s", hash, rec.Issue, ghx.Describe(err))
	}
	return Posted{Stored: st, Comment: c}, nil
}

// FindBatchComment is the comment on issue carrying batch hash's marker,
// posted by poster ("" for any author); nil when there is none.
func FindBatchComment(ctx context.Context, c *github.Client, owner, repo string, issue int, hash, poster string) (*github.IssueComment, error) {
	opts := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	for {
		cs, resp, err := c.Issues.ListComments(ctx, owner, repo, issue, opts)
		if err != nil {
			return nil, fmt.Errorf("reading the comments of #%d: %s", issue, ghx.Describe(err))
		}
		for _, cm := range cs {
			if MarkerIn(cm.GetBody()) == hash && (poster == "" || strings.EqualFold(cm.GetUser().GetLogin(), poster)) {
				return cm, nil
			}
		}
		if resp == nil || resp.NextPage == 0 {
			return nil, nil
		}
		opts.Page = resp.NextPage
	}
}

// ReadBatchComment is the comment on issue that carries batch hash's
// marker, first by any author (the one a person reading the thread sees
// first), as CheckShown judges it; nil when there is none.
func ReadBatchComment(ctx context.Context, l Ledger, issue int, hash string) (*Comment, error) {
	c, err := FindBatchComment(ctx, l.Client, l.Owner, l.Repo, issue, hash, "")
	if err != nil || c == nil {
		return nil, err
	}
	out := AsComment(c)
	return &out, nil
}

// AsComment is a GitHub comment as the checks read it.
func AsComment(c *github.IssueComment) Comment {
	return Comment{ID: c.GetID(), URL: c.GetHTMLURL(), Body: c.GetBody(),
		Author:    identity.Account{Login: c.GetUser().GetLogin(), Bot: c.GetUser().GetType() == "Bot"},
		CreatedAt: c.GetCreatedAt().Time, UpdatedAt: c.GetUpdatedAt().Time}
}

// MarkClosed edits batch rec's comment to say what became of the batch
// (RenderClosed): once applied, rejected, voided or superseded, no
// live-looking code or instruction stays for someone to approve. It finds
// the comment by its marker and the poster the record names, and writes
// nothing when the comment already says so (a retry) or is gone.
func MarkClosed(ctx context.Context, l Ledger, rec Record, outcome string) error {
	hash := rec.Hash()
	c, err := FindBatchComment(ctx, l.Client, l.Owner, l.Repo, rec.Issue, hash, rec.PostedBy)
	if err != nil || c == nil {
		return err
	}
	body := RenderClosed(rec, outcome)
	if c.GetBody() == body {
		return nil
	}
	if _, _, err := l.Client.Issues.EditComment(ctx, l.Owner, l.Repo, c.GetID(), &github.IssueComment{Body: github.String(body)}); err != nil {
		return fmt.Errorf("saying on #%d that batch %s is closed: %s", rec.Issue, hash, ghx.Describe(err))
	}
	return nil
}

// AppliedWords is what an applied (or rejected) batch's comment says.
func AppliedWords(a Applied) string {
	if a.IsVoided() {
		return VoidedWords(strings.Join(a.Results, "; "))
	}
	if a.Outcome == "rejected" {
		return fmt.Sprintf("rejected by @%s; nothing of it is applied.", a.By)
	}
	return fmt.Sprintf("%s on @%s's approval (%s) at %s UTC.", a.Outcome, a.By, a.Method, a.At.UTC().Format("2006-01-02 15:04"))
}
