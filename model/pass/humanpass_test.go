package pass

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/model/identity"

	"github.com/aayudha/aayu/model/untrusted"
)

const (
	head  = "b046d1a1d113339eb80e130c9dc0008fa223e76f"
	older = "e3f0c2aa0000000000000000000000000000beef"
)

func approve(login, commit string) Review {
	return Review{ID: int64(len(login)), Author: identity.Account{Login: login}, State: StateApproved, CommitID: commit,
		URL: "https://github.test/r/" + login}
}

func basePolicy() Policy {
	return Policy{Never: []string{"L04", "L07", "L09"}, Streak: 10, ProofRungs: []string{"A", "B", "C"},
		AlwaysPerson: []string{".aayudha/config.toml", ".github/**"}, IntegrationBranch: "dev", BotLogins: []string{"acme-machine"}}
}

func mustLayers(t *testing.T) []Layer {
	t.Helper()
	l, err := ParseLayers(layersMD)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func mustOwners(t *testing.T, text string) *Codeowners {
	t.Helper()
	co, err := ParseCodeowners(text)
	if err != nil {
		t.Fatal(err)
	}
	return &co
}

func soloFounder() *identity.SoloBypassInput {
	founder := identity.Account{Login: "founder", Permission: "admin"}
	return &identity.SoloBypassInput{
		Command: "aayu ship 148", Env: func(string) string { return "" }, Terminal: true, Person: founder,
		Comments: []identity.Comment{{ID: 9, Author: founder, URL: "https://github.test/c/9",
			Body: untrusted.Text(identity.SoloBypassComment(head, "solo mode, no second person"))}},
	}
}

// TestHumanPass follows seed invariant 1 and the pass kinds of ship.json.
func TestHumanPass(t *testing.T) {
	layers := mustLayers(t)
	owners := mustOwners(t, "* @founder\ninternal/policy/ @founder @ana\n")
	plain := []ChangedFile{{Path: "cmd/main.go"}}
	policyFile := []ChangedFile{{Path: "internal/policy/rule.go"}}
	cases := []struct {
		name      string
		in        func(*PassInput)
		wantKind  string // "" for refused
		wantLogin string
		refusal   string // a substring of the refusals when refused
	}{
		{"any human approves head", func(in *PassInput) { in.Reviews = []Review{approve("ana", head)} }, KindReview, "ana", ""},
		{"nobody reviewed", func(in *PassInput) {}, "", "", "no human who is not the author"},
		{"bot flag", func(in *PassInput) {
			r := approve("helper", head)
			r.Author.Bot = true
			in.Reviews = []Review{r}
		}, "", "", "@helper is a bot"},
		{"[bot] login", func(in *PassInput) { in.Reviews = []Review{approve("aayudha[bot]", head)} }, "", "", "is a bot"},
		{"bot_logins", func(in *PassInput) { in.Reviews = []Review{approve("Acme-Machine", head)} }, "", "", "is a bot"},
		{"author", func(in *PassInput) { in.Reviews = []Review{approve("agent-author", head)} }, "", "", "is the author"},
		{"older commit", func(in *PassInput) { in.Reviews = []Review{approve("ana", older)} }, "", "", "older commit"},
		{"changes requested after approval", func(in *PassInput) {
			cr := approve("ana", head)
			cr.State, cr.SubmittedAt = StateChangesRequested, cr.SubmittedAt.Add(1)
			in.Reviews = []Review{approve("ana", head), cr}
		}, "", "", "requested changes"},
		{"approver set: only the approver counts", func(in *PassInput) {
			in.Policy.Approver = "founder"
			in.Reviews = []Review{approve("ana", head)}
		}, "", "", "[autonomy] approver, @founder"},
		{"approver approves", func(in *PassInput) {
			in.Policy.Approver = "founder"
			in.Reviews = []Review{approve("ana", head), approve("founder", head)}
		}, KindReview, "founder", ""},
		{"autonomous footprint", func(in *PassInput) {
			in.Changed = []ChangedFile{{Path: "docs/a.md"}}
			in.Streaks = map[string]int{"L01": 10}
		}, KindAutonomous, "", ""},
		{"streak too short", func(in *PassInput) {
			in.Changed = []ChangedFile{{Path: "docs/a.md"}}
			in.Streaks = map[string]int{"L01": 9}
		}, "", "", "no human"},
		{"empty footprint is never autonomous", func(in *PassInput) { in.Streaks = map[string]int{"L01": 99} }, "", "", "no human"},
		{"merge on proof into dev", func(in *PassInput) {
			in.Policy.Proof, in.OnProof = true, true
		}, KindProof, "", ""},
		{"proof off in policy", func(in *PassInput) { in.OnProof = true }, "", "", "no human"},
		{"proof into another branch", func(in *PassInput) {
			in.Policy.Proof, in.OnProof, in.BaseRef = true, true, "main"
		}, "", "", "no human"},
		{"always_person path beats proof", func(in *PassInput) {
			in.Policy.Proof, in.OnProof = true, true
			in.Changed = []ChangedFile{{Path: ".github/dependabot.yml"}}
		}, "", "", "no human"},
		{"a never layer beats proof", func(in *PassInput) {
			in.Policy.Proof, in.OnProof = true, true
			in.Changed = policyFile
		}, "", "", "no human"},
		{"a never layer beats a streak", func(in *PassInput) {
			in.Changed = policyFile
			in.Streaks = map[string]int{"L04": 99}
		}, "", "", "no human"},
		{"caller flags a credential workflow", func(in *PassInput) {
			in.Policy.Proof, in.OnProof = true, true
			in.NeedsPerson = []string{"workflow release.yml holds a credential"}
		}, "", "", "no human"},
		{"never layer with owner and plan review", func(in *PassInput) {
			in.Changed = policyFile
			in.Reviews = []Review{approve("ana", head)}
			in.PlanReview = PlanReview{Reviewed: true, By: "ana"}
		}, KindReview, "ana", ""},
		{"never layer without plan review", func(in *PassInput) {
			in.Changed = policyFile
			in.Reviews = []Review{approve("ana", head)}
		}, "", "", "plan-time review"},
		{"never layer approved by a non-owner", func(in *PassInput) {
			in.Changed = policyFile
			in.Reviews = []Review{approve("bo", head)}
			in.PlanReview = PlanReview{Reviewed: true, By: "ana"}
		}, "", "", "CODEOWNERS (@founder, @ana)"},
		{"never layer, renamed out of it", func(in *PassInput) {
			in.Changed = []ChangedFile{{Path: "cmd/rule.go", PreviousPath: "internal/policy/rule.go"}}
			in.Reviews = []Review{approve("bo", head)}
			in.PlanReview = PlanReview{Reviewed: true, By: "ana"}
		}, "", "", "internal/policy/rule.go is in never layer L04"},
		{"never layer without CODEOWNERS", func(in *PassInput) {
			in.Changed = policyFile
			in.Codeowners = nil
			in.Reviews = []Review{approve("ana", head)}
			in.PlanReview = PlanReview{Reviewed: true}
		}, "", "", "has no CODEOWNERS"},
		{"solo-mode bypass", func(in *PassInput) { in.SoloBypass = soloFounder() }, KindSoloBypass, "founder", ""},
		{"solo-mode bypass in a never layer with plan bypass", func(in *PassInput) {
			in.Changed = policyFile
			in.PlanReview = PlanReview{Bypass: true, CommentURL: "https://github.test/c/1"}
			in.SoloBypass = soloFounder()
		}, KindSoloBypass, "founder", ""},
		{"solo-mode bypass in a never layer without plan bypass", func(in *PassInput) {
			in.Changed = policyFile
			in.SoloBypass = soloFounder()
		}, "", "", "plan-time review"},
		{"solo-mode bypass without the comment", func(in *PassInput) {
			in.SoloBypass = soloFounder()
			in.SoloBypass.Comments = nil
		}, "", "", "the solo-mode bypass is refused: no comment by @founder"},
		{"solo-mode bypass comment for an older head", func(in *PassInput) {
			in.SoloBypass = soloFounder()
			in.SoloBypass.Comments[0].Body = untrusted.Text(identity.SoloBypassComment(older, "solo"))
		}, "", "", "names head " + head},
		{"solo-mode bypass by a writer", func(in *PassInput) {
			in.SoloBypass = soloFounder()
			in.SoloBypass.Person.Permission = "write"
		}, "", "", "admin access"},
		{"solo-mode bypass with a bot App", func(in *PassInput) {
			in.SoloBypass = soloFounder()
			in.SoloBypass.Identity.AppSlug = "aayudha"
		}, "", "", "bot identity"},
		{"a review pass wins over a requested bypass", func(in *PassInput) {
			in.Reviews = []Review{approve("ana", head)}
			in.SoloBypass = soloFounder()
		}, KindReview, "ana", ""},
		{"no head", func(in *PassInput) { in.Head = ""; in.Reviews = []Review{approve("ana", "")} }, "", "", "head is not known"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := PassInput{Author: "agent-author", Head: head, BaseRef: "dev", Policy: basePolicy(),
				Changed: plain, Layers: layers, Codeowners: owners}
			c.in(&in)
			got := HumanPass(in)
			if c.wantKind == "" {
				if got.Passed {
					t.Fatalf("passed as %s by %s, want refused", got.Kind, got.Login)
				}
				if !strings.Contains(strings.Join(got.Refusals, "\n"), c.refusal) {
					t.Fatalf("refusals %q do not mention %q", got.Refusals, c.refusal)
				}
				return
			}
			if !got.Passed || got.Kind != c.wantKind || got.Login != c.wantLogin {
				t.Fatalf("got passed=%v kind=%q login=%q refusals=%q, want %s by %q", got.Passed, got.Kind, got.Login, got.Refusals, c.wantKind, c.wantLogin)
			}
			if got.Commit != head {
				t.Errorf("commit = %q, want the head", got.Commit)
			}
			if got.Kind == KindSoloBypass && (got.CommentURL != "https://github.test/c/9" || got.Note != SoloBypassNote) {
				t.Errorf("a bypass names its comment and says no review happened: %+v", got)
			}
		})
	}
}

