package e2e

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/cli"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/tui"
)

// TestConfigRefusesUnknownAndMistypedSettings runs aayu with a setting it
// cannot take in each layer a person controls: exit 2 before anything is
// done, with the flag, variable or file and the key named.
func TestConfigRefusesUnknownAndMistypedSettings(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	userFile := filepath.Join(home, ".config", "aayu", "config.toml")
	if err := os.MkdirAll(filepath.Dir(userFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(userFile, []byte("[autonomy]\nnever = \"L04\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		vars map[string]string
		args []string
		say  []string
	}{
		{"mis-cased --set", nil, []string{"--set", "AUTONOMY.APPROVER=writer"}, []string{"--set AUTONOMY.APPROVER", "lower case: autonomy.approver"}},
		{"double underscore variable", map[string]string{"AAYU_AUTONOMY__STREAK": "0"}, nil, []string{"AAYU_AUTONOMY__STREAK", "is not a setting"}},
		{"a string for a list in the user file", map[string]string{"HOME": home}, nil, []string{userFile, "autonomy.never must be a list of strings"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vars := map[string]string{}
			for k, v := range c.vars {
				vars[k] = v
			}
			environ := []string{}
			for k, v := range vars {
				environ = append(environ, k+"="+v)
			}
			code, out, errOut := runAayuEnviron(t, vars, environ, append(c.args, "--sandbox", "inbox", "--list")...)
			if code != tui.ExitUsage {
				t.Fatalf("exit %d, want 2:\n%s%s", code, out, errOut)
			}
			for _, s := range append(c.say, "Nothing was done") {
				if !strings.Contains(errOut, s) {
					t.Errorf("the refusal does not say %q:\n%s", s, errOut)
				}
			}
		})
	}
}

func runAayuEnviron(t *testing.T, vars map[string]string, environ []string, args ...string) (int, string, string) {
	t.Helper()
	if vars["HOME"] == "" {
		vars["HOME"] = t.TempDir()
	}
	var out, errb strings.Builder
	code := runCLI(t.Context(), vars, args, cli.Env{Stdout: &out, Stderr: &errb, Environ: environ})
	return code, out.String(), errb.String()
}

// TestShipRefusesTypeConfusedBasePolicyThroughTheBinary: the base branch's
// policy says never = "L04" (a string where a list belongs). aayu ship
// refuses, exit 4, naming the file and the key, and writes nothing: the
// policy is never read as "no never layers".
func TestShipRefusesTypeConfusedBasePolicyThroughTheBinary(t *testing.T) {
	t.Parallel()
	sb := startCountingSandbox(t)
	gh, err := ghx.NewClient(ghx.ClientOptions{APIURL: sb.url + "/", Token: ghx.NewToken("sandbox-founder", "test")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cfg, err := ghx.ReadFile(ctx, gh, "acme", "benefits", "dev", ".aayudha/config.toml")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(cfg), `never = ["L04", "L07", "L09"]`, `never = "L04"`, 1)
	if bad == string(cfg) {
		t.Fatal("the demo config has no never line to confuse")
	}
	if _, err := ghx.CommitFiles(ctx, gh, "acme", "benefits", "dev", map[string][]byte{".aayudha/config.toml": []byte(bad)}, "policy: never as a string", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	before := len(sb.writes())
	a := startAayu(t, map[string]string{"HOME": t.TempDir(), "AAYU_GITHUB_TOKEN": "sandbox-founder"},
		"--plain", "--set", "identity.device_client_id=aayu-sandbox", "--api-url", sb.url+"/", "--oauth-url", sb.url, "--repo", "acme/benefits", "ship", "4", "--solo-bypass")
	device := regexp.MustCompile(deviceCodeLine)
	approved := false
	deadline := time.Now().Add(e2eWait)
	for !regexp.MustCompile(`result: exit \d`).MatchString(a.out.String()) {
		if m := device.FindStringSubmatch(a.out.String()); m != nil && !approved {
			// Whether presence comes before the read-only gates or not,
			// the refusal must follow.
			approveOnSandbox(t, m[1], m[2], "founder")
			approved = true
		}
		if time.Now().After(deadline) {
			t.Fatalf("ship never finished:\n%s", a.out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	code := a.exit()
	out := a.out.String()
	if code != tui.ExitRefused || !strings.Contains(out, "the base branch's .aayudha/config.toml: autonomy.never must be a list of strings") {
		t.Fatalf("exit %d, want 4 naming the file and key:\n%s", code, out)
	}
	for _, w := range sb.writes()[before:] {
		if !strings.Contains(w, "/login/") {
			t.Errorf("a refused ship wrote %s", w)
		}
	}
}
