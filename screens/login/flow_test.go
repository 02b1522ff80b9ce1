package login

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

func TestPresenceCheckDeviceFlow(t *testing.T) {
	t.Parallel()
	sg := startSandbox(t, fastDevice())
	deps, logDir := testDeps(t, sg, nil)
	req := shipRequest()
	r, code := runPlain(t, req, deps, approveAs(t, sg, "founder", "approve"))
	out := r.out.String()
	if code != tui.ExitOK {
		t.Fatalf("exit %d, want 0:\n%s", code, out)
	}
	for _, want := range []string{
		plainLegend,
		"ship on acme/benefits needs a person's approval.",
		"  Command: aayu ship 4 --solo-bypass",
		"  Approving: Merges pull request #4 (Story #3) into dev.",
		"  Approving: Posts your Solo-mode bypass: comment on pull request #4.",
		"  On any device, open " + sg.url + "/login/device and enter ",
		"(expires in 5 seconds, at ",
		"  Approve only if you asked for this command. Waiting...",
		"Approved by @founder (device-flow, admin access).",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript does not say %q:\n%s", want, out)
		}
	}
	if len(r.codes) != 1 {
		t.Fatalf("want one code shown, got %d", len(r.codes))
	}
	userCode := r.codes[0]
	// The code is shown once, on its line, and the token never.
	if n := strings.Count(out, userCode); n != 1 {
		t.Errorf("the code is printed %d times, want once", n)
	}
	if strings.Contains(out, sandbox.TokenPrefix) {
		t.Error("the transcript holds the device token")
	}

	s, ok := r.m.Session()
	if !ok || s.Login != "founder" || s.Access != identity.AccessAdmin || s.Command != req.Command || s.Method != "device-flow" {
		t.Fatalf("Session() = %+v, %v", s, ok)
	}
	if !s.Covers(req.Command, identity.AccessAdmin) || s.Covers("aayu ship 5", identity.AccessWrite) {
		t.Error("the session covers the wrong commands")
	}

	log := readLog(t, logDir)
	if strings.Contains(log, userCode) || strings.Contains(log, strings.ReplaceAll(userCode, "-", "")) {
		t.Error("the actions log holds the user code")
	}
	if strings.Contains(log, sandbox.TokenPrefix) {
		t.Error("the actions log holds the device token")
	}
	var rec actions.Record
	if err := json.Unmarshal([]byte(strings.TrimSpace(log)), &rec); err != nil {
		t.Fatalf("the actions log is not one record: %v\n%s", err, log)
	}
	if rec.Command != LogCommand || rec.Item != req.Command || rec.Who != "founder" || rec.Method != "device-flow" ||
		rec.Outcome != "done" || rec.Repo != "acme/benefits" || strings.Join(rec.Lines, "|") != strings.Join(req.Approving, "|") {
		t.Errorf("the log record is %+v", rec)
	}
}

func TestPresenceCheckAccess(t *testing.T) {
	t.Parallel()
	write := shipRequest()
	write.Command, write.Need = "aayu ship 4", identity.AccessWrite
	mustBeWriter := write
	mustBeWriter.MustBe = "writer"
	cases := []struct {
		name    string
		req     Request
		login   string
		code    int
		say     string
		outcome string
	}{
		{"write collaborator for an admin step", shipRequest(), "writer", tui.ExitRefused,
			"@writer approved the code, but has write access to acme/benefits and this step needs admin access.", "refused"},
		{"the bot", write, "agent-bot", tui.ExitRefused,
			"@agent-bot[bot] approved the code, but it is a bot, and only a person's account can approve.", "refused"},
		{"another account than the one named", mustBeWriter, "founder", tui.ExitRefused,
			"@founder approved the code, but this step must be approved by @writer.", "refused"},
		{"a reader for a write step", write, "reader", tui.ExitRefused,
			"@reader approved the code, but has read access to acme/benefits and this step needs write access.", "refused"},
		{"a writer for a write step", write, "writer", tui.ExitOK,
			"Approved by @writer (device-flow, write access).", "done"},
		{"the named account", mustBeWriter, "writer", tui.ExitOK,
			"Approved by @writer (device-flow, write access).", "done"},
		{"another account than the one whose token writes", write, "writer", tui.ExitRefused,
			"@writer approved the code, but this step must be approved by @founder.", "refused"},
	}
	sg := startSandbox(t, fastDevice())
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			deps, logDir := testDeps(t, sg, nil)
			if strings.Contains(c.name, "whose token writes") {
				deps = writesAs(deps, "founder")
			}
			r, code := runPlain(t, c.req, deps, approveAs(t, sg, c.login, "approve"))
			out := r.out.String()
			if code != c.code || !strings.Contains(out, c.say) {
				t.Fatalf("exit %d (want %d); the transcript should say %q:\n%s", code, c.code, c.say, out)
			}
			_, ok := r.m.Session()
			if ok != (c.code == tui.ExitOK) {
				t.Errorf("Session ok = %v after exit %d", ok, code)
			}
			if c.code != tui.ExitOK && !strings.Contains(out, "Nothing was done. Run the command again and approve") {
				t.Errorf("a refusal without its next step:\n%s", out)
			}
			if log := readLog(t, logDir); !strings.Contains(log, `"outcome":"`+c.outcome+`"`) || !strings.Contains(log, LogCommand) {
				t.Errorf("the actions log does not record %s:\n%s", c.outcome, log)
			}
		})
	}
}

