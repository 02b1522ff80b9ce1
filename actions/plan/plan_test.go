package plan_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/plan"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
)

const owner, repo = "acme", "benefits"

type fixture struct {
	t    *testing.T
	base string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{ShareSeed: true, StateDir: t.TempDir()})
	return &fixture{t: t, base: base}
}

func (f *fixture) client(login string) *github.Client {
	return f.clientWith(login, nil)
}

func (f *fixture) clientWith(login string, rt http.RoundTripper) *github.Client {
	c := github.NewClient(&http.Client{Transport: rt}).WithAuthToken(sandbox.TokenPrefix + login)
	c.BaseURL, _ = url.Parse(f.base + "/")
	return c
}

const policyPlan = "Cap the dental benefit.\n\n## Completion Goal\n1. The cap holds\n\n## Plan\n- `policy/limits.go`: the cap\n- deductible/\n\n## Notes\n- web/ is not part of the plan\n"

func (f *fixture) story(body string, labels ...string) int {
	f.t.Helper()
	title := "Story: dental cap"
	is, _, err := f.client("founder").Issues.Create(context.Background(), owner, repo, &github.IssueRequest{Title: &title, Body: &body, Labels: &labels})
	if err != nil {
		f.t.Fatal(err)
	}
	return is.GetNumber()
}

// baseConfig rewrites main's .aayudha/config.toml (the base when no pull
// request links the Story) by appending text.
func (f *fixture) baseConfig(extra string) {
	f.t.Helper()
	ctx := context.Background()
	gh := f.client("founder")
	b, err := ghx.ReadFile(ctx, gh, owner, repo, "main", ".aayudha/config.toml")
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := ghx.CommitFiles(ctx, gh, owner, repo, "main", map[string][]byte{".aayudha/config.toml": append(b, []byte("\n"+extra)...)}, "staged by the test", ghx.CommitOptions{}); err != nil {
		f.t.Fatal(err)
	}
}

var at = func() time.Time { return time.Date(2026, 10, 12, 7, 30, 32, 0, time.UTC) }

// person is someone at a terminal with no agent marker.
func (f *fixture) options(login string, story int, bypass bool) plan.Options {
	return plan.Options{Client: f.client(login), Owner: owner, Repo: repo, Story: story, Viewer: login, SoloBypass: bypass,
		Env: func(string) string { return "" }, Terminal: true, Now: at}
}

func (f *fixture) record(story int) *pass.PlanRecord {
	f.t.Helper()
	rec, err := plan.Current(context.Background(), f.client("reader"), owner, repo, story)
	if err != nil {
		f.t.Fatal(err)
	}
	return rec
}

func (f *fixture) comments(story int) []*github.IssueComment {
	f.t.Helper()
	list, _, err := f.client("reader").Issues.ListComments(context.Background(), owner, repo, story, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	return list
}

func refusal(t *testing.T, err error, words ...string) {
	t.Helper()
	var r *plan.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("want a refusal saying %q, got %v", words, err)
	}
	for _, w := range words {
		if !strings.Contains(r.Reason, w) {
			t.Errorf("the refusal does not say %q:\n%s", w, r.Reason)
		}
	}
}

