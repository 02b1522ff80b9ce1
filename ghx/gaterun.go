package ghx

import (
	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/model/gaterun"
)

// GateRunFacts is what model/gaterun's rule reads of a workflow run.
func GateRunFacts(r *github.WorkflowRun) gaterun.Run {
	out := gaterun.Run{
		ID: r.GetID(), Event: r.GetEvent(), Path: r.GetPath(), Status: r.GetStatus(),
		Conclusion: r.GetConclusion(), HeadBranch: r.GetHeadBranch(),
	}
	for _, p := range r.PullRequests {
		out.PullRequests = append(out.PullRequests, gaterun.Entry{Number: p.GetNumber(), HeadSHA: p.GetHead().GetSHA()})
	}
	return out
}
