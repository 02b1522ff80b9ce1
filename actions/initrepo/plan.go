package initrepo

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/initrepo/templates"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gitsha"
)

// SetupBranch is the branch the set-up pull request comes from.
const SetupBranch = "aayudha/setup"

// Options say what to read and propose.
type Options struct {
	Client *github.Client
	Owner  string
	Repo   string
	Login  string // the person; the CODEOWNER and approver init proposes
	// Gates proposes the files; Identity the OAuth App and the variable.
	// Neither set means both (aayu init with no seed flag).
	Gates, Identity bool
	ClientID        string // --client-id: the value for AAYUDHA_DEVICE_CLIENT_ID

	botApp bool // the repository names a bot App (AAYUDHA_APP_CLIENT_ID): propose the broker
}

func (o Options) gates() bool    { return o.Gates || !o.Identity }
func (o Options) identity() bool { return o.Identity || !o.Gates }

// Action is what the pull request does to one file.
type Action string

const (
	Create Action = "create"
	Update Action = "update" // an existing file gets lines added
	Keep   Action = "keep"   // already there and left as it is
)

// Change is one file of the proposal.
type Change struct {
	Path   string
	Action Action
	Why    string // one line, for the screen
	Body   string // the file's new bytes (Create, Update)
}

// Plan is what init read and what it proposes; nothing is written yet.
type Plan struct {
	Owner, Repo   string
	DefaultBranch string
	BaseSHA       string // the default branch's tip the branch is cut from
	Integration   string // the integration branch the config names
	Branch        string // the set-up branch
	Changes       []Change
	// OpenPR is an open set-up pull request already proposed; init then
	// writes no second one.
	OpenPR int
	// Variable: the client ID to set (empty: none given) and its value now.
	ClientID, CurrentClientID string
	VariableReadable          bool // false when the token may not read variables
	Admin                     bool // the token may set repository variables
	// Bot: the policy configures a bot identity, so the integration and
	// default branches also need a reviewed pull request.
	Bot bool
	// Rules are the rules the guarded branches hold or miss (CheckRules);
	// Rulesets are the rulesets that set what is missing, created by an
	// admin's token and otherwise shown for an admin to add.
	Rules    []RuleCheck
	Rulesets []RulesetWrite
}

// Writes reports whether applying the plan would write anything.
func (p Plan) Writes() bool { return p.PRWrites() || p.SetsVariable() || p.CreatesRulesets() }

// CreatesRulesets reports whether Apply creates rulesets: some rule is
// missing and the token is an admin's (GitHub lets only admins).
func (p Plan) CreatesRulesets() bool { return len(p.Rulesets) > 0 && p.Admin }

// PRWrites reports whether the pull request has any file to change.
func (p Plan) PRWrites() bool {
	if p.OpenPR != 0 {
		return false
	}
	for _, c := range p.Changes {
		if c.Action != Keep {
			return true
		}
	}
	return false
}

// SetsVariable reports whether the variable will be set or changed.
func (p Plan) SetsVariable() bool { return p.ClientID != "" && p.ClientID != p.CurrentClientID }

// Read reads the repository and builds the proposal. It writes nothing.
func Read(ctx context.Context, o Options) (Plan, error) {
	if o.ClientID != "" {
		if err := CheckClientID(o.ClientID); err != nil {
			return Plan{}, err
		}
	}
	gh := o.Client
	repo, _, err := gh.Repositories.Get(ctx, o.Owner, o.Repo)
	if err != nil {
		return Plan{}, fmt.Errorf("reading %s/%s: %s", o.Owner, o.Repo, ghx.Describe(err))
	}
	p := Plan{Owner: o.Owner, Repo: o.Repo, DefaultBranch: repo.GetDefaultBranch(), Branch: SetupBranch, ClientID: o.ClientID}
	p.Admin = repo.GetPermissions()["admin"]
	ref, _, err := gh.Git.GetRef(ctx, o.Owner, o.Repo, "heads/"+p.DefaultBranch)
	if err != nil {
		return Plan{}, fmt.Errorf("reading the tip of %s: %s", p.DefaultBranch, ghx.Describe(err))
	}
	p.BaseSHA = ref.GetObject().GetSHA()
	guard := ReadGuard(ctx, gh, o.Owner, o.Repo, p.DefaultBranch)
	p.Integration, p.Bot = guard.Integration, guard.Bot
	read := func(path string) (string, bool, error) {
		b, err := ghx.ReadFile(ctx, gh, o.Owner, o.Repo, p.DefaultBranch, path)
		if ghx.IsNotFound(err) {
			return "", false, nil
		}
		if err != nil {
			return "", false, err
		}
		return string(b), true, nil
	}
	if o.gates() {
		if _, err := ghx.RepoVariable(ctx, gh, o.Owner, o.Repo, ghx.AppClientIDVariable); err == nil {
			o.botApp = true
		}
		if err := p.planFiles(o, read); err != nil {
			return Plan{}, err
		}
		if err := p.findOpenPR(ctx, gh); err != nil {
			return Plan{}, err
		}
		p.readRules(ctx, gh)
	}
	if o.identity() {
		cur, err := ghx.RepoVariable(ctx, gh, o.Owner, o.Repo, ghx.DeviceClientVariable)
		switch {
		case err == nil:
			p.CurrentClientID, p.VariableReadable = cur, true
		case errors.Is(err, ghx.ErrNoVariable):
			p.VariableReadable = true
		}
	}
	return p, nil
}

