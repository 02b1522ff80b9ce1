package ghx_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cli/oauth/device"
	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// Distinctive values, so that finding one anywhere is certainly a leak.
const (
	leakToken    = "ghp_aayuLeakHunt7Qz0123456789ABCDEFwxyz"
	leakBadToken = "ghp_aayuLeakHuntBAD9876543210fedcbaZYXW"
)

// leakForms are the shapes a token could take on its way out.
func leakForms(token string) []string {
	return []string{token, base64.StdEncoding.EncodeToString([]byte(token)),
		base64.RawURLEncoding.EncodeToString([]byte(token)), hex.EncodeToString([]byte(token)),
		strings.TrimPrefix(token, "ghp_")}
}

// findLeaks names every place among texts and the files under dirs that
// holds any form of the tokens, without saying the token.
func findLeaks(t *testing.T, texts map[string]string, dirs []string, tokens ...string) []string {
	t.Helper()
	var forms []string
	for _, tok := range tokens {
		forms = append(forms, leakForms(tok)...)
	}
	var found []string
	check := func(where string, b []byte) {
		for i, f := range forms {
			if bytes.Contains(b, []byte(f)) {
				found = append(found, fmt.Sprintf("%s (form %d)", where, i))
			}
		}
	}
	for where, text := range texts {
		check(where, []byte(text))
	}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			check(path, b)
			return nil
		})
		if err != nil {
			t.Fatalf("walking %s: %v", dir, err)
		}
	}
	return found
}

