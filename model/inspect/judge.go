package inspect

import (
	"fmt"
	"slices"
	"strings"
)

// Goal is one criterion of the Ready snapshot.
type Goal struct {
	ID   int
	Text string
}

// Mapping is one [[criterion]] of the evidence map at the head: the tests,
// "pkg/path:TestName", the builder chose to prove it.
type Mapping struct {
	ID    int
	Tests []string
}

// Outcome is what one mapped test did in the pack's events.
type Outcome string

// The outcomes a test can have in the pack's events; "" is "did not run".
const (
	Passed  Outcome = "pass"
	Failed  Outcome = "fail"
	Skipped Outcome = "skip"
)

// Facts are what the gate read for one head, through the API and from the
// pack job's artifact: never a working tree of the pull request, never its
// code run.
type Facts struct {
	Goals   []Goal
	Map     []Mapping
	Mapped  bool               // the evidence map at the head was found and read
	MapWhy  string             // why it could not be, when Mapped is false
	Outcome map[string]Outcome // by "pkg:Test": what the pack's events record
	// TestFiles holds, by package directory, the _test.go files at the
	// head (name → bytes): where each mapped test must be declared.
	TestFiles map[string]map[string][]byte
	// Bug says the story is a Bug: its tests must be red on the base.
	Bug bool
	// RedOnBase is, by criterion, the red-on-base floor's class for it in
	// the pack ("red on base", "green on base", "inconclusive"); absent
	// when the pack has none.
	RedOnBase map[int]string
}

// Judge judges each criterion of the Ready snapshot against its mapped
// tests, naming each way the tests fall short of showing it. It asks no
// model: Decide and a reviewer's answers come after.
func Judge(f Facts) []Criterion {
	users := map[string][]int{} // test → the criteria that name it
	byID := map[int][]string{}
	for _, m := range f.Map {
		byID[m.ID] = m.Tests
		for _, t := range m.Tests {
			users[t] = append(users[t], m.ID)
		}
	}
	out := make([]Criterion, 0, len(f.Goals))
	for _, g := range f.Goals {
		c := Criterion{ID: g.ID, Text: g.Text, Tests: slices.Clone(byID[g.ID])}
		switch {
		case !f.Mapped:
			c.Problems = append(c.Problems, "no evidence map at the head could be read: "+f.MapWhy)
		case len(c.Tests) == 0:
			c.Problems = append(c.Problems, "the evidence map at the head names no test for it")
		}
		for _, t := range c.Tests {
			c.Problems = append(c.Problems, testProblems(f, t)...)
			if others := without(users[t], g.ID); len(others) > 0 {
				c.Problems = append(c.Problems, fmt.Sprintf("%s is mapped to %s too: one test named for unrelated criteria shows at most one of them", t, criteriaWords(others)))
			}
		}
		if f.Bug && len(c.Tests) > 0 {
			switch class := f.RedOnBase[g.ID]; class {
			case "red on base", "inconclusive":
			case "":
				c.Problems = append(c.Problems, "this is a Bug, and the pack records no red-on-base result for it: nothing shows its tests fail without the fix")
			default:
				c.Problems = append(c.Problems, fmt.Sprintf("this is a Bug, and its tests are %s: they do not show the fix", class))
			}
		}
		out = append(out, c)
	}
	return out
}

// testProblems judges one mapped test: it ran and passed in the pack's
// events, it is declared at the head, and it has a failure path.
func testProblems(f Facts, test string) []string {
	var p []string
	switch f.Outcome[test] {
	case Passed:
	case Failed:
		p = append(p, test+" failed in this pack's events")
	case Skipped:
		p = append(p, test+" was skipped in this pack's events, so it showed nothing")
	default:
		p = append(p, test+" did not run in this pack's events")
	}
	pkg, name, _ := strings.Cut(test, ":")
	found, asserts := false, false
	for _, file := range sortedKeys(f.TestFiles[pkg]) {
		if ok, a := Asserts(f.TestFiles[pkg][file], name); ok {
			found, asserts = true, a
			break
		}
	}
	switch {
	case !found:
		p = append(p, fmt.Sprintf("%s does not exist at the head: no _test.go file of %s declares func %s", test, pkg, name))
	case !asserts:
		p = append(p, fmt.Sprintf("%s has no failure path: it never calls Error, Fatal or Fail, hands its *testing.T to no helper and never panics, so it passes whatever the code does", test))
	}
	return p
}

func without(ids []int, id int) []int {
	var out []int
	for _, x := range ids {
		if x != id && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
