package checks

import (
	"reflect"
	"strings"
	"testing"
)

// TestJudgeCountsSkippedAndNeutralGreen: as GitHub judges a required
// check — skipped and neutral pass, a name never reported is missing, an
// unfinished one pending, and a red status or check run of any name fails.
func TestJudgeCountsSkippedAndNeutralGreen(t *testing.T) {
	list := []Check{
		FromCheckRun("lint", "completed", "skipped", "github-actions", ""),
		FromCheckRun("docs", "completed", "NEUTRAL", "github-actions", ""),
		FromCheckRun("build", "in_progress", "", "github-actions", ""),
		FromStatus("aayudha/merge-gate", "success", "github-actions[bot]", ""),
		FromCheckRun("aayudha/merge-gate", "completed", "failure", "github-actions", ""),
		FromCheckRun("go test", "completed", "timed_out", "github-actions", ""),
	}
	v := Judge(list, []Required{{"lint", "a ruleset"}, {"docs", "a ruleset"}, {"build", "a ruleset"}, {"deploy", "branch protection"}, {"aayudha/merge-gate", "a ruleset"}})
	if v.Green() {
		t.Fatal("judged green")
	}
	if len(v.Missing) != 1 || v.Missing[0].Name != "deploy" || len(v.Pending) != 1 || v.Pending[0].Name != "build" {
		t.Errorf("missing %v, pending %v", v.Missing, v.Pending)
	}
	if len(v.Failing) != 2 || v.Failing[0].Name != "aayudha/merge-gate" || v.Failing[1].Name != "go test" || v.Failing[1].Detail != "timed_out" {
		t.Errorf("failing %+v", v.Failing)
	}
	if ok := Judge(list[:2], []Required{{"lint", "a ruleset"}, {"docs", "a ruleset"}}); !ok.Green() {
		t.Errorf("skipped and neutral required checks: %+v", ok)
	}
}

func TestFromStatusIsGreenOnlyOnSuccess(t *testing.T) {
	for state, want := range map[string]State{
		"success": Green, "pending": Pending, "failure": Failing, "error": Failing, "": Failing, "SUCCESS": Failing,
	} {
		if got := FromStatus("ci", state, "bot", "").State; got != want {
			t.Errorf("FromStatus(%q).State = %s, want %s", state, got, want)
		}
	}
}

func TestFromCheckRunIsGreenOnlyWhenCompletedWithSuccessNeutralOrSkipped(t *testing.T) {
	cases := []struct {
		status, conclusion string
		want               State
		detail             string
	}{
		{"completed", "success", Green, "success"},
		{"COMPLETED", "Neutral", Green, "neutral"}, // GraphQL's capitals read as REST's words
		{"completed", "skipped", Green, "skipped"},
		{"completed", "failure", Failing, "failure"},
		{"completed", "timed_out", Failing, "timed_out"},
		{"completed", "", Failing, "completed"},
		{"in_progress", "", Pending, "in_progress"},
		{"queued", "success", Pending, "success"},
	}
	for _, c := range cases {
		got := FromCheckRun("test", c.status, c.conclusion, "actions", "")
		if got.State != c.want || got.Detail != c.detail {
			t.Errorf("FromCheckRun(%q, %q) = %s (%q), want %s (%q)", c.status, c.conclusion, got.State, got.Detail, c.want, c.detail)
		}
	}
}