// TestShipEMSeatApprover is the pass-rule part of the seed's test: the
// Engineering Manager seat's paired human decides over the approver.
func TestShipEMSeatApprover(t *testing.T) {
	cases := []struct {
		name      string
		em        string
		approver  string
		reviews   []Review
		wantLogin string
		refusal   string
	}{
		{"EM approves", "em", "founder", []Review{approve("em", head)}, "em", ""},
		{"approver alone is not enough with an EM", "em", "founder", []Review{approve("founder", head)}, "", "Engineering Manager seat's paired human, @em, who has not approved"},
		{"EM approved an older commit", "em", "", []Review{approve("em", older)}, "", "@em reviewed an older commit"},
		{"EM is the author", "agent-author", "", []Review{approve("ana", head)}, "", "who is the author"},
		{"no EM: the approver", "", "founder", []Review{approve("founder", head)}, "founder", ""},
		{"no EM, no approver: any human", "", "", []Review{approve("bo", head)}, "bo", ""},
		{"EM login case differs", "@EM", "", []Review{approve("em", head)}, "em", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := basePolicy()
			p.EngineeringManager, p.Approver = c.em, c.approver
			got := HumanPass(PassInput{Author: "agent-author", Head: head, BaseRef: "dev", Policy: p,
				Changed: []ChangedFile{{Path: "cmd/main.go"}}, Reviews: c.reviews})
			if c.wantLogin != "" {
				if !got.Passed || got.Login != c.wantLogin || got.Kind != KindReview {
					t.Fatalf("got %+v, want a review pass by %s", got, c.wantLogin)
				}
				return
			}
			if got.Passed || !strings.Contains(strings.Join(got.Refusals, "\n"), c.refusal) {
				t.Fatalf("got passed=%v refusals=%q, want refusal mentioning %q", got.Passed, got.Refusals, c.refusal)
			}
		})
	}
}

