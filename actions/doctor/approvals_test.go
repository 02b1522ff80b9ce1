package doctor

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
)

// Token values the tests plant; none may appear in any row.
const (
	founderPAT = "ghp_F0underF0underF0underF0under01"
	botPAT     = "ghs_B0tB0tB0tB0tB0tB0tB0tB0tB0t02"
	legacyHex  = "0123456789abcdef0123456789abcdef01234567"
	wtwPAT     = "ghp_WtwWtwWtwWtwWtwWtwWtwWtwWtw03"
	slowPAT    = "ghp_S1owS1owS1owS1owS1owS1owS1ow04"
	revokedPAT = "ghp_Rev0kedRev0kedRev0kedRev0ke05"
	ghFilePAT  = "gho_GhF1leGhF1leGhF1leGhF1leGh06"
	gitSecret  = "ghp_G1tHelperG1tHelperG1tHelper07"
	appToken   = "v1.0123456789abcdef0123456789abcdef0123456789"
)

var allSecrets = []string{founderPAT, botPAT, appToken, legacyHex, wtwPAT, slowPAT, revokedPAT, ghFilePAT, gitSecret}

// whoAmI is GitHub's GET /user for the planted tokens: a timeout for one,
// a 401 for another.
func whoAmI(asked *[]string) func(context.Context, ghx.Token) (string, error) {
	return func(_ context.Context, tok ghx.Token) (string, error) {
		*asked = append(*asked, tok.Reveal())
		switch tok.Reveal() {
		case founderPAT, legacyHex, ghFilePAT, gitSecret:
			return "founder", nil
		case botPAT:
			return "", errors.New("an installation token is never asked about: its ghs_ prefix says whose kind it is")
		case appToken:
			return "", &github.ErrorResponse{Response: &http.Response{StatusCode: 403, Request: &http.Request{}}, Message: "Resource not accessible by integration"}
		case slowPAT:
			return "", context.DeadlineExceeded
		case revokedPAT:
			return "", &github.ErrorResponse{Response: &http.Response{StatusCode: 401, Request: &http.Request{}}, Message: "Bad credentials"}
		}
		return "", errors.New("unexpected token")
	}
}

func sources(cs []Credential) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%s | %s\n", c.Source, describe(c))
	}
	return b.String()
}

// TestFindCredentialsListsEverySourceByAccountNeverByValue: the token-shaped
// variables (not WTW_*/GH_WTW_*; a 40-hex token only in a variable named
// for GitHub), every account of gh's hosts.yml in GH_CONFIG_DIR and in the
// default profile, the git credential helper and aayu's own token, each by
// source and account; one question to GitHub per token.
func TestFindCredentialsListsEverySourceByAccountNeverByValue(t *testing.T) {
	t.Parallel()
	home, ghDir := t.TempDir(), t.TempDir()
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// GH_CONFIG_DIR's profile: a bot account, its token in the file.
	write(filepath.Join(ghDir, "hosts.yml"), "github.com:\n    users:\n        agent-bot:\n            oauth_token: "+ghFilePAT+"\n    user: agent-bot\n")
	// The default profile: the founder (token in gh's keyring) and an
	// account on another host.
	write(filepath.Join(home, ".config", "gh", "hosts.yml"), "github.com:\n    users:\n        founder:\n    user: founder\nghe.example.com:\n    user: founder\n")
	var asked []string
	creds := FindCredentials(context.Background(), Reach{
		Environ: []string{
			"GH_TOKEN=" + founderPAT, "MY_BOT=" + botPAT, "AAYU_BOT_TOKEN=" + appToken, "GITHUB_LEGACY=" + legacyHex, "SOME_SHA=" + legacyHex,
			"WTW_TOKEN=" + wtwPAT, "GH_WTW_TOKEN=" + wtwPAT, "SLOW=" + slowPAT, "OLD=" + revokedPAT,
			"GH_CONFIG_DIR=" + ghDir, "PATH=/usr/bin",
		},
		Home: home, Host: "github.com", Scheme: "https",
		GitCredential: func(context.Context, string, string) GitAnswer {
			return GitAnswer{Configured: true, Helper: "store", Secret: gitSecret}
		},
		Own:    ghx.NewToken(founderPAT, ghx.SourceAayuEnv),
		WhoAmI: whoAmI(&asked),
	})
	got := sources(creds)
	for _, want := range []string{
		"environment variable GH_TOKEN: @founder",
		"environment variable MY_BOT: a GitHub App's installation token",
		"environment variable AAYU_BOT_TOKEN: a GitHub App's installation token",
		"environment variable GITHUB_LEGACY: @founder",
		"environment variable SLOW: whose is not known (GitHub could not say whose it is just now",
		"environment variable OLD: GitHub refuses it",
		"gh (" + filepath.Join(ghDir, "hosts.yml") + ") github.com, account agent-bot: @founder",
		"gh (" + filepath.Join(home, ".config", "gh", "hosts.yml") + ") github.com, account founder: @founder",
		"ghe.example.com, account founder: @founder on ghe.example.com",
		"git credential helper (store): @founder",
		"the token aayu uses (AAYU_GITHUB_TOKEN): @founder",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the list lacks %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"WTW", "SOME_SHA"} {
		if strings.Contains(got, not) {
			t.Errorf("the list counts %s:\n%s", not, got)
		}
	}
	for _, s := range allSecrets {
		if strings.Contains(got, s) {
			t.Errorf("a token's value is in the list:\n%s", got)
		}
	}
	// founderPAT is in GH_TOKEN and is aayu's own: GitHub is asked once.
	n := 0
	for _, a := range asked {
		if a == founderPAT {
			n++
		}
	}
	if n != 1 {
		t.Errorf("GitHub was asked %d times about one token, want once", n)
	}
}

