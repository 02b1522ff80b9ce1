package proof

import (
	"context"
	"strings"
	"testing"
)

func TestHashInWords(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "(none)"},
		{strings.Repeat("ab", 32), strings.Repeat("ab", 32)},
		{strings.Repeat("c", 40), strings.Repeat("c", 40)},
		{"HEAD~1", `"HEAD~1"`},
		{strings.Repeat("a", 100), `"` + strings.Repeat("a", 80) + `…"`},
		{"abc\x1b[2J", `"abc\x1b[2J"`},
	}
	for _, tc := range tests {
		if got := hashInWords(tc.in); got != tc.want {
			t.Errorf("hashInWords(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestProblemsNameWholeValues checks that a person comparing hashes and
// heads sees every character: no problem abbreviates them.
func TestProblemsNameWholeValues(t *testing.T) {
	files := fixtureFiles()
	p := fixturePack(files)
	otherGoal := strings.Repeat("0", 64)
	p.CompletionGoalHash = otherGoal
	dir := writeFixtureDir(t, p, files)
	opts := fixtureOptions()
	opts.HeadSHA = strings.Repeat("c", 40)
	opts.Ready.BodyHash = strings.Repeat("e", 64)
	r, err := VerifyDir(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := map[Code][]string{
		CodeHeadMismatch: {fixtureHead, opts.HeadSHA},
		CodeGoalHash:     {otherGoal, fixtureGoal},
		CodeReadyHash:    {fixtureGoal, opts.Ready.BodyHash},
	}
	for _, pr := range r.Problems {
		for _, s := range want[pr.Code] {
			if !strings.Contains(pr.Message, s) {
				t.Errorf("%s problem %q does not name %s whole", pr.Code, pr.Message, s)
			}
		}
		delete(want, pr.Code)
	}
	for code := range want {
		t.Errorf("no %s problem:%s", code, describeProblems(r))
	}
}
