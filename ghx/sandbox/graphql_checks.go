package sandbox

import (
	"fmt"
	"strings"
)

// GraphQL's view of checks: Commit.statusCheckRollup (the newest check
// run per app and name beside the newest status per context, as GitHub's
// pull request page rolls them up), Commit.checkSuites, CheckRun,
// CheckSuite, App and the workflow run behind an Actions suite.

type rollupRef struct{ sha string }

// rollupConn is StatusCheckRollup.contexts: one page of CheckRun and
// StatusContext nodes, with the counts GitHub adds.
type rollupConn struct {
	*connection
	runs     []*checkRunRec
	statuses []*statusRec
}

type workflowRef struct{ run *runRec }

func (e *gqlExec) rollupParts(sha string) ([]*checkRunRec, []*statusRec) {
	runs := latestCheckRuns(e.s.checkRunsFor(sha))
	var latest []*statusRec
	seen := map[string]bool{}
	for _, st := range e.idx().statuses[sha] {
		if !seen[st.Context] {
			seen[st.Context] = true
			latest = append(latest, st)
		}
	}
	return runs, latest
}

// rollupState is the StatusState of the rollup: a failing or erroring
// context fails it, then anything unfinished keeps it pending; skipped and
// neutral check runs count as passing, as on GitHub.
func rollupState(runs []*checkRunRec, statuses []*statusRec) string {
	state := "SUCCESS"
	for _, st := range statuses {
		switch st.State {
		case "failure":
			return "FAILURE"
		case "error":
			return "ERROR"
		case "pending":
			state = "PENDING"
		}
	}
	for _, cr := range runs {
		if cr.Status != "completed" {
			state = "PENDING"
		} else if !checkGreen(cr.Conclusion) {
			return "FAILURE"
		}
	}
	return state
}

func (e *gqlExec) rollup(r rollupRef, name string, args map[string]any) (any, error) {
	runs, statuses := e.rollupParts(r.sha)
	switch name {
	case "id":
		return "SCR_" + r.sha, nil
	case "commit":
		return commitRef(r), nil
	case "state":
		return rollupState(runs, statuses), nil
	case "contexts":
		var all []any
		for _, cr := range runs {
			all = append(all, typed{"CheckRun", cr})
		}
		for _, st := range statuses {
			all = append(all, typed{"StatusContext", st})
		}
		c, err := paginate(all, args, "contexts")
		if err != nil {
			return nil, err
		}
		return &rollupConn{connection: c, runs: runs, statuses: statuses}, nil
	}
	return nil, fmt.Errorf("the sandbox does not serve StatusCheckRollup.%s", name)
}

func rollupConnField(c *rollupConn, name string) (any, bool) {
	switch name {
	case "checkRunCount":
		return len(c.runs), true
	case "statusContextCount":
		return len(c.statuses), true
	case "checkRunCountsByState", "statusContextCountsByState":
		return nil, false
	}
	return connectionField(c.connection, name)
}

// checkSuitesOf is Commit.checkSuites: the suites on sha, oldest first as
// GitHub pages them.
func (e *gqlExec) checkSuitesOf(sha string, args map[string]any) (any, error) {
	var all []any
	for _, cs := range e.s.st.CheckSuites {
		if cs.HeadSHA == sha {
			all = append(all, cs)
		}
	}
	return paginate(all, args, "checkSuites")
}

