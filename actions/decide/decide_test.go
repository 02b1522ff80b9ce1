package decide

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/untrusted"
)

const twoWay = "Where should the amounts live?\n\n## Options\n1. Keep them in Go code (recommended)\n2. Load them from YAML\n3. Fetch them from an API\n\nDoor: two-way\n"
const oneWay = "Members still ask.\n\n## Options\n1. Keep answering until March (recommended)\n2. Stop now and delete the tables\n\nDoor: one-way\n"

func decision(n int, title, body string) inbox.Issue {
	return inbox.Issue{Number: n, Title: untrusted.Text(title), Body: untrusted.Text(body), State: "open",
		Labels: []untrusted.Label{inbox.LabelDecision, "status:proposed"}}
}

func snapshot() inbox.Snapshot {
	return inbox.Snapshot{Viewer: "founder", Issues: []inbox.Issue{
		decision(1, "Deductible tables", twoWay),
		decision(2, "Plan year 2024", oneWay),
		decision(5, "Broken", "## Options\n1. A\n2. B\n\nDoor: two-way\n"), // no recommendation
		{Number: 6, Title: "a Story", State: "open", Labels: []untrusted.Label{inbox.LabelStory}},
	}}
}

var founder = identity.Account{Login: "founder", Permission: "admin"}

func TestParsePicks(t *testing.T) {
	cases := []struct {
		decisions, accept string
		want              []Pick
		say               string // a usage refusal's words, when one
	}{
		{"7", "2", []Pick{{7, 2}}, ""},
		{"7,9", "2,1", []Pick{{7, 2}, {9, 1}}, ""},
		{"#7, 9", " 2 ,1", []Pick{{7, 2}, {9, 1}}, ""},
		{"7,9", "2", nil, "2 Decisions named and --accept gives 1 option; they pair up one to one"},
		{"7", "2,1", nil, "1 Decision named and --accept gives 2 options"},
		{"7", "", nil, "--accept K is missing"},
		{"7,7", "1,2", nil, "Decision #7 is named twice"},
		{"7,x", "1,2", nil, `got "x"`},
		{"0", "1", nil, "1 or more"},
		{"7", "-1", nil, "1 or more"},
		{"7,,9", "1,2,3", nil, `got ""`},
	}
	for _, c := range cases {
		got, err := ParsePicks(c.decisions, c.accept)
		if c.say != "" {
			var u *UsageError
			if !errors.As(err, &u) || !strings.Contains(err.Error(), c.say) {
				t.Errorf("%q --accept %q: err %v, want a usage error saying %q", c.decisions, c.accept, err, c.say)
			}
			continue
		}
		if err != nil || len(got) != len(c.want) {
			t.Fatalf("%q --accept %q: %v, %v", c.decisions, c.accept, got, err)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q --accept %q: pick %d is %+v, want %+v", c.decisions, c.accept, i, got[i], c.want[i])
			}
		}
	}
}

// TestDecideChoosesTheInboxCardsChoice: each pick is the very choice the
// inbox's card offers, with its writes and its confirmation: the
// recommendation of a two-way door asks nothing; another option, or any
// option of a one-way door, asks with the inbox's line.
func TestDecideChoosesTheInboxCardsChoice(t *testing.T) {
	steps := inbox.Derive(snapshot())
	cases := []struct {
		pick    Pick
		confirm string // "" when it asks nothing
	}{
		{Pick{1, 1}, ""},
		{Pick{1, 3}, "not the recommendation (accept option 1: Keep them in Go code)"},
		{Pick{2, 1}, "a one-way door: it cannot be undone later"},
		{Pick{2, 2}, "not the recommendation (accept option 1: Keep answering until March), and a one-way door"},
	}
	for _, c := range cases {
		items, err := Choose(steps, founder, nil, []Pick{c.pick})
		if err != nil || len(items) != 1 {
			t.Fatalf("%+v: %v", c.pick, err)
		}
		it := items[0]
		card, _ := inbox.Find(steps, it.Step.ID())
		want, _ := inbox.Pick(card, it.Choice.Key)
		if it.Choice.Label != want.Label || len(it.Choice.Writes) != len(want.Writes) {
			t.Errorf("%+v: the choice is not the card's: %+v", c.pick, it.Choice)
		}
		if c.confirm == "" && it.Confirm() != "" {
			t.Errorf("%+v asks %q, want no question", c.pick, it.Confirm())
		}
		if c.confirm != "" && (!strings.Contains(it.Confirm(), c.confirm) || strings.Contains(it.Confirm(), "Press Enter")) {
			t.Errorf("%+v asks %q, want the inbox's line with %q", c.pick, it.Confirm(), c.confirm)
		}
		p := Plan{Items: items}
		ws := strings.Join(p.Writes(), "\n")
		for _, w := range []string{"Accepted option", "add the label status:accepted", "remove the label status:proposed", "close #"} {
			if !strings.Contains(ws, w) {
				t.Errorf("%+v: the writes lack %q:\n%s", c.pick, w, ws)
			}
		}
	}
}

