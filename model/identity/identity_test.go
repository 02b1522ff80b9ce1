package identity

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/model/untrusted"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestAgentLane(t *testing.T) {
	cases := []struct {
		name       string
		env        map[string]string
		wantLane   bool
		wantMarker string
	}{
		{"nothing set", nil, false, ""},
		{"AAYU_AGENT=1", map[string]string{"AAYU_AGENT": "1"}, true, "AAYU_AGENT"},
		{"AAYU_AGENT=0 is off", map[string]string{"AAYU_AGENT": "0"}, false, ""},
		{"AAYU_AGENT=yes still counts", map[string]string{"AAYU_AGENT": "yes"}, true, "AAYU_AGENT"},
		{"Amp", map[string]string{"AMP_THREAD_ID": "T-1"}, true, "AMP_THREAD_ID"},
		{"Claude Code", map[string]string{"CLAUDECODE": "1"}, true, "CLAUDECODE"},
		{"Cursor", map[string]string{"CURSOR_AGENT": "1"}, true, "CURSOR_AGENT"},
		{"Codex", map[string]string{"CODEX_SANDBOX": "seatbelt"}, true, "CODEX_SANDBOX"},
		{"AAYU_AGENT wins over a host marker", map[string]string{"AMP_THREAD_ID": "T", "AAYU_AGENT": "1"}, true, "AAYU_AGENT"},
		{"empty marker does not count", map[string]string{"CLAUDECODE": ""}, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lane, marker := AgentLane(envOf(c.env))
			if lane != c.wantLane || marker != c.wantMarker {
				t.Fatalf("AgentLane = (%v, %q), want (%v, %q)", lane, marker, c.wantLane, c.wantMarker)
			}
			// aayu's own lane is the one AAYU_AGENT names, whatever host
			// marker is beside it.
			if own := OwnLane(envOf(c.env)); own != (marker == AgentVariable) {
				t.Fatalf("OwnLane = %v, want %v", own, marker == AgentVariable)
			}
		})
	}
}

// TestHumanOnlyRefusedInHostShells is the pure part of the seed's test: a
// human-only step in an agent's shell is refused or asks for the presence
// check, never simply allowed.
func TestHumanOnlyRefusedInHostShells(t *testing.T) {
	const cmd = "aayu ship 148"
	approved := &Session{Command: cmd, Login: "founder", Access: AccessAdmin, Method: "device-flow"}
	cases := []struct {
		name       string
		env        map[string]string
		terminal   bool
		ci         bool
		session    *Session
		need       Access
		want       Outcome
		reasonHas  string
		markerWant string
	}{
		{"own lane on a terminal", map[string]string{"AAYU_AGENT": "1"}, true, false, nil, AccessWrite, Refused, "never waits", "AAYU_AGENT"},
		{"own lane even with an approval", map[string]string{"AAYU_AGENT": "1"}, true, false, approved, AccessWrite, Refused, "AAYU_AGENT=1", "AAYU_AGENT"},
		{"Amp's terminal tab", map[string]string{"AMP_THREAD_ID": "T-9"}, true, false, nil, AccessWrite, NeedsPresence, "AMP_THREAD_ID", "AMP_THREAD_ID"},
		{"Claude Code without terminal", map[string]string{"CLAUDECODE": "1"}, false, false, nil, AccessWrite, NeedsPresence, "CLAUDECODE", "CLAUDECODE"},
		{"host marker, approved this run", map[string]string{"CURSOR_AGENT": "1"}, true, false, approved, AccessAdmin, Allowed, "approved by @founder", "CURSOR_AGENT"},
		{"approval for another command does not cover", map[string]string{"CODEX_SANDBOX": "x"}, true, false,
			&Session{Command: "aayu ship 149", Login: "founder", Access: AccessAdmin, Method: "device-flow"}, AccessWrite, NeedsPresence, "CODEX_SANDBOX", "CODEX_SANDBOX"},
		{"write approval does not cover admin", map[string]string{"AMP_THREAD_ID": "T"}, true, false,
			&Session{Command: cmd, Login: "w", Access: AccessWrite, Method: "device-flow"}, AccessAdmin, NeedsPresence, "AMP_THREAD_ID", "AMP_THREAD_ID"},
		{"no marker, no terminal", nil, false, false, nil, AccessWrite, NeedsPresence, "no terminal", ""},
		{"CI", nil, false, true, nil, AccessWrite, Refused, "CI", ""},
		{"CI even with a terminal", nil, true, true, nil, AccessWrite, Refused, "CI", ""},
		{"a person's terminal", nil, true, false, nil, AccessWrite, Allowed, "terminal", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := RequireHuman(HumanCheck{Command: cmd, Env: envOf(c.env), Terminal: c.terminal, CI: c.ci, Session: c.session, Need: c.need})
			if d.Outcome != c.want {
				t.Fatalf("outcome = %v (%s), want %v", d.Outcome, d.Reason, c.want)
			}
			if !strings.Contains(d.Reason, c.reasonHas) {
				t.Errorf("reason %q does not mention %q", d.Reason, c.reasonHas)
			}
			if d.Marker != c.markerWant {
				t.Errorf("marker = %q, want %q", d.Marker, c.markerWant)
			}
		})
	}
}