func (e *gqlExec) checkRun(cr *checkRunRec, name string) (any, bool) {
	html := fmt.Sprintf("%s%s/runs/%d", e.base, htmlRepo, cr.ID)
	if cs := e.s.checkSuite(cr.SuiteID); cs != nil && cs.RunID != 0 {
		html = fmt.Sprintf("%s%s/actions/runs/%d/job/%d", e.base, htmlRepo, cs.RunID, cr.ID)
	}
	switch name {
	case "id":
		return nodeID("CR", cr.ID), true
	case "databaseId":
		return cr.ID, true
	case "name":
		return cr.Name, true
	case "status":
		return strings.ToUpper(cr.Status), true
	case "conclusion":
		if cr.Conclusion == "" {
			return nil, true
		}
		return strings.ToUpper(cr.Conclusion), true
	case "detailsUrl":
		return nilIfEmpty(cr.DetailsURL), true
	case "externalId":
		return nil, true
	case "startedAt":
		return ts(cr.StartedAt), true
	case "completedAt":
		if cr.CompletedAt == nil {
			return nil, true
		}
		return ts(*cr.CompletedAt), true
	case "title":
		return nilIfEmpty(cr.Title), true
	case "summary":
		return nilIfEmpty(cr.Summary), true
	case "text":
		return nil, true
	case "url", "permalink":
		return html, true
	case "resourcePath":
		return strings.TrimPrefix(html, e.base), true
	case "checkSuite":
		if cs := e.s.checkSuite(cr.SuiteID); cs != nil {
			return cs, true
		}
	}
	return nil, false
}

func (e *gqlExec) checkSuiteField(cs *checkSuiteRec, name string, args map[string]any) (any, error) {
	runs := e.s.runsOfSuite(cs.ID)
	status, conclusion := suiteState(runs)
	path := fmt.Sprintf("%s/commit/%s/checks?check_suite_id=%d", htmlRepo, cs.HeadSHA, cs.ID)
	switch name {
	case "id":
		return nodeID("CS", cs.ID), nil
	case "databaseId":
		return cs.ID, nil
	case "status":
		return strings.ToUpper(status), nil
	case "conclusion":
		if conclusion == "" {
			return nil, nil
		}
		return strings.ToUpper(conclusion), nil
	case "app":
		return cs.App, nil
	case "commit":
		return commitRef{cs.HeadSHA}, nil
	case "createdAt":
		return ts(cs.CreatedAt), nil
	case "updatedAt":
		return ts(cs.UpdatedAt), nil
	case "url":
		return e.base + path, nil
	case "resourcePath":
		return path, nil
	case "branch":
		if cs.HeadBranch == "" {
			return nil, nil
		}
		return cs.HeadBranch, nil
	case "checkRuns":
		all := make([]any, len(runs))
		for i, cr := range runs {
			all[i] = cr
		}
		return paginate(all, args, "checkRuns")
	case "workflowRun":
		for _, run := range e.s.st.Runs {
			if cs.RunID != 0 && run.ID == cs.RunID {
				return run, nil
			}
		}
		return nil, nil
	}
	return nil, fmt.Errorf("the sandbox does not serve CheckSuite.%s", name)
}

func (e *gqlExec) app(slug, name string) (any, bool) {
	a := appOf(slug)
	switch name {
	case "id":
		return nodeID("A", a.ID), true
	case "databaseId":
		return a.ID, true
	case "slug":
		return a.Slug, true
	case "name":
		return a.Name, true
	case "description":
		return nilIfEmpty(a.Description), true
	case "url":
		return e.base + "/apps/" + a.Slug, true
	}
	return nil, false
}

func (e *gqlExec) workflowRun(run *runRec, name string) (any, bool) {
	path := fmt.Sprintf("%s/actions/runs/%d", htmlRepo, run.ID)
	switch name {
	case "id":
		return nodeID("WFR", run.ID), true
	case "databaseId":
		return run.ID, true
	case "runNumber":
		return run.RunNumber, true
	case "event":
		return run.Event, true
	case "url":
		return e.base + path, true
	case "resourcePath":
		return path, true
	case "createdAt":
		return ts(run.CreatedAt), true
	case "updatedAt":
		return ts(run.UpdatedAt), true
	case "workflow":
		return workflowRef{run}, true
	}
	return nil, false
}

func (e *gqlExec) workflow(w workflowRef, name string) (any, bool) {
	path := htmlRepo + "/actions/workflows/" + GateFile
	switch name {
	case "id":
		return nodeID("W", workflowID), true
	case "databaseId":
		return workflowID, true
	case "name":
		return w.run.Name, true
	case "url":
		return e.base + path, true
	case "resourcePath":
		return path, true
	}
	return nil, false
}
