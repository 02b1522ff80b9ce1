package inspect

import (
	"strings"
	"testing"
)

const assertingTest = `package greet

import "testing"

func TestHelloBlank(t *testing.T) {
	if got := Hello("  "); got != "Hello, world!" {
		t.Errorf("got %q", got)
	}
}

func TestHelloHelper(t *testing.T) { check(t, Hello("x")) }

func TestHelloSubtest(t *testing.T) {
	t.Run("a", func(st *testing.T) { if Hello("") == "" { st.Fatal("empty") } })
}

func TestHelloNoFailurePath(t *testing.T) {
	_ = Hello("  ")
	t.Log("called Hello")
}

func ExampleHello() {
	fmt.Println(Hello("x"))
	// Output: Hello, x!
}

func ExampleHelloSilent() {
	fmt.Println(Hello("x"))
}
`

// TestAssertsNamesATestWithNoFailurePath: a test that calls a failure
// method, hands t to a helper or asserts in a subtest can fail; one that
// only calls the code and logs cannot, and neither can an Example with no
// Output comment.
func TestAssertsNamesATestWithNoFailurePath(t *testing.T) {
	for _, tc := range []struct {
		name         string
		found, fails bool
	}{
		{"TestHelloBlank", true, true},
		{"TestHelloHelper", true, true},
		{"TestHelloSubtest", true, true},
		{"TestHelloNoFailurePath", true, false},
		{"ExampleHello", true, true},
		{"ExampleHelloSilent", true, false},
		{"TestMissing", false, false},
	} {
		found, fails := Asserts([]byte(assertingTest), tc.name)
		if found != tc.found || fails != tc.fails {
			t.Errorf("Asserts(%s) = found %v, can fail %v; want %v, %v", tc.name, found, fails, tc.found, tc.fails)
		}
	}
	if found, _ := Asserts([]byte("package x\nfunc TestA(t *testing.T) {"), "TestA"); found {
		t.Errorf("a file that does not parse declared a test")
	}
}

func facts() Facts {
	return Facts{
		Goals:  []Goal{{1, "Hello greets the world for a blank name"}, {2, "Hello keeps a real name"}},
		Map:    []Mapping{{1, []string{"greet:TestHelloBlank"}}, {2, []string{"greet:TestHelloHelper"}}},
		Mapped: true,
		Outcome: map[string]Outcome{"greet:TestHelloBlank": Passed, "greet:TestHelloHelper": Passed,
			"greet:TestHelloNoFailurePath": Passed},
		TestFiles: map[string]map[string][]byte{"greet": {"greet_test.go": []byte(assertingTest)}},
	}
}

// TestJudgeEachCriterionAgainstItsMappedTests: each way a mapped test falls
// short is named on its criterion; tests that ran, passed, exist and can
// fail leave it clean.
func TestJudgeEachCriterionAgainstItsMappedTests(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Facts)
		want string // a problem on criterion 1; "" none
	}{
		{"clean", func(*Facts) {}, ""},
		{"did not run", func(f *Facts) { delete(f.Outcome, "greet:TestHelloBlank") }, "greet:TestHelloBlank did not run in this pack's events"},
		{"failed", func(f *Facts) { f.Outcome["greet:TestHelloBlank"] = Failed }, "greet:TestHelloBlank failed in this pack's events"},
		{"skipped", func(f *Facts) { f.Outcome["greet:TestHelloBlank"] = Skipped }, "was skipped"},
		{"not at the head", func(f *Facts) { f.Map[0].Tests = []string{"greet:TestGone"}; f.Outcome["greet:TestGone"] = Passed },
			"greet:TestGone does not exist at the head"},
		{"no failure path", func(f *Facts) { f.Map[0].Tests = []string{"greet:TestHelloNoFailurePath"} },
			"greet:TestHelloNoFailurePath has no failure path"},
		{"mapped twice", func(f *Facts) { f.Map[1].Tests = []string{"greet:TestHelloBlank"} },
			"greet:TestHelloBlank is mapped to criterion 2 too"},
		{"no test", func(f *Facts) { f.Map = f.Map[1:] }, "names no test for it"},
		{"no map", func(f *Facts) { f.Mapped, f.MapWhy = false, ".aayudha/evidence/3.toml is not at the head" }, "no evidence map at the head"},
		{"bug green on base", func(f *Facts) { f.Bug, f.RedOnBase = true, map[int]string{1: "green on base", 2: "red on base"} },
			"this is a Bug, and its tests are green on base"},
		{"bug without red on base", func(f *Facts) { f.Bug = true }, "records no red-on-base result"},
		{"bug red on base", func(f *Facts) { f.Bug, f.RedOnBase = true, map[int]string{1: "red on base", 2: "red on base"} }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := facts()
			tc.edit(&f)
			got := Judge(f)
			if len(got) != 2 || got[0].ID != 1 {
				t.Fatalf("Judge = %+v", got)
			}
			all := strings.Join(got[0].Problems, "\n")
			if tc.want == "" && all != "" || tc.want != "" && !strings.Contains(all, tc.want) {
				t.Errorf("criterion 1's problems:\n%s\nwant %q", all, tc.want)
			}
		})
	}
}

