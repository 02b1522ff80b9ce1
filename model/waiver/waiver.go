// Package waiver is the floor waiver: a Decision issue, opened by the
// person, that lets ship take a merge gate's pack of one pull request head
// although one named floor of it does not hold. It holds the Decision's
// body (written and read back), the record accepting it lands on the
// ledger, and the one rule ship and the pack viewer judge a failing floor
// by: waived only by an accepted waiver Decision for exactly that pull
// request, head and floor. No I/O: callers hand it what they read.
package waiver

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/identity"
)

// Labels a floor-waiver Decision carries: a Decision's, and its kind.
const (
	LabelDecision = "type:decision"
	Label         = "kind:floor-waiver"
	LabelAccepted = "status:accepted"
)

// WaiveOption is the option of a waiver Decision that waives the floor;
// the other keeps it.
const WaiveOption = 1

// Request is what the person names when they open a waiver.
type Request struct {
	PR    int
	Head  string // the pull request's head, 40 hex
	Floor string // the floor's name as the pack's checks name it
	Why   string // one line: why the floor may fail for this head
	Story int    // the Story the pull request links; 0 when none
}

var (
	floorName = lazyre.New(`^[a-z0-9][a-z0-9-]{0,39}$`)
	fullSHA   = lazyre.New(`^[0-9a-f]{40}$`)
	prLine    = lazyre.New(`^Pull request: #([0-9]{1,9})$`)
	headLine  = lazyre.New(`^Head: ([0-9a-f]{40})$`)
	floorLine = lazyre.New(`^Floor: ([a-z0-9][a-z0-9-]{0,39})$`)
	storyLine = lazyre.New(`^Story: #([0-9]{1,9})$`)
)

// Check says what is wrong with a request, in words, or "".
func (q Request) Check() string {
	switch {
	case q.PR < 1:
		return "a waiver names the pull request whose floor it waives"
	case !fullSHA().MatchString(q.Head):
		return fmt.Sprintf("the head %q is not a full commit SHA (40 lowercase hex)", q.Head)
	case !floorName().MatchString(q.Floor):
		return fmt.Sprintf("the floor %q is not a floor's name (lowercase letters, digits and dashes, as the pack's checks name them: coverage, vet, tests …)", q.Floor)
	case OneLine(q.Why) == "":
		return "a waiver says why the floor may fail for this head: give --why"
	}
	return ""
}

// OneLine is text on one line, its runs of white space one space, so a
// reason can never start a heading, an option or a Door line of its own.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Title is the waiver Decision's title.
func Title(q Request) string {
	return fmt.Sprintf("Floor waiver: %s on #%d at %s", q.Floor, q.PR, gitsha.Short(q.Head))
}

// Body is the waiver Decision's body, in the Decision format the inbox
// reads (numbered Options, one recommended, a Door line), plus the lines
// naming what it waives. The reason is quoted on one line, so nothing in
// it reads as a line of the format.
func Body(q Request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "A floor waiver: accepted, it lets aayu ship take the merge gate's pack of pull request #%d at head %s although its floor %s does not hold. It covers that head and that floor only; a new head needs its own waiver.\n\n", q.PR, q.Head, q.Floor)
	fmt.Fprintf(&b, "Pull request: #%d\nHead: %s\nFloor: %s\n", q.PR, q.Head, q.Floor)
	if q.Story > 0 {
		fmt.Fprintf(&b, "Story: #%d\n", q.Story)
	}
	fmt.Fprintf(&b, "\n## Why\n> %s\n\n", OneLine(q.Why))
	fmt.Fprintf(&b, "## Options\n%d. Waive floor %s for head %s (recommended)\n2. Keep the floor: fix the pull request instead\n\n", WaiveOption, q.Floor, gitsha.Short(q.Head))
	b.WriteString("Door: one-way\n")
	return b.String()
}