// TestApprovalsRowFailsWhenACredentialBelongsToAnApprover: an approver's
// token within reach fails the row, naming the source and the account.
func TestApprovalsRowFailsWhenACredentialBelongsToAnApprover(t *testing.T) {
	t.Parallel()
	row := ApprovalsRow([]Credential{{Source: "environment variable GH_TOKEN", Account: "Founder"}, {Source: "environment variable AAYU_BOT_TOKEN", Account: "agent-bot[bot]"}},
		[]string{"founder"}, []string{"one-way"}, "founder")
	if row.State != Fail || !strings.Contains(row.Detail, "environment variable GH_TOKEN: @Founder (an approver)") || row.Next == "" {
		t.Errorf("row %+v, want a failure naming GH_TOKEN as an approver's", row)
	}
}

// TestApprovalsRowFailsWhenGitHubCannotSayWhoseATokenIs: a timeout or a rate
// limit counts as exposed, and so does a helper that does not answer.
func TestApprovalsRowFailsWhenGitHubCannotSayWhoseATokenIs(t *testing.T) {
	t.Parallel()
	for _, c := range []Credential{
		{Source: "environment variable SLOW", Unknown: "GitHub could not say whose it is just now: a rate limit"},
		{Source: "git credential helper (osxkeychain)", Unknown: "it is configured but did not answer"},
	} {
		row := ApprovalsRow([]Credential{c, {Source: "environment variable AAYU_BOT_TOKEN", Account: "agent-bot[bot]"}}, []string{"founder"}, nil, "")
		if row.State != Fail {
			t.Errorf("%s: row %+v, want a failure", c.Source, row)
		}
	}
}

// TestApprovalsRowPassesWithOnlyTheBotsToken: the seed's step 4 done; a
// revoked token, nothing in git's helper and an account on another host
// expose no approver.
func TestApprovalsRowPassesWithOnlyTheBotsToken(t *testing.T) {
	t.Parallel()
	row := ApprovalsRow([]Credential{
		{Source: "environment variable AAYU_BOT_TOKEN", Account: "agent-bot[bot]"},
		{Source: "environment variable OLD", Refused: true},
		{Source: "git credential helper (store)", None: true},
		{Source: "gh (hosts.yml) ghe.example.com, account founder", Account: "founder", Elsewhere: "ghe.example.com"},
	}, []string{"founder"}, []string{"one-way"}, "agent-bot[bot]")
	if row.State != OK {
		t.Errorf("row %+v, want ok", row)
	}
}