func TestCheckApprover(t *testing.T) {
	cases := []struct {
		name    string
		a       Account
		need    Access
		mustBe  string
		bots    []string
		wantErr error
		words   string
	}{
		{"admin for admin", Account{Login: "founder", Permission: "admin"}, AccessAdmin, "", nil, nil, ""},
		{"write for write", Account{Login: "w", Permission: "write"}, AccessWrite, "", nil, nil, ""},
		{"maintain covers write", Account{Login: "m", Permission: "maintain"}, AccessWrite, "", nil, nil, ""},
		{"write lacks admin", Account{Login: "w", Permission: "write"}, AccessAdmin, "", nil, ErrAccessTooLow, "needs admin"},
		{"maintain lacks admin", Account{Login: "m", Permission: "maintain"}, AccessAdmin, "", nil, ErrAccessTooLow, "has maintain access"},
		{"read lacks write", Account{Login: "r", Permission: "read"}, AccessWrite, "", nil, ErrAccessTooLow, "has read access"},
		{"unknown permission is none", Account{Login: "u"}, AccessWrite, "", nil, ErrAccessTooLow, "has none access"},
		{"GitHub bot", Account{Login: "helper", Bot: true, Permission: "admin"}, AccessWrite, "", nil, ErrBotApprover, "bot"},
		{"[bot] login", Account{Login: "aayudha[bot]", Permission: "admin"}, AccessWrite, "", nil, ErrBotApprover, "aayudha[bot]"},
		{"machine user in bot_logins", Account{Login: "Acme-Machine", Permission: "admin"}, AccessWrite, "", []string{"acme-machine"}, ErrBotApprover, "bot"},
		{"another account", Account{Login: "writer", Permission: "admin"}, AccessWrite, "founder", nil, ErrOtherApprover, "must be approved by @founder"},
		{"same account, other case", Account{Login: "Founder", Permission: "admin"}, AccessWrite, "@founder", nil, nil, ""},
		{"no login", Account{}, AccessWrite, "", nil, ErrNoApproverName, "did not say"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckApprover(c.a, c.need, c.mustBe, c.bots)
			if c.wantErr == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, c.wantErr) {
				t.Fatalf("err = %v, want %v", err, c.wantErr)
			}
			if !strings.Contains(err.Error(), c.words) || !strings.Contains(err.Error(), "nothing was done") {
				t.Errorf("err %q should say %q and that nothing was done", err, c.words)
			}
		})
	}
}

