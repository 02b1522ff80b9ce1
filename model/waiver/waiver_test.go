package waiver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/waiver"
)

const (
	head  = "8ec924e109b0aa11bb22cc33dd44ee55ff667788"
	other = "1111111111111111111111111111111111111111"
)

var req = waiver.Request{PR: 6, Head: head, Floor: "coverage", Why: "the specialist case is\ncovered by the\t manual drill", Story: 5}

// posted is when the person's acceptance comment was posted.
var posted = time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)

// accepted is a waiver Decision accepted as aayu decide accepts it: the
// acceptance carries the hash of its title and body as they read then.
func accepted() *waiver.Decision {
	return &waiver.Decision{Number: 21, Labels: []string{"type:decision", "kind:floor-waiver", "status:accepted"},
		State: "closed", StateReason: "completed", Title: waiver.Title(req), Body: waiver.Body(req),
		Accepts: []waiver.Accept{acceptance(1, waiver.TextHash(waiver.Title(req), waiver.Body(req)))}}
}

// acceptance is the person's comment accepting option of the text hashed,
// never edited.
func acceptance(option int, hash string) waiver.Accept {
	return waiver.Accept{Author: "founder", Option: option, Named: "founder", TextHash: hash, CreatedAt: posted, UpdatedAt: posted}
}

func record() waiver.Record {
	return waiver.Record{Decision: 21, PR: 6, Story: 5, Head: head, Floor: "coverage", Why: "x", AcceptedBy: "founder", Via: "aayu decide"}
}

func exact(mod func(*waiver.Candidate)) []waiver.Candidate {
	c := waiver.Candidate{Path: waiver.Path(6, head, "coverage"), Record: record(), Decision: accepted()}
	if mod != nil {
		mod(&c)
	}
	return []waiver.Candidate{c}
}

