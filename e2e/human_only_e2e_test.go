package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/tui"
)

// TestHumanOnlyStepsRefuseCI: a human-only step run where no person can
// be asked (--ci, a CI system's marker, an agent lane inside CI) is
// refused at once, exit 4, with the reason and no device code, and
// nothing lands. An agent lane outside CI makes a batch instead
// (TestAgentReadyIsABatchNotARefusal, batch_plan_e2e_test.go); --dry-run is
// allowed in aayu's own lane, shows what would be written and writes
// nothing.
//
//   - PlanRefusesCI: for the review and the bypass.
//   - ReadyRefusesAgentLane: CI, and an agent lane inside CI.
//   - DecideRefusesCI: --ci, or a CI system's marker, has no person to
//     accept a Decision.
func TestHumanOnlyStepsRefuseCI(t *testing.T) {
	t.Parallel()
	agentInCI := map[string]string{"AAYU_AGENT": "1", "GITHUB_ACTIONS": "true"}
	inCI := map[string]string{"GITHUB_ACTIONS": "true"}
	agent := map[string]string{"AAYU_AGENT": "1"}
	person := map[string]string{}
	type lane struct {
		vars map[string]string
		line string // after --sandbox --plain; N is the Story
	}
	for _, c := range []struct {
		name    string
		story   string // the body of the Story the step runs on; "" for the demo's Decision #1
		refused []lane
		say     []string // the refusal says these, on standard error when onStderr
		// onStderr: the refusal is read on standard error alone.
		onStderr bool
		dryRun   string   // this --dry-run line in aayu's own lane ends 0 and prints show
		show     []string // regular expressions
		// untouched fails when the refused or dry runs wrote anything.
		untouched func(t *testing.T, c *github.Client, n int)
	}{
		{
			name: "PlanRefusesCI", story: policyPlanBody,
			refused: []lane{{agentInCI, "plan N"}, {agent, "plan N --ci --solo-bypass"}, {person, "plan N --ci --solo-bypass"}, {inCI, "plan N"}},
			say:     []string{"human-only", "the person's act"},
			dryRun:  "--dry-run plan N",
			show:    []string{`--dry-run: nothing was written\.`, `L04 policy:`, `policy/dental\.go \(planned\)`},
			untouched: func(t *testing.T, c *github.Client, n int) {
				if _, err := ghx.ReadFile(context.Background(), c, "acme", "benefits", "ledger", pass.PlanRecordPath(n)); !ghx.IsNotFound(err) {
					t.Errorf("the agent lane wrote the record (%v)", err)
				}
				if comments, _, err := c.Issues.ListComments(context.Background(), "acme", "benefits", n, nil); err != nil || len(comments) != 0 {
					t.Errorf("the agent lane commented (%d, %v)", len(comments), err)
				}
			},
		},
		{
			name: "ReadyRefusesAgentLane", story: readyGoalBody,
			refused: []lane{{agentInCI, "ready N"}, {person, "ready N --ci"}, {inCI, "ready N"}},
			say:     []string{"human-only", "the person's act"},
			dryRun:  "--dry-run ready N",
			show:    []string{`--dry-run: nothing was written\.`, hashLine.String()},
			untouched: func(t *testing.T, c *github.Client, n int) {
				if ledgerSnapshot(t, c, "ledger", n) != nil || contains(labelsOf(t, c, n), "status:ready") {
					t.Errorf("the agent lane wrote something")
				}
			},
		},
		{
			name:     "DecideRefusesCI",
			refused:  []lane{{person, "--ci decide 1 --accept 1"}, {inCI, "decide 1 --accept 1"}},
			say:      []string{"refused: aayu decide 1 --accept 1 is a human-only step", "accepting a Decision is the person's act"},
			onStderr: true,
			untouched: func(t *testing.T, c *github.Client, n int) {
				if s := decidedState(t, c, 1); s != "open/" {
					t.Errorf("#1 is %s after a refusal", s)
				}
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			n := 1
			if c.story != "" {
				n = newStoryIssue(t, home, "Story: refused in CI", c.story, "type:story")
			}
			args := func(line string) []string {
				return append([]string{"--sandbox", "--plain"}, strings.Fields(strings.ReplaceAll(line, "N", itoa(n)))...)
			}
			with := func(vars map[string]string) map[string]string {
				out := map[string]string{"HOME": home}
				for k, v := range vars {
					out[k] = v
				}
				return out
			}
			for _, l := range c.refused {
				code, out, errOut := runAayuEnv(t, with(l.vars), args(l.line)...)
				all := out + errOut
				said := all
				if c.onStderr {
					said = errOut
				}
				if code != tui.ExitRefused || strings.Contains(all, "/login/device") {
					t.Errorf("%v aayu %s: exit %d, want 4 with no code:\n%s", l.vars, l.line, code, all)
				}
				for _, want := range c.say {
					if !strings.Contains(said, want) {
						t.Errorf("%v aayu %s: the refusal does not say %q:\n%s", l.vars, l.line, want, all)
					}
				}
			}
			if c.dryRun != "" {
				code, out, errOut := runAayuEnv(t, with(agent), args(c.dryRun)...)
				if code != tui.ExitOK {
					t.Errorf("%s in the agent lane: exit %d:\n%s%s", c.dryRun, code, out, errOut)
				}
				for _, re := range c.show {
					if !regexp.MustCompile(re).MatchString(out) {
						t.Errorf("%s in the agent lane does not show %s:\n%s%s", c.dryRun, re, out, errOut)
					}
				}
			}
			c.untouched(t, sandboxState(t, home), n)
		})
	}
}

