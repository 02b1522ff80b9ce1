package cli

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// countingSandbox is the sandbox GitHub on 127.0.0.1 with a log of every
// request it answered, so a test can say "nothing was sent".
type countingSandbox struct {
	srv  *sandbox.Server
	url  string
	mu   sync.Mutex
	reqs []string
}

func startCountingSandbox(t *testing.T) *countingSandbox {
	t.Helper()
	c := &countingSandbox{}
	srv, err := sandbox.New(sandbox.Options{Logf: func(format string, args ...any) {
		c.mu.Lock()
		c.reqs = append(c.reqs, fmt.Sprintf(format, args...))
		c.mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	url, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	c.srv, c.url = srv, url
	return c
}

func (c *countingSandbox) requests() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.reqs...)
}

func (c *countingSandbox) writes() []string {
	var out []string
	for _, r := range c.requests() {
		if !strings.HasPrefix(r, "GET ") && !strings.HasPrefix(r, "HEAD ") {
			out = append(out, r)
		}
	}
	return out
}

// runAayuEnv runs aayu in-process with exactly vars as its environment.
func runAayuEnv(t *testing.T, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	if vars["HOME"] == "" {
		vars["HOME"] = t.TempDir()
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), args, env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv: func(k string) string { return vars[k] },
	})
	return code, out.String(), errb.String()
}

// actionsRun is the environment of a merge-gate step in a GitHub Actions run.
func actionsRun(runID int64, token string) map[string]string {
	return map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_RUN_ID": strconv.FormatInt(runID, 10),
		"GITHUB_REPOSITORY": "acme/benefits", "GITHUB_SERVER_URL": "https://github.com", "GITHUB_TOKEN": token}
}

func TestCommentCIRefusesAgentLanesAndPersonsTokensBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	sb := startCountingSandbox(t)
	runID := sb.srv.RunID(sandbox.RunQualifying)
	with := func(base map[string]string, kv ...string) map[string]string {
		out := map[string]string{}
		for k, v := range base {
			out[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	inActions := actionsRun(runID, "sandbox-agent-bot")
	cases := []struct {
		name  string
		vars  map[string]string
		extra []string
		say   string
	}{
		{"agent lane with a person's token", map[string]string{"AAYU_AGENT": "1", "AAYU_GITHUB_TOKEN": "sandbox-founder"}, nil, "refuses an agent lane (AAYU_AGENT is set)"},
		{"agent lane inside Actions", with(inActions, "AAYU_AGENT", "1"), nil, "refuses an agent lane"},
		{"host agent marker", with(inActions, "CLAUDECODE", "1"), nil, "refuses an agent lane (CLAUDECODE is set)"},
		{"agent lane previewing", map[string]string{"AAYU_AGENT": "1", "AAYU_GITHUB_TOKEN": "sandbox-founder"}, []string{"--dry-run"}, "refuses an agent lane"},
		{"person's token in Actions", with(inActions, "AAYU_GITHUB_TOKEN", "sandbox-founder"), nil, "refuses a person's token (AAYU_GITHUB_TOKEN is set)"},
		{"outside Actions", map[string]string{"GITHUB_TOKEN": "sandbox-agent-bot"}, nil, "only inside a GitHub Actions run"},
		{"no run id", with(inActions, "GITHUB_RUN_ID", ""), nil, "GITHUB_RUN_ID does not name one"},
		{"no workflow token", with(inActions, "GITHUB_TOKEN", ""), nil, "needs the workflow's own token in GITHUB_TOKEN"},
		{"personal access token as GITHUB_TOKEN", with(inActions, "GITHUB_TOKEN", "ghp_0123456789abcdef0123456789abcdef0123"), nil, "holds a person's token (it starts ghp_)"},
		{"another repository", with(inActions, "GITHUB_REPOSITORY", "acme/other"), nil, "belongs to acme/other"},
		{"a folder standing in for the run's pack", inActions, []string{"--dir", "../testdata/demo/pack"}, "refuses --dir outside --dry-run"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := len(sb.requests())
			args := append([]string{"--api-url", sb.url + "/", "--oauth-url", sb.url, "--repo", "acme/benefits", "comment", "4", "--ci"}, c.extra...)
			code, out, errOut := runAayuEnv(t, c.vars, args...)
			if code != tui.ExitRefused {
				t.Fatalf("exit %d, want %d (refused):\n%s%s", code, tui.ExitRefused, out, errOut)
			}
			if !strings.Contains(errOut, c.say) || !strings.Contains(errOut, "Nothing was sent to GitHub.") {
				t.Fatalf("the refusal does not say %q and that nothing was sent:\n%s", c.say, errOut)
			}
			if sent := sb.requests()[before:]; len(sent) != 0 {
				t.Fatalf("a refused comment --ci still sent %d requests: %v", len(sent), sent)
			}
			for _, tok := range []string{"sandbox-founder", "ghp_0123456789abcdef"} {
				if strings.Contains(out+errOut, tok) {
					t.Fatalf("the refusal shows a token value:\n%s", errOut)
				}
			}
		})
	}
}

// gatePerms are the comment job's permissions in the merge gate.
var gatePerms = map[string]string{"actions": "read", "contents": "read", "pull-requests": "write", "statuses": "write"}

func TestCommentCIPostsWithTheWorkflowTokenInsideActions(t *testing.T) {
	t.Parallel()
	sb := startCountingSandbox(t)
	runID := sb.srv.RunID(sandbox.RunInProgress)
	tok, endJob := sb.srv.WorkflowToken(runID, gatePerms)
	defer endJob()
	vars := actionsRun(runID, tok)
	code, out, errOut := runAayuEnv(t, vars, "--api-url", sb.url+"/", "--oauth-url", sb.url, "--repo", "acme/benefits", "comment", "4", "--ci")
	// No pack folder was built in this "run", so the gate refuses, and
	// says so in its one comment.
	if code != tui.ExitRefused || !strings.Contains(out, "No pack folder was found") {
		t.Fatalf("exit %d, want 4 with the missing pack named:\n%s%s", code, out, errOut)
	}
	posted := 0
	for _, w := range sb.writes() {
		if strings.HasPrefix(w, "POST /repos/acme/benefits/issues/4/comments ") {
			posted++
		}
	}
	if posted != 1 {
		t.Fatalf("want exactly one comment posted, the writes were %v", sb.writes())
	}
	// The gate's verdict is also the commit status a ruleset requires, on
	// the pull request's head, set by the workflow's bot.
	gh := github.NewClient(nil).WithAuthToken("sandbox-reader")
	gh.BaseURL, _ = url.Parse(sb.url + "/")
	statuses, _, err := gh.Repositories.ListStatuses(context.Background(), "acme", "benefits", sb.srv.HeadSHA(sandbox.DemoPRReady), nil)
	if err != nil || len(statuses) == 0 {
		t.Fatalf("no status on the head: %v", err)
	}
	st := statuses[0]
	if st.GetContext() != "aayudha/merge-gate" || st.GetState() != "failure" || st.GetCreator().GetLogin() != sandbox.ActionsBotLogin ||
		!strings.Contains(st.GetTargetURL(), fmt.Sprint(runID)) {
		t.Errorf("the head's newest status: %s %s by %s at %s", st.GetContext(), st.GetState(), st.GetCreator().GetLogin(), st.GetTargetURL())
	}
}

// TestCommentCIRefusesATokenThatIsNotThisRunsActionsToken: GitHub is asked
// whether GITHUB_TOKEN is this run's live Actions token — a bot account's
// token, a token whose job ended, another run's token and a run that is
// over are refused with the reason, and nothing is written.
func TestCommentCIRefusesATokenThatIsNotThisRunsActionsToken(t *testing.T) {
	t.Parallel()
	sb := startCountingSandbox(t)
	live := sb.srv.RunID(sandbox.RunInProgress)
	tok, endJob := sb.srv.WorkflowToken(live, gatePerms)
	defer endJob()
	ended, endOld := sb.srv.WorkflowToken(live, gatePerms)
	endOld()
	cases := []struct {
		name  string
		run   int64
		token string
		say   string
	}{
		{"an agent bot's token", live, "sandbox-agent-bot", "acts as @agent-bot[bot], an account, not this run's Actions token"},
		{"a token whose job ended", live, ended, "GitHub does not accept it (401)"},
		{"a run that is over", sb.srv.RunID(sandbox.RunQualifying), tok, "is completed, not in progress"},
		{"a run that does not exist", 999, tok, "shows no run 999 in acme/benefits (404)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runAayuEnv(t, actionsRun(c.run, c.token), "--api-url", sb.url+"/", "--oauth-url", sb.url, "--repo", "acme/benefits", "comment", "4", "--ci")
			if code != tui.ExitRefused || !strings.Contains(errOut, c.say) || !strings.Contains(errOut, "Nothing was written.") {
				t.Fatalf("exit %d, want 4 saying %q:\n%s%s", code, c.say, out, errOut)
			}
			if w := sb.writes(); len(w) != 0 {
				t.Fatalf("a refused token wrote: %v", w)
			}
			if strings.Contains(out+errOut, tok) || strings.Contains(out+errOut, ended) {
				t.Fatalf("the refusal shows a token value:\n%s", errOut)
			}
		})
	}
}