func TestSessionCovers(t *testing.T) {
	s := &Session{Command: "aayu inbox", Login: "founder", Access: AccessWrite, Method: "device-flow"}
	cases := []struct {
		cmd  string
		need Access
		want bool
	}{
		{"aayu inbox", AccessWrite, true},
		{"aayu inbox", AccessRead, true},
		{"aayu inbox", AccessAdmin, false},
		{"aayu ship 148", AccessWrite, false},
		{"", AccessWrite, false},
		{"aayu inbox", AccessNone, false},
	}
	for _, c := range cases {
		if got := s.Covers(c.cmd, c.need); got != c.want {
			t.Errorf("Covers(%q, %v) = %v, want %v", c.cmd, c.need, got, c.want)
		}
	}
	// A maintainer's approval covers a maintain or write step, never an
	// admin one (a solo-mode bypass).
	m := &Session{Command: "aayu ship 4", Login: "ana", Access: AccessMaintain, Method: "device-flow"}
	for need, want := range map[Access]bool{AccessWrite: true, AccessMaintain: true, AccessAdmin: false} {
		if got := m.Covers("aayu ship 4", need); got != want {
			t.Errorf("a maintain approval Covers(%v) = %v, want %v", need, got, want)
		}
	}
	var none *Session
	if none.Covers("aayu inbox", AccessWrite) {
		t.Error("a nil session covers nothing")
	}
}

func TestSoloMode(t *testing.T) {
	cases := []struct {
		name string
		cfg  IdentitySettings
		want bool
	}{
		{"defaults", IdentitySettings{}, true},
		{"own device client id stays solo", IdentitySettings{DeviceClientID: "Iv1.abc"}, true},
		{"app id", IdentitySettings{AppID: 7}, false},
		{"app slug", IdentitySettings{AppSlug: "aayudha"}, false},
		{"broker", IdentitySettings{Broker: "aayudha-token.yml"}, false},
		{"machine user", IdentitySettings{MachineUser: "acme-bot"}, false},
		{"machine user secret", IdentitySettings{MachineUserSecret: "BOT_TOKEN"}, false},
		{"bot logins", IdentitySettings{BotLogins: []string{"x"}}, false},
	}
	for _, c := range cases {
		if got := SoloMode(c.cfg); got != c.want {
			t.Errorf("%s: SoloMode = %v, want %v", c.name, got, c.want)
		}
	}
}

const head = "b046d1a1d113339eb80e130c9dc0008fa223e76f"

