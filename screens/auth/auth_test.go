package auth

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/tui"
)

const secret = "ghp_s3cr3tTOKENvalue0123456789abcdefABCD"

func fakeGitHub(t *testing.T, scopes string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+secret && r.Header.Get("Authorization") != "token "+secret {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest","status":"401"}`))
			return
		}
		if scopes != "-" {
			w.Header().Set("X-OAuth-Scopes", scopes)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"login":"founder","id":1,"name":"The Founder"}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func deps(t *testing.T, srv *httptest.Server, resolveErr error) Deps {
	return Deps{
		APIURL: srv.URL + "/",
		Bot:    ghx.Resolver{}.Choice(),
		Resolve: func(ctx context.Context) (ghx.Token, []ghx.SourceStatus, error) {
			if resolveErr != nil {
				return ghx.Token{}, []ghx.SourceStatus{{Source: ghx.SourceAayuEnv, State: ghx.StateNotSet}}, resolveErr
			}
			return ghx.NewToken(secret, ghx.SourceAayuEnv), []ghx.SourceStatus{
				{Source: ghx.SourceAayuEnv, State: ghx.StateUsed},
				{Source: ghx.SourceGitHubEnv, State: ghx.StateSkipped, Detail: "only with --ci"},
			}, nil
		},
		Client: func(tok ghx.Token) (*github.Client, error) {
			return ghx.NewClient(ghx.ClientOptions{APIURL: srv.URL + "/", Token: tok, CacheDir: t.TempDir()})
		},
	}
}

func runPlain(t *testing.T, d Deps) (int, string) {
	var out bytes.Buffer
	code, err := tui.Run(context.Background(), New(context.Background(), tui.Common{Plain: true}, d), tui.RunOptions{Plain: true, Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	return code, out.String()
}

func TestAuthShowsSourcesAccountAndScopeWarnings(t *testing.T) {
	srv := fakeGitHub(t, "repo, workflow, delete_repo")
	code, out := runPlain(t, deps(t, srv, nil))
	if code != tui.ExitOK {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{
		"token source AAYU_GITHUB_TOKEN: used",
		"token source GITHUB_TOKEN: skipped (only with --ci)",
		"account: @founder (The Founder)",
		"scopes: delete_repo, repo, workflow",
		"warning: workflow:",
		"warning: delete_repo:",
		"bot identity: human-fallback — solo mode",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, secret) {
		t.Fatal("aayu auth printed the token's value")
	}
}

func TestAuthFineGrainedTokenHasNoScopesHeader(t *testing.T) {
	srv := fakeGitHub(t, "-")
	_, out := runPlain(t, deps(t, srv, nil))
	if !strings.Contains(out, "GitHub reported none") || strings.Contains(out, "warning:") {
		t.Fatalf("unexpected scopes report:\n%s", out)
	}
}

func TestAuthWithoutTokenSaysTheNextStep(t *testing.T) {
	srv := fakeGitHub(t, "repo")
	code, out := runPlain(t, deps(t, srv, errors.New("no GitHub token found")))
	if code != tui.ExitFailed {
		t.Fatalf("exit %d, want 1", code)
	}
	if !strings.Contains(out, "failed: no GitHub token found") || !strings.Contains(out, "Next: set AAYU_GITHUB_TOKEN") {
		t.Fatalf("no words or next step:\n%s", out)
	}
}

func TestAuthBadCredentialsInWords(t *testing.T) {
	srv := fakeGitHub(t, "repo")
	d := deps(t, srv, nil)
	d.Resolve = func(ctx context.Context) (ghx.Token, []ghx.SourceStatus, error) {
		return ghx.NewToken("ghp_wrongWRONGwrong000000000000000000000", ghx.SourceGh), nil, nil
	}
	code, out := runPlain(t, d)
	if code != tui.ExitFailed || !strings.Contains(out, "failed: ") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if strings.Contains(out, "ghp_wrong") {
		t.Fatal("the rejected token's value was printed")
	}
}

// TestAuthShowsTheBotTokensSourceNeverItsValue: with AAYU_BOT_TOKEN set,
// aayu auth says agents write with it and names the App, and the token's
// value appears nowhere.
func TestAuthShowsTheBotTokensSourceNeverItsValue(t *testing.T) {
	srv := fakeGitHub(t, "repo")
	d := deps(t, srv, nil)
	const botSecret = "ghs_botTOKENvalue0123456789abcdefABCDEF"
	d.Bot = ghx.Resolver{Getenv: func(k string) string {
		if k == ghx.BotTokenVariable {
			return botSecret
		}
		return ""
	}, Identity: ghx.IdentityConfig{AppSlug: "aayudha-acme", Broker: "aayudha-token.yml"}}.Choice()
	code, out := runPlain(t, d)
	if code != tui.ExitOK {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if want := "bot identity: app (@aayudha-acme[bot]), token from AAYU_BOT_TOKEN"; !strings.Contains(out, want) {
		t.Errorf("missing %q:\n%s", want, out)
	}
	if strings.Contains(out, botSecret) || strings.Contains(out, "botTOKENvalue") {
		t.Errorf("the bot token's value is in the output:\n%s", out)
	}
}
