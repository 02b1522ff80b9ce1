// Package approve is the core of approvals from anywhere (seed 001,
// "Approving a batch from your phone"; SPEC §10): a human-only step that
// an agent lane starts is not refused but written down as a batch for the
// person — one comment on the first item's issue, its record on the ledger
// (approvals/HASH.json) — and applied later only when the person approves
// it: by a device code the waiting aayu (or `aayu approve HASH`) asks for,
// or by a reply that aayudha-approve.yml checks against every row of the
// seed's table (CheckReply).
//
// The record is the single source: the comment is rendered from it (Render)
// and the hash is the first 12 hex of the SHA-256 of its canonical JSON, so
// a comment edited afterwards, or one posted by someone else as the bot,
// no longer matches what aayu renders from the record it names.
package approve

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/internal/lazyre"
)

// LedgerDir is the ledger folder that holds batch records.
const LedgerDir = "approvals"

// The two ways a batch can be approved.
const (
	WayDevice = "device-code"
	WayReply  = "reply"
	// WayTerminal is a device code asked for by aayu approve HASH at the
	// person's own terminal: the batch of a lane that holds only the bot's
	// token, which cannot ask for a code that proves the person.
	WayTerminal = "terminal"
)

// Doors, as a Decision's body names them.
const (
	DoorOneWay = "one-way"
	DoorTwoWay = "two-way"
)

// Option is one of a Decision's options, in its own numbering.
type Option struct {
	Number      int    `json:"number"`
	Title       string `json:"title"`
	Recommended bool   `json:"recommended,omitempty"`
}

// Item is one human-only step of a batch: accepting one option of one
// Decision, with the Decision as it was when the batch was made.
type Item struct {
	// Kind is what the step runs: KindDecide (empty), KindReady,
	// KindPlan or KindShip. Every field below Kind that a kind does not
	// use is empty and left out of the record, so a Decision's item
	// hashes as it did before kinds existed.
	Kind     string   `json:"kind,omitempty"`
	Command  string   `json:"command"` // e.g. "aayu decide 324 --accept 1"
	Decision int      `json:"decision"`
	Option   int      `json:"option"`
	Door     string   `json:"door"` // DoorOneWay or DoorTwoWay
	Options  []Option `json:"options"`
	// The Decision's title, body and parent as they were: a later edit
	// voids the approval (CheckReply).
	Title  string `json:"title"`
	Body   string `json:"body"`
	Parent int    `json:"parent,omitempty"`
	// Story is the Story (or pull request) a ready, plan or ship step
	// acts on; Title and Body are then its title and body as they were.
	Story int `json:"story,omitempty"`
	// Does says what approving does, in words, for a kind other than a
	// Decision's.
	Does string `json:"does,omitempty"`
	// Again is ready's --again; Bypass is plan's --solo-bypass.
	Again  bool `json:"again,omitempty"`
	Bypass bool `json:"bypass,omitempty"`
	// GoalHash is the completion_goal_hash a ready step freezes; applying
	// refuses when the goal hashes otherwise.
	GoalHash string `json:"goal_hash,omitempty"`
	// Head and Base are the head SHA and base ref a ship step merges, as
	// ship read them when the batch was made; a head that moved since
	// voids the step.
	Head string `json:"head,omitempty"`
	Base string `json:"base,omitempty"`
	// Layers are the never layers a plan step reviews, as plan read them.
	Layers []string `json:"layers,omitempty"`
}

// Record is what a batch is: hashed, kept on the ledger, rendered as the
// comment. Every field is part of the hash.
type Record struct {
	Version int    `json:"version"`
	Repo    string `json:"repo"`  // OWNER/NAME
	Issue   int    `json:"issue"` // the first item's issue, where the comment is
	For     string `json:"for"`   // the person whose approval it waits for
	// PostedBy is the account that posts the comment (the bot, or the
	// person's token under the human-fallback tag).
	PostedBy string    `json:"posted_by"`
	Way      string    `json:"way"` // WayDevice, WayTerminal or WayReply
	Created  time.Time `json:"created"`
	// Nonce makes two batches of the same steps in the same second two
	// batches, each with its own comment and code.
	Nonce string `json:"nonce"`
	Items []Item `json:"items"`
	// Session names the agent session that started the steps (SessionOf),
	// so its next step joins this batch; left out when there is none, so a
	// batch without one hashes as before sessions existed.
	Session string `json:"session,omitempty"`
	// HumanFallback is set when the agent lane posted the batch with the
	// person's own token (solo mode: no bot identity configured), so the
	// comment says an agent lane wrote it, not the person; left out when
	// false, so a bot's batch hashes as before.
	HumanFallback bool `json:"human_fallback,omitempty"`
}

