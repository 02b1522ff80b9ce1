package packbuild

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/proof"
)

func TestChangedLines(t *testing.T) {
	t.Parallel()
	diff := "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -3,0 +4,2 @@\n+x\n+y\n@@ -10 +12 @@\n-old\n+new\n@@ -20,3 +21,0 @@\n-gone\n" +
		"diff --git a/n.go b/n.go\nnew file mode 100644\n--- /dev/null\n+++ b/n.go\n@@ -0,0 +1,3 @@\n+a\n+b\n+c\n" +
		"diff --git a/d.go b/d.go\n--- a/d.go\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n"
	got := changedLines([]byte(diff))
	want := map[string]map[int]bool{"a.go": {4: true, 5: true, 12: true}, "n.go": {1: true, 2: true, 3: true}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("changedLines = %v, want %v", got, want)
	}
}

func TestLineCoverage(t *testing.T) {
	t.Parallel()
	profile := "mode: set\nexample.com/m/p/a.go:3.20,5.2 1 1\nexample.com/m/p/a.go:5.2,7.3 1 0\nexample.com/m/root.go:1.1,1.9 1 0\n"
	got, err := lineCoverage([]byte(profile), "example.com/m")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[int]bool{"p/a.go": {3: true, 4: true, 5: true, 6: false, 7: false}, "root.go": {1: false}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("lineCoverage = %v, want %v", got, want)
	}
	for _, bad := range []string{"mode: set\nnot a line\n", "mode: set\na.go:3.1,2.1 1 1\n", "mode: set\na.go:x.1,4.1 1 1\n"} {
		if _, err := lineCoverage([]byte(bad), "example.com/m"); err == nil {
			t.Errorf("lineCoverage accepted %q", bad)
		}
	}
}

func TestCoverageCheck(t *testing.T) {
	t.Parallel()
	cases := []struct {
		covered, total int
		threshold      float64
		result         string
		value          float64
		detail         string
	}{
		{0, 0, 90, proof.ResultPass, 100, "no changed executable lines (go coverprofile)"},
		{9, 10, 90, proof.ResultPass, 90, "9 of 10 changed executable lines covered (go coverprofile)"},
		{899, 1000, 90, proof.ResultFail, 89.9, "899 of 1000 changed executable lines covered (go coverprofile); below the threshold of 90%"},
		{8999, 10000, 90, proof.ResultFail, 89.9, "8999 of 10000 changed executable lines covered (go coverprofile); below the threshold of 90%"},
		{2, 3, 66.6, proof.ResultPass, 66.6, "2 of 3 changed executable lines covered (go coverprofile)"},
		// 90.06% floors to 90.0, below 90.05: the recorded value decides.
		{9006, 10000, 90.05, proof.ResultFail, 90, "9006 of 10000 changed executable lines covered (go coverprofile); below the threshold of 90.05%"},
	}
	for _, tc := range cases {
		c := coverageCheck(coverageResult{covered: tc.covered, total: tc.total}, tc.threshold, "go1.26.8", proof.NetworkIsolated)
		if c.Result != tc.result || *c.Value != tc.value || c.Detail != tc.detail || *c.Threshold != tc.threshold {
			t.Errorf("%d/%d at %v: %s %v %q", tc.covered, tc.total, tc.threshold, c.Result, *c.Value, c.Detail)
		}
	}
	r := measureCoverage(map[string]map[int]bool{"a.go": {1: true, 2: true, 3: true}},
		map[string]map[int]bool{"a.go": {2: true, 3: false}})
	if r.covered != 1 || r.total != 2 || !reflect.DeepEqual(r.uncovered, []string{"a.go:3"}) {
		t.Errorf("measureCoverage = %+v: line 1 holds no statement and must not count", r)
	}
}

func TestParseStory(t *testing.T) {
	t.Parallel()
	for arg, want := range map[string]int{"3": 3, "#11": 11, "story/3-remaining-deductible": 3, "fix/11-applies-case": 11, "refs/heads/story/7-x": 7} {
		if got, err := ParseStory(arg); err != nil || got != want {
			t.Errorf("ParseStory(%q) = %d, %v; want %d", arg, got, err, want)
		}
	}
	for _, bad := range []string{"", "0", "-3", "story/x-y", "main"} {
		if _, err := ParseStory(bad); err == nil {
			t.Errorf("ParseStory(%q) accepted", bad)
		}
	}
}

