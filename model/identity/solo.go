package identity

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aayudha/aayu/internal/lazyre"
)

// IdentitySettings is the [identity] table (seed 001, "Key data").
type IdentitySettings struct {
	AppID             int64
	AppSlug           string
	Broker            string
	MachineUser       string
	MachineUserSecret string
	BotLogins         []string
	// DeviceClientID names the OAuth App for the presence check. It is not
	// a bot identity, so setting it leaves a repository solo.
	DeviceClientID string
}

// SoloMode says whether the repository has no bot identity: every bot
// setting is unset, which is the default configuration.
func SoloMode(cfg IdentitySettings) bool {
	return cfg.AppID == 0 && cfg.AppSlug == "" && cfg.Broker == "" && cfg.MachineUser == "" &&
		cfg.MachineUserSecret == "" && len(cfg.BotLogins) == 0
}

// NeedFor is the access a command's approval must carry: admin when the
// person asked for the solo-mode bypass (it stands in for a review no one
// else could give, so only an admin may take it), write otherwise. Ship,
// plan and a batch's plan item all ask here, so they cannot disagree.
func NeedFor(soloBypass bool) Access {
	if soloBypass {
		return AccessAdmin
	}
	return AccessWrite
}

// SoloBypassPrefix starts the comment by which the person records that no
// review happened.
const SoloBypassPrefix = "Solo-mode bypass:"

// SoloBypassComment is the text ship posts for a head: the prefix, the
// person's reason, and a line naming the head, which is how a bypass comment
// is bound to one commit (a later push needs a new comment).
func SoloBypassComment(head, why string) string {
	return fmt.Sprintf("%s %s\n\nHead: %s", SoloBypassPrefix, strings.TrimSpace(why), head)
}

// UnusedSoloBypassPrefix starts a bypass comment ship edited after the
// merge it was posted for was refused (the head moved): the comment stays,
// so the record keeps it, but it no longer starts with SoloBypassPrefix,
// so it can never pass a head again.
const UnusedSoloBypassPrefix = "Unused Solo-mode bypass:"

// UnusedSoloBypassComment is the edited text of a bypass comment no merge
// used: why, then the comment as first posted, quoted.
func UnusedSoloBypassComment(head, movedTo, original string) string {
	quoted := "> " + strings.ReplaceAll(strings.TrimSpace(original), "\n", "\n> ")
	return fmt.Sprintf("%s head %s moved to %s before aayu ship merged it, so nothing was merged on this bypass and it grants nothing.\n\nAs first posted:\n\n%s",
		UnusedSoloBypassPrefix, head, movedTo, quoted)
}

var shaWord = lazyre.New(`\b[0-9a-fA-F]{40}\b`)

// FindSoloBypassComment returns the newest comment by person that starts
// with "Solo-mode bypass:", gives a reason after it, and — when head is not
// empty — names head's full SHA as a word. A bot never counts, even one
// using the person's login in bot_logins. For a plan bypass (on the story)
// pass head "".
func FindSoloBypassComment(comments []Comment, person string, head string, botLogins []string) (Comment, bool) {
	var found Comment
	ok := false
	for _, c := range comments {
		if !SameLogin(c.Author.Login, person) || IsBot(c.Author, botLogins) {
			continue
		}
		body := strings.TrimLeft(c.Body.Raw(), " \t\r\n")
		rest, has := strings.CutPrefix(body, SoloBypassPrefix)
		if !has || !givesReason(rest, head) {
			continue
		}
		if head != "" && !namesSHA(c.Body.Raw(), head) {
			continue
		}
		if !ok || c.CreatedAt.After(found.CreatedAt) || (c.CreatedAt.Equal(found.CreatedAt) && c.ID > found.ID) {
			found, ok = c, true
		}
	}
	return found, ok
}

// givesReason says whether the text after the prefix says anything besides
// naming the head.
func givesReason(rest, head string) bool {
	if head != "" {
		rest = strings.ReplaceAll(rest, head, "")
	}
	rest = strings.ReplaceAll(rest, "Head:", "")
	return strings.TrimSpace(rest) != ""
}

