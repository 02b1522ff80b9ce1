package release

import (
	"bytes"
	"context"
	"strings"
	"testing"

	core "github.com/aayudha/aayu/actions/release"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

func plan() core.Plan {
	return core.Plan{Owner: "acme", Repo: "benefits", From: "dev", To: "main", Tag: "v1.0.0", Method: core.MethodFastForward,
		FromSHA: "aef073486d0997ecd044b110f5bf3c9dafc21f74", ToSHA: "535c906d970b00000000000000000000000000aa", Commits: 3, Viewer: "founder",
		Stories:  []core.Story{{Story: 14, PR: 15, Title: "Story: deductible tiers", PackSHA256: "45c489c36289aaaa", ShipRecord: "proof/14/b0b0/authoritative/ship.json"}},
		Unproven: []core.Unproven{{PR: 10, Why: "merged without aayu ship"}, {PR: 15, Why: "merged unreviewed: its audit is still open"}}}
}

type fake struct {
	p       core.Plan
	applied int
}

func (f *fake) deps() Deps {
	return Deps{To: "main",
		Read: func(context.Context) (core.Plan, error) { return f.p, nil },
		Apply: func(context.Context, core.Plan) (core.Result, error) {
			f.applied++
			return core.Result{Promoted: f.p.FromSHA, Record: "9f1c2e3d4b5a69788796a5b4c3d2e1f009182736", RecordedPath: "releases/v1.0.0.json",
				Tag: "v1.0.0", TagSHA: f.p.FromSHA, ReleaseURL: "https://github.com/acme/benefits/releases/tag/v1.0.0", ApprovedBy: "founder"}, nil
		},
	}
}

func runPlain(t *testing.T, d Deps, input string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	code, err := tui.Run(context.Background(), New(context.Background(), tui.Common{Plain: true}, d),
		tui.RunOptions{Plain: true, Out: &out, In: strings.NewReader(input)})
	if err != nil {
		t.Fatal(err)
	}
	return code, out.String()
}

// TestReleaseScreenNamesStoriesAndUnprovenThenWritesOnYes: the plain twin
// names each Story and each merge carried without proof, lists the writes,
// and writes them once on y.
func TestReleaseScreenNamesStoriesAndUnprovenThenWritesOnYes(t *testing.T) {
	f := &fake{p: plan()}
	code, out := runPlain(t, f.deps(), "y\n")
	if code != tui.ExitOK || f.applied != 1 {
		t.Fatalf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
	for _, w := range []string{"#14 Story: deductible tiers", "#10 merged without aayu ship", "#15 merged unreviewed", "releases/v1.0.0.json",
		"the tag v1.0.0", "promoted: main is at aef073486d09", "released: https://github.com/acme/benefits/releases/tag/v1.0.0"} {
		if !strings.Contains(out, w) {
			t.Errorf("the transcript lacks %q:\n%s", w, out)
		}
	}
}

// TestReleaseScreenBlockedAsksNothing: what blocks the release is said in
// words and nothing is asked or written, exit 4.
func TestReleaseScreenBlockedAsksNothing(t *testing.T) {
	p := plan()
	p.Blocks = []string{"Story #14 (pull request #15): its pack no longer verifies: artifact evidence/criterion-1.jsonl: sha256 differs"}
	f := &fake{p: p}
	code, out := runPlain(t, f.deps(), "y\n")
	if code != tui.ExitRefused || f.applied != 0 || strings.Contains(out, "Type y and Enter") || !strings.Contains(out, "its pack no longer verifies") {
		t.Fatalf("exit %d, applied %d:\n%s", code, f.applied, out)
	}
}

// TestReleaseScreenWritesNothingWithoutYes: any other answer writes nothing.
func TestReleaseScreenWritesNothingWithoutYes(t *testing.T) {
	for _, in := range []string{"n\n", "\n", ""} {
		f := &fake{p: plan()}
		if code, out := runPlain(t, f.deps(), in); code != tui.ExitRefused || f.applied != 0 {
			t.Errorf("input %q: exit %d, applied %d:\n%s", in, code, f.applied, out)
		}
	}
}

// TestReleaseScreenHostileTitleInert: a Story title or reason carrying
// escape sequences is shown as text, never obeyed.
func TestReleaseScreenHostileTitleInert(t *testing.T) {
	p := plan()
	p.Stories[0].Title = "evil\x1b]52;c;aGk=\x07 title\x1b[2J\u202e"
	p.Unproven[0].Why = "why\rnot"
	f := &fake{p: p}
	_, out := runPlain(t, f.deps(), "n\n")
	tuitest.AssertInert(t, "plain", out)
}

// TestReleaseNotesNeutralised: the release notes carry titles and
// criteria as inert text: no mention, link, HTML or control acts.
func TestReleaseNotesNeutralised(t *testing.T) {
	p := plan()
	p.Stories[0].Title = "@everyone <img src=x> [click](https://evil) \x1b[2J"
	p.Stories[0].Goal = []string{"criterion `code` #1"}
	n := core.Notes(p)
	for _, bad := range []string{"\x1b", " @everyone", " <img", " [click", " `code"} {
		if strings.Contains(n, bad) {
			t.Errorf("the notes carry %q as is:\n%s", bad, n)
		}
	}
}
