package actions

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/google/go-github/v66/github"
)

// landing is what is known about one write after it was tried.
type landing int

const (
	notLanded landing = iota
	landed
	unknown // the write may have reached GitHub and a check could not tell
	already // it had happened before this attempt
)

// run is one attempt at a request's writes.
type run struct {
	e   *Executor
	req Request

	wrote    []string // each write that landed or had landed, in words
	changed  []string // what this attempt changed, in short words
	byHand   string
	commit   string   // the commit the last ledger or revert write made or stopped at
	revertPR int      // the revert pull request, once opened or found
	layers   []string // the audited pull request's footprint, for its sample
	author   string   // the audited pull request's author, for its sample
	// revertWords replaces the revert's usual words when no pull request
	// was needed or none could be opened.
	revertWords string
	state       landing // what became of the write that failed
	// commentURL is the link to the comment posted or found posted.
	commentURL string
	// rerunWords says what became of a WriteGateRerun (gatererun.go).
	rerunWords string
}

// write makes one write unless it already happened. A write that may have
// landed (a gateway error or a dropped connection after sending) is checked
// on GitHub: if it is there, it counts as done.
func (r *run) write(ctx context.Context, w inbox.Write) error {
	was, err := r.apply(ctx, w)
	if err == nil {
		if was {
			r.wrote = append(r.wrote, capitalise(r.words(w, already)))
		} else {
			r.landed(w)
		}
		return nil
	}
	r.state = notLanded
	if ctx.Err() != nil {
		// Stopped while the write was under way: the request may have
		// reached GitHub, and no check can be made now. The next try
		// checks before writing it again.
		r.state = unknown
		return err
	}
	if errors.Is(err, ghx.ErrMayHaveLanded) {
		there, cerr := r.check(ctx, w)
		switch {
		case cerr != nil:
			r.state = unknown
		case there:
			r.landed(w)
			return nil
		}
	}
	return err
}

func (r *run) landed(w inbox.Write) {
	r.wrote = append(r.wrote, capitalise(r.words(w, landed)))
	r.changed = append(r.changed, r.shortWords(w, landed))
}

// apply makes one write, first checking whether it already happened;
// was reports that it had.
func (r *run) apply(ctx context.Context, w inbox.Write) (was bool, err error) {
	c, owner, repo := r.e.cfg.Client, r.e.cfg.Owner, r.e.cfg.Repo
	switch w.Kind {
	case inbox.WriteComment, inbox.WriteAddLabel, inbox.WriteRemoveLabel, inbox.WriteClose, inbox.WriteReview:
		if there, err := r.check(ctx, w); err != nil || there {
			return there, err
		}
	}
	switch w.Kind {
	case inbox.WriteComment:
		var cm *github.IssueComment
		cm, _, err = c.Issues.CreateComment(ctx, owner, repo, w.Number, &github.IssueComment{Body: github.String(Neutralize(w.Body))})
		if err == nil {
			r.commentURL = cm.GetHTMLURL()
		}
	case inbox.WriteAddLabel:
		_, _, err = c.Issues.AddLabelsToIssue(ctx, owner, repo, w.Number, []string{w.Label})
	case inbox.WriteRemoveLabel:
		_, err = c.Issues.RemoveLabelForIssue(ctx, owner, repo, w.Number, url.PathEscape(w.Label))
		if labelMissing(err) {
			return true, nil
		}
	case inbox.WriteClose:
		_, _, err = c.Issues.Edit(ctx, owner, repo, w.Number, &github.IssueRequest{
			State: github.String("closed"), StateReason: github.String(w.Reason)})
	case inbox.WriteReview:
		_, _, err = c.PullRequests.CreateReview(ctx, owner, repo, w.Number, &github.PullRequestReviewRequest{
			CommitID: github.String(w.CommitID), Event: github.String("APPROVE"),
			Body: github.String(NeutralizeLine(fmt.Sprintf("Approved this head through aayu inbox. Checked: %s", oneLine(r.req.Note))))})
	case inbox.WriteLedgerPut, inbox.WriteLedgerAppend, inbox.WriteLedgerRemove, inbox.WriteLedgerWaiver:
		return r.ledger(ctx, w)
	case inbox.WriteRevertPR:
		return r.revert(ctx, w)
	case inbox.WriteGateRerun:
		return r.gateRerun(ctx, w)
	default:
		return false, permanent(fmt.Errorf("aayu does not know how to write %q", w.Kind))
	}
	return false, err
}

