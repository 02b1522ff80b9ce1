package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

const (
	stateFile  = "state.json"
	gitDirName = "benefits.git"
)

// state is everything the sandbox keeps besides git objects and refs.
type state struct {
	NextID int64 `json:"next_id"`
	// RepoID is the repository's id once a reset created it again (0: the
	// first one's, RepoID or freshRepoID): as on GitHub, a repository
	// deleted and created again is another repository.
	RepoID      int64          `json:"repo_id,omitempty"`
	RepoCreated time.Time      `json:"repo_created"`
	PushedAt    time.Time      `json:"pushed_at"`
	Retention   int            `json:"retention_days"`
	Labels      []*labelRec    `json:"labels"`
	Issues      []*issueRec    `json:"issues"` // Issues[i].Number == i+1
	Comments    []*commentRec  `json:"comments"`
	Reviews     []*reviewRec   `json:"reviews"`
	Statuses    []*statusRec   `json:"statuses"`
	Runs        []*runRec      `json:"runs"`
	Artifacts   []*artifactRec `json:"artifacts"`
	Variables   []*variableRec `json:"variables,omitempty"`
	// Check suites and runs (checks.go): what Actions jobs report.
	CheckSuites []*checkSuiteRec `json:"check_suites,omitempty"`
	CheckRuns   []*checkRunRec   `json:"check_runs,omitempty"`
	// Rules is a state saved before rulesets were kept whole (branch →
	// required contexts); st.rulesets() turns it into Rulesets.
	Rules map[string][]string `json:"rules,omitempty"`
	// Rulesets are the repository's rulesets, in GitHub's shape
	// (rulesets.go); Pushers is who last moved each branch.
	Rulesets []*rulesetRec     `json:"rulesets,omitempty"`
	Pushers  map[string]string `json:"pushers,omitempty"`
	// Merge is the repository's merge-button settings; nil is the demo's:
	// squash merges only (settings.go).
	Merge *mergeSettings `json:"merge_settings,omitempty"`
	// Teams: the demo organisation's team slug → its members' logins
	// (teams.go).
	Teams map[string][]string `json:"teams,omitempty"`
	// Attestations are the artifact attestations stored by the runner's
	// actions/attest and the API (attestations.go).
	Attestations []*attestationRec `json:"attestations,omitempty"`
	// Releases are the repository's GitHub releases (release_promote.go).
	Releases []*releaseRec `json:"releases,omitempty"`
}

type labelRec struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Color       string `json:"color"`
	Description string `json:"description,omitempty"`
}

type issueRec struct {
	Number      int        `json:"number"`
	ID          int64      `json:"id"`
	Title       string     `json:"title"`
	Body        string     `json:"body"`
	User        string     `json:"user"`
	State       string     `json:"state"`
	StateReason string     `json:"state_reason,omitempty"`
	Labels      []string   `json:"labels"`
	CreatedAt   time.Time  `json:"created_at"`
	UpdatedAt   time.Time  `json:"updated_at"`
	ClosedAt    *time.Time `json:"closed_at,omitempty"`
	ClosedBy    string     `json:"closed_by,omitempty"`
	PR          *prRec     `json:"pr,omitempty"`
}

// prRec is the pull-request half of an issue. The head SHA is read live
// from the head branch until the pull request is merged or closed, so a
// push to the branch moves it as on GitHub.
type prRec struct {
	ID             int64      `json:"id"`
	Head           string     `json:"head"`
	Base           string     `json:"base"`
	FrozenHead     string     `json:"frozen_head,omitempty"`
	Draft          bool       `json:"draft,omitempty"`
	Conflicting    bool       `json:"conflicting,omitempty"`
	Merged         bool       `json:"merged,omitempty"`
	MergedAt       *time.Time `json:"merged_at,omitempty"`
	MergedBy       string     `json:"merged_by,omitempty"`
	MergeCommitSHA string     `json:"merge_commit_sha,omitempty"`
	MergeBase      string     `json:"merge_base,omitempty"` // the base tip the branch was cut from
}