func TestPresenceCheckCancelledOnGitHub(t *testing.T) {
	t.Parallel()
	sg := startSandbox(t, fastDevice())
	deps, logDir := testDeps(t, sg, nil)
	r, code := runPlain(t, shipRequest(), deps, approveAs(t, sg, "founder", "cancel"))
	out := r.out.String()
	if code != tui.ExitRefused {
		t.Fatalf("exit %d, want 4:\n%s", code, out)
	}
	for _, want := range []string{"The request was cancelled on GitHub", "Nothing was done. If you did want this command, run it again"} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript does not say %q:\n%s", want, out)
		}
	}
	if _, ok := r.m.Session(); ok {
		t.Error("a cancelled code gave a session")
	}
	if log := readLog(t, logDir); log != "" {
		t.Errorf("a cancelled code was logged as an approval:\n%s", log)
	}
}

func TestPresenceCheckExpiryThenNewCode(t *testing.T) {
	t.Parallel()
	sg := startSandbox(t, sandbox.DeviceOptions{Interval: 0, Expiry: time.Second})
	deps, _ := testDeps(t, sg, nil)
	r, code := runPlain(t, shipRequest(), deps, func(r *plainRun, l string) {
		switch {
		case strings.HasPrefix(l, "The code expired"):
			r.typeLine("enter")
		case codeLine.MatchString(l):
			r.mu.Lock()
			n := len(r.codes)
			r.mu.Unlock()
			if n == 2 { // let the first expire, approve the second at once
				go decideOnGitHub(t, sg.url, codeLine.FindStringSubmatch(l)[1], "founder", "approve")
			}
		}
	})
	out := r.out.String()
	if code != tui.ExitOK {
		t.Fatalf("exit %d, want 0:\n%s", code, out)
	}
	if len(r.codes) != 2 || r.codes[0] == r.codes[1] {
		t.Fatalf("want two different codes, got %v", r.codes)
	}
	for _, want := range []string{"The code expired before anyone approved it. Nothing was done.", `Type "enter" for a new code`, "Approved by @founder"} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript does not say %q:\n%s", want, out)
		}
	}
}

// cli/oauth v1.2.2 keeps polling after one slow_down (waiting the interval
// GitHub sends, times 1.4); v1.1.1 gave up at once. The sandbox enforces
// its 500 ms interval and tells the client 0 s, so the second poll comes
// too soon and is answered slow_down with interval=5.
func TestPresenceCheckSlowDown(t *testing.T) {
	if testing.Short() {
		t.Skip("waits about 7 s, as cli/oauth does after a slow_down")
	}
	t.Parallel()
	sg := startSandbox(t, sandbox.DeviceOptions{Interval: 500 * time.Millisecond, Expiry: 20 * time.Second})
	rec := &pollRecorder{}
	deps, _ := testDeps(t, sg, rec)
	// Approve only once GitHub has said slow_down: approving earlier lets
	// the very first poll get the token, and the test would prove nothing.
	approveAfterSlowDown := func(r *plainRun, l string) {
		c := codeLine.FindStringSubmatch(l)
		if c == nil {
			return
		}
		go func() {
			deadline := time.Now().Add(15 * time.Second)
			for !slices.Contains(rec.answers(), "slow_down") && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			decideOnGitHub(t, sg.url, c[1], "founder", "approve")
		}()
	}
	r, code := runPlain(t, shipRequest(), deps, approveAfterSlowDown)
	if code != tui.ExitOK {
		t.Fatalf("exit %d, want 0:\n%s", code, r.out.String())
	}
	polls := rec.answers()
	sawSlowDown := false
	for _, p := range polls {
		sawSlowDown = sawSlowDown || p == "slow_down"
	}
	if !sawSlowDown || polls[len(polls)-1] != "" {
		t.Fatalf("polls answered %q; want a slow_down and then the token", polls)
	}
}