func namesSHA(body, sha string) bool {
	for _, w := range shaWord().FindAllString(body, -1) {
		if strings.EqualFold(w, sha) {
			return true
		}
	}
	return false
}

// SoloBypassInput is what SoloBypassRefusals looks at.
type SoloBypassInput struct {
	Command  string // "aayu ship 148" or "aayu plan 131"
	Env      func(string) string
	Terminal bool
	CI       bool
	Session  *Session // this run's presence approval, if any
	// Here is the command's one answer to whether a person is here (the
	// Here it already took); nil means it is taken now from Env, Terminal
	// and CI. A command passes it so the bypass and its other steps read
	// the same answer.
	Here     *Decision
	Identity IdentitySettings
	Person   Account           // the account running the command, with its permission
	Seats    map[string]string // seat name → paired human's login, e.g. "Engineering Manager" → "ana"
	Comments []Comment         // the pull request's comments (the story's, for a plan bypass)
	Head     string            // the head the bypass is for; "" for a plan bypass
}

// SoloBypassRefusals lists every reason the solo-mode bypass is refused
// (seed invariant 6), each a sentence; none means it may go ahead. An agent
// lane or a process with neither a marker nor a terminal is refused unless
// the person approved this command by the presence check as an admin;
// AAYU_AGENT and CI (--ci or a CI marker) are refused always; so are a repository with a bot
// identity, a second human in a seat, a person without admin access, and a
// missing "Solo-mode bypass:" comment by the person on the head.
func SoloBypassRefusals(in SoloBypassInput) []string {
	var out []string
	here := in.Here
	if here == nil {
		d := Here(HumanCheck{Command: in.Command, Env: in.Env, Terminal: in.Terminal, CI: in.CI})
		here = &d
	}
	presence := in.Session.Covers(in.Command, NeedFor(true))
	// The same order as Here's: AAYU_AGENT, --ci, a CI marker, then a
	// host's marker or no terminal, which an admin approval lifts.
	switch {
	case here.Outcome == Refused && here.Marker == AgentVariable:
		out = append(out, "aayu's own agent lane (AAYU_AGENT) can never bypass the human pass")
	case here.Outcome == Refused && here.Marker == "":
		out = append(out, "CI (--ci) can never bypass the human pass")
	case here.Outcome == Refused:
		out = append(out, fmt.Sprintf("a CI run (%s) can never bypass the human pass", here.shown))
	case here.Outcome == NeedsPresence && here.Marker != "" && !presence:
		out = append(out, fmt.Sprintf("this shell carries an agent host's marker (%s); the bypass needs you to approve it by the presence check as an admin", here.Marker))
	case here.Outcome == NeedsPresence && !presence:
		out = append(out, "this process has neither an agent marker nor a terminal; the bypass needs you to approve it by the presence check as an admin")
	}
	if !SoloMode(in.Identity) {
		out = append(out, "this repository has a bot identity, so agents do not write as you and a review can be given; the bypass is for solo mode only — ask for a review")
	}
	seats := make([]string, 0, len(in.Seats))
	for seat := range in.Seats {
		seats = append(seats, seat)
	}
	sort.Strings(seats)
	for _, seat := range seats {
		if login := in.Seats[seat]; login != "" && !SameLogin(login, in.Person.Login) {
			out = append(out, fmt.Sprintf("a second human, @%s, holds the %s seat, so a review can be given; ask them to review", strings.TrimPrefix(login, "@"), seat))
		}
	}
	if err := CheckApprover(in.Person, NeedFor(true), "", in.Identity.BotLogins); err != nil {
		out = append(out, "the bypass needs a person with admin access: "+err.Error())
	}
	if _, ok := FindSoloBypassComment(in.Comments, in.Person.Login, in.Head, in.Identity.BotLogins); !ok {
		if in.Head != "" {
			out = append(out, fmt.Sprintf("no comment by @%s starts with %q and names head %s; post one saying why no review happened", in.Person.Login, SoloBypassPrefix, in.Head))
		} else {
			out = append(out, fmt.Sprintf("no comment by @%s on the story starts with %q; post one saying why no plan review happened", in.Person.Login, SoloBypassPrefix))
		}
	}
	return out
}