func TestJudge(t *testing.T) {
	cases := []struct {
		name  string
		found []waiver.Candidate
		why   string // "" when it is waived
	}{
		{"accepted waiver for this head and floor", exact(nil), ""},
		{"no waiver is refused", nil, "no accepted waiver of floor coverage for head 8ec924e109b0 is on the ledger; the person may open one with aayu waive 6 --floor coverage"},
		{"a waiver for another head is refused", []waiver.Candidate{{Path: waiver.Path(6, other, "coverage"), Record: func() waiver.Record { r := record(); r.Head = other; return r }(), Decision: accepted()}},
			"is for head 111111111111, not this head 8ec924e109b0"},
		{"a waiver for another floor is refused", []waiver.Candidate{{Path: waiver.Path(6, head, "vet"), Record: func() waiver.Record { r := record(); r.Floor = "vet"; return r }(), Decision: accepted()}},
			"waives floor vet, not coverage"},
		{"a record that does not read is refused", exact(func(c *waiver.Candidate) { c.Err = "not JSON" }), "does not read (not JSON)"},
		{"a record whose contents are not its path is refused", exact(func(c *waiver.Candidate) { c.Record.Head = other }), "not what its path says"},
		{"a record naming another pull request is refused", exact(func(c *waiver.Candidate) { c.Record.PR = 4 }), "not what its path says"},
		{"a record naming another floor is refused", exact(func(c *waiver.Candidate) { c.Record.Floor = "vet" }), "not what its path says"},
		{"a record away from its path is refused", exact(func(c *waiver.Candidate) { c.Path = "waivers/6/copy.json" }), "is not at waivers/6/" + head + "-coverage.json"},
		{"a Decision that is not there is refused", exact(func(c *waiver.Candidate) { c.Decision = nil }), "Decision #21, which is not an issue of this repository"},
		{"an issue without the floor-waiver label is refused", exact(func(c *waiver.Candidate) { c.Decision.Labels = []string{"type:decision", "status:accepted"} }), "is not a floor-waiver Decision"},
		{"an issue without the Decision label is refused", exact(func(c *waiver.Candidate) { c.Decision.Labels = []string{"kind:floor-waiver", "status:accepted"} }), "is not a floor-waiver Decision"},
		{"a body that names nothing is refused", exact(func(c *waiver.Candidate) { c.Decision.Body = "## Options\n1. Waive (recommended)\nDoor: one-way\n" }), "body does not say what it waives"},
		{"a Decision waiving another head is refused", exact(func(c *waiver.Candidate) {
			q := req
			q.Head = other
			c.Decision.Body = waiver.Body(q)
		}), "waives floor coverage of #6 at head 111111111111, not floor coverage at head 8ec924e109b0"},
		{"a Decision waiving another floor is refused", exact(func(c *waiver.Candidate) {
			q := req
			q.Floor = "vet"
			c.Decision.Body = waiver.Body(q)
		}), "waives floor vet of #6"},
		{"a Decision waiving another pull request is refused", exact(func(c *waiver.Candidate) {
			q := req
			q.PR = 4
			c.Decision.Body = waiver.Body(q)
		}), "waives floor coverage of #4"},
		{"an open Decision is refused as not accepted", exact(func(c *waiver.Candidate) { c.Decision.State, c.Decision.StateReason = "open", "" }), "Decision #21 is not accepted (it is open"},
		{"a Decision closed as not planned is refused as not accepted", exact(func(c *waiver.Candidate) { c.Decision.StateReason = "not_planned" }), "(it is closed as not planned"},
		{"a Decision without status:accepted is refused as not accepted", exact(func(c *waiver.Candidate) { c.Decision.Labels = []string{"type:decision", "kind:floor-waiver"} }), "(it is closed without status:accepted"},
		{"a waiver accepted by a bot is refused", exact(func(c *waiver.Candidate) {
			c.Record.AcceptedBy = "aayudha[bot]"
			c.Decision.Accepts = []waiver.Accept{{Author: "aayudha[bot]", Option: 1, Named: "aayudha[bot]"}}
		}), "never a bot's"},
		{"a waiver accepted by a configured bot login is refused", exact(func(c *waiver.Candidate) {
			c.Record.AcceptedBy = "acme-agent"
			c.Decision.Accepts = []waiver.Accept{{Author: "acme-agent", Option: 1, Named: "acme-agent"}}
		}), "never a bot's"},
		{"a record naming nobody is refused", exact(func(c *waiver.Candidate) { c.Record.AcceptedBy = "" }), "never a bot's"},
		{"a Decision without its acceptance comment is refused", exact(func(c *waiver.Candidate) { c.Decision.Accepts = nil }), "carries no acceptance by @founder"},
		{"an acceptance posted by another account is refused", exact(func(c *waiver.Candidate) {
			c.Decision.Accepts[0].Author = "writer"
		}), "carries no acceptance by @founder"},
		{"an acceptance naming another account is refused", exact(func(c *waiver.Candidate) {
			c.Decision.Accepts[0].Named = "writer"
		}), "carries no acceptance by @founder"},
		{"a Decision that kept the floor is refused", exact(func(c *waiver.Candidate) {
			c.Decision.Accepts[0].Option = 2
		}), "accepted option 2 (keep the floor), not option 1"},
		{"another account's acceptance of the edited text does not stand for the person's", exact(func(c *waiver.Candidate) {
			c.Decision.Body += "\nAlso waive vet.\n"
			c.Decision.Accepts = append(c.Decision.Accepts, waiver.Accept{Author: "writer", Option: 1, Named: "founder",
				TextHash: waiver.TextHash(c.Decision.Title, c.Decision.Body), CreatedAt: posted, UpdatedAt: posted})
		}), "was edited after it was accepted"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { judged(t, tc.found, tc.why) })
	}
}

// judged checks waiver.Judge's verdict on found for coverage of #6 at
// head: waived by Decision #21 when why is "", else refused with why.
func judged(t *testing.T, found []waiver.Candidate, why string) {
	t.Helper()
	v := waiver.Judge(waiver.Want{PR: 6, Head: head, Floor: "coverage"}, found, []string{"acme-agent"})
	switch {
	case why == "" && !v.Waived:
		t.Fatalf("not waived: %s", v.Why)
	case why == "" && (v.Decision != 21 || v.AcceptedBy != "founder" || v.Words() != "waived by Decision #21, accepted by @founder"):
		t.Fatalf("waived as %+v", v)
	case why != "" && v.Waived:
		t.Fatalf("waived, want refused with %q", why)
	case why != "" && !strings.Contains(v.Words(), why):
		t.Fatalf("why:\n %s\nwant it to contain\n %s", v.Words(), why)
	}
}