// TestApprovalsRowWarnsWithNoApproversRecorded: no reply approves anything,
// so the row warns, judging by the person running doctor; device_for =
// ["all"] turns replies off and passes.
func TestApprovalsRowWarnsWithNoApproversRecorded(t *testing.T) {
	t.Parallel()
	creds := []Credential{{Source: "the token aayu uses (gh auth token)", Account: "founder"}}
	if row := ApprovalsRow(creds, nil, []string{"one-way"}, "founder"); row.State != Warn || !strings.Contains(row.Detail, "@founder (you)") {
		t.Errorf("no approvers: %+v, want a warning naming your own token", row)
	}
	if row := ApprovalsRow(creds, []string{"founder"}, []string{"all"}, "founder"); row.State != OK {
		t.Errorf(`device_for = ["all"]: %+v, want ok`, row)
	}
}

// TestGitCredentialHelperThatDoesNotAnswerCountsAsExposed runs the real git
// with a helper that fails, one that answers and none at all.
func TestGitCredentialHelperThatDoesNotAnswerCountsAsExposed(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	env := func(helper string) []string {
		cfg := filepath.Join(t.TempDir(), "gitconfig")
		text := ""
		if helper != "" {
			text = "[credential]\n\thelper = " + helper + "\n"
		}
		if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "GIT_CONFIG_GLOBAL=" + cfg, "GIT_CONFIG_NOSYSTEM=1"}
	}
	ctx := context.Background()
	if a := GitCredentialFill(env(""))(ctx, "https", "github.com"); a.Configured {
		t.Errorf("no helper: %+v, want not configured", a)
	}
	a := GitCredentialFill(env(`"!f() { echo username=x; echo password=`+gitSecret+`; }; f"`))(ctx, "https", "github.com")
	if !a.Configured || a.Secret != gitSecret || a.Err != nil {
		t.Errorf("answering helper: configured %v, secret found %v, err %v", a.Configured, a.Secret == gitSecret, a.Err)
	}
	// A helper with nothing for the host: git says it could not ask.
	a = GitCredentialFill(env(`"!f() { exit 0; }; f"`))(ctx, "https", "github.com")
	if !a.Configured || a.Secret != "" || a.Err != nil {
		t.Errorf("empty helper: %+v, want configured with nothing stored", a)
	}
	// A helper that hangs (a locked keychain's prompt) did not answer.
	short, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	a = GitCredentialFill(env(`"!f() { sleep 30; }; f"`))(short, "https", "github.com")
	if !a.Configured || a.Err == nil {
		t.Errorf("hanging helper: %+v, want configured and not answering", a)
	}
	c, _ := gitCredential(ctx, Reach{GitCredential: func(context.Context, string, string) GitAnswer { return a }}, nil)
	if row := ApprovalsRow([]Credential{c}, []string{"founder"}, nil, ""); row.State != Fail {
		t.Errorf("a helper that did not answer: %+v, want the row to fail", row)
	}
}

// TestFindCredentialsKeepsEachTokensScopes: with WhoAmIScopes, each token
// found carries the scopes GitHub named when asked whose it is, so doctor
// can warn of the workflow scope on any of them.
func TestFindCredentialsKeepsEachTokensScopes(t *testing.T) {
	t.Parallel()
	creds := FindCredentials(context.Background(), Reach{
		Environ: []string{"GH_TOKEN=" + founderPAT, "MY_BOT=" + botPAT, "PATH=/usr/bin"},
		WhoAmIScopes: func(_ context.Context, tok ghx.Token) (string, []string, error) {
			if tok.Reveal() == founderPAT {
				return "founder", []string{"repo", "workflow"}, nil
			}
			return "agent-bot", []string{"repo"}, nil
		},
	})
	// MY_BOT holds an App's token: GitHub is not asked, and it has no scopes.
	if len(creds) != 2 || strings.Join(creds[0].Scopes, ",") != "repo,workflow" || !creds[1].App || len(creds[1].Scopes) != 0 {
		t.Fatalf("credentials: %+v", creds)
	}
	if r := WorkflowScopeRow(creds); r.State != Warn || !strings.Contains(r.Detail, "GH_TOKEN (founder)") || strings.Contains(r.Detail, "MY_BOT") {
		t.Errorf("the row: %+v", r)
	}
}
