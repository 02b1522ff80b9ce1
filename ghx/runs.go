package ghx

import (
	"context"
	"sort"

	"github.com/google/go-github/v66/github"
)

// ListWorkflowRuns lists every run of the workflow file (e.g.
// aayudha-merge-gate.yml) matching opts, newest first by creation time,
// ties broken by the higher run id. opts may be nil; its paging is ListAll's.
func ListWorkflowRuns(ctx context.Context, client *github.Client, owner, repo, file string, opts *github.ListWorkflowRunsOptions) ([]*github.WorkflowRun, error) {
	o := github.ListWorkflowRunsOptions{}
	if opts != nil {
		o = *opts
	}
	runs, err := ListAll(ctx, func(lo *github.ListOptions) ([]*github.WorkflowRun, *github.Response, error) {
		o.ListOptions = *lo
		list, resp, err := client.Actions.ListWorkflowRunsByFileName(ctx, owner, repo, file, &o)
		if list == nil {
			return nil, resp, err
		}
		return list.WorkflowRuns, resp, err
	})
	if err != nil {
		return nil, err
	}
	// GitHub lists newest first already; sorting makes it a promise.
	sort.SliceStable(runs, func(i, j int) bool {
		a, b := runs[i].GetCreatedAt().Time, runs[j].GetCreatedAt().Time
		if !a.Equal(b) {
			return a.After(b)
		}
		return runs[i].GetID() > runs[j].GetID()
	})
	return runs, nil
}