// TestCommandLinesRefused: each line is refused before anything is asked
// or written, with its exit code and its reason in words.
//
//   - PlanUsage: --solo-bypass belongs to plan and ship and no other
//     command; plan takes one STORY.
//   - DecideRefusesUnpairedLists: a Decision without its option, or one
//     named twice, is a usage mistake.
//   - DecideRefusesReadAccess: the sandbox's read-only account has no
//     authority to accept a Decision; refused before any presence check.
//   - DecideRefusesAnItemThatIsNoDecision: a Story and a pull request are
//     refused, each said for what it is.
//   - InitRefusesAgentsAndSecrets: an agent lane may not run init, and a
//     client secret given as the client ID is refused before anything is
//     read.
//   - InitBotAppRefusesSSHAgentsAndCI: aayu init --identity --bot-app stops
//     before anything is served or created over SSH, in an agent lane, and
//     under --ci, and says why; the presence App's command shares the
//     refusals.
func TestCommandLinesRefused(t *testing.T) {
	t.Parallel()
	reader := map[string]string{"AAYU_GITHUB_TOKEN": "sandbox-reader"}
	for _, c := range []struct {
		name string
		vars map[string]string // HOME is a fresh folder
		line string
		code int
		// said is in what it printed (either stream), stdout on standard
		// output, stderr on standard error; never is not on standard output.
		said, stdout, stderr, never []string
	}{
		{"PlanUsage/solo-bypass on ready", nil, "ready 3 --solo-bypass", tui.ExitUsage,
			[]string{"--solo-bypass belongs to aayu plan and aayu ship, not aayu ready"}, nil, nil, nil},
		{"PlanUsage/no story", nil, "plan", tui.ExitUsage, []string{"aayu plan needs one argument, STORY"}, nil, nil, nil},
		{"DecideRefusesUnpairedLists/two items one option", nil, "--sandbox decide 1,2 --accept 1", tui.ExitUsage, nil, nil, []string{"Nothing was done."}, nil},
		{"DecideRefusesUnpairedLists/no option", nil, "--sandbox decide 1", tui.ExitUsage, nil, nil, []string{"Nothing was done."}, nil},
		{"DecideRefusesUnpairedLists/one item twice", nil, "--sandbox decide 1,1 --accept 1,2", tui.ExitUsage, nil, nil, []string{"Nothing was done."}, nil},
		{"DecideRefusesReadAccess", reader, "--sandbox --plain decide 1 --accept 1", tui.ExitRefused,
			nil, []string{"refused: @reader has no write access to this repository"}, nil, []string{"/login/device"}},
		{"DecideRefusesAnItemThatIsNoDecision/a Story", nil, "--sandbox --dry-run decide 1,3 --accept 1,1", tui.ExitRefused,
			nil, []string{"refused: #3 is not a Decision: it is not labelled type:decision"}, nil, []string{"--dry-run: accepting"}},
		{"DecideRefusesAnItemThatIsNoDecision/a pull request", nil, "--sandbox --dry-run decide 1,4 --accept 1,1", tui.ExitRefused,
			nil, []string{"refused: #4 is a pull request, not a Decision"}, nil, []string{"--dry-run: accepting"}},
		{"InitRefusesAgentsAndSecrets/agent lane", map[string]string{"AAYU_AGENT": "1"}, "--sandbox --repo acme/fresh init --yes", tui.ExitRefused,
			[]string{"refused"}, nil, nil, nil},
		{"InitRefusesAgentsAndSecrets/a secret as client ID", nil, "--sandbox --repo acme/fresh init --client-id " + strings.Repeat("0f", 20), tui.ExitRefused,
			[]string{"client secret"}, nil, nil, nil},
		{"InitBotAppRefusesSSHAgentsAndCI/ssh", map[string]string{"SSH_CONNECTION": "10.0.0.2 5555 10.0.0.1 22", "BROWSER": "x"}, "--sandbox init --identity --bot-app", tui.ExitRefused,
			nil, nil, []string{"SSH session", "othing was created"}, nil},
		{"InitBotAppRefusesSSHAgentsAndCI/agent lane", map[string]string{"AAYU_AGENT": "1", "BROWSER": "x"}, "--sandbox init --identity --bot-app", tui.ExitRefused,
			nil, nil, []string{"agent lane", "othing was created"}, nil},
		{"InitBotAppRefusesSSHAgentsAndCI/ci", map[string]string{"BROWSER": "x"}, "--sandbox init --identity --bot-app --ci", tui.ExitRefused,
			nil, nil, []string{"refuses --ci", "othing was created"}, nil},
		{"InitBotAppRefusesSSHAgentsAndCI/presence app, agent lane", map[string]string{"CLAUDECODE": "1", "BROWSER": "x"}, "--sandbox init --identity", tui.ExitRefused,
			nil, nil, []string{"refuses an agent lane (CLAUDECODE is set): creating the presence App", "othing was created"}, nil},
		{"InitBotAppRefusesSSHAgentsAndCI/presence app, ci", map[string]string{"BROWSER": "x"}, "--sandbox init --identity --ci", tui.ExitRefused,
			nil, nil, []string{"aayu init --identity refuses --ci: creating the presence App", "othing was created"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			vars := map[string]string{}
			for k, v := range c.vars {
				vars[k] = v
			}
			code, out, errOut := runAayuEnv(t, vars, strings.Fields(c.line)...)
			if code != c.code {
				t.Errorf("aayu %s: exit %d, want %d:\n%s%s", c.line, code, c.code, out, errOut)
			}
			for _, want := range c.said {
				if !strings.Contains(out+errOut, want) {
					t.Errorf("aayu %s does not say %q:\n%s%s", c.line, want, out, errOut)
				}
			}
			for _, want := range c.stdout {
				if !strings.Contains(out, want) {
					t.Errorf("aayu %s does not say %q on standard output:\n%s", c.line, want, out)
				}
			}
			for _, want := range c.stderr {
				if !strings.Contains(errOut, want) {
					t.Errorf("aayu %s does not say %q on standard error:\n%s", c.line, want, errOut)
				}
			}
			for _, never := range c.never {
				if strings.Contains(out, never) {
					t.Errorf("aayu %s printed %q:\n%s", c.line, never, out)
				}
			}
		})
	}
}
