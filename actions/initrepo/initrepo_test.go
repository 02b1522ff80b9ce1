package initrepo_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/actions/initrepo/templates"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/aayudha/aayu/model/pass"
)

func sandboxClient(t *testing.T, token string) (*github.Client, *sandbox.Server) {
	t.Helper()
	srv, _, base := conformance.StartSandbox(t, sandbox.Options{})
	c := github.NewClient(nil).WithAuthToken(token)
	c.BaseURL, _ = url.Parse(base + "/")
	return c, srv
}

// TestInitOnFreshOpensOnePullRequest: on a repository with no set-up, init
// proposes every file in one pull request from a new branch, leaves main
// where it was, and a second run opens no second pull request.
func TestInitOnFreshOpensOnePullRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gh, _ := sandboxClient(t, "sandbox-founder")
	o := initrepo.Options{Client: gh, Owner: "acme", Repo: "fresh", Login: "founder"}
	p, err := initrepo.Read(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]initrepo.Action{
		templates.MergeGatePath: initrepo.Create, templates.ProtectedPathsPath: initrepo.Create, templates.ApprovePath: initrepo.Create,
		templates.ReleasePath: initrepo.Create, templates.LoopsPath: initrepo.Create,
		".aayudha/config.toml": initrepo.Create, "LAYERS.md": initrepo.Create, ".github/CODEOWNERS": initrepo.Create,
		".gitignore": initrepo.Create,
	}
	if len(p.Changes) != len(want) {
		t.Fatalf("changes %+v", p.Changes)
	}
	for _, c := range p.Changes {
		if want[c.Path] != c.Action || c.Why == "" {
			t.Errorf("%s: %s (%q), want %s", c.Path, c.Action, c.Why, want[c.Path])
		}
	}
	mainBefore := p.BaseSHA
	res, err := initrepo.Apply(ctx, gh, p)
	if err != nil || res.PR != 1 || res.Branch != initrepo.SetupBranch {
		t.Fatalf("apply: %+v %v", res, err)
	}
	if ref, _, _ := gh.Git.GetRef(ctx, "acme", "fresh", "heads/main"); ref.GetObject().GetSHA() != mainBefore {
		t.Fatal("main moved: init must only propose")
	}
	pr, _, err := gh.PullRequests.Get(ctx, "acme", "fresh", res.PR)
	if err != nil || pr.GetBase().GetRef() != "main" || pr.GetHead().GetRef() != initrepo.SetupBranch || !strings.Contains(pr.GetBody(), "aayudha/merge-gate") {
		t.Fatalf("the set-up PR: %v %v", pr, err)
	}
	for _, f := range templates.Workflows() {
		b, err := ghx.ReadFile(ctx, gh, "acme", "fresh", initrepo.SetupBranch, f.Path)
		if err != nil || string(b) != f.Body {
			t.Errorf("%s on the set-up branch is not the template: %v", f.Path, err)
		}
	}
	co, _ := ghx.ReadFile(ctx, gh, "acme", "fresh", initrepo.SetupBranch, ".github/CODEOWNERS")
	cfg, _ := ghx.ReadFile(ctx, gh, "acme", "fresh", initrepo.SetupBranch, ".aayudha/config.toml")
	if !strings.Contains(string(co), "/.github/ @founder") || !strings.Contains(string(cfg), `approver = "founder"`) {
		t.Errorf("CODEOWNERS:\n%s\nconfig:\n%s", co, cfg)
	}

	again, err := initrepo.Read(ctx, o)
	if err != nil || again.OpenPR != 1 || again.PRWrites() {
		t.Errorf("a second init: open PR %d, writes %v, %v", again.OpenPR, again.PRWrites(), err)
	}
}

// TestInitKeepsWhatIsThere: on the demo, which is set up, init keeps the
// workflows, the config and LAYERS.md as they are and only adds the
// CODEOWNERS lines for protected paths that have none.
func TestInitKeepsWhatIsThere(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gh, _ := sandboxClient(t, "sandbox-founder")
	p, err := initrepo.Read(ctx, initrepo.Options{Client: gh, Owner: "acme", Repo: "benefits", Login: "founder", Gates: true})
	if err != nil {
		t.Fatal(err)
	}
	if p.Integration != "dev" {
		t.Errorf("integration branch %q, want dev", p.Integration)
	}
	for _, c := range p.Changes {
		switch c.Path {
		case "CODEOWNERS":
			if c.Action != initrepo.Update || strings.Contains(c.Why, "/.github/") || !strings.Contains(c.Body, "* @founder") || !strings.Contains(c.Body, "/LAYERS.md @founder") {
				t.Errorf("CODEOWNERS: %s %q\n%s", c.Action, c.Why, c.Body)
			}
		default:
			if c.Action != initrepo.Keep {
				t.Errorf("%s: %s, want keep", c.Path, c.Action)
			}
		}
	}
}