func (p *Plan) planFiles(o Options, read func(string) (string, bool, error)) error {
	// The token broker rides along with the gates once the bot App is set
	// up (its client ID variable exists): agents on a laptop then get the
	// App's token without its key. Without an App it would only fail.
	files := templates.Workflows()
	if o.botApp {
		files = append(files, templates.IdentityWorkflows()...)
	}
	for _, f := range files {
		body, ok, err := read(f.Path)
		if err != nil {
			return err
		}
		why := "the merge gate: builds each pull request's proof pack with read-only rights and comments from a job that never runs its code"
		switch f.Path {
		case templates.ProtectedPathsPath:
			why = "the protected-paths gate: a change to a gate needs its CODEOWNER's approval"
		case templates.TokenBrokerPath:
			why = "the token broker: hands an agent lane the bot App's token, age-encrypted to its one-time key, without the App's key leaving GitHub"
		case templates.ApprovePath:
			why = "approvals by reply: applies an agent's batch of human-only steps only when every check passes on an approver's reply"
		case templates.ReleasePath:
			why = "the release workflow: on the tag aayu release pushes, builds the artifacts read-only and attests them from a job that never checks them out"
		case templates.LoopsPath:
			why = "the loops: on a schedule, the bot App recomputes each layer's streak from the ledger's samples and lands it, never a human-only step"
		}
		switch {
		case !ok:
			p.Changes = append(p.Changes, Change{Path: f.Path, Action: Create, Why: why, Body: f.Body})
		case body != f.Body:
			p.Changes = append(p.Changes, Change{Path: f.Path, Action: Update, Why: "replaced by this aayu's template (the copy there differs): " + why, Body: f.Body})
		default:
			p.Changes = append(p.Changes, Change{Path: f.Path, Action: Keep, Why: "already the current template"})
		}
	}
	for _, f := range []struct{ path, body, why string }{
		{".aayudha/config.toml", configFile(o.Owner, o.Repo, o.Login, p.Integration), fmt.Sprintf("the policy ship reads from the base branch: @%s approves, %s is the integration branch", o.Login, p.Integration)},
		{"LAYERS.md", layersFile, "the layers a change's footprint is read from: workflows and config are never layers"},
	} {
		_, ok, err := read(f.path)
		if err != nil {
			return err
		}
		if ok {
			p.Changes = append(p.Changes, Change{Path: f.path, Action: Keep, Why: "already there; your policy is left as it is"})
			continue
		}
		p.Changes = append(p.Changes, Change{Path: f.path, Action: Create, Why: f.why, Body: f.body})
	}
	if err := p.planGitignore(read); err != nil {
		return err
	}
	return p.planCodeowners(o, read)
}

// codeownersPaths are where GitHub looks for CODEOWNERS, in its order.
var codeownersPaths = []string{".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"}

func (p *Plan) planCodeowners(o Options, read func(string) (string, bool, error)) error {
	path, existing := codeownersPaths[0], ""
	for _, c := range codeownersPaths {
		body, ok, err := read(c)
		if err != nil {
			return err
		}
		if ok {
			path, existing = c, body
			break
		}
	}
	add := codeownersLines(existing, o.Login)
	switch {
	case len(add) == 0:
		p.Changes = append(p.Changes, Change{Path: path, Action: Keep, Why: "every protected path already has an owner"})
	case existing == "":
		p.Changes = append(p.Changes, Change{Path: path, Action: Create, Body: codeownersFile("", add),
			Why: fmt.Sprintf("@%s owns the %d paths that define the gates", o.Login, len(add))})
	default:
		p.Changes = append(p.Changes, Change{Path: path, Action: Update, Body: codeownersFile(existing, add),
			Why: fmt.Sprintf("adds %d lines: @%s owns %s", len(add), o.Login, strings.Join(ownedPaths(add), ", "))})
	}
	return nil
}

func ownedPaths(lines []string) []string {
	var out []string
	for _, l := range lines {
		out = append(out, strings.Fields(l)[0])
	}
	return out
}

// findOpenPR finds a set-up pull request already open, and picks a fresh
// branch name when the set-up branch is left over from a closed one.
func (p *Plan) findOpenPR(ctx context.Context, gh *github.Client) error {
	prs, _, err := gh.PullRequests.List(ctx, p.Owner, p.Repo, &github.PullRequestListOptions{State: "open", Head: p.Owner + ":" + SetupBranch})
	if err != nil {
		return fmt.Errorf("looking for a set-up pull request already open: %s", ghx.Describe(err))
	}
	for _, pr := range prs {
		if pr.GetHead().GetRef() == SetupBranch {
			p.OpenPR = pr.GetNumber()
			return nil
		}
	}
	if _, _, err := gh.Git.GetRef(ctx, p.Owner, p.Repo, "heads/"+SetupBranch); err == nil {
		p.Branch = SetupBranch + "-" + gitsha.Short(p.BaseSHA)
	}
	return nil
}
