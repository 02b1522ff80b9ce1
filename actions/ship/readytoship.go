package ship

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/google/go-github/v66/github"
)

// ReadyToShipPrefix starts the comment a ship refused only for the human
// pass leaves on the pull request, which the inbox reads as "Story PR ready
// to ship" (seed 001, "The inbox"; model/inbox.ReadyToShipComment).
const ReadyToShipPrefix = "Ready to ship"

// ReadyToShipComment is the comment's text for head: the prefix naming the
// full head SHA (how the inbox binds it to one commit), then the pass that
// is still needed, in one line.
func ReadyToShipComment(head, needed string) string {
	return fmt.Sprintf("%s: every gate passed on head %s; only the human pass is missing.\n%s\n\n<!-- aayu:ready-to-ship head=%s -->",
		ReadyToShipPrefix, head, needed, head)
}

// gateStates is whether each read-only gate passed in this run.
type gateStates struct{ pr, policy, pack, pass bool }

// onlyHumanPass says the run was refused by the human pass and nothing
// else.
func (g gateStates) onlyHumanPass() bool {
	return g.pr && g.policy && g.pack && !g.pass
}

// readyToShip runs after a refusal. When the human pass alone refused, the
// pull request links an open Story, and this is not CI, it posts the
// person's Ready to ship comment for the head — once per head — and adds
// what it did to the human pass's line. It is the one write a refused ship
// makes; failing to make it leaves the refusal as it was. In solo mode a
// ship not asked for the bypass is such a refusal too: the bypass is the
// only pass there is, so without the comment the inbox could never show a
// solo repository's pull request ready to ship (the bypass itself is still
// taken only when asked for).
func (r *run) readyToShip(g gateStates) {
	if !g.onlyHumanPass() || r.cfg.CI || r.cfg.Approval != nil || r.cfg.CheckOnly || r.target.resume != nil || r.target.head == "" || r.evidence.base == nil {
		return
	}
	// A refused ship asks nobody for a code, so the comment goes out only
	// where a person is already known to be here.
	if r.human(identity.AccessWrite).Outcome != identity.Allowed {
		return
	}
	if identity.IsBot(identity.Account{Login: r.cfg.Viewer}, r.evidence.base.identity.BotLogins) {
		return // the inbox never reads a bot's comment as a person's
	}
	line, err := r.postReadyToShip()
	if err != nil {
		r.record("failed", nil, "commenting Ready to ship: "+err.Error())
		line = fmt.Sprintf("could not comment Ready to ship on #%d (%v); the inbox will not show it ready to ship", r.pr, err)
	}
	if line == "" {
		return
	}
	out := r.passing.passOutcome
	r.emit(Event{Gate: GateHumanPass, State: Refused, Words: refusedWords(out),
		Detail: append(append(append([]string(nil), out.refusals...), out.detail...), line)})
}

// postReadyToShip posts the comment unless the person already has one for
// this head, and says what happened; "" when the pull request links no
// open Story, as the inbox's card is for Story pull requests only.
func (r *run) postReadyToShip() (string, error) {
	story, err := r.openStory()
	if err != nil || story == 0 {
		return "", err
	}
	if err := r.loadPerson(); err != nil {
		return "", err
	}
	if r.passing.person.Access() < identity.AccessWrite {
		return "", nil // the inbox reads the comment only from write access
	}
	if err := r.loadComments(); err != nil {
		return "", err
	}
	if c, ok := r.ownReadyToShip(); ok {
		r.res.ReadyToShip = c.URL
		return fmt.Sprintf("Ready to ship is already commented on #%d for head %s (%s); nothing was posted", r.pr, r.target.head, c.URL), nil
	}
	body := ReadyToShipComment(r.target.head, r.neededPass())
	c, _, err := r.cfg.Client.Issues.CreateComment(r.ctx, r.cfg.Owner, r.cfg.Repo, r.pr, &github.IssueComment{Body: github.String(actions.Neutralize(body))})
	if errors.Is(err, ghx.ErrMayHaveLanded) {
		r.passing.comments = nil
		if lerr := r.loadComments(); lerr != nil {
			return "", fmt.Errorf("%s, and reading the comments again failed: %w", ghx.Describe(err), lerr)
		}
		found, ok := r.ownReadyToShip()
		if !ok {
			return "", errors.New(ghx.Describe(err))
		}
		c, err = &github.IssueComment{HTMLURL: github.String(found.URL)}, nil
	}
	if err != nil {
		return "", errors.New(ghx.Describe(err))
	}
	r.res.ReadyToShip = c.GetHTMLURL()
	r.record("done", []string{fmt.Sprintf("commented Ready to ship on #%d for head %s (%s)", r.pr, r.target.head, c.GetHTMLURL())}, "")
	return fmt.Sprintf("commented Ready to ship on #%d for head %s: %s", r.pr, r.target.head, c.GetHTMLURL()), nil
}

// ownReadyToShip finds the person's own Ready to ship comment for the head,
// read as the inbox reads one.
func (r *run) ownReadyToShip() (identity.Comment, bool) {
	var mine []identity.Comment
	for _, c := range r.passing.comments {
		if identity.SameLogin(c.Author.Login, r.cfg.Viewer) {
			c.Author.Permission = r.passing.person.Permission
			mine = append(mine, c)
		}
	}
	return inbox.ReadyToShipComment(mine, r.target.head, r.evidence.base.identity.BotLogins)
}

// openStory is the first issue the pull request links (as the inbox reads
// links) that is an open Story; 0 when there is none.
func (r *run) openStory() (int, error) {
	for _, n := range inbox.LinkedIssues(r.target.pull.GetHead().GetRef(), r.target.pull.GetBody()) {
		is, _, err := r.cfg.Client.Issues.Get(r.ctx, r.cfg.Owner, r.cfg.Repo, n)
		if ghx.IsNotFound(err) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("reading #%d, which the pull request links: %s", n, ghx.Describe(err))
		}
		if is.IsPullRequest() || is.GetState() != "open" {
			continue
		}
		for _, l := range is.Labels {
			if l.GetName() == inbox.LabelStory {
				return n, nil
			}
		}
	}
	return 0, nil
}

// neededPass is the comment's one line naming the pass still needed: in
// solo mode with no second human in a seat, the bypass; otherwise a review
// of the head by whom the pass rule names.
func (r *run) neededPass() string {
	p := r.evidence.base.policy
	em := strings.TrimPrefix(p.EngineeringManager, "@")
	if identity.SoloMode(r.evidence.base.identity) && (em == "" || identity.SameLogin(em, r.cfg.Viewer)) {
		return fmt.Sprintf("Needed: %s --solo-bypass, run by an admin at a terminal; in solo mode no second person can review, so the bypass is the pass.", Command(r.pr))
	}
	who, role := em, "the Engineering Manager seat's paired human"
	if who == "" {
		who, role = strings.TrimPrefix(p.Approver, "@"), "the [autonomy] approver"
	}
	if who == "" {
		return fmt.Sprintf("Needed: an approving review of this head by a person who is not the author (@%s).", r.target.author)
	}
	return fmt.Sprintf("Needed: an approving review of this head by @%s (%s).", who, role)
}

// refusedWords is a refused gate's line, as gate words it.
func refusedWords(out gateOutcome) string {
	if out.words != "" {
		return out.words
	}
	return strings.Join(out.refusals, "; ")
}