// Hash is the batch's name: the first 12 hex of the SHA-256 of the
// record's canonical JSON (Go's encoding: fields in declaration order).
func (r Record) Hash() string {
	b, err := json.Marshal(r)
	if err != nil {
		// A Record holds only strings, numbers, bools and a time: it
		// always encodes. Should that ever change, no hash is better
		// than a wrong one.
		panic(fmt.Sprintf("approve: encoding a batch record: %v", err))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:12]
}

// Stored is approvals/HASH.json on the ledger.
type Stored struct {
	Hash     string `json:"hash"`
	Record   Record `json:"record"`
	Rendered string `json:"rendered"` // the comment's text, without any device code
}

// Applied is approvals/HASH.applied.json on the ledger: the batch was
// applied (or rejected), once; a second approve finds it and stops.
type Applied struct {
	Hash     string    `json:"hash"`
	Outcome  string    `json:"outcome"` // "applied", "rejected" or "partly applied"
	By       string    `json:"by"`      // the approving person
	Method   string    `json:"method"`  // WayDevice or WayReply
	Comment  string    `json:"comment_url,omitempty"`
	At       time.Time `json:"at"`
	Results  []string  `json:"results"`
	Writer   string    `json:"writer"` // the account the writes went out as
	Complete bool      `json:"complete"`
}

// Path is the record's path on the ledger.
func Path(hash string) string { return LedgerDir + "/" + hash + ".json" }

// AppliedPath is where the applied record of a batch goes.
func AppliedPath(hash string) string { return LedgerDir + "/" + hash + ".applied.json" }

// Marker is the hidden line that names the batch in its comment; it is
// always a whole line of its own, which an untrusted title (neutralised to
// one line, its "<" escaped) can never be.
func Marker(hash string) string { return "<!-- aayu-batch " + hash + " -->" }

var (
	hashRE   = lazyre.New(`^[0-9a-f]{12}$`)
	markerRE = lazyre.New(`(?m)^<!-- aayu-batch ([0-9a-f]{12}) -->$`)
	replyRE  = lazyre.New(`^(Approve|Reject) batch ([0-9a-f]{12})$`)
)

// ValidHash says whether s is a batch's name.
func ValidHash(s string) bool { return hashRE().MatchString(s) }

// MarkerIn is the batch a comment carries the marker of, or "".
func MarkerIn(body string) string {
	if m := markerRE().FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return ""
}