func TestFindSoloBypassComment(t *testing.T) {
	t0 := time.Date(2026, 10, 12, 9, 0, 0, 0, time.UTC)
	founder := Account{Login: "founder", Permission: "admin"}
	moved := strings.Repeat("b", 40)
	unused := UnusedSoloBypassComment(head, moved, SoloBypassComment(head, "solo mode, no second person"))
	// The rewritten comment keeps the record: why (both heads), then the
	// original quoted line by line.
	if !strings.HasPrefix(unused, UnusedSoloBypassPrefix+" head "+head+" moved to "+moved) {
		t.Errorf("the unused comment does not start with its prefix and both heads:\n%s", unused)
	}
	if want := "\n\nAs first posted:\n\n> Solo-mode bypass: solo mode, no second person\n> \n> Head: " + head; !strings.HasSuffix(unused, want) {
		t.Errorf("the unused comment does not end with the original quoted line by line:\n%s\nwant suffix:\n%s", unused, want)
	}
	cases := []struct {
		name     string
		comments []Comment
		head     string
		wantID   int64
	}{
		{"ship's own text", []Comment{{ID: 1, Author: founder, Body: untrusted.Text(SoloBypassComment(head, "solo mode, no second person")), CreatedAt: t0}}, head, 1},
		{"no head named", []Comment{{ID: 1, Author: founder, Body: "Solo-mode bypass: solo"}}, head, 0},
		{"older head", []Comment{{ID: 1, Author: founder, Body: untrusted.Text(SoloBypassComment("a"+head[1:], "solo"))}}, head, 0},
		{"no reason", []Comment{{ID: 1, Author: founder, Body: "Solo-mode bypass:\n\nHead: " + head}}, head, 0},
		{"someone else", []Comment{{ID: 1, Author: Account{Login: "writer"}, Body: untrusted.Text(SoloBypassComment(head, "x"))}}, head, 0},
		{"a bot", []Comment{{ID: 1, Author: Account{Login: "founder", Bot: true}, Body: untrusted.Text(SoloBypassComment(head, "x"))}}, head, 0},
		{"quoted, not starting", []Comment{{ID: 1, Author: founder, Body: untrusted.Text("> " + SoloBypassComment(head, "x"))}}, head, 0},
		{"newest wins", []Comment{
			{ID: 1, Author: founder, Body: untrusted.Text(SoloBypassComment(head, "first")), CreatedAt: t0},
			{ID: 2, Author: founder, Body: untrusted.Text(SoloBypassComment(head, "second")), CreatedAt: t0.Add(time.Minute)},
		}, head, 2},
		{"plan bypass has no head", []Comment{{ID: 3, Author: founder, Body: "Solo-mode bypass: no second person to review the plan"}}, "", 3},
		// ship rewrites a bypass comment no merge used (UnusedSoloBypassComment):
		// it keeps the record but passes no head again.
		{"unused, for its own head", []Comment{{ID: 4, Author: founder, Body: untrusted.Text(unused)}}, head, 0},
		{"unused, for the head it moved to", []Comment{{ID: 4, Author: founder, Body: untrusted.Text(unused)}}, moved, 0},
		{"unused, as a plan bypass", []Comment{{ID: 4, Author: founder, Body: untrusted.Text(unused)}}, "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := FindSoloBypassComment(c.comments, "founder", c.head, nil)
			if c.wantID == 0 {
				if ok {
					t.Fatalf("found comment %d, want none", got.ID)
				}
				return
			}
			if !ok || got.ID != c.wantID {
				t.Fatalf("found (%d, %v), want %d", got.ID, ok, c.wantID)
			}
		})
	}
}

