package ship

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/proof"
)

// TestOnProofNamesWhyItDoesNotApply: with [autonomy] proof on, a pull
// request that does not merge on proof has the reason beside its human
// pass — floors, a red head, no inspect judgement from the gate, a rung
// proof_rungs does not allow — and one that does, or with proof off, has
// none.
func TestOnProofNamesWhyItDoesNotApply(t *testing.T) {
	t.Parallel()
	const inspectC = `{"context":"aayudha/inspect","state":"success","description":"rung C: every criterion's mapped tests show its promise","target_url":"https://github.com/acme/benefits/actions/runs/77","creator":{"login":"github-actions[bot]"}}`
	const red = `{"context":"lint","state":"failure","creator":{"login":"writer"}}`
	for _, tc := range []struct {
		name       string
		statuses   []string
		floorsHold bool
		rungs      []string
		off        bool
		want       string // the note, "" for none
	}{
		{"a rung proof_rungs does not allow", []string{inspectC}, true, []string{"A", "B"}, false,
			"merge on proof does not apply: inspect judged head abcdef123456 at rung C, and the base branch's autonomy.proof_rungs allows A, B"},
		{"no rung allowed", []string{inspectC}, true, nil, false, "autonomy.proof_rungs allows no rung"},
		{"no inspect from the gate", nil, true, []string{"C"}, false, "merge on proof does not apply: the merge gate's own run posted no green aayudha/inspect judgement at a rung for head abcdef123456"},
		{"a red head", []string{inspectC, red}, true, []string{"C"}, false, "merge on proof does not apply: head abcdef123456 is not green"},
		{"the floors do not hold", []string{inspectC}, false, []string{"C"}, false, "merge on proof does not apply: the pack's floors do not all hold"},
		{"on proof", []string{inspectC}, true, []string{"C"}, false, ""},
		{"proof off", []string{inspectC}, true, []string{"A"}, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gh := func(w http.ResponseWriter, r *http.Request) {
				switch {
				case strings.HasSuffix(r.URL.Path, "/status"):
					fmt.Fprintf(w, `{"state":"success","sha":"h","total_count":%d,"statuses":[%s]}`, len(tc.statuses), strings.Join(tc.statuses, ","))
				case strings.HasSuffix(r.URL.Path, "/check-runs"):
					fmt.Fprint(w, `{"total_count":0,"check_runs":[]}`)
				case strings.HasSuffix(r.URL.Path, "/rules/branches/dev"):
					fmt.Fprint(w, `[]`)
				default:
					http.NotFound(w, r)
				}
			}
			c := github.NewClient(nil)
			c.BaseURL = mustURL(t, startFake(t, http.HandlerFunc(gh))+"/")
			r := &run{ctx: context.Background(), cfg: Config{Client: c, Owner: owner, Repo: repo}, pr: 4, target: targetFacts{head: "abcdef1234567890", baseRef: "dev"},
				evidence: evidenceFacts{base: &basePolicy{policy: pass.Policy{Proof: !tc.off, ProofRungs: tc.rungs}},
					pack: &gatePack{run: &github.WorkflowRun{ID: github.Int64(77), HTMLURL: github.String("https://github.com/acme/benefits/actions/runs/77")},
						report: &proof.Report{FloorsHold: tc.floorsHold}}}}
			ok, err := r.onProof()
			if err != nil || ok != (tc.name == "on proof") {
				t.Fatalf("on proof %v (%v)", ok, err)
			}
			notes := strings.Join(r.evidence.proofNotes, "\n")
			if (tc.want == "") != (notes == "") || !strings.Contains(notes, tc.want) {
				t.Errorf("notes %q, want %q", notes, tc.want)
			}
		})
	}
}