func TestPresenceCheckDeviceFlowDisabled(t *testing.T) {
	t.Parallel()
	sg := startSandbox(t, sandbox.DeviceOptions{Interval: 0, Expiry: 5 * time.Second, DisabledClientIDs: []string{"switched-off"}})
	deps, _ := testDeps(t, sg, nil)
	deps.ClientID = "switched-off"
	r, code := runPlain(t, shipRequest(), deps, nil)
	out := r.out.String()
	if code != tui.ExitFailed {
		t.Fatalf("exit %d, want 1:\n%s", code, out)
	}
	for _, want := range []string{"does not offer the device flow for the app with client id switched-off", "Ask the app's owner to tick Enable Device Flow"} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript does not say %q:\n%s", want, out)
		}
	}
	if len(r.codes) != 0 {
		t.Error("a code was shown")
	}
}

// TestPresenceCheckUnknownClientSaysWhatToFix: GitHub's 404 for a client
// id no OAuth App has is not "the device flow is off": the screen names
// the id, where it came from, and the two settings that name the App.
func TestPresenceCheckUnknownClientSaysWhatToFix(t *testing.T) {
	t.Parallel()
	sg := startSandbox(t, fastDevice())
	deps, _ := testDeps(t, sg, nil)
	deps.ClientID, deps.ClientFrom = "Ov23liTypo", "the repository variable AAYUDHA_DEVICE_CLIENT_ID of acme/benefits"
	r, code := runPlain(t, shipRequest(), deps, nil)
	out := r.out.String()
	if code != tui.ExitFailed {
		t.Fatalf("exit %d, want 1:\n%s", code, out)
	}
	for _, want := range []string{"knows no OAuth App with the client id Ov23liTypo (from the repository variable AAYUDHA_DEVICE_CLIENT_ID of acme/benefits)",
		"404 Not Found", "set the repository variable AAYUDHA_DEVICE_CLIENT_ID, or [identity] device_client_id"} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Enable Device Flow") || len(r.codes) != 0 {
		t.Errorf("an unknown app was worded as a switched-off device flow, or a code was shown:\n%s", out)
	}
}

func TestPresenceCheckNetworkError(t *testing.T) {
	t.Parallel()
	sg := startSandbox(t, fastDevice())
	deps, _ := testDeps(t, sg, nil)
	deps.OAuthHost = "http://127.0.0.1:1" // nothing listens there
	r, code := runPlain(t, shipRequest(), deps, nil)
	out := r.out.String()
	if code != tui.ExitFailed || !strings.Contains(out, "aayu could not reach GitHub at http://127.0.0.1:1 while asking for a code") ||
		!strings.Contains(out, "Check the network") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestPresenceCheckRefusesAgentLane(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		env  map[string]string
		ci   bool
		say  string
	}{
		{"AAYU_AGENT", map[string]string{"AAYU_AGENT": "1"}, false, "this is aayu's own agent lane (AAYU_AGENT=1)"},
		{"CI", nil, true, "CI (--ci) has no person to approve it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sg := startSandbox(t, fastDevice())
			deps, logDir := testDeps(t, sg, nil)
			deps.Here = identity.Here(identity.HumanCheck{Command: shipRequest().Command,
				Env: func(k string) string { return c.env[k] }, Terminal: true, CI: c.ci})
			m := New(t.Context(), tui.Common{Plain: true, CI: c.ci}, shipRequest(), deps)
			if done, code := m.Done(); !done || code != tui.ExitRefused {
				t.Fatalf("done=%v code=%d, want refused at once", done, code)
			}
			if cmd := m.Init(); cmd != nil {
				t.Error("a refused screen still starts the flow")
			}
			out := strings.Join(m.Transcript(), "\n")
			for _, want := range []string{c.say, "No code was asked for.", "Nothing was done. Run it yourself from a terminal."} {
				if !strings.Contains(out, want) {
					t.Errorf("the transcript does not say %q:\n%s", want, out)
				}
			}
			if sg.asked(codePath) {
				t.Error("a code was requested for an agent lane")
			}
			if readLog(t, logDir) != "" {
				t.Error("a refused lane wrote to the actions log")
			}
		})
	}
}