func TestParseNameStatus(t *testing.T) {
	t.Parallel()
	got := parseNameStatus([]byte("M\x00a.go\x00R100\x00old/x.go\x00new/x.go\x00A\x00b.go\x00"))
	want := []pass.ChangedFile{{Path: "a.go"}, {Path: "new/x.go", PreviousPath: "old/x.go"}, {Path: "b.go"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseNameStatus = %+v", got)
	}
}

// TestVerifyRefusals: an unusable Ready snapshot or evidence map, or a
// checkout that is not the commit it claims, is refused with exit 4 and
// words, before any test runs.
func TestVerifyRefusals(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	cases := []struct {
		name  string
		edit  func(t *testing.T, req *Request)
		words string
	}{
		{"no Ready snapshot", func(t *testing.T, req *Request) { req.Ready = nil }, "no Ready snapshot"},
		{"a Ready snapshot that cannot be read", func(t *testing.T, req *Request) { req.Ready = []byte("not a snapshot\n") }, "cannot be read"},
		{"no evidence map", func(t *testing.T, req *Request) {
			if err := os.Remove(filepath.Join(req.Dir, ".aayudha", "evidence", "3.toml")); err != nil {
				t.Fatal(err)
			}
		}, "uncommitted changes"},
		{"no evidence map for this story", func(t *testing.T, req *Request) { req.Story = 9 }, "no evidence map .aayudha/evidence/9.toml"},
		{"an evidence map with a typo", func(t *testing.T, req *Request) {
			p := filepath.Join(req.Dir, ".aayudha", "evidence", "3.toml")
			if err := os.WriteFile(p, []byte("[[criterion]]\nid = 1\ntest = [\"deductible:TestRemaining\"]\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			gitCommit(t, req.Dir)
		}, "is not usable"},
		{"a threshold that is not a percentage", func(t *testing.T, req *Request) { req.Config.Set = []string{"verify.coverage_threshold=200"} }, "a percentage from 0 to 100"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := d.request(t, 3, beforeBlock)
			tc.edit(t, &req)
			ev := &events{}
			out, err := Run(context.Background(), Tools{}, req, ev.add)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if out.ExitCode != ExitRefused || !strings.Contains(out.Refusal, tc.words) {
				t.Errorf("exit %d refusal %q; want 4 saying %q", out.ExitCode, out.Refusal, tc.words)
			}
			if len(ev.list) != 0 {
				t.Errorf("a refused run still ran steps: %v", ev.list)
			}
			if _, err := os.Stat(PackDir(req.Dir, req.Story)); err == nil {
				t.Error("a refused run wrote a pack")
			}
		})
	}
}

// TestVerifyGitFailure: a folder that is not a checkout is a failure
// (exit 1 from the caller), not a refusal.
func TestVerifyGitFailure(t *testing.T) {
	t.Parallel()
	needTools(t)
	_, err := Run(context.Background(), Tools{}, Request{Dir: t.TempDir(), Story: 3, BaseRef: "origin/dev", Ready: []byte("x")}, nil)
	if err == nil || !strings.Contains(err.Error(), "not a git checkout") {
		t.Fatalf("err = %v, want one saying it is not a git checkout", err)
	}
}

func TestRepoFromRemoteURL(t *testing.T) {
	t.Parallel()
	for u, want := range map[string]string{
		"https://github.com/acme/benefits.git":     "acme/benefits",
		"https://github.com/acme/benefits":         "acme/benefits",
		"git@github.com:acme/benefits.git":         "acme/benefits",
		"ssh://git@ghes.example.com/acme/benefits": "acme/benefits",
		"https://ghes.example.com/acme/benefits/":  "acme/benefits",
	} {
		o, n, err := repoFromRemoteURL(u)
		if err != nil || o+"/"+n != want {
			t.Errorf("repoFromRemoteURL(%q) = %s/%s, %v; want %s", u, o, n, err, want)
		}
	}
	for _, bad := range []string{"", "/srv/git/benefits.git", "https://github.com/acme", "file:///x"} {
		if _, _, err := repoFromRemoteURL(bad); err == nil {
			t.Errorf("repoFromRemoteURL(%q) accepted", bad)
		}
	}
}