func TestJudgeRefusesAnyFailingCheckAndEveryRequiredOneNotGreen(t *testing.T) {
	ruleset := func(n string) Required { return Required{Name: n, By: "a ruleset"} }
	green := func(n string) Check { return Check{Name: n, Kind: "status", State: Green} }
	pending := func(n string) Check { return Check{Name: n, Kind: "status", State: Pending} }
	failing := func(n string) Check { return Check{Name: n, Kind: "check run", State: Failing} }
	cases := []struct {
		name     string
		list     []Check
		required []Required
		failing  []string
		missing  []string
		pending  []string
	}{
		{"all required green", []Check{green("gate"), green("lint")}, []Required{ruleset("gate")}, nil, nil, nil},
		{"nothing required, nothing reported", nil, nil, nil, nil, nil},
		{"a required check never reported", []Check{green("lint")}, []Required{ruleset("gate")}, nil, []string{"gate"}, nil},
		{"a required check still running", []Check{pending("gate")}, []Required{ruleset("gate")}, nil, nil, []string{"gate"}},
		{"a check nobody requires still running does not refuse", []Check{green("gate"), pending("extra")}, []Required{ruleset("gate")}, nil, nil, nil},
		{"a failing check nobody requires still refuses", []Check{green("gate"), failing("extra")}, []Required{ruleset("gate")}, []string{"extra"}, nil, nil},
		{"a name both green and failing counts by its worst", []Check{green("gate"), failing("gate")}, []Required{ruleset("gate")}, []string{"gate"}, nil, nil},
		{"failing before green: still the worst", []Check{failing("gate"), green("gate")}, []Required{ruleset("gate")}, []string{"gate"}, nil, nil},
		{"pending beside green is pending", []Check{green("gate"), pending("gate")}, []Required{ruleset("gate")}, nil, nil, []string{"gate"}},
		{"failing after pending is failing, not pending", []Check{pending("gate"), failing("gate")}, []Required{ruleset("gate")}, []string{"gate"}, nil, nil},
		{"green after pending is still pending", []Check{pending("gate"), green("gate")}, []Required{ruleset("gate")}, nil, nil, []string{"gate"}},
		{"a requirement named twice is judged once", nil, []Required{ruleset("gate"), {Name: "gate", By: "branch protection"}}, nil, []string{"gate"}, nil},
		{"failing checks listed by name", []Check{failing("zeta"), failing("alpha")}, nil, []string{"alpha", "zeta"}, nil, nil},
	}
	names := func(f func(int) string, n int) []string {
		var out []string
		for i := 0; i < n; i++ {
			out = append(out, f(i))
		}
		return out
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := Judge(c.list, c.required)
			gotF := names(func(i int) string { return v.Failing[i].Name }, len(v.Failing))
			gotM := names(func(i int) string { return v.Missing[i].Name }, len(v.Missing))
			gotP := names(func(i int) string { return v.Pending[i].Name }, len(v.Pending))
			if !reflect.DeepEqual(gotF, c.failing) || !reflect.DeepEqual(gotM, c.missing) || !reflect.DeepEqual(gotP, c.pending) {
				t.Errorf("Judge: failing %v missing %v pending %v; want %v %v %v", gotF, gotM, gotP, c.failing, c.missing, c.pending)
			}
			want := c.failing == nil && c.missing == nil && c.pending == nil
			if v.Green() != want {
				t.Errorf("Green() = %v, want %v", v.Green(), want)
			}
			if len(v.Refusals("abc1234", "dev")) != len(c.failing)+len(c.missing)+len(c.pending) {
				t.Errorf("Refusals = %q, want one line per reason", v.Refusals("abc1234", "dev"))
			}
		})
	}
}

func TestRefusalsNameTheCheckItsAuthorAndTheHeadSanitised(t *testing.T) {
	v := Verdict{
		Failing: []Check{
			{Name: "evil\x1b[2J", Kind: "status", State: Failing, Detail: "failure", By: "someone"},
			{Name: "test", Kind: "check run", State: Failing, Detail: "timed_out", By: "github-actions"},
			{Name: "anon", Kind: "status", State: Failing, Detail: "error"},
		},
		Missing: []Required{{Name: "gate", By: "a ruleset"}},
		Pending: []Required{{Name: "lint", By: "branch protection"}},
	}
	got := v.Refusals("abc1234", "dev")
	want := []string{
		`the status "evil^[[2J" posted by @someone (failure) failed on head abc1234`,
		`the check run "test" of github-actions (timed_out) failed on head abc1234`,
		`the status "anon" (error) failed on head abc1234`,
		`the check "gate", required on dev by a ruleset, has not reported on head abc1234`,
		`the check "lint", required on dev by branch protection, is still running on head abc1234`,
	}
	if len(got) != len(want) {
		t.Fatalf("Refusals = %q, want %d lines", got, len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("line %d = %q, want it to start %q", i, got[i], want[i])
		}
		if strings.ContainsRune(got[i], 0x1b) {
			t.Errorf("line %d carries a raw escape: %q", i, got[i])
		}
	}
}
