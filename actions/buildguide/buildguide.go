// Package buildguide is what `aayu build STORY` tells the builder agent:
// the Story's Completion Goal criteria and the evidence map it must
// commit (.aayudha/evidence/STORY.toml, seed 000 step 2), and whether a
// map it already wrote fits the Ready snapshot. It reads GitHub and
// writes nothing there.
package buildguide

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/proof"
)

// LedgerBranch and the snapshot's path are the ones aayu ready writes.
const LedgerBranch = "ledger"

// MapPath is the evidence map's path in the checkout.
func MapPath(story int) string { return fmt.Sprintf(".aayudha/evidence/%d.toml", story) }

// Kinds are the keys a [[criterion]] table may use to name its evidence
// (proof.CriterionKeys but id): tests, whose passing go test events become
// the criterion's api-trace artifact, and for a page a person sees, the
// screenshot the web floor captures (a path of [verify] app), an element
// that must be on it, whether to read its screen-reader transcript and
// whether to record it loading.
var Kinds = []string{"tests", "screenshot", "element", "sr-transcript", "recording"}

// Guide is one Story's criteria as the builder must prove them.
type Guide struct {
	Story int
	Title string // as GitHub gave it: neutralise before printing
	// Frozen says the criteria come from the Ready snapshot on the ledger;
	// otherwise they are the Story's "## Completion Goal" as it reads now.
	Frozen   bool
	Hash     string // the snapshot's completion_goal_hash; "" when not frozen
	Criteria []proof.ReadyCriterion
}

// Refusal is a reason, in words, that there is no guide for the Story.
type Refusal struct{ Why string }

func (r *Refusal) Error() string { return r.Why }

// Read reads the Story's issue and its Ready snapshot on the ledger: the
// snapshot's criteria when it is frozen, else the issue's Completion Goal.
func Read(ctx context.Context, gh *github.Client, owner, repo string, story int) (*Guide, error) {
	is, _, err := gh.Issues.Get(ctx, owner, repo, story)
	if err != nil {
		return nil, fmt.Errorf("reading issue #%d: %s", story, ghx.Describe(err))
	}
	if is.IsPullRequest() {
		return nil, &Refusal{fmt.Sprintf("#%d is a pull request, not a Story; give the Story's number.", story)}
	}
	g := &Guide{Story: story, Title: is.GetTitle()}
	b, err := ghx.ReadFile(ctx, gh, owner, repo, LedgerBranch, fmt.Sprintf("specs/%d/ready.md", story))
	switch {
	case err == nil:
		r, perr := proof.ParseReady(b)
		if perr != nil {
			return nil, &Refusal{fmt.Sprintf("The Ready snapshot of Story #%d on the ledger cannot be read: %s. A person freezes it again with aayu ready %d --again.", story, untrusted.RecordLine(perr.Error()), story)}
		}
		g.Frozen, g.Hash, g.Criteria = true, r.RecordedHash, r.Criteria
		return g, nil
	case !ghx.IsNotFound(err):
		return nil, fmt.Errorf("reading the Ready snapshot of #%d: %s", story, ghx.Describe(err))
	}
	c, err := proof.CompletionGoal(fmt.Sprintf("Story #%d's body", story), is.GetBody())
	if err != nil {
		return nil, &Refusal{fmt.Sprintf("There is nothing to build against: %s. Write the goal as numbered items under \"## Completion Goal\" in the issue.", untrusted.RecordLine(err.Error()))}
	}
	g.Criteria = c
	return g, nil
}

// commentLines is text as TOML comment lines, each neutral: a criterion
// comes from an issue, so no escape sequence or control character may
// reach the terminal or the committed file.
func commentLines(prefix, text string) string {
	var b strings.Builder
	for i, l := range strings.Split(text, "\n") {
		p := prefix
		if i > 0 {
			p = strings.Repeat(" ", len(prefix))
		}
		fmt.Fprintf(&b, "# %s%s\n", p, untrusted.Line(strings.TrimRight(l, " \t")))
	}
	return b.String()
}

// Placeholder is the test a skeleton names for criterion id until the
// builder replaces it; verify's tests floor fails on it if left.
func Placeholder(story, id int) string { return fmt.Sprintf(".:TestStory%dCriterion%d", story, id) }

// Skeleton is the evidence map the builder commits: one [[criterion]]
// table per criterion, its text as a comment and a placeholder test. It
// parses as the map format (proof.LoadEvidenceMap).
func (g *Guide) Skeleton() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Evidence map of Story #%d, committed as %s.\n", g.Story, MapPath(g.Story))
	b.WriteString("# Each [[criterion]] names the top-level Go tests (\"pkg/path:TestName\", \".\" for\n" +
		"# the module root) whose passing run proves it; verify records their go test\n" +
		"# events as the criterion's api-trace evidence. Replace each placeholder test.\n")
	fmt.Fprintf(&b, "# Keys of a criterion: id and %s.\n", strings.Join(Kinds, ", "))
	for _, c := range g.Criteria {
		fmt.Fprintf(&b, "\n[[criterion]]\nid = %d\n", c.ID)
		b.WriteString(commentLines(fmt.Sprintf("%d. ", c.ID), c.Text))
		fmt.Fprintf(&b, "tests = [%q]\n", Placeholder(g.Story, c.ID))
	}
	return []byte(b.String())
}

// Check says, in words, what is wrong with the evidence map raw for the
// guide's criteria: a map that does not parse (an unknown key is an
// unknown kind), a criterion the snapshot does not have, and a criterion
// that no table maps. Nil when the map fits.
func (g *Guide) Check(raw []byte) []string {
	m, err := proof.LoadEvidenceMap(raw)
	if err != nil {
		why := untrusted.RecordLine(err.Error())
		if strings.Contains(err.Error(), "unknown key") {
			why += fmt.Sprintf(" (a criterion's evidence is named by: %s)", strings.Join(Kinds, ", "))
		}
		return []string{why}
	}
	known := map[int]bool{}
	var ids []string
	for _, c := range g.Criteria {
		known[c.ID] = true
		ids = append(ids, fmt.Sprint(c.ID))
	}
	var problems []string
	mapped := map[int]bool{}
	for _, c := range m {
		mapped[c.ID] = true
		if !known[c.ID] {
			problems = append(problems, fmt.Sprintf("criterion %d is not in %s, whose criteria are %s; remove its table or correct its id", c.ID, g.source(), strings.Join(ids, ", ")))
		}
		for _, t := range c.Tests {
			if strings.HasPrefix(t.Test, fmt.Sprintf("TestStory%dCriterion", g.Story)) && t.Package == "." {
				problems = append(problems, fmt.Sprintf("criterion %d still names the placeholder test %s; name the test that proves it", c.ID, t))
			}
		}
	}
	for _, c := range g.Criteria {
		if !mapped[c.ID] {
			problems = append(problems, fmt.Sprintf("criterion %d (%s) names no test; add a [[criterion]] table with id = %d and its tests", c.ID, clip(c.Text), c.ID))
		}
	}
	return problems
}

// source names where the criteria came from, for a message.
func (g *Guide) source() string {
	if g.Frozen {
		return fmt.Sprintf("Story #%d's Ready snapshot", g.Story)
	}
	return fmt.Sprintf("Story #%d's Completion Goal", g.Story)
}

// clip is a criterion's first line, neutral and short, for a message.
func clip(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	s = untrusted.Line(s)
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return "“" + s + "”"
}

// IsRefusal says err is a Refusal.
func IsRefusal(err error) bool {
	var r *Refusal
	return errors.As(err, &r)
}
