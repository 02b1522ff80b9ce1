package gatecomment_test

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/actions/gatecomment"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestGateCommentGivesTheBasePolicyRefusal: the merge gate's comment reads
// the base policy through the one reader ship and the protected-paths gate
// use, so an unparsable base config refuses it in their words, and so does
// a CODEOWNERS rule none of them can evaluate.
func TestGateCommentGivesTheBasePolicyRefusal(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, path, body, words string
	}{
		{"config", ".aayudha/config.toml", "[autonomy]\nnever = \"L04\"\n",
			"The base branch's policy cannot be read: the base branch's .aayudha/config.toml: autonomy.never must be a list of strings"},
		{"CODEOWNERS", ".github/CODEOWNERS", "/src/[a-z/ @founder\n",
			"The base branch's .github/CODEOWNERS has a rule aayu cannot evaluate"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			founder := client(t, strings.TrimSuffix(f.bot.BaseURL.String(), "/"), "founder")
			if _, err := ghx.CommitFiles(f.ctx, founder, owner, repo, "dev", map[string][]byte{c.path: []byte(c.body)}, "break the policy", ghx.CommitOptions{}); err != nil {
				t.Fatal(err)
			}
			code, body := f.run(f.gatePack(sandbox.RunQualifying, nil), "", nil)
			if flat := strings.Join(strings.Fields(body), " "); code != gatecomment.ExitRefused || !strings.Contains(flat, c.words) {
				t.Fatalf("exit %d, want 4 saying %q:\n%s", code, c.words, body)
			}
		})
	}
}
