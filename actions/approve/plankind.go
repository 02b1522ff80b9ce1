package approve

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aayudha/aayu/actions/plan"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
)

// NewPlanItem is `aayu plan STORY [--solo-bypass]` as a batch step, from
// what plan.Read found for the person: the never layers the plan touches,
// and the Story as it was. Recording a plan review is a two-way door (a
// later review records over it), but it is a comment in the person's own
// name, which ship counts only when the person made it: the device code
// proves the person and makes no comment, so a plan step is applied by
// the person's reply (the reply is the comment) or by aayu approve HASH
// at their own terminal, never written as the bot.
func NewPlanItem(story int, layers []string, title, body string, bypass bool) Item {
	does := fmt.Sprintf("Records your review of the plan of Story #%d (never layers %s) on the ledger", story, strings.Join(layers, ", "))
	opt := "Approve: record the review"
	if bypass {
		does = fmt.Sprintf("Records your solo-mode bypass of the plan review of Story #%d (never layers %s): no review happened, and your Solo-mode bypass: comment says so", story, strings.Join(layers, ", "))
		opt = "Approve: record the bypass"
	}
	return Item{Kind: KindPlan, Command: plan.Command(story, bypass), Story: story, Bypass: bypass, Layers: slices.Clone(layers),
		Does: does, Option: 1, Door: DoorTwoWay, Title: title, Body: body,
		Options: []Option{{Number: 1, Title: opt, Recommended: true}, {Number: 2, Title: "Leave it: nothing is recorded"}}}
}

// HasPlan says the record holds a plan step.
func (r Record) HasPlan() bool {
	return slices.ContainsFunc(r.Items, func(it Item) bool { return it.Kind == KindPlan })
}

// PlanItemFor is the record's plan review step (not a bypass) for story
// whose layers cover every one of layers, if there is one.
func (r Record) PlanItemFor(story int, layers []string) (Item, bool) {
	for _, it := range r.Items {
		if it.Kind == KindPlan && !it.Bypass && it.Story == story && covers(it.Layers, layers) {
			return it, true
		}
	}
	return Item{}, false
}

func covers(have, want []string) bool {
	for _, l := range want {
		if !slices.Contains(have, l) {
			return false
		}
	}
	return true
}

// NeedsOwnComment is the refusal of a plan step by a device code where
// the writes go out with the agent's token: the code proves who login is
// and writes nothing in their name. aayu approve in an agent lane says it
// before asking for a code.
func NeedsOwnComment(login, hash string, issue int) *Refusal {
	return &Refusal{CheckPlanOwnComment, fmt.Sprintf("A plan review counts only as a comment in @%s's own name, and this process writes with the agent's token, which cannot make one; a device code proves who you are but writes nothing as you, so nothing was recorded.", login),
		ownCommentNext(hash, issue)}
}

// ownCommentNext is the next step for a plan step this process cannot
// apply.
func ownCommentNext(hash string, issue int) string {
	return fmt.Sprintf("Reply `Approve batch %s` on #%d where replies are on (your reply is the review), or run aayu approve %s at your own terminal, signed in as yourself (it posts your own comment).", hash, issue, hash)
}