// TestSoloBypassRefusals covers every refusal of seed invariant 6.
func TestSoloBypassRefusals(t *testing.T) {
	const cmd = "aayu ship 148"
	founder := Account{Login: "founder", Permission: "admin"}
	good := func() SoloBypassInput {
		return SoloBypassInput{
			Command: cmd, Env: envOf(nil), Terminal: true, Person: founder, Head: head,
			Comments: []Comment{{ID: 1, Author: founder, Body: untrusted.Text(SoloBypassComment(head, "solo mode"))}},
		}
	}
	adminApproval := &Session{Command: cmd, Login: "founder", Access: AccessAdmin, Method: "device-flow"}
	cases := []struct {
		name   string
		change func(*SoloBypassInput)
		want   []string // one substring per expected refusal, in order
	}{
		{"allowed", func(*SoloBypassInput) {}, nil},
		{"own agent lane", func(in *SoloBypassInput) { in.Env = envOf(map[string]string{"AAYU_AGENT": "1"}) }, []string{"AAYU_AGENT"}},
		{"own agent lane even approved", func(in *SoloBypassInput) {
			in.Env = envOf(map[string]string{"AAYU_AGENT": "1"})
			in.Session = adminApproval
		}, []string{"AAYU_AGENT"}},
		{"host marker", func(in *SoloBypassInput) { in.Env = envOf(map[string]string{"AMP_THREAD_ID": "T"}) }, []string{"AMP_THREAD_ID"}},
		{"host marker approved as admin", func(in *SoloBypassInput) {
			in.Env = envOf(map[string]string{"AMP_THREAD_ID": "T"})
			in.Session = adminApproval
		}, nil},
		{"host marker approved with write only", func(in *SoloBypassInput) {
			in.Env = envOf(map[string]string{"AMP_THREAD_ID": "T"})
			in.Session = &Session{Command: cmd, Login: "founder", Access: AccessWrite, Method: "device-flow"}
		}, []string{"presence check as an admin"}},
		{"host marker approved with maintain only", func(in *SoloBypassInput) {
			in.Env = envOf(map[string]string{"AMP_THREAD_ID": "T"})
			in.Session = &Session{Command: cmd, Login: "founder", Access: AccessMaintain, Method: "device-flow"}
		}, []string{"presence check as an admin"}},
		{"no marker no terminal", func(in *SoloBypassInput) { in.Terminal = false }, []string{"neither an agent marker nor a terminal"}},
		{"no marker no terminal approved", func(in *SoloBypassInput) { in.Terminal = false; in.Session = adminApproval }, nil},
		{"CI", func(in *SoloBypassInput) { in.CI = true }, []string{"CI"}},
		{"bot identity", func(in *SoloBypassInput) { in.Identity.AppSlug = "aayudha" }, []string{"bot identity"}},
		{"second human in a seat", func(in *SoloBypassInput) { in.Seats = map[string]string{"Engineering Manager": "ana"} }, []string{"@ana, holds the Engineering Manager seat"}},
		{"the person in their own seat", func(in *SoloBypassInput) { in.Seats = map[string]string{"Engineering Manager": "Founder"} }, nil},
		{"write access only", func(in *SoloBypassInput) {
			in.Person.Permission = "write"
			in.Comments[0].Author.Permission = "write"
		}, []string{"admin access"}},
		{"maintain access only", func(in *SoloBypassInput) {
			in.Person.Permission = "maintain"
			in.Comments[0].Author.Permission = "maintain"
		}, []string{"needs a person with admin access: " + ErrAccessTooLow.Error() + ": @founder has maintain access"}},
		{"missing comment", func(in *SoloBypassInput) { in.Comments = nil }, []string{"Solo-mode bypass:"}},
		{"everything wrong", func(in *SoloBypassInput) {
			in.Env = envOf(map[string]string{"CLAUDECODE": "1"})
			in.Identity.MachineUser = "acme-bot"
			in.Seats = map[string]string{"Engineering Manager": "ana"}
			in.Comments = nil
		}, []string{"CLAUDECODE", "bot identity", "@ana", "Solo-mode bypass:"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := good()
			c.change(&in)
			got := SoloBypassRefusals(in)
			if len(got) != len(c.want) {
				t.Fatalf("refusals = %q, want %d matching %q", got, len(c.want), c.want)
			}
			for i, w := range c.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("refusal %d = %q, want it to mention %q", i, got[i], w)
				}
			}
		})
	}
}

func TestParseAccess(t *testing.T) {
	for s, want := range map[string]Access{"admin": AccessAdmin, "MAINTAIN": AccessMaintain, "push": AccessWrite, "write": AccessWrite,
		"triage": AccessTriage, "pull": AccessRead, "read": AccessRead, "": AccessNone, "owner": AccessNone} {
		if got := ParseAccess(s); got != want {
			t.Errorf("ParseAccess(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestNeedForIsAdminOnlyForTheSoloBypass: the bypass stands in for a
// review, so its approval must carry admin; anything else needs write. A
// maintain approval never covers the bypass.
func TestNeedForIsAdminOnlyForTheSoloBypass(t *testing.T) {
	for _, tc := range []struct {
		bypass bool
		want   Access
	}{
		{bypass: true, want: AccessAdmin},
		{bypass: false, want: AccessWrite},
	} {
		if got := NeedFor(tc.bypass); got != tc.want {
			t.Errorf("NeedFor(%v) = %v, want %v", tc.bypass, got, tc.want)
		}
		maintain := &Session{Command: "aayu ship 7", Login: "ana", Access: AccessMaintain}
		if covers := maintain.Covers("aayu ship 7", NeedFor(tc.bypass)); covers == tc.bypass {
			t.Errorf("a maintain approval covers NeedFor(%v) = %v, want %v", tc.bypass, covers, !tc.bypass)
		}
	}
}