// Parse reads what a waiver Decision's body waives: its Pull request, Head
// and Floor lines, each exactly once, and its quoted reason.
func Parse(body string) (Request, error) {
	var q Request
	var prs, heads, floors, stories []string
	inWhy := false
	for _, line := range strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n") {
		if m := prLine().FindStringSubmatch(line); m != nil {
			prs = append(prs, m[1])
		}
		if m := headLine().FindStringSubmatch(line); m != nil {
			heads = append(heads, m[1])
		}
		if m := floorLine().FindStringSubmatch(line); m != nil {
			floors = append(floors, m[1])
		}
		if m := storyLine().FindStringSubmatch(line); m != nil {
			stories = append(stories, m[1])
		}
		switch {
		case strings.HasPrefix(line, "## "):
			inWhy = strings.TrimSpace(line) == "## Why"
		case inWhy && strings.HasPrefix(line, "> "):
			q.Why = OneLine(q.Why + " " + strings.TrimPrefix(line, "> "))
		}
	}
	for _, f := range []struct {
		what string
		got  []string
	}{{"a Pull request: #N line", prs}, {"a Head: SHA line", heads}, {"a Floor: NAME line", floors}} {
		if len(f.got) != 1 {
			return Request{}, fmt.Errorf("a waiver's body has exactly one %s, and this one has %d", f.what, len(f.got))
		}
	}
	if len(stories) > 1 {
		return Request{}, fmt.Errorf("a waiver's body has at most one Story: #N line, and this one has %d", len(stories))
	}
	q.PR, _ = strconv.Atoi(prs[0])
	q.Head, q.Floor = heads[0], floors[0]
	if len(stories) == 1 {
		q.Story, _ = strconv.Atoi(stories[0])
	}
	return q, nil
}

// Record is the ledger's record of an accepted waiver, at Path.
type Record struct {
	Decision   int       `json:"decision"`
	PR         int       `json:"pr"`
	Story      int       `json:"story,omitempty"`
	Head       string    `json:"head"`
	Floor      string    `json:"floor"`
	Why        string    `json:"why"`
	AcceptedBy string    `json:"accepted_by"`
	AcceptedAt time.Time `json:"accepted_at"`
	Via        string    `json:"via"`
}

// Dir is the ledger folder holding every waiver of pull request pr.
func Dir(pr int) string { return fmt.Sprintf("waivers/%d", pr) }

// Path is where the record waiving floor of pr's head lands on the ledger.
func Path(pr int, head, floor string) string {
	return fmt.Sprintf("%s/%s-%s.json", Dir(pr), head, floor)
}

// Want is the failing floor ship (or the pack viewer) asks about.
type Want struct {
	PR    int
	Head  string
	Floor string
}

// TextHash is the sha256 of a Decision's title and body, as the person
// read and accepted them: the acceptance comment of a floor waiver
// carries it (on its TextLine), so a Decision edited after its acceptance
// no longer waives, and the inbox's re-read before any Decision's writes
// compares it with the card's. Each part is length-prefixed, so no title and body run into
// another pair's.
func TextHash(title, body string) string {
	h := sha256.New()
	fmt.Fprintf(h, "title %d\n%s\nbody %d\n%s", len(title), title, len(body), body)
	return hex.EncodeToString(h.Sum(nil))
}

// TextLine is the second line of the comment accepting a floor-waiver
// Decision: the hash of the text the person accepted (TextHash). The
// inbox's reading of the comment (inbox.Acceptance) reads it back.
func TextLine(hash string) string { return "Accepted text: sha256:" + hash }