// TestInitSetsTheVariable: with a client ID, init sets
// AAYUDHA_DEVICE_CLIENT_ID; a writer's token is refused by GitHub and the
// plan says it cannot, and a client secret is refused before any request.
func TestInitSetsTheVariable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gh, _ := sandboxClient(t, "sandbox-founder")
	p, err := initrepo.Read(ctx, initrepo.Options{Client: gh, Owner: "acme", Repo: "fresh", Login: "founder", Identity: true, ClientID: "Ov23liFreshApp1"})
	if err != nil || len(p.Changes) != 0 || !p.SetsVariable() || !p.Admin {
		t.Fatalf("identity-only plan: %+v %v", p, err)
	}
	if res, err := initrepo.Apply(ctx, gh, p); err != nil || !res.VariableSet || res.PR != 0 {
		t.Fatalf("apply: %+v %v", res, err)
	}
	if v, err := ghx.RepoVariable(ctx, gh, "acme", "fresh", ghx.DeviceClientVariable); err != nil || v != "Ov23liFreshApp1" {
		t.Errorf("variable: %q %v", v, err)
	}
	found := ghx.FindDeviceClient(ctx, ghx.DeviceClientLookup{Client: gh, Owner: "acme", Repo: "fresh"})
	if found.ID != "Ov23liFreshApp1" || !strings.Contains(found.From, "repository variable") {
		t.Errorf("the presence check finds %+v", found)
	}

	if _, err := initrepo.Read(ctx, initrepo.Options{Client: gh, Owner: "acme", Repo: "fresh", ClientID: strings.Repeat("ab12", 10)}); err == nil || !strings.Contains(err.Error(), "client secret") {
		t.Errorf("a client secret given as the ID: %v", err)
	}
	writer, _ := sandboxClient(t, "sandbox-writer")
	wp, err := initrepo.Read(ctx, initrepo.Options{Client: writer, Owner: "acme", Repo: "fresh", Login: "writer", Identity: true, ClientID: "Ov23liFreshApp2"})
	if err != nil || wp.Admin {
		t.Fatalf("a writer's plan: admin %v, %v", wp.Admin, err)
	}
	if _, err := initrepo.Apply(ctx, writer, wp); err == nil {
		t.Error("a writer set the variable")
	}
}

// TestFindDeviceClientOrder: local config wins, then the repository's
// variable, then the default.
func TestFindDeviceClientOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gh, _ := sandboxClient(t, "sandbox-founder")
	cases := []struct {
		l    ghx.DeviceClientLookup
		want string
	}{
		{ghx.DeviceClientLookup{Local: "Ov23liLocal", Client: gh, Owner: "acme", Repo: "benefits"}, "Ov23liLocal"},
		{ghx.DeviceClientLookup{Client: gh, Owner: "acme", Repo: "benefits", Default: "dflt"}, sandbox.DeviceClientID},
		{ghx.DeviceClientLookup{Client: gh, Owner: "acme", Repo: "fresh", Default: "dflt"}, "dflt"},
		{ghx.DeviceClientLookup{Owner: "acme", Repo: "benefits"}, ""},
	}
	for _, c := range cases {
		if got := ghx.FindDeviceClient(ctx, c.l); got.ID != c.want {
			t.Errorf("%+v: %q (%s), want %q", c.l, got.ID, got.From, c.want)
		}
	}
}