// A host's agent marker (an orb's Terminal tab) is no refusal: the person
// there proves they are present with the code.
func TestPresenceCheckHostMarkerGetsACode(t *testing.T) {
	t.Parallel()
	sg := startSandbox(t, fastDevice())
	deps, _ := testDeps(t, sg, nil)
	deps.Here = identity.Here(identity.HumanCheck{Command: shipRequest().Command,
		Env: func(k string) string { return map[string]string{"AMP_THREAD_ID": "T-1"}[k] }})
	r, code := runPlain(t, shipRequest(), deps, approveAs(t, sg, "founder", "approve"))
	if code != tui.ExitOK || !sg.asked(codePath) {
		t.Fatalf("exit %d:\n%s", code, r.out.String())
	}
}

func TestPresenceCheckStopWaiting(t *testing.T) {
	t.Parallel()
	sg := startSandbox(t, fastDevice())
	deps, _ := testDeps(t, sg, nil)
	r, code := runPlain(t, shipRequest(), deps, func(r *plainRun, l string) {
		if codeLine.MatchString(l) {
			r.typeLine("q")
		}
	})
	out := r.out.String()
	if code != tui.ExitRefused || !strings.Contains(out, "You stopped waiting before the code was approved.") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestPresenceCheckWithoutClientID(t *testing.T) {
	t.Parallel()
	sg := startSandbox(t, fastDevice())
	deps, _ := testDeps(t, sg, nil)
	deps.ClientID = ""
	r, code := runPlain(t, shipRequest(), deps, nil)
	out := r.out.String()
	if code != tui.ExitFailed || !strings.Contains(out, "No OAuth App is named for the presence check") || sg.asked(codePath) {
		t.Fatalf("exit %d, asked for a code: %v\n%s", code, sg.asked(codePath), out)
	}
}

// TestPresenceCheckRefusesAMaintainerForAnAdminStep: maintain is below
// admin; an account GitHub reports as a maintainer approving a step that
// needs admin (the solo-mode bypass) is refused.
func TestPresenceCheckRefusesAMaintainerForAnAdminStep(t *testing.T) {
	t.Parallel()
	sg := startSandbox(t, fastDevice())
	deps, _ := testDeps(t, sg, nil)
	deps.Permission = func(context.Context, string) (string, error) { return "maintain", nil }
	r, code := runPlain(t, shipRequest(), deps, approveAs(t, sg, "founder", "approve"))
	out := r.out.String()
	if code != tui.ExitRefused || !strings.Contains(out, "has maintain access to acme/benefits and this step needs admin access") {
		t.Fatalf("exit %d, want a refusal naming maintain and admin:\n%s", code, out)
	}
	if _, ok := r.m.Session(); ok {
		t.Error("a maintainer's approval gave a session for an admin step")
	}
}

// TestPresenceCheckRefusesOnTheCallersAnswer: the screen does not look at
// the process again (issue #21: login asked RequireHuman a second time,
// with a terminal assumed); the answer its caller took from identity.Here
// decides, so a refusal there ends the screen with its words and no code.
func TestPresenceCheckRefusesOnTheCallersAnswer(t *testing.T) {
	t.Parallel()
	deps := Deps{Here: identity.Decision{Outcome: identity.Refused,
		Reason: "aayu ship 4 is a human-only step and this is a CI run (GITHUB_ACTIONS=true), which has no person to approve it; run it yourself from a terminal"}}
	m := New(t.Context(), tui.Common{Plain: true}, shipRequest(), deps)
	if done, code := m.Done(); !done || code != tui.ExitRefused {
		t.Fatalf("done=%v code=%d, want refused at once", done, code)
	}
	if out := strings.Join(m.Transcript(), "\n"); !strings.Contains(out, "this is a CI run (GITHUB_ACTIONS=true)") {
		t.Errorf("the refusal does not give the caller's reason:\n%s", out)
	}
}