// Accept is one "Accepted option N (…) by @login" comment on a Decision,
// as the inbox writes it: who posted it, the option and who it names, the
// hash of the Decision's text it accepted ("" when the comment carries
// none), and GitHub's created_at and updated_at of the comment.
type Accept struct {
	Author    string
	Option    int
	Named     string
	TextHash  string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// edited says GitHub records the comment as changed after it was posted,
// by the house's one rule (identity.Comment.Edited).
func (a Accept) edited() bool {
	return identity.Comment{CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}.Edited()
}

// Decision is the waiver Decision's issue as GitHub has it now.
type Decision struct {
	Number      int
	Labels      []string
	State       string // open, closed
	StateReason string // completed, not_planned, …
	Title       string
	Body        string
	// Accepts are the comments accepting an option, oldest first.
	Accepts []Accept
}

// Candidate is one record found under Dir(PR) on the ledger, with the
// Decision it names (nil when the issue could not be found).
type Candidate struct {
	Path     string
	Record   Record
	Err      string // the record does not read: why
	Decision *Decision
}

// Verdict is Judge's answer: the floor is waived by Decision (accepted by
// AcceptedBy), or Why it is not, in words.
type Verdict struct {
	Waived     bool
	Decision   int
	AcceptedBy string
	Why        string
}

// Words is the verdict as ship and the pack viewer show it.
func (v Verdict) Words() string {
	if v.Waived {
		return fmt.Sprintf("waived by Decision #%d, accepted by @%s", v.Decision, v.AcceptedBy)
	}
	return v.Why
}

// Judge is the one rule: a floor that does not hold in the merge gate's
// pack of want.PR at want.Head is waived only when the ledger holds the
// record at Path(want) for exactly that pull request, head and floor, and
// the Decision it names is a floor-waiver Decision whose body waives the
// same, closed as completed with status:accepted, its waiving option
// accepted in a comment by the person the record names, a person and not
// a bot; that comment (the person's newest acceptance) unedited since it
// was posted and carrying the hash of the Decision's title and body as
// they read now. Anything else is not a waiver, and Why says which part
// failed.
func Judge(want Want, found []Candidate, bots []string) Verdict {
	path := Path(want.PR, want.Head, want.Floor)
	var exact *Candidate
	var otherHead, otherFloor *Candidate
	for i := range found {
		c := &found[i]
		names := c.Err == "" && c.Record.PR == want.PR && c.Record.Head == want.Head && c.Record.Floor == want.Floor
		switch {
		case c.Path == path || (names && exact == nil):
			exact = c
		case c.Err == "" && c.Record.Floor == want.Floor && otherHead == nil:
			otherHead = c
		case c.Err == "" && c.Record.Head == want.Head && otherFloor == nil:
			otherFloor = c
		}
	}
	open := fmt.Sprintf("aayu waive %d --floor %s --why \"…\"", want.PR, want.Floor)
	if exact == nil {
		switch {
		case otherHead != nil:
			return Verdict{Why: fmt.Sprintf("the ledger's waiver of floor %s (Decision #%d) is for head %s, not this head %s; a waiver covers one head: open one for this head with %s",
				want.Floor, otherHead.Record.Decision, gitsha.Short(otherHead.Record.Head), gitsha.Short(want.Head), open)}
		case otherFloor != nil:
			return Verdict{Why: fmt.Sprintf("the ledger's waiver for this head (Decision #%d) waives floor %s, not %s; open one for floor %s with %s",
				otherFloor.Record.Decision, otherFloor.Record.Floor, want.Floor, want.Floor, open)}
		}
		return Verdict{Why: fmt.Sprintf("no accepted waiver of floor %s for head %s is on the ledger; the person may open one with %s and accept it with aayu decide",
			want.Floor, gitsha.Short(want.Head), open)}
	}
	rec := exact.Record
	switch {
	case exact.Err != "":
		return Verdict{Why: fmt.Sprintf("the ledger's waiver record %s does not read (%s), so it waives nothing", path, exact.Err)}
	case exact.Path != path:
		return Verdict{Why: fmt.Sprintf("the ledger's waiver record %s names this head and floor but is not at %s, where aayu writes it, so it waives nothing", exact.Path, path)}
	case rec.PR != want.PR || rec.Head != want.Head || rec.Floor != want.Floor:
		return Verdict{Why: fmt.Sprintf("the ledger's waiver record %s names pull request #%d, head %s and floor %s, not what its path says, so it waives nothing",
			path, rec.PR, gitsha.Short(rec.Head), rec.Floor)}
	case exact.Decision == nil:
		return Verdict{Why: fmt.Sprintf("the ledger's waiver names Decision #%d, which is not an issue of this repository, so it waives nothing", rec.Decision)}
	}
	d := *exact.Decision
	if why := decisionFault(want, rec, d, bots); why != "" {
		return Verdict{Why: why}
	}
	return Verdict{Waived: true, Decision: d.Number, AcceptedBy: rec.AcceptedBy}
}

// decisionFault says why the Decision a record names does not waive want,
// or "".
func decisionFault(want Want, rec Record, d Decision, bots []string) string {
	n := d.Number
	if !has(d.Labels, LabelDecision) || !has(d.Labels, Label) {
		return fmt.Sprintf("#%d, named by the ledger's waiver, is not a floor-waiver Decision (labelled %s and %s), so it waives nothing", n, LabelDecision, Label)
	}
	q, err := Parse(d.Body)
	if err != nil {
		return fmt.Sprintf("Decision #%d's body does not say what it waives (%v), so it waives nothing", n, err)
	}
	if q.PR != want.PR || q.Head != want.Head || q.Floor != want.Floor {
		return fmt.Sprintf("Decision #%d waives floor %s of #%d at head %s, not floor %s at head %s, so it does not waive this floor",
			n, q.Floor, q.PR, gitsha.Short(q.Head), want.Floor, gitsha.Short(want.Head))
	}
	if d.State != "closed" || d.StateReason != "completed" || !has(d.Labels, LabelAccepted) {
		return fmt.Sprintf("Decision #%d is not accepted (it is %s, and an accepted Decision is closed as completed with %s): accept its option %d with aayu decide %d --accept %d",
			n, stateWords(d), LabelAccepted, WaiveOption, n, WaiveOption)
	}
	if rec.AcceptedBy == "" || identity.IsBot(identity.Account{Login: rec.AcceptedBy}, bots) {
		return fmt.Sprintf("the ledger's waiver of Decision #%d names %q as who accepted it, and a floor waiver is a person's act, never a bot's, so it waives nothing", n, rec.AcceptedBy)
	}
	var acc *Accept
	for i, a := range d.Accepts {
		if identity.SameLogin(a.Author, rec.AcceptedBy) && identity.SameLogin(a.Named, rec.AcceptedBy) {
			acc = &d.Accepts[i]
		}
	}
	again := fmt.Sprintf("reopen it, read it and accept it again with aayu decide %d --accept %d", n, WaiveOption)
	switch {
	case acc == nil:
		return fmt.Sprintf("Decision #%d carries no acceptance by @%s, who the ledger's waiver says accepted it, so it waives nothing", n, rec.AcceptedBy)
	case acc.Option != WaiveOption:
		return fmt.Sprintf("Decision #%d accepted option %d (keep the floor), not option %d (waive it), so the floor is not waived", n, acc.Option, WaiveOption)
	case acc.edited():
		return fmt.Sprintf("@%s's comment accepting Decision #%d was edited after it was posted (GitHub records it as changed at %s), so it may not say what they accepted, and it waives nothing; %s",
			rec.AcceptedBy, n, acc.UpdatedAt.UTC().Format(time.RFC3339), again)
	case acc.TextHash == "":
		return fmt.Sprintf("Decision #%d was accepted before aayu kept the accepted text's hash in the acceptance, so what @%s accepted cannot be told from what it says now, and it waives nothing; %s",
			n, rec.AcceptedBy, again)
	}
	if now := TextHash(d.Title, d.Body); now != acc.TextHash {
		return fmt.Sprintf("Decision #%d was edited after it was accepted: its title and body now hash to sha256:%s, not the sha256:%s @%s accepted, so it waives nothing; %s",
			n, gitsha.Short(now), gitsha.Short(acc.TextHash), rec.AcceptedBy, again)
	}
	return ""
}

func stateWords(d Decision) string {
	switch {
	case d.State != "closed":
		return "open"
	case d.StateReason != "completed":
		return "closed as " + strings.ReplaceAll(d.StateReason, "_", " ")
	}
	return "closed without " + LabelAccepted
}

func has(labels []string, want string) bool {
	for _, l := range labels {
		if strings.EqualFold(l, want) {
			return true
		}
	}
	return false
}