func TestCommentDryRunWithDirPostsNothing(t *testing.T) {
	t.Parallel()
	sb := startCountingSandbox(t)
	code, out, errOut := runAayuEnv(t, map[string]string{"AAYU_GITHUB_TOKEN": "sandbox-founder"},
		"--api-url", sb.url+"/", "--oauth-url", sb.url, "--repo", "acme/benefits", "comment", "4", "--ci", "--dry-run", "--dir", "../testdata/demo/pack")
	if code == tui.ExitFailed || code == tui.ExitUsage || !strings.Contains(out, "aayudha/pack") {
		t.Fatalf("the preview exited %d:\n%s%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "nothing was posted") {
		t.Fatalf("the preview does not say it posted nothing:\n%s", errOut)
	}
	if w := sb.writes(); len(w) != 0 {
		t.Fatalf("a --dry-run preview wrote to GitHub: %v", w)
	}
}

// TestCommentCIRefusesAPersonsAccountBehindGITHUB_TOKEN: a person's token
// without a telltale prefix (an old classic token) put in GITHUB_TOKEN is
// found out by the account it reads as, before anything is written.
func TestCommentCIRefusesAPersonsAccountBehindGITHUB_TOKEN(t *testing.T) {
	t.Parallel()
	sb := startCountingSandbox(t)
	vars := actionsRun(sb.srv.RunID(sandbox.RunQualifying), "sandbox-founder")
	code, out, errOut := runAayuEnv(t, vars, "--api-url", sb.url+"/", "--oauth-url", sb.url, "--repo", "acme/benefits", "comment", "4", "--ci")
	if code != tui.ExitRefused || !strings.Contains(errOut, "acts as @founder, a person's account") || !strings.Contains(errOut, "Nothing was written") {
		t.Fatalf("exit %d, want 4 naming the person's account:\n%s%s", code, out, errOut)
	}
	if w := sb.writes(); len(w) != 0 {
		t.Fatalf("a person's token wrote the gate's comment: %v", w)
	}
}