func TestProtectedPathsGate(t *testing.T) {
	const co = "/.github/ @founder @acme/gates\n/skills/ @founder\nCONSTRAINTS.md @founder\n/.aayudha/config.toml @founder\n"
	cases := []struct {
		name     string
		co       string
		changed  []ChangedFile
		reviews  []Review
		pass     bool
		refusal  string
		approved map[string]string
	}{
		{"no protected path", co, []ChangedFile{{Path: "cmd/main.go"}}, nil, true, "", nil},
		{"owner approves head", co, []ChangedFile{{Path: ".github/workflows/gate.yml"}}, []Review{approve("founder", head)}, true, "",
			map[string]string{".github/workflows/gate.yml": "founder"}},
		{"team member approves", co, []ChangedFile{{Path: ".github/CODEOWNERS"}}, []Review{approve("ana", head)}, true, "",
			map[string]string{".github/CODEOWNERS": "ana"}},
		{"no approval", co, []ChangedFile{{Path: "skills/x.md"}}, nil, false, "protected path skills/x.md needs an approval", nil},
		{"non-owner approves", co, []ChangedFile{{Path: "CONSTRAINTS.md"}}, []Review{approve("bo", head)}, false, "(@founder)", nil},
		{"owner approved an older commit", co, []ChangedFile{{Path: "CONSTRAINTS.md"}}, []Review{approve("founder", older)}, false, "CONSTRAINTS.md", nil},
		{"owner is the author", co, []ChangedFile{{Path: "CONSTRAINTS.md"}}, []Review{approve("agent-author", head)}, false, "CONSTRAINTS.md", nil},
		{"owner's bot", co, []ChangedFile{{Path: "CONSTRAINTS.md"}}, []Review{{Author: identity.Account{Login: "founder", Bot: true}, State: StateApproved, CommitID: head}}, false, "CONSTRAINTS.md", nil},
		{"rename out of a protected path", co, []ChangedFile{{Path: "docs/c.md", PreviousPath: "CONSTRAINTS.md"}}, nil, false, "protected path CONSTRAINTS.md", nil},
		{"unknown pattern fails closed", co + "!skills/ok.md @bo\n", []ChangedFile{{Path: "cmd/main.go"}}, nil, false, "fails closed", nil},
		{"no CODEOWNERS fails closed", "", []ChangedFile{{Path: "cmd/main.go"}}, nil, false, "no CODEOWNERS", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ProtectedPathsGate(GateInput{Codeowners: c.co, Changed: c.changed, Reviews: c.reviews, Author: "agent-author",
				Head: head, BotLogins: nil, Teams: map[string][]string{"@acme/gates": {"ana"}}})
			if got.Pass != c.pass {
				t.Fatalf("pass = %v, want %v (refusals %q)", got.Pass, c.pass, got.Refusals)
			}
			if !strings.Contains(strings.Join(got.Refusals, "\n"), c.refusal) {
				t.Errorf("refusals %q do not mention %q", got.Refusals, c.refusal)
			}
			for p, by := range c.approved {
				found := false
				for _, pa := range got.Paths {
					if pa.Path == p && pa.ApprovedBy == by {
						found = true
					}
				}
				if !found {
					t.Errorf("path %s should be approved by %s: %+v", p, by, got.Paths)
				}
			}
		})
	}
}