// TestFindDeviceClientInRepositoryConfig: [identity] device_client_id in
// the repository's .aayudha/config.toml comes before the variable.
func TestFindDeviceClientInRepositoryConfig(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gh, _ := sandboxClient(t, "sandbox-founder")
	ref, _, _ := gh.Git.GetRef(ctx, "acme", "benefits", "heads/main")
	parent, _, _ := gh.Git.GetCommit(ctx, "acme", "benefits", ref.GetObject().GetSHA())
	cfg := "[identity]\ndevice_client_id = \"Ov23liFromConfig\"\n"
	tree, _, err := gh.Git.CreateTree(ctx, "acme", "benefits", parent.GetTree().GetSHA(), []*github.TreeEntry{{Path: github.String(".aayudha/config.toml"), Mode: github.String("100644"), Type: github.String("blob"), Content: github.String(cfg)}})
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := gh.Git.CreateCommit(ctx, "acme", "benefits", &github.Commit{Message: github.String("name the App"), Tree: tree, Parents: []*github.Commit{{SHA: parent.SHA}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := gh.Git.UpdateRef(ctx, "acme", "benefits", &github.Reference{Ref: github.String("refs/heads/main"), Object: &github.GitObject{SHA: c.SHA}}, false); err != nil {
		t.Fatal(err)
	}
	got := ghx.FindDeviceClient(ctx, ghx.DeviceClientLookup{Client: gh, Owner: "acme", Repo: "benefits"})
	if got.ID != "Ov23liFromConfig" || !strings.Contains(got.From, ".aayudha/config.toml") {
		t.Errorf("found %+v, want the repository config's App", got)
	}
}

// TestInitKeepsEvidenceMapsOutOfNeverLayers: every Story's pull request
// commits .aayudha/evidence/N.toml, so the LAYERS.md and CODEOWNERS init
// proposes must not make it a never layer (L09 needs a plan review and a
// CODEOWNER's pass) nor a protected path; the policy itself stays both.
func TestInitKeepsEvidenceMapsOutOfNeverLayers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gh, _ := sandboxClient(t, "sandbox-founder")
	p, err := initrepo.Read(ctx, initrepo.Options{Client: gh, Owner: "acme", Repo: "fresh", Login: "founder"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := initrepo.Apply(ctx, gh, p); err != nil {
		t.Fatal(err)
	}
	layersMD, _ := ghx.ReadFile(ctx, gh, "acme", "fresh", initrepo.SetupBranch, "LAYERS.md")
	co, _ := ghx.ReadFile(ctx, gh, "acme", "fresh", initrepo.SetupBranch, ".github/CODEOWNERS")
	layers, err := pass.ParseLayers(string(layersMD))
	if err != nil {
		t.Fatal(err)
	}
	owners, err := pass.ParseCodeowners(string(co))
	if err != nil {
		t.Fatal(err)
	}
	evidence := []pass.ChangedFile{{Path: ".aayudha/evidence/7.toml"}}
	if fp := pass.Footprint(evidence, layers); len(fp) != 0 {
		t.Errorf("an evidence map is in layers %v:\n%s", fp, layersMD)
	}
	if o := owners.Owners(".aayudha/evidence/7.toml"); len(o) != 0 {
		t.Errorf("an evidence map has CODEOWNERS %v:\n%s", o, co)
	}
	if fp := pass.Footprint([]pass.ChangedFile{{Path: ".aayudha/config.toml"}}, layers); len(fp) != 1 || fp[0] != "L09" {
		t.Errorf("the policy is in layers %v, want L09", fp)
	}
	if o := owners.Owners(".aayudha/config.toml"); len(o) != 1 || o[0] != "@founder" {
		t.Errorf("the policy's CODEOWNERS: %v", o)
	}
}

// TestInitProposesTheBrokerOnceTheAppIsSetUp: with the bot App's client
// ID variable set (the sandbox's agent-bot App), init --gates proposes
// aayudha-token.yml beside the gates; the demo without an App does not
// (TestInitKeepsWhatIsThere).
func TestInitProposesTheBrokerOnceTheAppIsSetUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{BotApp: true})
	gh := github.NewClient(nil).WithAuthToken("sandbox-founder")
	gh.BaseURL, _ = url.Parse(base + "/")
	p, err := initrepo.Read(ctx, initrepo.Options{Client: gh, Owner: "acme", Repo: "benefits", Login: "founder", Gates: true})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range p.Changes {
		if c.Path == templates.TokenBrokerPath {
			found = true
			if c.Action != initrepo.Keep {
				t.Errorf("the seeded broker: %s, want keep (it is the current template)", c.Action)
			}
		}
	}
	if !found {
		t.Error("init --gates does not look at the token broker in a repository with a bot App")
	}
}
