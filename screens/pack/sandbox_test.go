package pack

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// TestPackStoryOnTheSandbox reads the demo ledger through StoryFromLedger,
// every response checked against GitHub's description.
func TestPackStoryOnTheSandbox(t *testing.T) {
	srv, _, base := conformance.StartSandbox(t, sandbox.Options{})
	gh, err := ghx.NewClient(ghx.ClientOptions{APIURL: base + "/", Token: ghx.NewToken("sandbox-founder", "test"),
		Retry: ghx.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := func(story int) StoryOptions {
		return StoryFromLedger(LedgerConfig{Client: gh, Owner: sandbox.RepoOwner, Repo: sandbox.RepoName, Story: story,
			Checkout: t.TempDir(), WorkDir: t.TempDir()})
	}
	cases := []struct {
		story int
		code  int
		say   []string
	}{
		{sandbox.DemoReplacement, tui.ExitOK, []string{"authoritative pack at proof/14/", "result: verified, floors hold"}},
		{sandbox.DemoStoryReady, tui.ExitOK, []string{"advisory pack at proof/3/" + srv.HeadSHA(sandbox.DemoPRReady) + "/advisory"}},
		{sandbox.DemoStoryStopped, tui.ExitRefused, []string{"advisory pack at proof/7/", "does not verify"}},
		{999, tui.ExitRefused, []string{"failed: the ledger could not be read", "no pack"}},
	}
	for _, c := range cases {
		m := story(t, tui.Common{Width: 80, Height: 24, Plain: true}, cfg(c.story))
		text := strings.Join(m.Transcript(), "\n")
		if _, code := m.Done(); code != c.code {
			t.Errorf("story %d: exit %d, want %d:\n%s", c.story, code, c.code, text)
		}
		for _, s := range c.say {
			if !strings.Contains(text, s) {
				t.Errorf("story %d: the transcript does not say %q:\n%s", c.story, s, text)
			}
		}
	}

	// g reads the gate's newest run for PR 4's head: the tampered one.
	m := story(t, tuitest.Common(100, 30), cfg(sandbox.DemoStoryReady))
	if why := m.gateWhy(); why != "" {
		t.Fatalf("g is unavailable: %s", why)
	}
	if o := cfg(sandbox.DemoStoryReady); o.Push != nil || o.Local != nil {
		t.Fatal("with no local pack in the checkout, l and p have nothing to act on")
	}
	_, cmd := m.Update(tuitest.Key("g"))
	drive(t, m, cmd, func() bool { return m.finished })
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "gate's run artifact") || !strings.Contains(v, "does not verify") {
		t.Fatalf("g on story 3:\n%s", v)
	}
}
