package ship

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/identity"
	"github.com/google/go-github/v66/github"
)

// These tests each guard one check a mutation tool found untested: each
// fails when the check it names is removed or inverted.

// permRewriter answers the founder's permission read with body, as GitHub
// answers for an account with that role (a maintainer reads as
// permission "write", role_name "maintain").
type permRewriter struct {
	base http.RoundTripper
	body string
}

func (p permRewriter) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, "/collaborators/founder/permission") {
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(bytes.NewReader([]byte(p.body))), ContentLength: int64(len(p.body)), Request: req}, nil
	}
	return p.base.RoundTrip(req)
}

// asRole is the founder shipping while GitHub reports their role as role.
func (f *fixture) asRole(t *testing.T, permission, role string) Config {
	body := `{"permission":"` + permission + `","role_name":"` + role + `","user":{"login":"founder","id":1001,"type":"User"}}`
	c, err := ghx.NewClient(ghx.ClientOptions{
		APIURL: f.base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+"founder", "test"),
		Retry: ghx.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond},
		Base:  permRewriter{base: http.DefaultTransport, body: body},
	})
	if err != nil {
		t.Fatal(err)
	}
	return Config{Client: c, Owner: owner, Repo: repo, Viewer: "founder", Log: actions.OpenLog(f.logDir, nil),
		WorkDir: t.TempDir(), Terminal: true, Env: envOf(nil), Confirm: yes}
}

// TestShipRefusesAMaintainerTheBypassThatNeedsAdmin: maintain is below
// admin, so a maintainer's --solo-bypass is refused and nothing written.
func TestShipRefusesAMaintainerTheBypassThatNeedsAdmin(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.solo()
	pr := sandbox.DemoPRReady
	cfg := f.asRole(t, "write", "maintain")
	cfg.SoloBypass = true
	before := f.snapshot(pr)
	res, events, err := f.ship(cfg, pr)
	if err != nil || res.ExitCode != ExitRefused || res.Merged || !mentions(res, events, "needs a person with admin access") {
		t.Fatalf("a maintainer's bypass: err %v, exit %d, merged %v, refusals %q", err, res.ExitCode, res.Merged, res.Refusals)
	}
	f.assertUnchanged(before, pr)
	if n := f.bypassComments(pr, before.head); n != 0 {
		t.Errorf("a refused bypass posted %d comments", n)
	}
}

// TestShipRefusesToMergeWithoutWriteAccess: ship's own check of the
// person's access. The founder's review passes the human pass, but GitHub
// now reports them as triage: ship refuses before anything is written.
func TestShipRefusesToMergeWithoutWriteAccess(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := sandbox.DemoPRReady
	f.baseConfig(`approver = "founder"`, `approver = "writer"`)
	f.review("writer", pr, "APPROVE", "")
	before := f.snapshot(pr)
	res, events, err := f.ship(f.asRole(t, "read", "triage"), pr)
	if err != nil || res.ExitCode != ExitRefused || res.Merged || !mentions(res, events, "@founder has triage access to acme/benefits; merging needs write access") {
		t.Fatalf("a triage account: err %v, exit %d, merged %v, refusals %q", err, res.ExitCode, res.Merged, res.Refusals)
	}
	f.assertUnchanged(before, pr)
}

// TestShipRefusesABypassCommentThatIsNoLongerTheOldest: between the
// bypass gate and the merge the comment ship stands on is deleted and the
// person's new one posted; the re-read just before the merge finds it is
// no longer the oldest for the head, and nothing merges.
func TestShipRefusesABypassCommentThatIsNoLongerTheOldest(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.solo()
	pr := sandbox.DemoPRReady
	head := f.srv.HeadSHA(pr)
	cfg := f.config("founder")
	cfg.SoloBypass = true
	gh := f.client("founder")
	cfg.AfterStep = func(g GateID) error {
		if g != GateBypass {
			return nil
		}
		for _, c := range f.founderComments(pr) {
			if strings.HasPrefix(c.GetBody(), identity.SoloBypassPrefix) {
				if _, err := gh.Issues.DeleteComment(context.Background(), owner, repo, c.GetID()); err != nil {
					t.Fatal(err)
				}
			}
		}
		body := identity.SoloBypassComment(head, "posted again by hand")
		if _, _, err := gh.Issues.CreateComment(context.Background(), owner, repo, pr, &github.IssueComment{Body: github.String(body)}); err != nil {
			t.Fatal(err)
		}
		return nil
	}
	dev := f.srv.BranchSHA("dev")
	res, _, err := f.ship(cfg, pr)
	if err != nil || res.ExitCode != ExitRefused || res.Merged || !hasWords(res.Refusals, "is no longer the one for head") {
		t.Fatalf("err %v, exit %d, merged %v, refusals %q", err, res.ExitCode, res.Merged, res.Refusals)
	}
	if f.srv.BranchSHA("dev") != dev {
		t.Error("ship merged on a bypass comment that was no longer there")
	}
}

// TestShipRefusesThePRAuthorsOwnPlanReview: a never layer needs a plan
// review by someone who is not the pull request's author; the author's own
// "Plan reviewed:" comment on the story does not count, another person's
// does.
func TestShipRefusesThePRAuthorsOwnPlanReview(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := f.writerPR("story/3-policy", map[string]string{"policy/limits.md": "# Limits\n"})
	const missing = "needs a plan-time review"
	comment := func(login string) { f.planReviewed(login, 3, "L04") }
	comment("writer") // the pull request's author
	res, events, err := f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || !mentions(res, events, missing) {
		t.Fatalf("the author's own plan review counted: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
	comment("founder") // a person who is not the author
	res, events, err = f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || mentions(res, events, missing) {
		t.Fatalf("another person's plan review did not count: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
}
