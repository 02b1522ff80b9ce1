package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/tui"
)

// fixtureVulnDBURL is the vendored vulnerability database (actions/
// packbuild's fixture: GO-2026-0001 in example.com/vulnlib's Parse, fixed
// in v1.0.1) as govulncheck's -db reads it: a file:// folder, no network.
func fixtureVulnDBURL(t *testing.T) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("..", "actions", "packbuild", "testdata", "scanners", "vulndb"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(abs, "index", "db.json")); err != nil {
		t.Fatalf("the fixture vulnerability database: %v", err)
	}
	return "file://" + filepath.ToSlash(abs)
}

// setScanners merges a founder's policy pull request naming govulncheck
// in [verify] scanners, with the fixture database as [verify] vulndb.
func (f *freshLoop) setScanners(db string) {
	f.t.Helper()
	founder := f.agentClone()
	founder.auth.Password = "sandbox-founder"
	b, err := os.ReadFile(filepath.Join(founder.dir, ".aayudha", "config.toml"))
	if err != nil {
		f.t.Fatal(err)
	}
	cfg := string(b)
	if !strings.Contains(cfg, "\n[verify]\n") {
		f.t.Fatalf("init's policy has no [verify] table:\n%s", cfg)
	}
	cfg = strings.Replace(cfg, "\n[verify]\n", fmt.Sprintf("\n[verify]\nscanners = [\"govulncheck\"]\nvulndb = %q\n", db), 1)
	founder.commit("policy/scanners", "policy: govulncheck gates every merge", map[string]string{".aayudha/config.toml": cfg})
	founder.push("policy/scanners")
	f.merge(f.openPR("policy/scanners", "main", "govulncheck", "Every pull request's reachable vulnerabilities fail the merge gate."))
}

// freshVulnShout is Shout normalising the name through the vulnerable
// example.com/vulnlib.Parse: the call govulncheck finds reachable.
const freshVulnShout = `package greet

import (
	"strings"

	"example.com/vulnlib"
)

// Shout greets name in capitals.
func Shout(name string) string { return strings.ToUpper(Hello(vulnlib.Parse(name))) }
`

// TestFreshGovulncheckFloorFailsOnAReachableVulnerability: on acme/fresh
// whose base policy names govulncheck in [verify] scanners with a vendored
// fixture of the vulnerability database (no network), an agent's Story
// pull request that adds example.com/vulnlib v1.0.0 (vendored) and calls
// its vulnerable Parse gets a red merge gate: the run fails, the gate's
// comment shows the govulncheck floor failing with GO-2026-0001 and its
// call path, aayudha/merge-gate is failure, and aayu ship refuses,
// passing over the failed run, merging nothing.
func TestFreshGovulncheckFloorFailsOnAReachableVulnerability(t *testing.T) {
	t.Parallel()
	f := startFreshLoop(t)
	f.setUp()
	f.setScanners(fixtureVulnDBURL(t))
	lib, err := os.ReadFile(filepath.Join("..", "actions", "packbuild", "testdata", "scanners", "vulnlib", "lib.go"))
	if err != nil {
		t.Fatal(err)
	}

	n := f.newIssue("Story: Hello shouts", freshShoutBody, "type:story")
	if code, out := f.personWithPresence("ready", itoa(n)); code != tui.ExitOK {
		t.Fatalf("aayu ready %d exited %d:\n%s", n, code, out)
	}
	agent := f.agentClone()
	branch := fmt.Sprintf("story/%d-shout-vulnlib", n)
	head := agent.commit(branch, fmt.Sprintf("greet: Shout, through vulnlib\n\nRefs #%d", n), map[string]string{
		"go.mod":                                    "module example.com/fresh\n\ngo 1.22\n\nrequire example.com/vulnlib v1.0.0\n",
		"vendor/modules.txt":                        "# example.com/vulnlib v1.0.0\n## explicit; go 1.22\nexample.com/vulnlib\n",
		"vendor/example.com/vulnlib/lib.go":         string(lib),
		"vendor/example.com/vulnlib/LICENSE":        "made up for aayu's tests\n",
		"greet/shout.go":                            freshVulnShout,
		"greet/shout_test.go":                       freshShoutTest,
		fmt.Sprintf(".aayudha/evidence/%d.toml", n): "[[criterion]]\nid = 1\ntests = [\"greet:TestShout\"]\n",
	})
	agent.push(branch)
	pr := f.openPR(branch, "main", "Hello shouts", fmt.Sprintf("Refs #%d", n))

	run := f.waitForGate(head)
	c := f.gateComment(pr)
	if run.GetConclusion() != "failure" {
		t.Fatalf("the merge gate's run on %s, whose code calls a vulnerable symbol, concluded %s:\n%s\n%s", head, run.GetConclusion(), c, f.logs.String())
	}
	for _, want := range []string{
		"| govulncheck | **fail** | 1 | 0 |",
		"1 reachable vulnerability: GO-2026-0001 called through example.com/fresh/greet.Shout",
		"example.com/vulnlib.Parse",
		"Floors that do not hold: govulncheck.",
	} {
		if !strings.Contains(c, want) {
			t.Errorf("the gate's comment on #%d lacks %q:\n%s", pr, want, c)
		}
	}
	if state, desc := f.gateStatus(head); state != "failure" || !strings.Contains(desc, "a floor does not hold") {
		t.Errorf("aayudha/merge-gate on %s: %s %q", head, state, desc)
	}

	// The run failed, so no run qualifies: ship refuses (exit 4, SPEC §5's
	// rule that only a successful pull_request_target run proves a head),
	// passing over the run the floor failed, and merges nothing.
	code, out := f.personWithPresence("ship", itoa(pr))
	if code != tui.ExitRefused || !strings.Contains(out, fmt.Sprintf("passed over run %d (pull_request_target): failed", run.GetID())) ||
		!strings.Contains(out, "nothing qualifies: no successful pull_request_target run") || strings.Contains(out, "merged into main") {
		t.Fatalf("aayu ship %d of a head whose govulncheck floor does not hold exited %d:\n%s", pr, code, out)
	}
	if p, _, err := f.client("founder").PullRequests.Get(context.Background(), "acme", "fresh", pr); err != nil || p.GetMerged() {
		t.Fatalf("a refused ship merged #%d (%v)", pr, err)
	}
}