// TestStatusNoReviewerIsTheHumanRung: with no reviewer the gate posts
// pending "human rung: …" in seed 001's words, the description the inbox
// reads as waiting for the person.
func TestStatusNoReviewerIsTheHumanRung(t *testing.T) {
	j := Judgement{Criteria: Judge(facts())}
	j.Decide(false, "", 0)
	state, desc := j.Status()
	if state != "pending" || desc != "human rung: no reviewer app or paid model could review this head" {
		t.Errorf("Status = %s %q", state, desc)
	}
}

// TestDecideTakesTheLowestRungAndStopsAfterThreeRounds: converged, the
// lowest rung any criterion got stands as success; not converged, the
// round is counted, and the third distinct head stops the review.
func TestDecideTakesTheLowestRungAndStopsAfterThreeRounds(t *testing.T) {
	j := Judgement{Criteria: Judge(facts()), Builder: "claude-sonnet-4-5", ReviewerModel: "gpt-5"}
	j.Criteria[0].Rung, j.Criteria[0].Shown = "A", true
	j.Criteria[1].Rung, j.Criteria[1].Shown = "B", true
	j.Decide(true, "", 0)
	if state, desc := j.Status(); state != "success" || !strings.HasPrefix(desc, "rung B: ") {
		t.Errorf("converged: %s %q", state, desc)
	}
	j.Criteria[1].Shown = false
	j.Decide(true, "", 1)
	state, desc := j.Status()
	if state != "failure" || desc != "rung B: round 2 of 3 did not converge; not shown: criterion 2" || !DidNotConverge(state, desc) {
		t.Errorf("round 2: %s %q", state, desc)
	}
	prior := Prior([]PriorStatus{{"aaa", state, desc}, {"aaa", state, desc}, {"bbb", state, desc}, {"ccc", "success", "rung A: …"}, {"head", state, desc}}, "head")
	if prior != 2 {
		t.Errorf("Prior = %d, want 2 distinct earlier heads", prior)
	}
	j.Decide(true, "", prior)
	if state, desc := j.Status(); state != "failure" || !strings.HasPrefix(desc, "review stopped: ") || !strings.Contains(desc, "step back") {
		t.Errorf("round 3: %s %q", state, desc)
	}
}

// TestValidateRefusesAJudgementOfAnotherHead: the comment job posts a
// judgement only of the pull request and head it is run for.
func TestValidateRefusesAJudgementOfAnotherHead(t *testing.T) {
	j := Judgement{Version: Version, PR: 4, Head: "abc", Rung: RungHuman}
	if err := j.Validate(4, "abc"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		edit func(*Judgement)
		want string
	}{
		{func(j *Judgement) { j.Head = "def" }, "not the pull request's head"},
		{func(j *Judgement) { j.PR = 5 }, "is of #5"},
		{func(j *Judgement) { j.Rung = "merge" }, "none inspect gives"},
		{func(j *Judgement) { j.Criteria = []Criterion{{ID: 1, Rung: "S"}} }, "none a model may give"},
	} {
		bad := j
		tc.edit(&bad)
		if err := bad.Validate(4, "abc"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate = %v, want %q", err, tc.want)
		}
	}
}
