package inbox

import (
	"context"
	"time"

	model "github.com/aayudha/aayu/model/inbox"
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
	// Open opens an issue or pull request in the browser; it must never
	// write to the terminal.
	Open func(number int) error
	// HumanCheck says whether this process may write as the person (an
	// agent lane or a process without a terminal is refused or needs the
	// presence check); "" means yes.
	HumanCheck func() (refusal string)
	Now        func() time.Time
	Repo       string // OWNER/NAME, for headings
}

// Request is one accepted choice handed to Execute.
type Request struct {
	Step   model.Step
	Choice model.Choice
	Note   string // the one line typed when the choice asks for it
	DryRun bool
}

// Outcome is what Execute reports.
type Outcome struct {
	Done    bool        // every write landed
	Changed bool        // the re-read found the card changed: nothing was written
	Now     *model.Step // the card as it is now, when Changed (nil: the step is gone)
	Wrote   []string    // each write that landed, in words
	Failure *Failure
}

// Failure is a write that did not finish, in the seed's three plain lines,
// with the details behind d.
type Failure struct {
	What      string // what happened
	Changed   string // whether anything changed on GitHub
	Next      string // who acts next
	Details   []string
	Retryable bool // false: Enter again cannot fix it, so the action leaves the card
}
