package gaterun

import "testing"

const (
	head  = "d113e1271f68a3f3737a0bcbff3c306e1417ea61"
	other = "735b66b00b1c7b2e0c1c2f0e3d9a8b7c6d5e4f3a"
)

func gate(mut func(*Run)) Run {
	r := Run{ID: 1, Event: EventTarget, Path: WorkflowPath + "@refs/heads/dev", Status: "completed", Conclusion: "success",
		HeadBranch: "dev", PullRequests: []Entry{{Number: 4, HeadSHA: head}}}
	if mut != nil {
		mut(&r)
	}
	return r
}

func TestJudge(t *testing.T) {
	pr4 := Target{PR: 4, Head: head, HeadRef: "story-3"}
	tests := []struct {
		name      string
		run       Run
		target    Target
		ours      bool
		reason    string
		qualifies bool
		decides   bool
	}{
		{"qualifies", gate(nil), pr4, true, "", true, true},
		{"head SHA in another case still binds", gate(func(r *Run) { r.PullRequests[0].HeadSHA = "D113E1271F68A3F3737A0BCBFF3C306E1417EA61" }), pr4, true, "", true, true},
		{"refuses a run that reports no path", gate(func(r *Run) { r.Path = "" }), pr4, true, "the run does not say which workflow it ran, so it cannot be the merge gate's", false, false},
		{"the gate's own path without a ref qualifies", gate(func(r *Run) { r.Path = WorkflowPath }), pr4, true, "", true, true},
		{"refuses a workflow whose name only starts like the gate's", gate(func(r *Run) { r.Path = WorkflowPath + "-evil.yml" }), pr4, true, "a run of .github/workflows/aayudha-merge-gate.yml-evil.yml, not the merge gate", false, false},
		{"refuses a look-alike at a ref", gate(func(r *Run) { r.Path = WorkflowPath + ".evil.yml@refs/heads/dev" }), pr4, true, "a run of .github/workflows/aayudha-merge-gate.yml.evil.yml@refs/heads/dev, not the merge gate", false, false},
		{"refuses the gate's path with an empty ref", gate(func(r *Run) { r.Path = WorkflowPath + "@" }), pr4, true, "a run of .github/workflows/aayudha-merge-gate.yml@, not the merge gate", false, false},
		{"refuses the gate's file in another folder", gate(func(r *Run) { r.Path = "evil/" + WorkflowPath }), pr4, true, "a run of evil/.github/workflows/aayudha-merge-gate.yml, not the merge gate", false, false},
		{"another pull request's run is not ours", gate(func(r *Run) { r.PullRequests[0].Number = 6 }), pr4, false, "", false, false},
		{"refuses the pull request's own copy", gate(func(r *Run) { r.Event = "pull_request" }), pr4, true, "the pull request's own copy of the gate (pull_request)", false, false},
		{"refuses a pull_request copy bound by its branch alone", gate(func(r *Run) { r.Event, r.PullRequests, r.HeadBranch = "pull_request", nil, "story-3" }), pr4, true, "the pull request's own copy of the gate (pull_request)", false, false},
		{"a pull_request run of another branch is not ours", gate(func(r *Run) { r.Event, r.PullRequests, r.HeadBranch = "pull_request", nil, "story-9" }), pr4, false, "", false, false},
		{"refuses a push run", gate(func(r *Run) { r.Event = "push" }), pr4, true, "a push run, not pull_request_target", false, false},
		{"refuses another workflow", gate(func(r *Run) { r.Path = ".github/workflows/ci.yml@refs/heads/dev" }), pr4, true, "a run of .github/workflows/ci.yml@refs/heads/dev, not the merge gate", false, false},
		{"refuses an older head", gate(func(r *Run) { r.PullRequests[0].HeadSHA = other }), pr4, true, "proves another commit 735b66b00b1c", false, false},
		{"refuses a run still going, and it decides nothing", gate(func(r *Run) { r.Status, r.Conclusion = "in_progress", "" }), pr4, true, "still running", false, false},
		{"refuses a failed run, which still decides the mark", gate(func(r *Run) { r.Conclusion = "failure" }), pr4, true, "failed", false, true},
		{"refuses a cancelled run in words", gate(func(r *Run) { r.Conclusion = "cancelled" }), pr4, true, "failed (cancelled)", false, true},
		{"a fork's run without an entry binds", gate(func(r *Run) { r.PullRequests = nil }), Target{PR: 4, Head: head, Fork: true}, true, "", true, true},
		{"refuses a run without an entry for a branch of this repository", gate(func(r *Run) { r.PullRequests = nil }), pr4, false, "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ours, reason := Judge(tt.run, tt.target)
			if ours != tt.ours || reason != tt.reason {
				t.Errorf("Judge = %v, %q; want %v, %q", ours, reason, tt.ours, tt.reason)
			}
			if got := Qualifies(tt.run, tt.target); got != tt.qualifies {
				t.Errorf("Qualifies = %v, want %v", got, tt.qualifies)
			}
			if got := Decides(tt.run, tt.target); got != tt.decides {
				t.Errorf("Decides = %v, want %v", got, tt.decides)
			}
		})
	}
}
