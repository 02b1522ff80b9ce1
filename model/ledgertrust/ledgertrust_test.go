package ledgertrust

import (
	"strings"
	"testing"
)

const (
	hashA = "60ea1dcbc58fdbd210d4684c64d8009c617759b5583e13120ff8a208391ade14"
	hashB = "70ea1dcbc58fdbd210d4684c64d8009c617759b5583e13120ff8a208391ade15"
	head  = "0123456789abcdef0123456789abcdef01234567"
)

func ready(h string) []byte {
	return []byte("# Ready: story 17 — x\ncompletion_goal_hash: " + h + "\nfrozen_at: 2026-10-12T07:30:00Z\n\n## Completion Goal\n1. a\n")
}

func againComment(story string, was, now string) string {
	return "The Completion Goal of this story changed and was frozen again with `aayu ready " + story + " --again`.\n\n" +
		"- new completion_goal_hash: `" + now + "`\n- old completion_goal_hash: `" + was + "` (its snapshot stays)\n"
}

func TestCheck(t *testing.T) {
	sample15 := []byte(`{"pr":15,"merge_commit":"m","correction":false,"layers":["L04"]}` + "\n")
	plan := func(url string, layers string) []byte {
		return []byte(`{"story":17,"layers":[` + layers + `],"kind":"review","reviewer":"dana","comment_url":"` + url + `"}`)
	}
	cases := []struct {
		name string
		c    Commit
		want []string // "what path"
	}{
		{"a new record is no finding", Commit{Changes: []Change{{Path: "autonomy/audit/15.json", Status: Added}}}, nil},
		{"an audit entry deleted with no sample is tampering",
			Commit{Changes: []Change{{Path: "autonomy/audit/15.json", Status: Removed}}}, []string{"deleted autonomy/audit/15.json"}},
		{"an audit entry removed after its sample is the inbox's look",
			Commit{Changes: []Change{{Path: "autonomy/audit/15.json", Status: Removed}}, Samples: sample15}, nil},
		{"another pull request's sample does not cover the removal",
			Commit{Changes: []Change{{Path: "autonomy/audit/16.json", Status: Removed}}, Samples: sample15}, []string{"deleted autonomy/audit/16.json"}},
		{"a rename away from an audit entry deletes it",
			Commit{Changes: []Change{{Path: "x/15.json", Previous: "autonomy/audit/15.json", Status: Renamed}}}, []string{"deleted autonomy/audit/15.json"}},
		{"an append to a jsonl is aayu's",
			Commit{Changes: []Change{{Path: SamplesPath, Status: Modified, Old: sample15, New: append(append([]byte{}, sample15...), []byte(`{"pr":16}`+"\n")...)}}}, nil},
		{"a jsonl line rewritten is tampering",
			Commit{Changes: []Change{{Path: "actions/2026-10-12/ship-15-x.jsonl", Status: Modified, Old: []byte("{\"a\":1}\n"), New: []byte("{\"a\":2}\n")}}},
			[]string{"rewritten actions/2026-10-12/ship-15-x.jsonl"}},
		{"a jsonl whose contents were not read is tampering",
			Commit{Changes: []Change{{Path: "a.jsonl", Status: Modified}}}, []string{"rewritten a.jsonl"}},
		{"a clean sample marked a correction in place is the inbox's correction",
			Commit{Changes: []Change{{Path: SamplesPath, Status: Modified, Old: sample15, New: []byte(`{"pr":15,"merge_commit":"m","correction":true,"layers":["L04"]}` + "\n")}}}, nil},
		{"a correction turned clean is tampering",
			Commit{Changes: []Change{{Path: SamplesPath, Status: Modified, Old: []byte(`{"pr":15,"correction":true}` + "\n"), New: []byte(`{"pr":15,"correction":false}` + "\n")}}},
			[]string{"rewritten autonomy/samples.jsonl"}},
		{"a correction flag with its layers changed is tampering",
			Commit{Changes: []Change{{Path: SamplesPath, Status: Modified, Old: sample15, New: []byte(`{"pr":15,"merge_commit":"m","correction":true,"layers":[]}` + "\n")}}},
			[]string{"rewritten autonomy/samples.jsonl"}},
		{"a sample line deleted is tampering",
			Commit{Changes: []Change{{Path: SamplesPath, Status: Modified, Old: sample15, New: []byte{}}}}, []string{"rewritten autonomy/samples.jsonl"}},
		{"a Ready snapshot re-frozen with its comment is aayu's",
			Commit{Changes: []Change{{Path: "specs/17/ready.md", Status: Modified, Old: ready(hashA), New: ready(hashB)}},
				Comments: map[int][]string{17: {"hi", againComment("17", hashA, hashB)}}}, nil},
		{"a Ready snapshot changed with no comment is tampering",
			Commit{Changes: []Change{{Path: "specs/17/ready.md", Status: Modified, Old: ready(hashA), New: ready(hashB)}}}, []string{"rewritten specs/17/ready.md"}},
		{"a comment naming other hashes does not cover it",
			Commit{Changes: []Change{{Path: "specs/17/ready.md", Status: Modified, Old: ready(hashA), New: ready(hashB)}},
				Comments: map[int][]string{17: {againComment("17", hashB, hashA)}}}, []string{"rewritten specs/17/ready.md"}},
		{"another Story's comment does not cover it",
			Commit{Changes: []Change{{Path: "specs/17/ready.md", Status: Modified, Old: ready(hashA), New: ready(hashB)}},
				Comments: map[int][]string{17: {againComment("18", hashA, hashB)}}}, []string{"rewritten specs/17/ready.md"}},
		{"a Ready goal's text changed under the same hash is tampering",
			Commit{Changes: []Change{{Path: "specs/17/ready.md", Status: Modified, Old: ready(hashA), New: append(ready(hashA), "2. b\n"...)}},
				Comments: map[int][]string{17: {againComment("17", hashA, hashA)}}}, []string{"rewritten specs/17/ready.md"}},
		{"a Ready snapshot deleted is tampering",
			Commit{Changes: []Change{{Path: "specs/17/ready.md", Status: Removed}}}, []string{"deleted specs/17/ready.md"}},
		{"a plan review widened under the same comment is tampering",
			Commit{Changes: []Change{{Path: "specs/17/plan-review.json", Status: Modified, Old: plan("u1", `"L04"`), New: plan("u1", `"L04","L07","L09"`)}}},
			[]string{"rewritten specs/17/plan-review.json"}},
		{"a plan review replaced by a new review's comment is aayu's",
			Commit{Changes: []Change{{Path: "specs/17/plan-review.json", Status: Modified, Old: plan("u1", `"L04"`), New: plan("u2", `"L04","L07"`)}}}, nil},
		{"a batch record rewritten is tampering",
			Commit{Changes: []Change{{Path: "approvals/0123456789ab.json", Status: Modified}}}, []string{"rewritten approvals/0123456789ab.json"}},
		{"a batch record deleted is tampering",
			Commit{Changes: []Change{{Path: "approvals/0123456789ab.json", Status: Removed}}}, []string{"deleted approvals/0123456789ab.json"}},
		{"a batch's state files are aayu's",
			Commit{Changes: []Change{{Path: "approvals/0123456789ab.applied.json", Status: Modified}, {Path: "approvals/sessions/T-1.json", Status: Modified},
				{Path: "approvals/0123456789ab.superseded.json", Status: Removed}}}, nil},
		{"an advisory pack pushed again over its folder is aayu's",
			Commit{Changes: []Change{{Path: "proof/3/" + head + "/advisory/pack.json", Status: Modified},
				{Path: "proof/3/" + head + "/advisory/artifacts/a.json", Status: Removed}}}, nil},
		{"an advisory pack's file deleted alone is tampering",
			Commit{Changes: []Change{{Path: "proof/3/" + head + "/advisory/artifacts/a.json", Status: Removed}}},
			[]string{"deleted proof/3/" + head + "/advisory/artifacts/a.json"}},
		{"a shipped pack rewritten is tampering",
			Commit{Changes: []Change{{Path: "proof/14/" + head + "/pack.json", Status: Modified}}}, []string{"rewritten proof/14/" + head + "/pack.json"}},
		{"a review record deleted is tampering",
			Commit{Changes: []Change{{Path: "reviews/6/" + head + ".json", Status: Removed}}}, []string{"deleted reviews/6/" + head + ".json"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.SHA, tc.c.Parent, tc.c.Author = "c0ffee", "beef", "agent <agent@x>"
			var got []string
			for _, f := range Check(tc.c) {
				if f.Commit != "c0ffee" || f.Author != "agent <agent@x>" || f.Trusted != "beef" {
					t.Errorf("finding %+v does not name the commit, its author and the trusted parent", f)
				}
				got = append(got, f.What+" "+f.Path)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("findings %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNeeds(t *testing.T) {
	c := Commit{Changes: []Change{{Path: "autonomy/audit/15.json", Status: Removed}, {Path: "specs/17/ready.md", Status: Modified},
		{Path: "specs/9/ready.md", Status: Added}}}
	if !NeedsSamples(c) {
		t.Error("a removed audit entry needs the samples")
	}
	if got := NeedsComments(c); len(got) != 1 || got[0] != 17 {
		t.Errorf("NeedsComments = %v, want [17]", got)
	}
	if NeedsSamples(Commit{Changes: []Change{{Path: "autonomy/audit/15.json", Status: Added}}}) {
		t.Error("an added audit entry needs nothing")
	}
	for p, want := range map[string]bool{SamplesPath: true, "specs/17/plan-review.json": true, "specs/17/ready.md": true, "approvals/x.json": false} {
		if got := NeedsContent(Change{Path: p, Status: Modified}); got != want {
			t.Errorf("NeedsContent(%s) = %v", p, got)
		}
	}
}

func TestFindingLineNeutralisesItsParts(t *testing.T) {
	l := Finding{Commit: "0123456789abcdef", Author: "agent\x1b[2J", Path: "autonomy/audit/15.json\nx", What: "deleted"}.Line()
	if strings.ContainsAny(l, "\x1b\n") || !strings.Contains(l, "0123456789ab") || strings.Contains(l, "0123456789abc") {
		t.Errorf("line %q", l)
	}
}

// FuzzCheck: any commit is judged without a panic; an added file is never
// a finding, and every finding names a path the commit removed or changed.
func FuzzCheck(f *testing.F) {
	f.Add("autonomy/audit/15.json", "removed", []byte(nil), []byte(nil), []byte(`{"pr":15}`))
	f.Add(SamplesPath, "modified", []byte("{\"pr\":1,\"correction\":false}\n"), []byte("{\"pr\":1,\"correction\":true}\n"), []byte(nil))
	f.Add("specs/17/plan-review.json", "modified", []byte(`{"comment_url":"a"}`), []byte(`{"comment_url":"b"}`), []byte(nil))
	f.Fuzz(func(t *testing.T, path, status string, old, new, samples []byte) {
		c := Commit{SHA: "s", Parent: "p", Changes: []Change{{Path: path, Status: status, Old: old, New: new}}, Samples: samples,
			Comments: map[int][]string{17: {string(new)}}}
		fs := Check(c)
		if status == Added && len(fs) != 0 {
			t.Fatalf("an added file made findings %+v", fs)
		}
		for _, f := range fs {
			if f.Path != path || f.Commit != "s" || f.Trusted != "p" {
				t.Fatalf("finding %+v", f)
			}
		}
		if len(fs) > 1 {
			t.Fatalf("one change made %d findings", len(fs))
		}
	})
}

func TestRestoredAuditEntries(t *testing.T) {
	fs := []Finding{{Path: "autonomy/audit/15.json", What: "deleted"}, {Path: "autonomy/audit/16.json", What: "deleted"},
		{Path: "autonomy/audit/17.json", What: "rewritten"}, {Path: "specs/1/ready.md", What: "deleted"}, {Path: "autonomy/audit/15.json", What: "deleted"}}
	got := RestoredAuditEntries(fs, []byte(`{"pr":16,"correction":false}`+"\n"))
	if len(got) != 1 || got[0] != 15 {
		t.Errorf("restored %v, want [15]: 16 was audited since, 17 was not deleted", got)
	}
}

func TestRecheck(t *testing.T) {
	if !Recheck(Finding{Path: "specs/17/ready.md", What: "rewritten"}) || Recheck(Finding{Path: "specs/17/ready.md", What: "deleted"}) ||
		Recheck(Finding{Path: "specs/17/plan-review.json", What: "rewritten"}) {
		t.Error("only a rewritten Ready snapshot waits for its comment")
	}
}
