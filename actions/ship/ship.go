package ship

import (
	"context"
	"errors"
	"fmt"
	"github.com/aayudha/aayu/model/exitcode"
	"time"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/proof/sigstore"
	"github.com/google/go-github/v66/github"
)

// GateID names one gate of ship, in the order they are checked.
type GateID int

// The gates, in order.
const (
	GatePR        GateID = iota + 1 // the pull request is open and mergeable; its head is read
	GatePolicy                      // the base branch's policy, and no looser local value
	GatePack                        // the merge gate's pack for exactly this head
	GateHumanPass                   // the human pass
	GatePresence                    // a person is here (or approved by the presence check)
	GateConfirm                     // the person's yes to the writes listed
	GateBypass                      // the Solo-mode bypass comment, posted only now
	GateMerge                       // the squash merge with the head's SHA
	GateLedger                      // pack.json, artifacts, ship.json and the log segment on the ledger
	GateStory                       // the Story's update: status:merged, the shipped comment, the lease removed
	GateDone                        // shipped
)

// Gates lists every gate in order.
func Gates() []GateID {
	return []GateID{GatePR, GatePolicy, GatePack, GateHumanPass, GatePresence, GateConfirm, GateBypass, GateMerge, GateLedger, GateStory, GateDone}
}

// Title is the gate's line on the screen.
func (g GateID) Title() string {
	switch g {
	case GatePR:
		return "pull request open and mergeable"
	case GatePolicy:
		return "policy from the base branch"
	case GatePack:
		return "the merge gate's pack for this head"
	case GateHumanPass:
		return "human pass"
	case GatePresence:
		return "a person is present"
	case GateConfirm:
		return "your confirmation"
	case GateBypass:
		return "Solo-mode bypass comment"
	case GateMerge:
		return "squash merge"
	case GateLedger:
		return "record on the ledger"
	case GateStory:
		return "the Story's update"
	case GateDone:
		return "shipped"
	}
	return fmt.Sprintf("gate %d", int(g))
}

func (g GateID) String() string { return g.Title() }

// State is where a gate's line stands.
type State int

// The states a gate's line moves through.
const (
	Waiting State = iota
	Running
	Passed
	Refused
	Skipped
	Failed // an error that is not a refusal: network, git, a bug
)

func (s State) String() string {
	return [...]string{"waiting", "running", "passed", "refused", "skipped", "failed"}[s]
}

// Event is one change of one gate's line.
type Event struct {
	Gate   GateID
	State  State
	Words  string   // the line's text after the title: why refused, what passed
	Detail []string // more lines: each run passed over, each refusal
}

// Caps bound the artifact ship downloads and unpacks.
type Caps struct {
	ZipBytes     int64 // the zip as downloaded; 0 means 1 GiB
	Entries      int   // files in the zip; 0 means 10,000
	Uncompressed int64 // sum of the files' sizes; 0 means 4 GiB
}

func (c Caps) withDefaults() Caps {
	if c.ZipBytes <= 0 {
		c.ZipBytes = 1 << 30
	}
	if c.Entries <= 0 {
		c.Entries = 10_000
	}
	if c.Uncompressed <= 0 {
		c.Uncompressed = 4 << 30
	}
	return c
}

// Config is everything a Shipper needs from its caller.
type Config struct {
	Client *github.Client // the person's client; every write goes out as them
	Owner  string
	Repo   string
	Viewer string // the person's login, read by the caller from /user
	Log    *actions.Log
	Now    func() time.Time // nil means time.Now
	// WorkDir is temporary space for the artifact; Result.PackDir lies under
	// it and the caller removes it.
	WorkDir string
	Caps    Caps
	// Local are the configuration layers above the base branch's copy: Repo
	// is the checkout's .aayudha/config.toml (nil when none), then the user
	// file, AAYU_* variables and --set. A policy value any of them makes
	// looser than the base branch's stops ship and is named.
	Local config.Sources
	// SoloBypass is --solo-bypass; SoloBypassWhy is the reason the comment
	// gives (a default is used when empty).
	SoloBypass    bool
	SoloBypassWhy string
	// Presence is an approval given before ship started (the inbox
	// session's); nil when none was.
	Presence *identity.Session
	// Approval is a batch approval standing in for the presence check
	// (approval.go): set only by the batch's apply (actions/approve), or
	// with CheckOnly when the batch is being made. With it, the process
	// is not looked at (nobody is at a terminal), the yes is the batch's
	// approval, and ship.json records which batch stood in.
	Approval *Approval
	// CheckOnly runs the read-only gates and stops before the presence
	// check: what an agent lane's aayu ship reads to make its batch.
	// Nothing is written, not even a Ready to ship comment; Result.Plan
	// is set when every read-only gate passed.
	CheckOnly bool
	// AskPresence runs the presence check, once every read-only gate has
	// passed and only when this process cannot show a person is here. need
	// is admin for a bypass, write otherwise. nil means no check can be
	// shown, which refuses such a ship.
	AskPresence func(ctx context.Context, req PresenceRequest) (*identity.Session, error)
	// Confirm shows the plan and waits for the person's yes; nothing is
	// written before it answers true. nil refuses every ship: no write
	// goes out without a yes.
	Confirm  func(ctx context.Context, p Plan) (bool, error)
	Terminal bool
	Env      func(string) string // nil means no environment
	CI       bool
	// Human decides whether a person is here and by which means, from
	// Env, Terminal and CI (identity.Here, the default when nil). A run
	// asks it once and every gate reads that one answer, with this run's
	// approval applied (run.human); the caller passes the answer it
	// already took, so a command asks once in all.
	Human func(identity.HumanCheck) identity.Decision
	// AfterStep, when set, is called after each gate passes; an error stops
	// ship there, as if it were killed. It is production wiring, not only a
	// test seam: main stops here once the write under way has landed when
	// the person quits after the yes (shipcmd.go); the crash tests pass in
	// their own to stop at every gate in turn.
	AfterStep func(GateID) error
	// TrustedRoot gives the Sigstore roots that check the gate's
	// attestation of a pack: GitHub's for a real repository, the sandbox's
	// virtual one only when talking to the sandbox. nil means none is
	// known, so no attestation can be checked (a refusal when the base
	// branch's [proof] require_attestation is on).
	TrustedRoot func() (*sigstore.TrustedRoot, error)
}