// TestPlan (the seed's name): aayu plan shows the Story's Plan section and
// the never layers its planned paths touch; a person who is not the
// builder records a review ("Plan reviewed:" on the Story and
// specs/N/plan-review.json in SPEC §10's format); a second run writes
// nothing; and aayu plan --solo-bypass records the bypass ("Solo-mode
// bypass:" on the Story, kind solo-bypass, reviewer "none (solo mode)",
// approved_by empty).
func TestPlan(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("review", func(t *testing.T) {
		f := newFixture(t)
		story := f.story(policyPlan, "type:story")
		r, err := plan.Read(ctx, f.options("writer", story, false))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Section) != 2 || r.Section[0] != "- `policy/limits.go`: the cap" || strings.Join(r.Planned, " ") != "policy/limits.go deductible/" {
			t.Errorf("the Plan section read as %q, paths %q", r.Section, r.Planned)
		}
		if len(r.Hits) != 1 || r.Hits[0].ID != "L04" || r.Hits[0].Name != "policy" || r.Hits[0].Paths[0] != "policy/limits.go (planned)" || r.Base != "main" {
			t.Fatalf("never layers: %+v on %s", r.Hits, r.Base)
		}
		if w := r.Writes(); len(w) != 2 || !strings.Contains(w[0], "Plan reviewed:") || !strings.Contains(w[1], "specs/"+itoa(story)+"/plan-review.json") {
			t.Errorf("writes: %q", w)
		}
		res, err := plan.Apply(ctx, f.client("writer"), r, nil)
		if err != nil || !res.Posted || res.Commit == "" {
			t.Fatalf("apply: %v %+v", err, res)
		}
		rec := f.record(story)
		want := pass.PlanRecord{Story: story, Layers: []string{"L04"}, Kind: "review", Reviewer: "writer", ApprovedBy: "writer", RecordedBy: "writer",
			RecordedAt: "2026-10-12T07:30:32Z", CommentURL: res.CommentURL, Note: rec.Note}
		if rec == nil || string(rec.Encode()) != string(want.Encode()) || rec.Note == "" {
			t.Fatalf("the record: %+v", rec)
		}
		cs := f.comments(story)
		if len(cs) != 1 || !strings.HasPrefix(cs[0].GetBody(), "Plan reviewed:") || cs[0].GetUser().GetLogin() != "writer" || cs[0].GetHTMLURL() != res.CommentURL {
			t.Fatalf("the Story's comments: %+v", cs)
		}
		again, err := plan.Read(ctx, f.options("writer", story, false))
		if err != nil || !again.Same || len(again.Writes()) != 0 {
			t.Errorf("a second run: %v, same %v, writes %q", err, again.Same, again.Writes())
		}
	})
	t.Run("solo-bypass", func(t *testing.T) {
		f := newFixture(t)
		story := f.story(policyPlan, "type:bug")
		r, err := plan.Read(ctx, f.options("founder", story, true))
		if err != nil {
			t.Fatal(err)
		}
		if w := r.Writes(); len(w) != 2 || !strings.Contains(w[0], "Solo-mode bypass:") {
			t.Errorf("writes: %q", w)
		}
		res, err := plan.Apply(ctx, f.client("founder"), r, nil)
		if err != nil || !res.Posted {
			t.Fatalf("apply: %v %+v", err, res)
		}
		rec := f.record(story)
		if rec == nil || rec.Kind != "solo-bypass" || rec.Reviewer != "none (solo mode)" || rec.ApprovedBy != "" || rec.RecordedBy != "founder" ||
			rec.CommentURL != res.CommentURL || rec.Note != pass.PlanBypassNote || strings.Join(rec.Layers, ",") != "L04" {
			t.Fatalf("the record: %+v", rec)
		}
		b, err := ghx.ReadFile(ctx, f.client("reader"), owner, repo, plan.LedgerBranch, pass.PlanRecordPath(story))
		if err != nil || !strings.Contains(string(b), `"approved_by": ""`) {
			t.Errorf("approved_by is not written empty: %v\n%s", err, b)
		}
		cs := f.comments(story)
		if len(cs) != 1 || !strings.HasPrefix(cs[0].GetBody(), "Solo-mode bypass:") || cs[0].GetUser().GetLogin() != "founder" {
			t.Fatalf("the Story's comments: %+v", cs)
		}
		// A review later still counts for more than the bypass: it is
		// recorded over it.
		if again, err := plan.Read(ctx, f.options("founder", story, true)); err != nil || !again.Same {
			t.Errorf("the bypass again: %v, same %v", err, again.Same)
		}
		if review, err := plan.Read(ctx, f.options("writer", story, false)); err != nil || review.Same {
			t.Errorf("a review after the bypass: %v, same %v", err, review.Same)
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestPlanShowsThePullRequestsFiles: a Story whose Plan names no never
// layer, but whose open pull request changes one, needs the review, and
// the changed file is named.
func TestPlanShowsThePullRequestsFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	story := f.story("## Plan\n- deductible/\n", "type:story")
	pr := f.pr("writer", story, map[string][]byte{"policy/cap.go": []byte("package policy\n")})
	r, err := plan.Read(ctx, f.options("founder", story, false))
	if err != nil {
		t.Fatal(err)
	}
	if r.PR != pr.GetNumber() || len(r.Hits) != 1 || r.Hits[0].Paths[0] != "policy/cap.go (changed in #"+itoa(pr.GetNumber())+")" {
		t.Fatalf("the pull request's files: PR %d, hits %+v", r.PR, r.Hits)
	}
	// The pull request's author builds it: their own review never counts.
	_, err = plan.Read(ctx, f.options("writer", story, false))
	refusal(t, err, "you (@writer) opened #"+itoa(pr.GetNumber()), "builder's own plan review never counts", "aayu plan "+itoa(story)+" --solo-bypass")
}

// pr opens login's pull request linking story with files on a story/N-…
// branch from main.
func (f *fixture) pr(login string, story int, files map[string][]byte) *github.PullRequest {
	f.t.Helper()
	ctx := context.Background()
	gh := f.client("founder")
	tip, _, err := gh.Git.GetRef(ctx, owner, repo, "heads/main")
	if err != nil {
		f.t.Fatal(err)
	}
	branch := "story/" + itoa(story) + "-cap"
	if _, _, err := gh.Git.CreateRef(ctx, owner, repo, &github.Reference{Ref: github.String("refs/heads/" + branch), Object: tip.Object}); err != nil {
		f.t.Fatal(err)
	}
	if _, err := ghx.CommitFiles(ctx, gh, owner, repo, branch, files, "the cap", ghx.CommitOptions{}); err != nil {
		f.t.Fatal(err)
	}
	pr, _, err := f.client(login).PullRequests.Create(ctx, owner, repo, &github.NewPullRequest{Title: github.String("cap"), Head: &branch, Base: github.String("main")})
	if err != nil {
		f.t.Fatal(err)
	}
	return pr
}

// TestPlanBypassReplacesTheBuildersOwnReview: in solo mode the person
// builds with their own token, so a review they recorded before their pull
// request opened is the builder's own; it does not stand, and the bypass is
// recorded over it.
func TestPlanBypassReplacesTheBuildersOwnReview(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	story := f.story(policyPlan, "type:story")
	r, err := plan.Read(ctx, f.options("founder", story, false))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Apply(ctx, f.client("founder"), r, nil); err != nil {
		t.Fatal(err)
	}
	f.pr("founder", story, map[string][]byte{"policy/cap.go": []byte("package policy\n")})
	r, err = plan.Read(ctx, f.options("founder", story, true))
	if err != nil || r.Same {
		t.Fatalf("the builder's own review stood: %v, same %v", err, r.Same)
	}
	if _, err := plan.Apply(ctx, f.client("founder"), r, nil); err != nil {
		t.Fatal(err)
	}
	if rec := f.record(story); rec == nil || rec.Kind != "solo-bypass" {
		t.Fatalf("the record after the bypass: %+v", rec)
	}
}

// TestPlanNeedsNoReviewOutsideNeverLayers: a plan that touches no never
// layer needs no review; nothing is asked or written.
func TestPlanNeedsNoReviewOutsideNeverLayers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	story := f.story("## Plan\n- deductible/remaining.go\n", "type:story")
	r, err := plan.Read(ctx, f.options("writer", story, false))
	if err != nil || r.NotNeeded == "" || len(r.Writes()) != 0 || !strings.Contains(r.NotNeeded, "no plan review is needed") {
		t.Fatalf("%v: %+v", err, r)
	}
	if res, err := plan.Apply(ctx, f.client("writer"), r, nil); err != nil || res.Commit != "" || len(f.comments(story)) != 0 {
		t.Fatalf("apply wrote something: %v %+v", err, res)
	}
}

// TestPlanRefusesNoPlanSection: a Story with no Plan section and no pull
// request has nothing to review; an issue that is not a Story neither.
func TestPlanRefusesNoPlanSection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	_, err := plan.Read(ctx, f.options("writer", f.story("## Completion Goal\n1. x\n", "type:story"), false))
	refusal(t, err, `has no "## Plan" section and no pull request links it`)
	_, err = plan.Read(ctx, f.options("writer", f.story(policyPlan, "type:decision"), false))
	refusal(t, err, "is not a Story")
}

