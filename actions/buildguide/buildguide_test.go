package buildguide

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/proof"
)

func guide() *Guide {
	return &Guide{Story: 3, Title: "Story: deductible", Frozen: true, Hash: strings.Repeat("a", 64),
		Criteria: []proof.ReadyCriterion{{ID: 1, Text: "The deductible shows on the summary page"}, {ID: 2, Text: "A \x1b[31mred\x1b[0m claim\nspans two lines"}}}
}

// TestCheckEvidenceMap: a map that fits is nil; each wrong map is refused
// with words naming what is wrong.
func TestCheckEvidenceMap(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		raw  string
		want []string // each problem must contain one, in order; nil: fits
	}{
		{"fits", "[[criterion]]\nid = 1\ntests = [\"deductible:TestShows\"]\n[[criterion]]\nid = 2\ntests = [\"claims:TestSpans\", \".:TestRoot\"]\n", nil},
		{"not TOML", "[[criterion]\nid = 1", []string{"not valid TOML"}},
		{"unknown kind", "[[criterion]]\nid = 1\ntests = [\"a:TestA\"]\nvideo = \"/summary\"\n[[criterion]]\nid = 2\ntests = [\"a:TestB\"]\n", []string{`unknown key "video"`}},
		{"a recording that is a page", "[[criterion]]\nid = 1\ntests = [\"a:TestA\"]\nrecording = \"/summary\"\n[[criterion]]\nid = 2\ntests = [\"a:TestB\"]\n", []string{"recording must be true or false"}},
		{"fits with a recording", "[[criterion]]\nid = 1\ntests = [\"a:TestA\"]\nscreenshot = \"/summary\"\nrecording = true\n[[criterion]]\nid = 2\ntests = [\"a:TestB\"]\n", nil},
		{"fits with a screenshot", "[[criterion]]\nid = 1\ntests = [\"a:TestA\"]\nscreenshot = \"/summary\"\nelement = \"#deductible\"\n[[criterion]]\nid = 2\ntests = [\"a:TestB\"]\n", nil},
		{"a screenshot elsewhere", "[[criterion]]\nid = 1\ntests = [\"a:TestA\"]\nscreenshot = \"https://example.com/\"\n[[criterion]]\nid = 2\ntests = [\"a:TestB\"]\n", []string{"is not a path of the app"}},
		{"unknown criterion", "[[criterion]]\nid = 1\ntests = [\"a:TestA\"]\n[[criterion]]\nid = 2\ntests = [\"a:TestB\"]\n[[criterion]]\nid = 4\ntests = [\"a:TestC\"]\n", []string{"criterion 4 is not in Story #3's Ready snapshot, whose criteria are 1, 2"}},
		{"unmapped criterion", "[[criterion]]\nid = 1\ntests = [\"a:TestA\"]\n", []string{"criterion 2 (“A red claim”) names no test"}},
		{"empty tests", "[[criterion]]\nid = 1\ntests = []\n", []string{"criterion 1 needs tests"}},
		{"subtest", "[[criterion]]\nid = 1\ntests = [\"a:TestA/sub\"]\n", []string{"not a top-level Go test name"}},
		{"placeholder left", string(guide().Skeleton()), []string{"criterion 1 still names the placeholder test .:TestStory3Criterion1", "criterion 2 still names the placeholder"}},
	}
	for _, tc := range cases {
		got := guide().Check([]byte(tc.raw))
		if len(got) != len(tc.want) {
			t.Errorf("%s: problems %q, want %d naming %q", tc.name, got, len(tc.want), tc.want)
			continue
		}
		for i, w := range tc.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: problem %q does not say %q", tc.name, got[i], w)
			}
			if strings.ContainsRune(got[i], 0x1b) {
				t.Errorf("%s: problem %q carries an escape", tc.name, got[i])
			}
		}
	}
}

// TestSkeletonParsesAsTheEvidenceMap: the skeleton is the map format, one
// table per criterion in order, its text a neutral comment.
func TestSkeletonParsesAsTheEvidenceMap(t *testing.T) {
	t.Parallel()
	sk := guide().Skeleton()
	m, err := proof.LoadEvidenceMap(sk)
	if err != nil {
		t.Fatalf("the skeleton does not parse: %v\n%s", err, sk)
	}
	if len(m) != 2 || m[0].ID != 1 || m[1].ID != 2 || m[0].Tests[0].String() != Placeholder(3, 1) {
		t.Errorf("skeleton map %+v", m)
	}
	s := string(sk)
	if strings.ContainsRune(s, 0x1b) || !strings.Contains(s, "# 2. A red claim\n#    spans two lines\n") ||
		!strings.Contains(s, "# 1. The deductible shows on the summary page\n") || !strings.Contains(s, ".aayudha/evidence/3.toml") {
		t.Errorf("skeleton text:\n%s", s)
	}
}
