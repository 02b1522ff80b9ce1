package approve

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/ready"
	"github.com/aayudha/aayu/ghx"
)

// Item kinds. A Decision's acceptance is the first kind and keeps an
// empty Kind, so every batch recorded before the other kinds existed
// still hashes to its name.
const (
	KindDecide = ""
	KindReady  = "ready" // aayu ready STORY: freeze the Completion Goal
	KindPlan   = "plan"  // aayu plan STORY: record the plan review
	KindShip   = "ship"  // aayu ship PR: merge; one-way
)

// Issue is the issue an item is about: the Decision it accepts, or the
// Story (or pull request) it acts on.
func (it Item) Issue() int {
	if it.Kind == KindDecide {
		return it.Decision
	}
	return it.Story
}

// NewRecordOf is the record of items already made (NewReadyItem, …),
// with a fresh nonce; the comment goes on the first item's issue.
func NewRecordOf(repo string, items []Item, forLogin, poster, way string, now time.Time) (Record, error) {
	if len(items) == 0 {
		return Record{}, errors.New("a batch needs at least one step")
	}
	nonce, err := newNonce()
	if err != nil {
		return Record{}, err
	}
	rec := Record{Version: 1, Repo: repo, Issue: items[0].Issue(), For: forLogin, PostedBy: poster, Way: way,
		Created: now.UTC().Truncate(time.Second), Nonce: nonce, Items: items}
	if r := rec.OneStepEach(); r != nil {
		return Record{}, r
	}
	return rec, nil
}

// NewReadyItem is `aayu ready STORY [--again]` as a batch step, from what
// ready.Read found with the agent's token: what approving freezes (the
// goal's hash), the Story as it was (a later edit voids the approval),
// and the two options, approving recommended, since the agent asked.
// Freezing is a two-way door: a changed goal is frozen again with --again.
func NewReadyItem(p ready.Plan, again bool, title, body string) Item {
	does := fmt.Sprintf("Freezes the Completion Goal of %s #%d (%d %s, completion_goal_hash %s) as its Ready snapshot on the ledger and labels it status:ready",
		p.Kind, p.Story, len(p.Criteria), plural(len(p.Criteria), "criterion", "criteria"), short(p.Hash))
	return Item{Kind: KindReady, Command: ready.Command(p.Story, again), Story: p.Story, Again: again, GoalHash: p.Hash,
		Does: does, Option: 1, Door: DoorTwoWay, Title: title, Body: body,
		Options: []Option{{Number: 1, Title: "Approve: freeze the goal", Recommended: true}, {Number: 2, Title: "Leave it: nothing is written"}}}
}

// applyReady runs the step the person would run, aayu ready, read again
// with the writer's client: it refuses when the goal no longer hashes to
// what the batch showed, and writes the snapshot and the label once (a
// snapshot already there is not written twice). The approver is named on
// the ledger commit.
func applyReady(ctx context.Context, gh *github.Client, owner, repo string, it Item, trailers []string) (string, error) {
	p, err := ready.Read(ctx, ready.Options{Client: gh, Owner: owner, Repo: repo, Story: it.Story, Again: it.Again})
	var r *ready.Refusal
	if errors.As(err, &r) {
		return "", &Refusal{CheckDecisionEdit, fmt.Sprintf("aayu ready %d now refuses: %s.", it.Story, r.Reason), "Ask the agent for a new batch."}
	}
	if err != nil {
		return "", err
	}
	if p.Hash != it.GoalHash {
		return "", &Refusal{CheckDecisionEdit, fmt.Sprintf("The Completion Goal of #%d now hashes to %s, not the %s the batch showed: a later edit voids the approval.", it.Story, short(p.Hash), short(it.GoalHash)),
			"Read the Story again and ask the agent for a new batch."}
	}
	if p.Same {
		return fmt.Sprintf("#%d: already frozen with completion_goal_hash %s; nothing written", it.Story, short(p.Hash)), nil
	}
	res, err := ready.Apply(ctx, gh, p, trailers)
	if err != nil {
		return "", fmt.Errorf("freezing the goal of #%d: %s", it.Story, ghx.Describe(err))
	}
	return fmt.Sprintf("#%d: Completion Goal frozen (completion_goal_hash %s, ledger commit %s)", it.Story, short(p.Hash), short(res.Commit)), nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// NewShipItem is `aayu ship PR [--solo-bypass]` as a batch step, from
// what ship's own read-only gates found with the agent's token (every one
// passed): the head and base it merges, pinned, and the pull request's
// title and body as they were. A merge is a one-way door (a later
// Decision does not unmerge it), so under the default [approvals]
// device_for = ["one-way"] its batch is approved only by device code,
// never by reply (NeedsDevice, CheckReply).
func NewShipItem(pr int, base, head, title, body string, bypass bool) Item {
	does := fmt.Sprintf("Merges PR #%d (%s) at head %s into %s", pr, title, shortSHA(head), base)
	if bypass {
		does += ", with your Solo-mode bypass: no review happened, and its comment and the ship record say so"
	}
	return Item{Kind: KindShip, Command: shipCommand(pr, bypass), Story: pr, Bypass: bypass, Head: head, Base: base,
		Does: does, Option: 1, Door: DoorOneWay, Title: title, Body: body,
		Options: []Option{{Number: 1, Title: "Approve: merge it", Recommended: true}, {Number: 2, Title: "Leave it: nothing is merged"}}}
}

func shipCommand(pr int, bypass bool) string {
	if bypass {
		return fmt.Sprintf("aayu ship %d --solo-bypass", pr)
	}
	return fmt.Sprintf("aayu ship %d", pr)
}

// shortSHA is a commit's first 7 hex, as GitHub shows one.
func shortSHA(h string) string {
	if len(h) > 7 {
		return h[:7]
	}
	return h
}

// ShipApproval is what a ship step's applier is given: the step, and the
// approval that stands in for ship's presence check.
type ShipApproval struct {
	Item    Item
	Batch   string
	Login   string // who approved
	Method  string // WayDevice or WayReply
	Comment string // the reply's link, for a reply
	// Trailers go on ship's ledger commit: the writer's identity tags
	// (human-fallback) and who approved which batch, as on every other
	// step's commit.
	Trailers []string
}

// ShipFunc runs ship for an approved step (main wires actions/ship to
// it): every gate of ship checked again on the pinned head, the approval
// in place of the presence check. words say what landed; a refusal is a
// *Refusal, and nothing of the batch is then marked applied.
type ShipFunc func(ctx context.Context, a ShipApproval) (words string, err error)