// ParseReply reads a reply's first line: exactly "Approve batch HASH" or
// "Reject batch HASH" (SPEC §10). ok is false for anything else.
func ParseReply(body string) (approve bool, hash string, ok bool) {
	first, _, _ := strings.Cut(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	m := replyRE().FindStringSubmatch(strings.TrimSpace(first))
	if m == nil {
		return false, "", false
	}
	return m[1] == "Approve", m[2], true
}

// Render is the batch comment aayu writes for a record, in the seed's
// words: the first line naming the person, the count and the hash; one
// numbered item per step saying what approving does, its door, the
// options and the recommendation; the one way to approve; the marker.
// Every untrusted text is neutralised to one line with its markup made
// inert, so a title cannot forge a line, a marker or a hidden comment.
// The device code itself is never part of it (DeviceLines adds it to the
// posted comment only).
func Render(r Record) string {
	hash := r.Hash()
	var b strings.Builder
	fmt.Fprintf(&b, "@%s %d human-only %s for your approval (batch %s).\n", inline(r.For), len(r.Items), plural(len(r.Items), "step waits", "steps wait"), hash)
	if r.HumanFallback {
		b.WriteString(soloLine(r))
	}
	renderItems(&b, r)
	b.WriteString("\n")
	switch {
	case r.Way == WayReply:
		fmt.Fprintf(&b, "To apply it, reply with a new comment whose first line is `Approve batch %s` (or `Reject batch %s`). Do not edit the reply: an edited reply is refused.\n", hash, hash)
		if r.HasPlan() {
			b.WriteString("Your reply is your review of the plan: ship counts it as the plan review.\n")
		}
	case r.HasPlan():
		// The device code proves the person and writes nothing as them, so
		// a plan review (a comment in their own name) goes this one way.
		fmt.Fprintf(&b, "A plan review is a comment in your own name, which neither a device code nor the agent can make: run `aayu approve %s` at your own terminal, signed in to GitHub as @%s; it posts your comment, naming this batch.\n", hash, inline(r.For))
	case r.Way == WayTerminal:
		fmt.Fprintf(&b, "To apply it, run `aayu approve %s` at your own terminal, signed in to GitHub as @%s: it shows a device code to approve on any device. Approve only if you asked for these steps.\n", hash, inline(r.For))
	default:
		fmt.Fprintf(&b, "To apply it, approve the device code below on any device, signed in to GitHub as @%s; or run `aayu approve %s` at a terminal. Approve only if you asked for these steps.\n", inline(r.For), hash)
	}
	b.WriteString(Marker(hash))
	return b.String()
}

// renderItems writes one numbered item per step, as Render and
// RenderClosed show them.
func renderItems(b *strings.Builder, r Record) {
	for i, it := range r.Items {
		b.WriteString("\n")
		chosen, recommended := optionNamed(it.Options, it.Option), recommendedOf(it.Options)
		if it.Kind == KindDecide {
			fmt.Fprintf(b, "%d. Accepts option %d (%s) of Decision #%d: %s.", i+1, it.Option, inline(chosen.Title), it.Decision, inline(it.Title))
		} else {
			fmt.Fprintf(b, "%d. `%s`: %s. #%d: %s.", i+1, inline(it.Command), inline(it.Does), it.Story, inline(it.Title))
		}
		if recommended.Number != 0 && recommended.Number != it.Option {
			b.WriteString(" This is not the recommendation.")
		}
		switch {
		case it.Door == DoorOneWay:
			b.WriteString(" One-way door: it cannot be undone later.")
		case it.Kind == KindDecide:
			b.WriteString(" Two-way door: a later Decision can change it.")
		default:
			b.WriteString(" Two-way door: it can be done again or changed later.")
		}
		b.WriteString("\n   Options: ")
		for j, o := range it.Options {
			if j > 0 {
				b.WriteString(" / ")
			}
			fmt.Fprintf(b, "%d. %s", o.Number, inline(o.Title))
			if o.Recommended {
				b.WriteString(" (recommended)")
			}
		}
		b.WriteString("\n")
		if recommended.Number != 0 {
			fmt.Fprintf(b, "   Recommendation: option %d (%s).", recommended.Number, inline(recommended.Title))
		} else {
			b.WriteString("   Recommendation: none given.")
		}
		b.WriteString("\n")
	}
}

// RenderClosed is a batch's comment once the batch stopped waiting
// (applied, rejected, voided or superseded): the first line and the way to
// approve replaced by what became of it, the steps kept as they were
// shown, and the marker, so no live-looking code or instruction stays.
func RenderClosed(r Record, outcome string) string {
	hash := r.Hash()
	var b strings.Builder
	fmt.Fprintf(&b, "Batch %s: %s\n", hash, inline(outcome))
	if r.HumanFallback {
		b.WriteString(soloLine(r))
	}
	renderItems(&b, r)
	fmt.Fprintf(&b, "\nNothing here waits for an approval any more: %s\n", inline(outcome))
	b.WriteString(Marker(hash))
	return b.String()
}

// soloLine says who wrote a batch posted under the person's own token: in
// solo mode the comment shows as the person's, addressed to themselves, so
// without it nothing tells them an agent lane wrote it (SPEC §9, §10).
func soloLine(r Record) string {
	return fmt.Sprintf("Posted by an agent lane under @%s's own token (solo mode: no bot identity is configured), so GitHub shows it as @%s's comment.\n", inline(r.PostedBy), inline(r.PostedBy))
}

// DeviceLines are the device code's lines, added below the rendered text
// in the posted comment only: the user code the person types is meant to
// be seen there; the device code that polls for the token never leaves
// the waiting process.
func DeviceLines(userCode, uri string, expires time.Time) string {
	return fmt.Sprintf("\n\nDevice code: open %s and enter **%s** (expires at %s UTC).", uri, userCode, expires.UTC().Format("15:04"))
}

// inline is untrusted text made safe for one line of a comment: control
// sequences neutralised, line breaks shown as "⏎", and the characters
// that open markup (an HTML comment hiding the rest, a tag) escaped, so
// what the person reads on their phone is what aayu rendered.
func inline(s string) string {
	s = actions.NeutralizeLine(s)
	return strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(s)
}

func optionNamed(opts []Option, n int) Option {
	for _, o := range opts {
		if o.Number == n {
			return o
		}
	}
	return Option{Number: n, Title: "?"}
}

func recommendedOf(opts []Option) Option {
	for _, o := range opts {
		if o.Recommended {
			return o
		}
	}
	return Option{}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
