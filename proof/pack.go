package proof

// SchemaVersion is the pack schema this binary writes. Readers for every
// version shipped since 0.1 stay in Decode, so old packs keep verifying.
const SchemaVersion = 1

// Pack is pack.json v1, field for field as the proof-pack seed defines it.
type Pack struct {
	Schema             int         `json:"schema_version"`
	Repo               string      `json:"repo"`
	Story              int         `json:"story"`
	PR                 int         `json:"pr,omitempty"`
	PRHeadSHA          string      `json:"pr_head_sha"`
	BaseSHA            string      `json:"base_sha,omitempty"`
	Checkpoint         string      `json:"checkpoint,omitempty"` // n/N from the Aayudha-Checkpoint trailer
	Seat               string      `json:"seat"`
	Host               string      `json:"host"`
	Model              string      `json:"model,omitempty"` // the builder model, when known
	Identity           string      `json:"identity"`        // bot, human, human-fallback, or ci
	Authority          Authority   `json:"authority"`
	CompletionGoalHash string      `json:"completion_goal_hash"`
	Footprint          []string    `json:"footprint,omitempty"` // layers the PR's changed paths fall in
	Criteria           []Criterion `json:"criteria"`
	Artifacts          []Artifact  `json:"artifacts"`
	Checks             []Check     `json:"checks"`
	Cost               Cost        `json:"cost"`
	Links              Links       `json:"links"`
	CreatedAt          string      `json:"created_at"`
	// Warnings are what the builder saw that the floors cannot judge but a
	// person should read before trusting the evidence (a TestMain the pull
	// request adds). Packs written before there were warnings have none.
	Warnings []Warning `json:"warnings,omitempty"`
}

// Warning is one named warning of the pack. Its Detail is untrusted text
// like every other string of a pack.
type Warning struct {
	Name   string `json:"name"`
	Detail string `json:"detail"`
}

// WarningTestFraming names the warning that the pull request adds or
// changes code that runs around a mapped test (TestMain, an init function,
// a package-level variable set by a call in a test file): such code can
// make go test -json report a pass the test's body did not earn, and no
// floor can tell.
const WarningTestFraming = "test-framing"

// Authority says who built the pack and whether it may count for ship.
type Authority struct {
	Kind     string `json:"kind"` // advisory or authoritative
	Workflow string `json:"workflow,omitempty"`
	RunID    int64  `json:"run_id,omitempty"`
	Writer   string `json:"writer,omitempty"`
}

// Criterion ties one numbered Ready criterion to the artifact paths that
// prove it.
type Criterion struct {
	ID       int      `json:"id"`
	Evidence []string `json:"evidence"`
}

// Artifact is one evidence file.
type Artifact struct {
	Path      string     `json:"path"` // relative, always "/"-separated
	Kind      string     `json:"kind"`
	SHA256    string     `json:"sha256"`
	Size      int64      `json:"size"`
	Store     string     `json:"store"`
	Object    string     `json:"object,omitempty"` // bucket: the object key
	Tombstone *Tombstone `json:"tombstone,omitempty"`
}

// Tombstone marks media purged by the 0.1 proof purge; such an artifact
// counts as not stored.
type Tombstone struct {
	PurgedAt string `json:"purged_at"`
	Reason   string `json:"reason"`
}

// Check is one floor's result. The red-on-base result is one more check
// with Floor "red-on-base" and a per-criterion Detail.
type Check struct {
	Floor     string   `json:"floor"`
	Result    string   `json:"result"` // pass, fail, skipped, waived, blocked
	Value     *float64 `json:"value,omitempty"`
	Threshold *float64 `json:"threshold,omitempty"`
	Tool      string   `json:"tool,omitempty"`
	Version   string   `json:"version,omitempty"`
	Detail    string   `json:"detail,omitempty"`
	Network   string   `json:"network,omitempty"` // isolated or not isolated
}

// Cost is the builder's model spend. verify does not fill it yet.
type Cost struct {
	TokensIn  int64   `json:"tokens_in"`
	TokensOut int64   `json:"tokens_out"`
	USD       float64 `json:"usd"`
}

// Links point from the pack back to GitHub and the ledger.
type Links struct {
	Issue         string `json:"issue,omitempty"`
	PR            string `json:"pr,omitempty"`
	ReadySnapshot string `json:"ready_snapshot,omitempty"`
}

// Enumerations the schema also enforces.
const (
	KindScreenshot   = "screenshot"
	KindRecording    = "recording"
	KindSRTranscript = "sr-transcript"
	KindAPITrace     = "api-trace"
	KindMetric       = "metric"
	KindReport       = "report"

	StoreGit    = "git"
	StoreNone   = "none"
	StoreBucket = "bucket"
	StoreLFS    = "lfs"

	ResultPass    = "pass"
	ResultFail    = "fail"
	ResultSkipped = "skipped"
	ResultWaived  = "waived"
	ResultBlocked = "blocked"

	AuthorityAdvisory      = "advisory"
	AuthorityAuthoritative = "authoritative"

	IdentityBot           = "bot"
	IdentityHuman         = "human"
	IdentityHumanFallback = "human-fallback"
	IdentityCI            = "ci"

	NetworkIsolated    = "isolated"
	NetworkNotIsolated = "not isolated"

	FloorRedOnBase = "red-on-base"
)
