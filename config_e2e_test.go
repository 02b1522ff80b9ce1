package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/tui"
)

// TestConfigRefusesUnknownAndMistypedSettings runs aayu with a setting it
// cannot take in each layer a person controls: exit 2 before anything is
// done, with the flag, variable or file and the key named.
func TestConfigRefusesUnknownAndMistypedSettings(t *testing.T) {
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
	code := run(t.Context(), args, env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv: func(k string) string { return vars[k] }, environ: environ,
	})
	return code, out.String(), errb.String()
}