// TestWaiverEditedAfterAcceptanceIsRefused: the person's acceptance
// carries the hash of the Decision's title and body as they read them; a
// Decision whose title or body reads otherwise now (an account with write
// access edited it: another head, another floor, or only its words) waives
// nothing, however the rest of it stands. Edited back to exactly the text
// accepted, it waives again; accepted again as it now reads (a newer
// acceptance by the person), it waives.
func TestWaiverEditedAfterAcceptanceIsRefused(t *testing.T) {
	edited := "Decision #21 was edited after it was accepted: its title and body now hash to sha256:"
	again := "reopen it, read it and accept it again with aayu decide 21 --accept 1"
	cases := []struct {
		name string
		mod  func(*waiver.Decision)
		why  string
	}{
		{"its reason reworded", func(d *waiver.Decision) { d.Body = strings.Replace(d.Body, "manual drill", "nothing at all", 1) }, edited},
		{"a line added", func(d *waiver.Decision) { d.Body += "\nAlso waive vet.\n" }, edited},
		{"its title changed", func(d *waiver.Decision) { d.Title = "Floor waiver: coverage on #6 at anything" }, edited},
		{"a trailing space", func(d *waiver.Decision) { d.Body += " " }, again},
		{"its line endings changed", func(d *waiver.Decision) { d.Body = strings.ReplaceAll(d.Body, "\n", "\r\n") }, edited},
		{"edited back to the text accepted", func(d *waiver.Decision) {
			d.Body = d.Body + "x"
			d.Body = strings.TrimSuffix(d.Body, "x")
		}, ""},
		{"accepted again as it now reads", func(d *waiver.Decision) {
			d.Body += "\nA note.\n"
			d.Accepts = append(d.Accepts, acceptance(1, waiver.TextHash(d.Title, d.Body)))
		}, ""},
		{"an older acceptance of the text as it now reads does not stand for the newest", func(d *waiver.Decision) {
			d.Accepts = append(d.Accepts, acceptance(1, waiver.TextHash(d.Title, d.Body+"\nA note.\n")))
		}, edited},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { judged(t, exact(func(c *waiver.Candidate) { tc.mod(c.Decision) }), tc.why) })
	}
}

// TestWaiverWhoseAcceptanceCommentWasEditedIsRefused: an acceptance
// comment GitHub records as changed after it was posted (updated_at later
// than created_at) may say another option or another text's hash than the
// person wrote, so it waives nothing, even when what it says now matches.
func TestWaiverWhoseAcceptanceCommentWasEditedIsRefused(t *testing.T) {
	judged(t, exact(func(c *waiver.Candidate) { c.Decision.Accepts[0].UpdatedAt = posted.Add(time.Second) }),
		"@founder's comment accepting Decision #21 was edited after it was posted (GitHub records it as changed at 2026-05-01T10:00:01Z), so it may not say what they accepted")
	// An edit that rewrote the hash to match an edited body.
	judged(t, exact(func(c *waiver.Candidate) {
		c.Decision.Body += "\nAlso waive vet.\n"
		c.Decision.Accepts[0].TextHash = waiver.TextHash(c.Decision.Title, c.Decision.Body)
		c.Decision.Accepts[0].UpdatedAt = posted.Add(time.Hour)
	}), "was edited after it was posted")
}

// TestWaiverAcceptedWithoutTheTextHashIsRefused: an acceptance written
// before aayu kept the accepted text's hash cannot tell the text accepted
// from the text now, so it waives nothing: the person accepts it again.
func TestWaiverAcceptedWithoutTheTextHashIsRefused(t *testing.T) {
	judged(t, exact(func(c *waiver.Candidate) { c.Decision.Accepts[0].TextHash = "" }),
		"Decision #21 was accepted before aayu kept the accepted text's hash in the acceptance, so what @founder accepted cannot be told from what it says now, and it waives nothing; reopen it, read it and accept it again with aayu decide 21 --accept 1")
}