// applyPlan records an approved plan step by the one route that makes the
// review the person's own comment:
//   - by reply: the reply `Approve batch HASH` is the person's comment on
//     the Story; specs/N/plan-review.json records it as the review
//     (ship's planReview accepts it against this batch's record);
//   - by device code with the person's own token (aayu approve HASH at
//     their terminal, OwnToken): plan.Apply posts their usual
//     `Plan reviewed:` (or `Solo-mode bypass:`) comment, naming the batch;
//   - otherwise (the agent's waiting process, the bot's token) it is
//     refused with the next step: the bot never writes a plan review.
//
// Either way the plan is read again as the approver's: it refuses when
// aayu plan would refuse now, or touches a never layer the batch did not
// show.
func applyPlan(ctx context.Context, o ApplyOptions, it Item, a identity.Account, trailers []string) (string, error) {
	gh, owner, repo := o.Ledger.Client, o.Ledger.Owner, o.Ledger.Repo
	switch {
	case o.Method == WayReply && it.Bypass:
		return "", &Refusal{CheckPlanOwnComment, fmt.Sprintf("A solo-mode bypass of #%d's plan review is a Solo-mode bypass: comment in your own name, and a reply naming a batch is not one; nothing was recorded.", it.Story),
			fmt.Sprintf("Run aayu approve %s at your own terminal.", o.Hash)}
	case o.Method == WayReply:
	case o.Method == WayDevice && o.OwnToken:
		me, _, err := gh.Users.Get(ctx, "")
		if err != nil {
			return "", fmt.Errorf("reading who this token is: %s", ghx.Describe(err))
		}
		if !identity.SameLogin(me.GetLogin(), a.Login) {
			return "", &Refusal{CheckPlanOwnComment, fmt.Sprintf("@%s approved the code, and this process writes as @%s, so the plan review would not be @%s's own comment; nothing was recorded.", a.Login, me.GetLogin(), a.Login),
				ownCommentNext(o.Hash, it.Story)}
		}
	default:
		return "", NeedsOwnComment(a.Login, o.Hash, it.Story)
	}
	need := identity.NeedFor(it.Bypass)
	here := identity.Decision{Outcome: identity.NeedsPresence, Reason: fmt.Sprintf("%s was started in an agent lane and approved as batch %s", it.Command, o.Hash)}
	r, err := plan.Read(ctx, plan.Options{Client: gh, Owner: owner, Repo: repo, Story: it.Story, Viewer: a.Login, SoloBypass: it.Bypass, Batch: o.Hash, Now: o.Now,
		Here: &here, Session: &identity.Session{Command: it.Command, Login: a.Login, Access: need, Method: "batch " + o.Hash + " (" + o.Method + ")"}})
	var pr *plan.Refusal
	switch {
	case errors.As(err, &pr):
		return "", &Refusal{CheckStepRefused, fmt.Sprintf("%s now refuses: %s; nothing was recorded.", it.Command, pr.Reason), "Ask the agent for a new batch once it would pass."}
	case err != nil:
		return "", err
	case r.NotNeeded != "":
		return fmt.Sprintf("#%d: %s; nothing was recorded", it.Story, r.NotNeeded), nil
	case !covers(it.Layers, r.LayerIDs()):
		return "", &Refusal{CheckStepRefused, fmt.Sprintf("The plan of #%d now touches never layers %s, and batch %s showed %s: a later change voids the approval; nothing was recorded.",
			it.Story, strings.Join(r.LayerIDs(), ", "), o.Hash, strings.Join(it.Layers, ", ")), "Read the plan again and ask the agent for a new batch."}
	case r.Same:
		return fmt.Sprintf("#%d: a plan %s covering %s is recorded already; nothing written", it.Story, r.Record.Kind, strings.Join(r.Record.Layers, ", ")), nil
	}
	if o.Method == WayDevice {
		res, err := plan.Apply(ctx, gh, r, trailers)
		if err != nil {
			if errors.As(err, &pr) {
				return "", &Refusal{CheckStepRefused, pr.Reason, "Run aayu approve " + o.Hash + " again."}
			}
			return "", err
		}
		return fmt.Sprintf("#%d: plan %s recorded (%s), your comment %s", it.Story, r.Record.Kind, pass.PlanRecordPath(it.Story), res.CommentURL), nil
	}
	// The reply is the review: recorded as the person's comment, the
	// layers the batch showed, by the writer (the App) on the ledger.
	rec := pass.PlanRecord{Story: it.Story, Layers: slices.Clone(it.Layers), Kind: pass.PlanKindReview, Reviewer: a.Login, ApprovedBy: a.Login, RecordedBy: a.Login,
		RecordedAt: o.Now().UTC().Format(time.RFC3339), CommentURL: o.Comment,
		Note: fmt.Sprintf("reviewed by @%s's reply `Approve batch %s` to the batch that showed this plan (never layers %s); ship checks the reply against approvals/%s.json", a.Login, o.Hash, strings.Join(it.Layers, ", "), o.Hash)}
	path := pass.PlanRecordPath(it.Story)
	_, err = ghx.CommitFiles(ctx, gh, owner, repo, o.Ledger.branch(), map[string][]byte{path: rec.Encode()},
		fmt.Sprintf("Plan review of #%d: review by %s for %s (reply to batch %s)", it.Story, a.Login, strings.Join(rec.Layers, ", "), o.Hash),
		ghx.CommitOptions{Trailers: trailers, Unless: func(ctx context.Context, tip string) (bool, error) {
			b, err := ghx.ReadFile(ctx, gh, owner, repo, tip, path)
			if ghx.IsNotFound(err) {
				return false, nil
			}
			if err != nil {
				return false, err
			}
			now, err := pass.ParsePlanRecord(b)
			return err == nil && now.CommentURL == rec.CommentURL && now.Covers(rec.Layers), nil
		}})
	if err != nil && !errors.Is(err, ghx.ErrAlreadyThere) {
		return "", fmt.Errorf("writing %s on the ledger: %w", path, err)
	}
	return fmt.Sprintf("#%d: plan review recorded (%s), your reply %s", it.Story, path, o.Comment), nil
}