// TestTokenNeverLeaks runs a representative workload with a distinctive
// token — paginated, cached and conditional reads, writes, a refused
// write, a dropped write, a 401 with another token, an artifact download
// through its redirect, a ledger commit and a device-code request — then
// searches the client's log, the sandbox's request log, every error, the
// HTTP cache folder and the sandbox's state folder for the tokens in
// plain, base64 and hex form, and finds nothing.
func TestTokenNeverLeaks(t *testing.T) {
	t.Parallel()
	stateDir := t.TempDir()
	env := startSandbox(t, envConfig{token: leakToken, sandbox: sandbox.Options{
		StateDir: stateDir, Scale: 120,
		ExtraTokens: map[string]string{leakToken: "founder"},
		FaultPlan:   planOnce("POST", "/repos/acme/benefits/issues/2/comments", sandbox.FaultDrop),
	}})
	ctx := context.Background()
	gh := env.client
	var errs []error
	keep := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}

	me, _, err := gh.Users.Get(ctx, "")
	if err != nil || me.GetLogin() != "founder" {
		t.Fatalf("the sandbox did not take the test token as the founder: %v", err)
	}
	list := func(o *github.ListOptions) ([]*github.Issue, *github.Response, error) {
		return gh.Issues.ListByRepo(ctx, owner, repo, &github.IssueListByRepoOptions{State: "all", ListOptions: *o})
	}
	for range 2 { // the second read is all 304s
		if _, err := ghx.ListAll(ctx, list); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := gh.Issues.CreateComment(ctx, owner, repo, 1, &github.IssueComment{Body: github.String("noted")}); err != nil {
		t.Fatal(err)
	}
	_, _, err = gh.Issues.AddLabelsToIssue(ctx, owner, repo, 9999, []string{"x"})
	if !ghx.IsNotFound(err) {
		t.Errorf("labels on a missing issue: %v", err)
	}
	keep(err)
	_, _, err = gh.Issues.CreateComment(ctx, owner, repo, 2, &github.IssueComment{Body: github.String("dropped")})
	if err == nil {
		t.Errorf("the dropped write reported success")
	}
	keep(err)
	_, err = ghx.CommitFiles(ctx, gh, owner, repo, "ledger", map[string][]byte{"autonomy/samples.jsonl": []byte("{}\n")}, "ledger: sample", ghx.CommitOptions{})
	keep(err)
	var zip bytes.Buffer
	_, err = ghx.DownloadArtifact(ctx, gh, owner, repo, artifactOf(t, env, sandbox.RunQualifying), &zip, 64<<20)
	if err != nil || zip.Len() == 0 {
		t.Errorf("artifact download: %v", err)
	}
	keep(err)
	_, err = ghx.DownloadArtifact(ctx, gh, owner, repo, artifactOf(t, env, sandbox.RunExpired), &zip, 64<<20)
	keep(err)
	code, err := device.RequestCode(gh.Client(), env.base+"/login/device/code", sandbox.OwnClientID, nil)
	if err != nil || code.UserCode == "" {
		t.Errorf("device code: %v", err)
	}
	// The bot identity's paths: a seal to a bad key, a broker
	// dispatched at a workflow that is not there, and Resolver.Bot passing
	// both on.
	keep(ghx.SealBrokerToken(ctx, gh, ghx.NewToken(leakToken, "test"), "age1qqq", "0123456789abcdef0123456789abcdef", &bytes.Buffer{}))
	resolver := ghx.Resolver{Getenv: func(string) string { return "" },
		Identity: ghx.IdentityConfig{AppSlug: "agent-bot", Broker: "missing-broker.yml"},
		Human:    func(context.Context) (ghx.Token, error) { return ghx.NewToken(leakToken, "test"), nil },
		Broker: func(ctx context.Context, human ghx.Token) (ghx.Token, error) {
			return ghx.Broker{Client: gh, Owner: owner, Repo: repo, Workflow: "missing-broker.yml", Timeout: 5 * time.Second}.Mint(ctx)
		}}
	if _, _, err := resolver.Bot(ctx); err == nil {
		t.Error("a broker with no workflow gave a token")
	} else {
		keep(err)
	}
	botEnv := ghx.Resolver{Getenv: func(k string) string { return map[string]string{ghx.BotTokenVariable: leakToken}[k] }}
	botTok, choice, _ := botEnv.Bot(ctx)
	texts0 := fmt.Sprintf("%v %+v %#v %s", botTok, choice, choice, botTok)

	bad := env.newClient(t, leakBadToken, nil)
	_, _, err = bad.Issues.Get(ctx, owner, repo, 1)
	if status, ok := statusOf(err); !ok || status != 401 {
		t.Errorf("the unknown token: %v, want 401", err)
	}
	keep(err)

	texts := map[string]string{"client log": env.logs.String(), "sandbox log": env.served.all(), "bot choice": texts0}
	for i, e := range errs {
		texts[fmt.Sprintf("error %d", i)] = fmt.Sprintf("%v | %+v | %#v | %s", e, e, e, ghx.Describe(e))
	}
	if len(errs) < 4 || !strings.Contains(env.logs.String(), "github request") {
		t.Fatalf("the workload did not run: %d errors, log %d bytes", len(errs), len(env.logs.String()))
	}
	if err := env.srv.Close(); err != nil { // flush the state to disk
		t.Fatal(err)
	}
	if leaks := findLeaks(t, texts, []string{env.cache, stateDir}, leakToken, leakBadToken); len(leaks) > 0 {
		t.Errorf("a token was found in: %s", strings.Join(leaks, "; "))
	}

	// The search itself must be able to fail.
	planted := t.TempDir()
	_ = os.WriteFile(filepath.Join(planted, "x"), []byte("Authorization: Basic "+base64.StdEncoding.EncodeToString([]byte(leakToken))), 0o600)
	places := map[string]bool{}
	for _, leak := range findLeaks(t, map[string]string{"text": "Bearer " + leakBadToken}, []string{planted}, leakToken, leakBadToken) {
		places[strings.Fields(leak)[0]] = true
	}
	if len(places) != 2 {
		t.Errorf("the search found planted tokens in %v, want the text and the file", places)
	}
}

func artifactOf(t *testing.T, env *sandboxEnv, situation string) int64 {
	t.Helper()
	arts, _, err := env.client.Actions.ListWorkflowRunArtifacts(context.Background(), owner, repo, env.srv.RunID(situation), nil)
	if err != nil || len(arts.Artifacts) == 0 {
		t.Fatalf("artifacts of %s: %v", situation, err)
	}
	return arts.Artifacts[0].GetID()
}

func statusOf(err error) (int, bool) {
	var resp *github.ErrorResponse
	if !errors.As(err, &resp) || resp.Response == nil {
		return 0, false
	}
	return resp.Response.StatusCode, true
}