// TestPlanRefusesABotReviewer: a bot's "review" is never a plan review.
func TestPlanRefusesABotReviewer(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	story := f.story(policyPlan, "type:story")
	_, err := plan.Read(context.Background(), f.options("agent-bot", story, false))
	refusal(t, err, "is a bot")
	if f.record(story) != nil {
		t.Error("a refused review wrote a record")
	}
}

// bypassRefused checks a bypass refused with words leaves no comment and
// no record.
func bypassRefused(t *testing.T, f *fixture, o plan.Options, words ...string) {
	t.Helper()
	_, err := plan.Read(context.Background(), o)
	refusal(t, err, append([]string{"the solo-mode bypass of #" + itoa(o.Story) + "'s plan review is refused"}, words...)...)
	if f.record(o.Story) != nil || len(f.comments(o.Story)) != 0 {
		t.Error("a refused bypass wrote something")
	}
}

// TestPlanBypassRefusesAgentLane: aayu's own lane (AAYU_AGENT) and CI never
// bypass, even with an approval; an agent host's marker is refused unless
// the person approved this command by the presence check as an admin.
func TestPlanBypassRefusesAgentLane(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	story := f.story(policyPlan, "type:story")
	approved := &identity.Session{Command: plan.Command(story, true), Login: "founder", Access: identity.AccessAdmin, Method: "device-flow"}
	o := f.options("founder", story, true)
	o.Env = func(k string) string { return map[string]string{"AAYU_AGENT": "1"}[k] }
	o.Session = approved
	bypassRefused(t, f, o, "aayu's own agent lane (AAYU_AGENT) can never bypass")
	o = f.options("founder", story, true)
	o.CI, o.Session = true, approved
	bypassRefused(t, f, o, "CI (--ci) can never bypass")
	o = f.options("founder", story, true)
	o.Env = func(k string) string { return map[string]string{"AMP_THREAD_ID": "T-1"}[k] }
	bypassRefused(t, f, o, "agent host's marker (AMP_THREAD_ID)", "presence check as an admin")
	o.Session = approved
	if _, err := plan.Read(context.Background(), o); err != nil {
		t.Errorf("the marked shell with the person's admin approval: %v", err)
	}
}