type commentRec struct {
	ID        int64     `json:"id"`
	Issue     int       `json:"issue"`
	User      string    `json:"user"`
	Body      string    `json:"body"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

type reviewRec struct {
	ID          int64     `json:"id"`
	PR          int       `json:"pr"`
	User        string    `json:"user"`
	State       string    `json:"state"`
	Body        string    `json:"body"`
	CommitID    string    `json:"commit_id"`
	SubmittedAt time.Time `json:"submitted_at"`
}

type statusRec struct {
	ID          int64     `json:"id"`
	SHA         string    `json:"sha"`
	Context     string    `json:"context"`
	State       string    `json:"state"`
	Description string    `json:"description"`
	TargetURL   string    `json:"target_url,omitempty"`
	Creator     string    `json:"creator"`
	CreatedAt   time.Time `json:"created_at"`
}

type runPR struct {
	Number  int    `json:"number"`
	HeadRef string `json:"head_ref"`
	HeadSHA string `json:"head_sha"`
	BaseRef string `json:"base_ref"`
	BaseSHA string `json:"base_sha"`
}

type runRec struct {
	ID         int64     `json:"id"`
	WorkflowID int64     `json:"workflow_id"`
	Name       string    `json:"name"`
	Title      string    `json:"title"`
	Event      string    `json:"event"`
	Status     string    `json:"status"`
	Conclusion string    `json:"conclusion,omitempty"`
	HeadBranch string    `json:"head_branch"`
	HeadSHA    string    `json:"head_sha"`
	RunNumber  int       `json:"run_number"`
	RunAttempt int       `json:"run_attempt"`
	Actor      string    `json:"actor"`
	PRs        []runPR   `json:"prs"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
	Dispatched bool      `json:"dispatched,omitempty"` // moves queued → in_progress → completed with time
	Situation  string    `json:"situation,omitempty"`  // which demo case the run stages
	// CheckSuiteID is the check suite the run's jobs report in (0 for
	// seeded runs, which show a derived id).
	CheckSuiteID int64 `json:"check_suite_id,omitempty"`
	// Path is the workflow file of a dispatched run (dispatch.go); empty
	// is the merge gate.
	Path string `json:"path,omitempty"`
}

type artifactRec struct {
	ID        int64     `json:"id"`
	RunID     int64     `json:"run_id"`
	Name      string    `json:"name"`
	Zip       []byte    `json:"zip"`
	CreatedAt time.Time `json:"created_at"`
	ExpiresAt time.Time `json:"expires_at"`
}

func (st *state) newID() int64 {
	st.NextID++
	return st.NextID
}

func (st *state) issue(n int) *issueRec {
	if n < 1 || n > len(st.Issues) {
		return nil
	}
	return st.Issues[n-1]
}

// load opens persisted state or seeds a fresh demo.
func (s *Server) load() error {
	dir := s.opts.StateDir
	if dir == "" {
		return s.seedFresh(nil)
	}
	b, err := os.ReadFile(filepath.Join(dir, stateFile))
	if errors.Is(err, fs.ErrNotExist) {
		return s.seedFresh(nil)
	}
	if err != nil {
		return fmt.Errorf("reading the sandbox state: %w", err)
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("the sandbox state in %s is damaged (run reset to start over): %w", dir, err)
	}
	g, err := openGitStore(filepath.Join(dir, gitDirName))
	if err != nil {
		return err
	}
	s.st, s.git = &st, g
	return nil
}

// seedFresh builds new storage and seeds the demo into it: into into when
// a reset gives the ids to start from, else the first repository's.
func (s *Server) seedFresh(into *state) error {
	var (
		g   *gitStore
		err error
	)
	if s.opts.StateDir == "" {
		g = newMemoryGitStore()
	} else {
		if err := os.MkdirAll(s.opts.StateDir, 0o755); err != nil {
			return fmt.Errorf("creating the sandbox folder: %w", err)
		}
		g, err = initGitStore(filepath.Join(s.opts.StateDir, gitDirName))
		if err != nil {
			return err
		}
	}
	s.git = g
	if into == nil {
		// A first seeding is the same for the same time and options: a
		// copy of the one this process kept (seedshare.go).
		if err := s.keptSeeding(s.now().Truncate(time.Second)).restore(s, g); err != nil {
			return err
		}
		return s.save()
	}
	s.st = into
	if err := s.seed(); err != nil {
		return fmt.Errorf("seeding the demo repository: %w", err)
	}
	return s.save()
}

// save writes state.json atomically; in-memory servers keep nothing.
func (s *Server) save() error {
	dir := s.opts.StateDir
	if dir == "" || s.st == nil {
		return nil
	}
	if s.resetElsewhere() {
		// Another process reset the folder: what this server holds is of
		// the repositories that reset deleted, and is never saved over it.
		return nil
	}
	b, err := json.Marshal(s.st)
	if err != nil {
		return fmt.Errorf("encoding the sandbox state: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "state-*.tmp")
	if err != nil {
		return fmt.Errorf("saving the sandbox state: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("saving the sandbox state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving the sandbox state: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, s.currentStateFile())); err != nil {
		return fmt.Errorf("saving the sandbox state: %w", err)
	}
	return nil
}