// PassedOver is one merge-gate run ship did not take, and why.
type PassedOver struct {
	RunID  int64
	Event  string
	URL    string
	Reason string
}

func (p PassedOver) String() string {
	return fmt.Sprintf("run %d (%s): %s", p.RunID, p.Event, p.Reason)
}

// Exit codes, from the one table in model/exitcode (SPEC §3).
const (
	ExitShipped = exitcode.OK
	ExitFailed  = exitcode.Failed
	ExitFloor   = exitcode.Floor
	ExitRefused = exitcode.Refused
)

// Result is what a run of ship did.
type Result struct {
	Merged      bool
	MergeCommit string
	Resumed     bool          // the pull request was merged by an earlier run; this one finished the record
	Shipped     bool          // the record is on the ledger
	ShipRecord  []byte        // ship.json as landed (or as found on the ledger)
	LedgerDir   string        // proof/STORY/HEAD/authoritative
	PackDir     string        // the unzipped gate pack, for the pack screen
	Pack        *proof.Report // its verification, when a run qualified
	Refusals    []string
	// ApprovalVoid says why the batch approval this run carried can never
	// apply (its head or base moved since the batch showed them); "" when
	// it still could.
	ApprovalVoid string
	Passed       []PassedOver // runs passed over
	Unfinished   string       // after a write landed: what landed and what did not, in words
	// Recorded says the record is on the ledger though the run did not
	// finish (only the Story's update is left).
	Recorded bool
	// Stopped says a quit request stopped the run after a write landed
	// (Config.AfterStep): Unfinished says what landed, and running ship
	// again finishes it.
	Stopped bool
	// ReadyToShip is the person's "Ready to ship" comment for the head, when
	// a run refused only for the human pass posted it or found it there.
	ReadyToShip string
	// Plan is what the person was asked to confirm, once every read-only
	// gate passed; nil when ship stopped before asking.
	Plan *Plan
	// StoryUpdated says the Story now reads status:merged with its shipped
	// comment, in this run or an earlier one.
	StoryUpdated bool
	// Cancelled says the person was asked and did not answer yes: their
	// own no, not a gate's refusal (exit 4 all the same, as SPEC §5 says).
	Cancelled bool
	ExitCode  int
}

// Shipper runs ship for one repository.
type Shipper struct {
	cfg Config
}

// New checks the configuration and returns a Shipper.
func New(cfg Config) (*Shipper, error) {
	switch {
	case cfg.Client == nil:
		return nil, errors.New("ship needs a GitHub client")
	case cfg.Owner == "" || cfg.Repo == "":
		return nil, errors.New("ship needs the repository as OWNER/NAME")
	case cfg.Viewer == "":
		return nil, errors.New("ship needs the person's login")
	case cfg.WorkDir == "":
		return nil, errors.New("ship needs a folder for the artifact")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Env == nil {
		cfg.Env = func(string) string { return "" }
	}
	if cfg.Human == nil {
		cfg.Human = identity.Here
	}
	cfg.Caps = cfg.Caps.withDefaults()
	return &Shipper{cfg: cfg}, nil
}

// Command is the command line the presence check shows for pr.
func Command(pr int) string { return fmt.Sprintf("aayu ship %d", pr) }

// Run checks every gate for pull request pr and, when all pass, merges it
// and lands the record. events, when not nil, hears every change of a
// gate's line; Run never closes it. The error is for failures (exit 1);
// refusals are in Result with exit 3 or 4.
func (s *Shipper) Run(ctx context.Context, pr int, events chan<- Event) (Result, error) {
	r := &run{s: s, cfg: s.cfg, pr: pr, events: events, ctx: ctx}
	for _, g := range Gates() {
		r.emit(Event{Gate: g, State: Waiting})
	}
	res, err := r.do()
	if err != nil && res.ExitCode == ExitShipped {
		res.ExitCode = ExitFailed
	}
	return res, err
}