func TestLooser(t *testing.T) {
	origin := func(key string) string { return "a --set flag" }
	cases := []struct {
		name   string
		change func(*Policy)
		keys   []string
	}{
		{"same", func(*Policy) {}, nil},
		{"tighter is fine", func(p *Policy) {
			p.Never = append(p.Never, "L01")
			p.Streak = 20
			p.ProofRungs = []string{"A"}
			p.DeviceFor = []string{"all"}
		}, nil},
		{"approver changed", func(p *Policy) { p.Approver = "someone" }, []string{"autonomy.approver"}},
		{"never layer removed", func(p *Policy) { p.Never = []string{"L04", "L09"} }, []string{"autonomy.never"}},
		{"streak lowered", func(p *Policy) { p.Streak = 3 }, []string{"autonomy.streak"}},
		{"proof on", func(p *Policy) { p.Proof = true }, []string{"autonomy.proof"}},
		{"rungs widened", func(p *Policy) { p.ProofRungs = []string{"A", "B", "C", "D"} }, []string{"autonomy.proof_rungs"}},
		{"always_person shrunk", func(p *Policy) { p.AlwaysPerson = []string{".github/**"} }, []string{"autonomy.always_person"}},
		{"approvers widened", func(p *Policy) { p.Approvers = []string{"founder", "agent"} }, []string{"approvals.approvers"}},
		{"device_for narrowed", func(p *Policy) { p.DeviceFor = nil }, []string{"approvals.device_for"}},
		{"bot_logins shrunk", func(p *Policy) { p.BotLogins = nil }, []string{"identity.bot_logins"}},
		{"EM seat changed", func(p *Policy) { p.EngineeringManager = "em" }, []string{"seats.engineering_manager"}},
		{"integration branch changed", func(p *Policy) { p.IntegrationBranch = "main" }, []string{"autonomy.integration_branch"}},
		{"several", func(p *Policy) { p.Streak = 1; p.Proof = true }, []string{"autonomy.streak", "autonomy.proof"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := basePolicy()
			base.Approvers, base.DeviceFor = []string{"founder"}, []string{"one-way"}
			eff := basePolicy()
			eff.Approvers, eff.DeviceFor = []string{"founder"}, []string{"one-way"}
			c.change(&eff)
			got := Looser(base, eff, origin)
			if len(got) != len(c.keys) {
				t.Fatalf("got %v, want keys %v", got, c.keys)
			}
			for i, k := range c.keys {
				if got[i].Key != k || got[i].Layer != "a --set flag" || !strings.Contains(got[i].String(), k) {
					t.Errorf("loosening %d = %+v, want key %s named with its layer", i, got[i], k)
				}
			}
		})
	}
}

type fakeConfig map[string]any

func (f fakeConfig) String(k string) string    { s, _ := f[k].(string); return s }
func (f fakeConfig) Int(k string) int          { i, _ := f[k].(int); return i }
func (f fakeConfig) Bool(k string) bool        { b, _ := f[k].(bool); return b }
func (f fakeConfig) Strings(k string) []string { s, _ := f[k].([]string); return s }

func TestPolicyFrom(t *testing.T) {
	p := PolicyFrom(fakeConfig{"autonomy.approver": "founder", "autonomy.streak": 10, "autonomy.proof": true,
		"autonomy.never": []string{"L04"}, "seats.engineering_manager": "em", "identity.bot_logins": []string{"b"}})
	if p.Approver != "founder" || p.Streak != 10 || !p.Proof || len(p.Never) != 1 || p.EngineeringManager != "em" || len(p.BotLogins) != 1 {
		t.Fatalf("PolicyFrom = %+v", p)
	}
}
