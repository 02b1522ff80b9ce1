package checks

import "testing"

// TestInspectFromGateCountsOnlyTheGatesOwnRun: inspect's judgement counts
// only as a status github-actions[bot] posted, or a check run of GitHub
// Actions, targeting the gate's run (ship: the pack's run) or, where no
// run is known (the inbox), a run of this repository's Actions. A person's,
// an agent's or another app's inspect, another run, another repository's
// run, another check's name, or a check that is neither a status nor a
// check run counts for nothing.
func TestInspectFromGateCountsOnlyTheGatesOwnRun(t *testing.T) {
	const run = "/acme/benefits/actions/runs/4242"
	runs := RunsPath("acme", "benefits")
	for _, tc := range []struct {
		name    string
		c       Check
		runPath string
		want    bool
	}{
		{"the gate's status", FromStatus(InspectContext, "success", ActionsBot, "https://github.com/acme/benefits/actions/runs/4242"), run, true},
		{"the gate's check run", FromCheckRun(InspectContext, "completed", "success", ActionsApp, "https://github.com/acme/benefits/actions/runs/4242/job/7"), run, true},
		{"the bot's login in another case", FromStatus(InspectContext, "pending", "GitHub-Actions[bot]", "https://github.com/Acme/Benefits/actions/runs/4242/"), run, true},
		{"posted by a writer", FromStatus(InspectContext, "success", "writer", "https://github.com/acme/benefits/actions/runs/4242"), run, false},
		{"another workflow's run", FromStatus(InspectContext, "success", ActionsBot, "https://github.com/acme/benefits/actions/runs/999"), run, false},
		{"a run whose id starts the same", FromStatus(InspectContext, "success", ActionsBot, "https://github.com/acme/benefits/actions/runs/42420"), run, false},
		{"another app's check run", FromCheckRun(InspectContext, "completed", "success", "some-app", "https://github.com/acme/benefits/actions/runs/4242/job/7"), run, false},
		{"a check run by the bot's status login", FromCheckRun(InspectContext, "completed", "success", ActionsBot, "https://github.com/acme/benefits/actions/runs/4242/job/7"), run, false},
		{"no target", FromStatus(InspectContext, "success", ActionsBot, ""), run, false},
		{"a check of neither kind", Check{Name: InspectContext, State: Green, By: ActionsBot, URL: "https://github.com/acme/benefits/actions/runs/4242"}, run, false},
		{"a target with no path, held to the root", FromStatus(InspectContext, "success", ActionsBot, "https://github.com"), "/", false},
		{"no run to hold it to", FromStatus(InspectContext, "success", ActionsBot, "https://github.com/acme/benefits/actions/runs/4242"), "", false},
		{"another check's name", FromStatus("lint", "success", ActionsBot, "https://github.com/acme/benefits/actions/runs/4242"), run, false},
		{"inbox: a run of this repository", FromStatus(InspectContext, "pending", ActionsBot, "https://github.com/acme/benefits/actions/runs/77"), runs, true},
		{"inbox: posted by a writer", FromStatus(InspectContext, "pending", "writer", "https://github.com/acme/benefits/actions/runs/77"), runs, false},
		{"inbox: another repository's run", FromStatus(InspectContext, "pending", ActionsBot, "https://github.com/evil/benefits/actions/runs/77"), runs, false},
		{"inbox: a repository whose name starts the same", FromStatus(InspectContext, "pending", ActionsBot, "https://github.com/acme/benefits2/actions/runs/77"), runs, false},
		{"inbox: not a run", FromStatus(InspectContext, "pending", ActionsBot, "https://github.com/acme/benefits/pull/6"), runs, false},
	} {
		if got := InspectFromGate(tc.c, tc.runPath); got != tc.want {
			t.Errorf("%s: counts = %v, want %v", tc.name, got, tc.want)
		}
	}
}
