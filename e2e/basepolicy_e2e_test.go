package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/tui"
)

// TestUnparsableBasePolicyRefusesEverywhere: with a base config that cannot
// be parsed (never as a string, and bot_logins beside it) on main and dev,
// every consumer of the one base-policy reader says the same sentence and
// fails closed: ship refuses (exit 4), the protected-paths gate refuses
// (exit 4; it once ignored the file and dropped bot_logins, so a machine
// user counted as a CODEOWNER), doctor fails its policy row, and the inbox
// fails its read rather than judging by the defaults, and plan refuses to
// judge the never layers (exit 4). The merge gate's comment gives the same
// words (actions/gatecomment, TestGateCommentGivesTheBasePolicyRefusal).
func TestUnparsableBasePolicyRefusesEverywhere(t *testing.T) {
	t.Parallel()
	sb := startCountingSandbox(t)
	gh, err := ghx.NewClient(ghx.ClientOptions{APIURL: sb.url + "/", Token: ghx.NewToken("sandbox-founder", "test")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, branch := range []string{"main", "dev"} {
		cfg, err := ghx.ReadFile(ctx, gh, "acme", "benefits", branch, ".aayudha/config.toml")
		if err != nil {
			t.Fatal(err)
		}
		bad := regexp.MustCompile(`(?m)^never = \[.*\]$`).ReplaceAllString(string(cfg), `never = "L04"`)
		if bad == string(cfg) {
			t.Fatalf("%s's config has no never line to confuse", branch)
		}
		if _, err := ghx.CommitFiles(ctx, gh, "acme", "benefits", branch, map[string][]byte{".aayudha/config.toml": []byte(bad)}, "policy: never as a string", ghx.CommitOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	// One sentence, from basepolicy.ConfigRefusal, around config's own words.
	words := regexp.MustCompile(`[Tt]` + regexp.QuoteMeta(`he base branch's policy cannot be read: the base branch's .aayudha/config.toml: autonomy.never must be a list of strings`) +
		`[^;]*` + regexp.QuoteMeta(`; there is no policy to judge by, so this fails closed. Fix the file through a reviewed pull request`))
	says := func(s string) bool { return words.MatchString(strings.Join(strings.Fields(s), " ")) }
	api := []string{"--api-url", sb.url + "/", "--oauth-url", sb.url, "--repo", "acme/benefits", "--plain", "--set", "identity.device_client_id=aayu-sandbox"}
	person := func() map[string]string {
		return map[string]string{"HOME": t.TempDir(), "AAYU_GITHUB_TOKEN": "sandbox-founder"}
	}
	before := len(sb.writes())

	// ship: approve the presence check if it comes first; the refusal follows.
	a := startAayu(t, person(), append(api, "ship", "4")...)
	device := regexp.MustCompile(deviceCodeLine)
	approved := false
	deadline := time.Now().Add(e2eWait)
	for !regexp.MustCompile(`result: exit \d`).MatchString(a.out.String()) {
		if m := device.FindStringSubmatch(a.out.String()); m != nil && !approved {
			approveOnSandbox(t, m[1], m[2], "founder")
			approved = true
		}
		if time.Now().After(deadline) {
			t.Fatalf("ship never finished:\n%s", a.out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if code, out := a.exit(), a.out.String(); code != tui.ExitRefused || !says(out) {
		t.Errorf("ship: exit %d, want 4 saying %q:\n%s", code, words, out)
	}

	code, out, errOut := runAayuEnv(t, map[string]string{"GITHUB_TOKEN": "sandbox-founder"}, append(api, "protected", "4", "--ci")...)
	if code != tui.ExitRefused || !says(out+errOut) {
		t.Errorf("protected: exit %d, want 4 saying %q:\n%s%s", code, words, out, errOut)
	}

	code, out, errOut = runAayuEnv(t, person(), append(api, "doctor")...)
	if code == tui.ExitOK || !says(out+errOut) {
		t.Errorf("doctor: exit %d, want a failure saying %q:\n%s%s", code, words, out, errOut)
	}

	code, out, errOut = runAayuEnv(t, person(), append(api, "inbox", "--list")...)
	if code == tui.ExitOK || !says(out+errOut) {
		t.Errorf("inbox: exit %d, want a failure saying %q:\n%s%s", code, words, out, errOut)
	}

	// plan judges the never layers of Story #3's pull request (#4, into
	// dev) by the same policy; --dry-run, as it only reads.
	code, out, errOut = runAayuEnv(t, person(), append(api, "--dry-run", "plan", "3")...)
	if code != tui.ExitRefused || !says(out+errOut) {
		t.Errorf("plan: exit %d, want 4 saying %q:\n%s%s", code, words, out, errOut)
	}

	for _, w := range sb.writes()[before:] {
		if !strings.Contains(w, "/login/") && !strings.Contains(w, "/graphql") {
			t.Errorf("a refused consumer wrote %s", w)
		}
	}
}
