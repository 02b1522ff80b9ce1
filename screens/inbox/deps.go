package inbox

import (
	"context"
	"time"

	"github.com/aayudha/aayu/actions"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// Deps are the effects the screen's commands call. main wires them to
// ghx/inboxread and actions; tests wire them to the sandbox or to fakes.
type Deps struct {
	// LoadCache returns the last read kept for this user, shown at once and
	// marked cached; nothing is ever done from it. An error means no cache.
	LoadCache func() (model.Snapshot, time.Time, error)
	// Read reads GitHub: a full read when prev is nil, else a refresh of
	// what changed since.
	Read func(ctx context.Context, prev *model.Snapshot, since time.Time) (model.Snapshot, error)
	// SaveCache keeps the last read.
	SaveCache func(model.Snapshot, time.Time) error
	// Execute carries out one choice: it re-reads the item first and writes
	// nothing when the card changed.
	Execute func(ctx context.Context, req Request) Outcome
	// ItemKey names the issue or pull request a step writes to, so the queue
	// never runs two writes on one item; nil keys by the card's item.
	ItemKey func(model.Step) string
	// Open opens an issue or pull request in the browser; it must never
	// write to the terminal.
	Open func(number int) error
	// URL is the web address of an issue or pull request, shown with every
	// "open it" whether or not a browser opened.
	URL func(number int) string
	// OpenShip builds the ship screen for a pull request, opened on top of
	// the inbox by "ship it" (soloBypass: the choice was worded as the
	// Solo-mode bypass); nil means ship does not open from here (--list,
	// CI), and the card says which command to run.
	OpenShip func(pr int, soloBypass bool) (tui.Screen, error)
	// OpenCommand builds the screen of aayu ready or aayu plan for a Story
	// (model.CommandReady, model.CommandPlan; soloBypass: aayu plan's
	// --solo-bypass, as the card's choice is worded), opened on top of the
	// inbox by a story-loop card; that screen asks its own yes before it
	// writes. nil means it does not open from here, and the card says which
	// command to run.
	OpenCommand func(command string, story int, soloBypass bool) (tui.Screen, error)
	// OpenPack and OpenVerify build the pack viewer (p) and verify (v) for
	// a Story, opened on top of the inbox; nil means they do not open here.
	OpenPack   func(story int) (tui.Screen, error)
	OpenVerify func(story int) (tui.Screen, error)
	// Presence, when set, is the presence check (the login screen) this
	// session needs before it may write as the person: it opens on top of
	// the inbox first, in the same program, and the inbox reads GitHub once
	// it comes back. Approved then says whether it approved; when it did
	// not, the inbox ends with the presence check's exit code.
	Presence tui.Screen
	Approved func() bool
	// HumanCheck says whether this process may write as the person (an
	// agent lane or a process without a terminal is refused or needs the
	// presence check); "" means yes.
	HumanCheck func() (refusal string)
	// Interrupted reads the actions log for the requests an earlier run
	// stopped part-way (a second ctrl+c) that no run finished since; their
	// cards show as failures. nil reads nothing.
	Interrupted func() []actions.Record
	Now         func() time.Time
	Repo        string // OWNER/NAME, for headings
	// ActionsLog is the actions log's folder, named in the plain q's
	// summary ("" names none).
	ActionsLog string
}

// Request, Outcome and Failure are the write side's own types: the screen
// shows exactly what actions reports.
type (
	Request = actions.Request
	Outcome = actions.Outcome
	Failure = actions.Failure
)