// TestPlanBypassRefusesNoMarkerAndNoTerminal: a process with neither an
// agent marker nor a terminal is refused unless approved by presence.
func TestPlanBypassRefusesNoMarkerAndNoTerminal(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	story := f.story(policyPlan, "type:story")
	o := f.options("founder", story, true)
	o.Terminal = false
	bypassRefused(t, f, o, "neither an agent marker nor a terminal")
	o.Session = &identity.Session{Command: plan.Command(story, false), Login: "founder", Access: identity.AccessAdmin}
	bypassRefused(t, f, o, "neither an agent marker nor a terminal") // an approval of another command covers nothing
	o.Session = &identity.Session{Command: plan.Command(story, true), Login: "founder", Access: identity.AccessAdmin}
	if _, err := plan.Read(context.Background(), o); err != nil {
		t.Errorf("approved by presence: %v", err)
	}
}

// TestPlanBypassRefusesABotIdentity: a repository with a bot identity is not
// in solo mode, so the plan gets a review, never a bypass.
func TestPlanBypassRefusesABotIdentity(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.baseConfig("[identity]\napp_slug = \"acme-agent\"\n")
	story := f.story(policyPlan, "type:story")
	bypassRefused(t, f, f.options("founder", story, true), "this repository has a bot identity")
}

// TestPlanBypassRefusesASecondHumanInASeat: with a second human in the
// Engineering Manager seat a review can be given, so no bypass.
func TestPlanBypassRefusesASecondHumanInASeat(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.baseConfig("[seats]\nengineering_manager = \"writer\"\n")
	story := f.story(policyPlan, "type:story")
	bypassRefused(t, f, f.options("founder", story, true), "a second human, @writer, holds the Engineering Manager seat")
}

// TestPlanBypassRefusesWithoutAdmin: the bypass is an admin's.
func TestPlanBypassRefusesWithoutAdmin(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	story := f.story(policyPlan, "type:story")
	bypassRefused(t, f, f.options("writer", story, true), "needs a person with admin access")
}

// dropComments answers a new comment as if GitHub took it, without sending
// it: the comment is never there.
type dropComments struct{ next http.RoundTripper }

func (d dropComments) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/comments") {
		body := `{"id":987654,"html_url":"https://github.com/acme/benefits/issues/1#issuecomment-987654","body":"Solo-mode bypass: x"}`
		return &http.Response{StatusCode: 201, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
	}
	return d.next.RoundTrip(req)
}

// TestPlanBypassRefusesNoCommentPosted: when the Solo-mode bypass: comment
// is not on the Story when read back, the bypass is refused and nothing
// lands on the ledger.
func TestPlanBypassRefusesNoCommentPosted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	story := f.story(policyPlan, "type:story")
	r, err := plan.Read(ctx, f.options("founder", story, true))
	if err != nil {
		t.Fatal(err)
	}
	ledger, _, _ := f.client("reader").Git.GetRef(ctx, owner, repo, "heads/ledger")
	_, err = plan.Apply(ctx, f.clientWith("founder", dropComments{http.DefaultTransport}), r, nil)
	refusal(t, err, "no Solo-mode bypass: comment by @founder is on #"+itoa(story), "nothing was written to the ledger")
	after, _, _ := f.client("reader").Git.GetRef(ctx, owner, repo, "heads/ledger")
	if f.record(story) != nil || ledger.GetObject().GetSHA() != after.GetObject().GetSHA() {
		t.Error("the ledger moved without a comment")
	}
}

// TestPlanBypassRefusesWithTheCommandsOneAnswer: given the answer the
// command already took (Options.Here), the bypass is judged by it and not
// by a second look at the process: a terminal with no marker is refused
// when the command's answer says an agent host's marker is set.
func TestPlanBypassRefusesWithTheCommandsOneAnswer(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	story := f.story(policyPlan, "type:story")
	o := f.options("founder", story, true)
	if _, err := plan.Read(context.Background(), o); err != nil {
		t.Fatalf("a person at a terminal: %v", err)
	}
	o.Here = &identity.Decision{Outcome: identity.NeedsPresence, Marker: "AMP_THREAD_ID", Reason: "the one answer"}
	bypassRefused(t, f, o, "agent host's marker (AMP_THREAD_ID)", "presence check as an admin")
}
