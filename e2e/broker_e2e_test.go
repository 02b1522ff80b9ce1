package e2e

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// brokerSandbox starts a sandbox with the bot App installed, its broker
// workflow on main, and the runner running the real aayu binary.
func brokerSandbox(t *testing.T, life time.Duration) (*sandbox.Server, string, string, *lockedBuffer) {
	t.Helper()
	dir := t.TempDir()
	srv, base, logs := runnerSandbox(t, sandbox.Options{StateDir: filepath.Join(dir, "state"), BotApp: true, InstallationTokenLife: life})
	return srv, base, dir, logs
}

// founderClient is the person's client: the broker is dispatched with it.
func founderClient(t *testing.T, base string) *github.Client {
	t.Helper()
	gh, err := ghx.NewClient(ghx.ClientOptions{APIURL: base + "/", Token: ghx.NewToken("sandbox-founder", "test"), CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return gh
}

// brokerArtifacts lists every aayudha-token-* artifact left on the
// dispatched runs, and the runs' actors.
func brokerArtifacts(t *testing.T, gh *github.Client) (left []string, actors []string) {
	t.Helper()
	ctx := context.Background()
	runs, _, err := gh.Actions.ListRepositoryWorkflowRuns(ctx, sandbox.RepoOwner, sandbox.RepoName, &github.ListWorkflowRunsOptions{Event: "workflow_dispatch"})
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range runs.WorkflowRuns {
		if run.GetPath() != ".github/workflows/"+ghx.BrokerWorkflow {
			t.Errorf("a dispatched run of %s, not the broker", run.GetPath())
		}
		actors = append(actors, run.GetActor().GetLogin())
		arts, _, err := gh.Actions.ListWorkflowRunArtifacts(ctx, sandbox.RepoOwner, sandbox.RepoName, run.GetID(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range arts.Artifacts {
			if strings.HasPrefix(a.GetName(), ghx.BrokerArtifactPrefix) {
				left = append(left, a.GetName())
			}
		}
	}
	return left, actors
}

// TestBrokerRoundTrip is the seed's broker end to end on the sandbox: aayu
// makes a real age key pair, dispatches aayudha-token.yml with the
// founder's token, the runner runs the workflow (the App's JWT, an
// installation token, the real aayu token seal), and the client downloads
// the artifact, deletes it, and decrypts a token that writes as the bot.
// A token that is expired, or that outlives one hour, is refused, and its
// artifact is deleted all the same. The token is in no log or state file.
func TestBrokerRoundTrip(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds aayu and runs the broker's workflow")
	}
	srv, base, dir, logs := brokerSandbox(t, 0)
	gh := founderClient(t, base)
	ctx := context.Background()
	broker := ghx.Broker{Client: gh, Owner: sandbox.RepoOwner, Repo: sandbox.RepoName, Poll: 100 * time.Millisecond, Timeout: 90 * time.Second}

	tok, err := broker.Mint(ctx)
	if err != nil {
		t.Fatalf("Mint: %v\nlog:\n%s", err, logs.String())
	}
	if !strings.HasPrefix(tok.Reveal(), "ghs_") || tok.Source() != ghx.SourceBroker {
		t.Fatalf("Mint gave %v, not an installation token from the broker", tok)
	}
	left, actors := brokerArtifacts(t, gh)
	if len(left) != 0 {
		t.Errorf("the broker's artifact is still there after the download: %v", left)
	}
	if len(actors) != 1 || actors[0] != "founder" {
		t.Errorf("dispatched runs by %v, want one by the founder (the person's own token)", actors)
	}
	bot, err := ghx.NewClient(ghx.ClientOptions{APIURL: base + "/", Token: tok, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := bot.Issues.CreateComment(ctx, sandbox.RepoOwner, sandbox.RepoName, 1, &github.IssueComment{Body: github.String("written with the broker's token")})
	if err != nil {
		t.Fatalf("writing with the broker's token: %v", err)
	}
	if c.GetUser().GetLogin() != sandbox.BotLogin {
		t.Errorf("the broker's token writes as %s, want the bot %s", c.GetUser().GetLogin(), sandbox.BotLogin)
	}

	t.Run("an expired token is refused", func(t *testing.T) {
		late := broker
		late.Now = func() time.Time { return time.Now().Add(2 * time.Hour) }
		if tok, err := late.Mint(ctx); !errors.Is(err, ghx.ErrBrokerTokenExpired) || !tok.IsZero() {
			t.Errorf("Mint = %v, %v; want ErrBrokerTokenExpired and no token", tok, err)
		}
		if left, _ := brokerArtifacts(t, gh); len(left) != 0 {
			t.Errorf("a refused token's artifact stays: %v", left)
		}
	})

	t.Run("a token that outlives one hour is refused", func(t *testing.T) {
		_, base2, _, logs2 := brokerSandbox(t, 2*time.Hour)
		gh2 := founderClient(t, base2)
		long := ghx.Broker{Client: gh2, Owner: sandbox.RepoOwner, Repo: sandbox.RepoName, Poll: 100 * time.Millisecond, Timeout: 90 * time.Second}
		tok, err := long.Mint(ctx)
		if !errors.Is(err, ghx.ErrBrokerTokenTooLong) || !tok.IsZero() {
			t.Errorf("Mint = %v, %v; want ErrBrokerTokenTooLong and no token\nlog:\n%s", tok, err, logs2.String())
		}
		if left, _ := brokerArtifacts(t, gh2); len(left) != 0 {
			t.Errorf("a refused token's artifact stays: %v", left)
		}
	})

	// The token is nowhere: not in the sandbox's log (the runner's step
	// output included), not in its state folder, not in an error.
	if strings.Contains(logs.String(), tok.Reveal()) {
		t.Error("the broker's token is in the sandbox's log")
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, rerr := os.ReadFile(p); rerr == nil && strings.Contains(string(b), tok.Reveal()) {
				t.Errorf("the broker's token is in %s", p)
			}
		}
		return nil
	})
	if n := srv.InstallationTokensMinted(); n < 2 {
		t.Errorf("%d installation tokens minted; each Mint should mint one", n)
	}
}
