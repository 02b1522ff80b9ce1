package templates

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestMergeGateNamesTheStoryOfEveryKindOfChange runs each job's "Name the
// story" step as Actions would (sh -e, the event's text only in env): a
// Story's story/N-… and a Bug's fix/N-… branch name N; the inbox's revert
// of a merge (aayu/revert-PR) names the Story its body's Refs #N line
// gives, the one the reverted pull request linked; any other branch, or a
// revert naming no Story, stops the job with the reason. Only digits pass.
func TestMergeGateNamesTheStoryOfEveryKindOfChange(t *testing.T) {
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Name string            `yaml:"name"`
				Run  string            `yaml:"run"`
				Env  map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(MergeGate), &wf); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ ref, body, want string }{
		{"story/3-remaining-deductible", "", "3"},
		{"fix/11-applies-case", "Fixes #11", "11"},
		{"aayu/revert-15", "Reverts #15 (merge abc): its audit found it needs a correction.\n\nRefs #14 (the Story #15 linked)", "14"},
		{"aayu/revert-15", "Reverts #15 with no Story", ""},
		{"aayu/revert-15", "Refs #14$(touch pwned)", "14"},
		{"aayu/revert-15", "Refs #1a", ""},
		{"feature/3-x", "Refs #3", ""},
		{"story/3$(id)-x", "", ""},
	}
	steps := 0
	for job, j := range wf.Jobs {
		for _, st := range j.Steps {
			if !strings.HasPrefix(st.Name, "Name the story") {
				continue
			}
			steps++
			if st.Env["PR_BODY"] != "${{ github.event.pull_request.body }}" || st.Env["HEAD_REF"] != "${{ github.event.pull_request.head.ref }}" {
				t.Errorf("%s: the step's env %v does not bring the branch and the body in through env", job, st.Env)
			}
			for _, c := range cases {
				dir := t.TempDir()
				ghEnv := filepath.Join(dir, "github_env")
				cmd := exec.Command("sh", "-e", "-c", st.Run)
				cmd.Dir = dir
				cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HEAD_REF=" + c.ref, "PR_BODY=" + c.body, "GITHUB_ENV=" + ghEnv}
				out, err := cmd.CombinedOutput()
				b, _ := os.ReadFile(ghEnv)
				got := strings.TrimSpace(strings.TrimPrefix(string(b), "AAYU_STORY="))
				switch {
				case c.want == "" && (err == nil || !strings.Contains(string(out), "names no story")):
					t.Errorf("%s: %q with body %q was not stopped with the reason (%v):\n%s", job, c.ref, c.body, err, out)
				case c.want != "" && (err != nil || got != c.want):
					t.Errorf("%s: %q with body %q named story %q (%v), want %s:\n%s", job, c.ref, c.body, got, err, c.want, out)
				}
				if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
					t.Errorf("%s: the body's text ran as a command", job)
				}
			}
		}
	}
	if steps != 3 {
		t.Errorf("%d jobs name the story, want tests, pack and comment", steps)
	}
}