// check says whether a write is already on GitHub or the ledger.
func (r *run) check(ctx context.Context, w inbox.Write) (bool, error) {
	c, owner, repo := r.e.cfg.Client, r.e.cfg.Owner, r.e.cfg.Repo
	switch w.Kind {
	case inbox.WriteComment:
		comments, err := ghx.ListAll(ctx, func(opts *github.ListOptions) ([]*github.IssueComment, *github.Response, error) {
			return c.Issues.ListComments(ctx, owner, repo, w.Number, &github.IssueListCommentsOptions{ListOptions: *opts})
		})
		if err != nil {
			return false, fmt.Errorf("reading the comments on #%d: %w", w.Number, err)
		}
		for _, cm := range comments {
			if strings.EqualFold(cm.GetUser().GetLogin(), r.e.cfg.Viewer) && strings.TrimSpace(cm.GetBody()) == strings.TrimSpace(Neutralize(w.Body)) {
				r.commentURL = cm.GetHTMLURL()
				return true, nil
			}
		}
		return false, nil
	case inbox.WriteAddLabel, inbox.WriteRemoveLabel, inbox.WriteClose:
		is, _, err := c.Issues.Get(ctx, owner, repo, w.Number)
		if err != nil {
			return false, fmt.Errorf("reading #%d: %w", w.Number, err)
		}
		has := false
		for _, l := range is.Labels {
			has = has || strings.EqualFold(l.GetName(), w.Label)
		}
		switch w.Kind {
		case inbox.WriteAddLabel:
			return has, nil
		case inbox.WriteRemoveLabel:
			return !has, nil
		}
		return is.GetState() == "closed", nil
	case inbox.WriteReview:
		reviews, err := ghx.ListAll(ctx, func(opts *github.ListOptions) ([]*github.PullRequestReview, *github.Response, error) {
			return c.PullRequests.ListReviews(ctx, owner, repo, w.Number, opts)
		})
		if err != nil {
			return false, fmt.Errorf("reading the reviews of #%d: %w", w.Number, err)
		}
		for _, rv := range reviews {
			if strings.EqualFold(rv.GetUser().GetLogin(), r.e.cfg.Viewer) && rv.GetState() == "APPROVED" && strings.EqualFold(rv.GetCommitID(), w.CommitID) {
				return true, nil
			}
		}
		return false, nil
	case inbox.WriteLedgerPut, inbox.WriteLedgerAppend, inbox.WriteLedgerRemove, inbox.WriteLedgerWaiver:
		tip, err := r.e.ledgerTip(ctx)
		if err != nil {
			return false, err
		}
		files, err := r.ledgerEdit(w)(r.e.ledgerReader(ctx, tip.SHA))
		return err == nil && len(files) == 0, err
	case inbox.WriteRevertPR:
		pr, err := r.e.findRevertPR(ctx, w.Number)
		if pr != nil {
			r.revertPR = pr.GetNumber()
		}
		return pr != nil, err
	}
	return false, nil
}

// labelMissing is GitHub's 404 "Label does not exist" on removing a label
// the issue does not carry: it is already removed.
func labelMissing(err error) bool {
	var resp *github.ErrorResponse
	return errors.As(err, &resp) && ghx.IsNotFound(err) && strings.Contains(strings.ToLower(resp.Message), "label does not exist")
}

// oneLine keeps the person's note to one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