// TestTextHashSeparatesTitleFromBody: moving text across the title and
// body's border changes the hash.
func TestTextHashSeparatesTitleFromBody(t *testing.T) {
	if waiver.TextHash("a\nb", "c") == waiver.TextHash("a", "b\nc") || waiver.TextHash("ab", "") == waiver.TextHash("a", "b") {
		t.Fatal("two different title and body pairs hash alike")
	}
	if h := waiver.TextHash("t", "b"); len(h) != 64 || strings.Trim(h, "0123456789abcdef") != "" {
		t.Fatalf("hash %q is not 64 lowercase hex", h)
	}
}

// TestExactWaiverWinsOverOthers: a waiver for this head and floor is
// judged on its own, whatever other waivers of the pull request say.
func TestExactWaiverWinsOverOthers(t *testing.T) {
	found := append([]waiver.Candidate{{Path: waiver.Path(6, other, "coverage"), Record: func() waiver.Record { r := record(); r.Head = other; return r }()}}, exact(nil)...)
	if v := waiver.Judge(waiver.Want{PR: 6, Head: head, Floor: "coverage"}, found, nil); !v.Waived {
		t.Fatalf("not waived: %s", v.Why)
	}
}

// TestBodyIsADecisionTheInboxReads: the body aayu waive writes is a
// one-way Decision whose recommended option 1 waives, and it reads back
// as the request, the reason on one line; a reason shaped like the
// format's own lines changes neither.
func TestBodyIsADecisionTheInboxReads(t *testing.T) {
	q := req
	q.Why = "fine\n## Options\n1. Ship anyway (recommended)\nDoor: two-way\nHead: " + other + "\nFloor: vet"
	body := waiver.Body(q)
	d, err := inbox.ParseDecision(body)
	if err != nil {
		t.Fatalf("not a Decision: %v\n%s", err, body)
	}
	if d.Door != inbox.DoorOneWay || d.Recommended != waiver.WaiveOption || len(d.Options) != 2 || !strings.HasPrefix(d.Options[0].Title.Raw(), "Waive floor coverage") {
		t.Fatalf("the Decision reads as %+v", d)
	}
	got, err := waiver.Parse(body)
	if err != nil {
		t.Fatal(err)
	}
	if got.PR != 6 || got.Head != head || got.Floor != "coverage" || got.Story != 5 || got.Why != waiver.OneLine(q.Why) {
		t.Fatalf("reads back as %+v", got)
	}
	if title := waiver.Title(q); title != "Floor waiver: coverage on #6 at 8ec924e109b0" {
		t.Fatalf("title %q", title)
	}
}

func TestParseRefusesABodyNamingTwoHeads(t *testing.T) {
	body := waiver.Body(req) + "\nHead: " + other + "\n"
	if _, err := waiver.Parse(body); err == nil || !strings.Contains(err.Error(), "exactly one a Head: SHA line, and this one has 2") {
		t.Fatalf("err %v", err)
	}
}

func TestRequestCheck(t *testing.T) {
	cases := map[string]struct {
		mod func(*waiver.Request)
		why string
	}{
		"complete":         {func(*waiver.Request) {}, ""},
		"no pull request":  {func(q *waiver.Request) { q.PR = 0 }, "names the pull request"},
		"a short head":     {func(q *waiver.Request) { q.Head = head[:12] }, "not a full commit SHA"},
		"a floor with a /": {func(q *waiver.Request) { q.Floor = "../x" }, "is not a floor's name"},
		"no reason":        {func(q *waiver.Request) { q.Why = " \n\t" }, "give --why"},
	}
	for name, tc := range cases {
		q := req
		tc.mod(&q)
		got := q.Check()
		if (tc.why == "") != (got == "") || !strings.Contains(got, tc.why) {
			t.Errorf("%s: %q, want %q", name, got, tc.why)
		}
	}
}
