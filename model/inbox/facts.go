package inbox

import (
	"time"

	"github.com/aayudha/aayu/model/checks"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"

	"github.com/aayudha/aayu/model/untrusted"
)

// Issue is an issue as read from GitHub (pull requests are read as
// PullRequest, not here).
type Issue struct {
	Number      int
	Title       untrusted.Text
	Body        untrusted.Text
	State       string // "open" or "closed"
	StateReason string // "completed", "not_planned", "reopened" or ""
	Labels      []untrusted.Label
	Author      identity.Account // Permission filled when read
	CreatedAt   time.Time
	UpdatedAt   time.Time
	ClosedAt    time.Time
	// ReadAt is when aayu began the read that gave this version, by its own
	// clock. GitHub's updated_at counts whole seconds, so an equal
	// updated_at proves nothing changed only when this version was read
	// well after that second (see inboxread's settled).
	ReadAt time.Time
}

// Open says whether the issue is open.
func (i Issue) Open() bool { return i.State == "open" }

// HasLabel says whether the issue carries label.
func (i Issue) HasLabel(label string) bool { return hasLabel(i.Labels, label) }

// PullRequest is a pull request as read from GitHub.
type PullRequest struct {
	Number         int
	Title          untrusted.Text
	Body           untrusted.Text
	HeadRef        untrusted.Ref // the branch, e.g. story/131-dental-cap
	HeadSHA        string
	BaseRef        untrusted.Ref
	State          string // "open" or "closed"
	Draft          bool
	Merged         bool
	MergedAt       time.Time
	MergeCommitSHA string
	Labels         []untrusted.Label
	Author         identity.Account
}

// Open says whether the pull request is open.
func (p PullRequest) Open() bool { return p.State == "open" }

// HasLabel says whether the pull request carries label.
func (p PullRequest) HasLabel(label string) bool { return hasLabel(p.Labels, label) }

// Status is a commit status on a pull request's head.
type Status struct {
	Context     untrusted.Context // e.g. aayudha/inspect
	State       string            // pending, success, failure, error
	Description untrusted.Text
	// FromGate says the merge gate's own run posted it, by the one rule
	// ship takes inspect's judgement by (checks.InspectFromGate): an
	// aayudha/inspect status without it is anyone's and counts for nothing.
	FromGate bool
}

// PRFacts is what was read about one pull request besides itself.
type PRFacts struct {
	Comments []identity.Comment
	Reviews  []pass.Review
	// Statuses on the current head, the latest per context (as GitHub's
	// combined status lists them).
	Statuses []Status
	// MergeGate is the conclusion of the newest merge-gate run for the
	// current head ("success", "failure", …; "" when none or still running).
	MergeGate string
	// Failing are the failing checks on the head, check runs and statuses
	// (aayudha's own, inspect and the merge gate, aside): ship refuses the pull
	// request until they are green, so its card says so.
	Failing []checks.Check
}

// Snapshot is everything the inbox read, and the settings it judges by.
type Snapshot struct {
	Viewer            string // the person's login; accepts are written as them
	Approver          string // autonomy.approver
	IntegrationBranch string // autonomy.integration_branch; "" reads as "dev"
	SoloMode          bool   // no bot identity: ship runs with --solo-bypass
	BotLogins         []string
	Issues            []Issue
	PullRequests      []PullRequest
	PRFacts           map[int]PRFacts            // by pull request number
	IssueComments     map[int][]identity.Comment // by issue number
	AuditEntries      map[int]bool               // pull requests with autonomy/audit/PR.json on the ledger
	// AuditTampering names, by pull request, the ledger commit that deleted
	// its audit entry outside aayu's own updates (ledgertrust): the entry
	// counts as there (AuditEntries) and the card says who deleted it.
	AuditTampering map[int]string
	// ShipRecords are merged pull requests whose head a ship record on the
	// ledger covers (proof/STORY/HEAD/authoritative/ship.json): aayu ship
	// merged them, so they never make a Story "merged without ship".
	ShipRecords map[int]bool
	// ShipMerges are merged pull requests, among those ShipRecords was
	// read for and no record covers, whose merge commit carries aayu
	// ship's trailer block (ShipTrailerLines): ship merged them and
	// stopped before its record.
	ShipMerges map[int]bool
	// ReviewRecords are the ledger's review records (reviews/PR/HEAD.json,
	// what "approve its head" writes) of open pull requests' current heads,
	// by pull request: a head the person approved is not offered again.
	ReviewRecords map[int]ReviewRecord
	// ReadySnapshots are the Stories and Bugs with a Ready snapshot on the
	// ledger (specs/N/ready.md). nil means the ledger's specs were not
	// read: then no Story is shown waiting for one.
	ReadySnapshots map[int]bool
	// PlanRecords are the ledger's plan review records
	// (specs/N/plan-review.json) of the Stories a never-layer pull request
	// links, as they read (one that does not read is absent). nil means
	// they were not read: then no pull request is shown waiting for one.
	PlanRecords map[int]pass.PlanRecord
	// NeverLayers are, by open pull request, the never layers its changed
	// files touch over its base's LAYERS.md and autonomy.never
	// (pass.NeverTouched, ship's rule); absent when none, or not read.
	NeverLayers map[int][]string
	// BasePolicy is the policy of each open pull request's base branch
	// whose .aayudha/config.toml says otherwise than the default branch's.
	BasePolicy map[string]Policy
	// Repository is which repository the snapshot was read from. A refresh
	// that finds another under the same name (deleted and created again, or
	// a sandbox reset) reads everything again: its items' numbers and times
	// say nothing about the new one's.
	Repository RepoIdentity
}

// RepoIdentity tells one repository from another of the same name: GitHub
// never gives a new repository an old one's id, and its created_at is when
// it was created.
type RepoIdentity struct {
	ID        int64
	CreatedAt time.Time
}

// ReviewRecord is one review record on the ledger: the head it approves
// and the login it names (the file's own word, so it counts only as that
// login's when that login is the approver).
type ReviewRecord struct {
	Head, Login string
}

func (s Snapshot) integrationBranch() string {
	if s.IntegrationBranch == "" {
		return "dev"
	}
	return s.IntegrationBranch
}

// Labels and statuses the inbox reads and writes.
const (
	LabelDecision = "type:decision"
	// LabelProvisional marks a provisional Decision (V8): acted on before a
	// person decided it; its card recommends ratifying it.
	LabelProvisional = "kind:provisional"
	LabelStory       = "type:story"
	LabelBug         = "type:bug"
	LabelAccepted    = "status:accepted"
	LabelMerged      = "status:merged"
	LabelDone        = "status:done"
	LabelCancelled   = "status:cancelled"
	LabelLease       = "aayu:lease"
	LabelAudit       = "aayu:audit"
	LabelCorrection  = "aayu:correction"
	InspectContext   = checks.InspectContext
)

func hasLabel(labels []untrusted.Label, want string) bool {
	for _, l := range labels {
		if l.Raw() == want {
			return true
		}
	}
	return false
}