func assertRefused(t *testing.T, err error, say string) {
	t.Helper()
	var r *Refusal
	if !errors.As(err, &r) || !strings.Contains(err.Error(), say) {
		t.Fatalf("err %v, want a refusal saying %q", err, say)
	}
}

func TestDecideRefusesReadAccess(t *testing.T) {
	_, err := Choose(inbox.Derive(snapshot()), identity.Account{Login: "reader", Permission: "read"}, nil, []Pick{{1, 1}})
	assertRefused(t, err, "@reader has read access to this repository, and accepting a Decision")
	_, err = Choose(inbox.Derive(snapshot()), identity.Account{Login: "reader"}, nil, []Pick{{1, 1}})
	assertRefused(t, err, "@reader has no write access")
}

func TestDecideRefusesABot(t *testing.T) {
	_, err := Choose(inbox.Derive(snapshot()), identity.Account{Login: "agent-bot", Permission: "write"}, []string{"agent-bot"}, []Pick{{1, 1}})
	assertRefused(t, err, "a bot, and a Decision is accepted by a person's account")
}

func TestDecideRefusesAnItemThatIsNoDecision(t *testing.T) {
	for _, n := range []int{6, 99} {
		_, err := Choose(inbox.Derive(snapshot()), founder, nil, []Pick{{1, 1}, {n, 1}})
		assertRefused(t, err, "is not a Decision waiting for you")
	}
}

func TestDecideRefusesAnOptionTheDecisionLacks(t *testing.T) {
	_, err := Choose(inbox.Derive(snapshot()), founder, nil, []Pick{{2, 3}})
	assertRefused(t, err, "Decision #2 has no option 3: its options are 1 to 2")
}

func TestDecideRefusesADecisionItsBodyDoesNotMake(t *testing.T) {
	_, err := Choose(inbox.Derive(snapshot()), founder, nil, []Pick{{5, 1}})
	assertRefused(t, err, "no option is marked (recommended)")
}

// TestDecideRefusesASecondOptionOfAHalfDoneDecision: an earlier run
// commented option 1 as accepted and stopped; option 3 is refused, option
// 1 finishes it without asking.
func TestDecideRefusesASecondOptionOfAHalfDoneDecision(t *testing.T) {
	s := snapshot()
	s.IssueComments = map[int][]identity.Comment{1: {{Author: identity.Account{Login: "founder"}, Body: "Accepted option 1 (Keep them in Go code) by @founder"}}}
	_, err := Choose(inbox.Derive(s), founder, nil, []Pick{{1, 3}})
	assertRefused(t, err, "option 3 of Decision #1 cannot be accepted: option 1 was already accepted")
	items, err := Choose(inbox.Derive(s), founder, nil, []Pick{{1, 1}})
	if err != nil || items[0].Confirm() != "" {
		t.Fatalf("finishing the half-done option: %v, %q", err, items[0].Confirm())
	}
}

type fakeExec struct {
	reqs []actions.Request
	fail int // the request (1-based) that fails
}

func (f *fakeExec) Execute(_ context.Context, req actions.Request) actions.Outcome {
	f.reqs = append(f.reqs, req)
	if len(f.reqs) == f.fail {
		return actions.Outcome{Failure: &actions.Failure{What: "GitHub refused"}}
	}
	return actions.Outcome{Done: true, Wrote: []string{"x"}}
}

// TestDecideApplyStopsAtTheFirstPickNotDone: picks go to the executor in
// order, named as decide in the actions log and carrying the note; after a
// failure the rest are not tried.
func TestDecideApplyStopsAtTheFirstPickNotDone(t *testing.T) {
	items, err := Choose(inbox.Derive(snapshot()), founder, nil, []Pick{{2, 1}, {1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeExec{}
	res := Apply(context.Background(), f, Plan{Items: items, Note: "cheapest to reverse"})
	if len(f.reqs) != 2 || f.reqs[0].Command != "decide 2 --accept 1" || f.reqs[1].Command != "decide 1 --accept 3" || f.reqs[1].Note != "cheapest to reverse" {
		t.Fatalf("requests: %+v", f.reqs)
	}
	if !res[0].Outcome.Done || !res[1].Outcome.Done {
		t.Errorf("results: %+v", res)
	}
	f = &fakeExec{fail: 1}
	res = Apply(context.Background(), f, Plan{Items: items})
	if len(f.reqs) != 1 || res[0].Outcome.Failure == nil || res[1].Tried {
		t.Fatalf("after a failure the next pick was tried: %d requests, %+v", len(f.reqs), res)
	}
}

func TestCommand(t *testing.T) {
	if got := Command([]Pick{{324, 1}, {283, 2}}); got != "aayu decide 324,283 --accept 1,2" {
		t.Errorf("Command = %q", got)
	}
}
