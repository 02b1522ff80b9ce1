package inboxread

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aayudha/aayu/model/checks"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/pass"

	"github.com/aayudha/aayu/model/untrusted"
)

// PullFactsQuery reads a page of 100 open pull requests with what their
// steps depend on — the pull request itself, its head's commit statuses,
// the latest comments and reviews — in one request, where REST needs a
// share of a pulls page (each with two whole repository objects) and
// three requests per pull request. It is valid against GitHub's public
// schema (tested against it).
const PullFactsQuery = `query PullFacts($owner: String!, $name: String!, $cursor: String) {
  repository(owner: $owner, name: $name) {
    pullRequests(states: [OPEN], first: 100, after: $cursor, orderBy: {field: UPDATED_AT, direction: DESC}) {
      pageInfo { hasNextPage endCursor }
      nodes {
        number title body headRefName headRefOid baseRefName isDraft createdAt updatedAt
        author { __typename login }
        labels(first: 100) { totalCount nodes { name } }
        commits(last: 1) { nodes { commit { oid status { contexts { context state description targetUrl creator { __typename login } } }
          statusCheckRollup { contexts(first: 100) { totalCount nodes { __typename ... on CheckRun { name status conclusion detailsUrl checkSuite { app { slug } } } } } } } } }
        comments(last: 100) { totalCount nodes { databaseId body createdAt updatedAt url author { __typename login } } }
        reviews(last: 100) { totalCount nodes { databaseId state submittedAt url commit { oid } author { __typename login } } }
        files(first: 100) { totalCount nodes { path changeType } }
      }
    }
  }
}`

// batchFrom is how many pull requests make the one-query-per-page read
// cheaper than a few REST requests each.
const batchFrom = 3

type gqlActor struct {
	Typename string `json:"__typename"`
	Login    string `json:"login"`
}

// account: a GitHub App's login carries no "[bot]" in GraphQL; REST's
// form is used everywhere else, so it is put back.
func (a *gqlActor) account() identity.Account {
	if a == nil {
		return identity.Account{}
	}
	if a.Typename == "Bot" {
		return identity.Account{Login: a.Login + "[bot]", Bot: true}
	}
	return identity.Account{Login: a.Login}
}

// gqlFile is one changed file of a pull request.
type gqlFile struct {
	Path       string `json:"path"`
	ChangeType string `json:"changeType"`
}

type gqlPull struct {
	// partial: GraphQL answered an error inside this pull request, so
	// its facts are not taken from the page (factsFrom).
	partial bool

	Number      int       `json:"number"`
	Title       string    `json:"title"`
	Body        string    `json:"body"`
	HeadRefName string    `json:"headRefName"`
	HeadRefOid  string    `json:"headRefOid"`
	BaseRefName string    `json:"baseRefName"`
	IsDraft     bool      `json:"isDraft"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
	Author      *gqlActor `json:"author"`
	Labels      struct {
		TotalCount int `json:"totalCount"`
		Nodes      []struct {
			Name string `json:"name"`
		} `json:"nodes"`
	} `json:"labels"`
	// Files are the changed files (a rename's old path is not in GraphQL:
	// a pull request with a rename, or more files than a page, is listed
	// through REST, see changedFiles).
	Files struct {
		TotalCount int       `json:"totalCount"`
		Nodes      []gqlFile `json:"nodes"`
	} `json:"files"`
	Commits struct {
		Nodes []struct {
			Commit struct {
				Oid    string `json:"oid"`
				Status *struct {
					Contexts []struct {
						Context     string    `json:"context"`
						State       string    `json:"state"`
						Description string    `json:"description"`
						TargetURL   string    `json:"targetUrl"`
						Creator     *gqlActor `json:"creator"`
					} `json:"contexts"`
				} `json:"status"`
				// StatusCheckRollup's CheckRun nodes are the check runs
				// (its StatusContext nodes repeat status above).
				StatusCheckRollup *struct {
					Contexts struct {
						TotalCount int `json:"totalCount"`
						Nodes      []struct {
							Typename   string `json:"__typename"`
							Name       string `json:"name"`
							Status     string `json:"status"`
							Conclusion string `json:"conclusion"`
							DetailsURL string `json:"detailsUrl"`
							CheckSuite *struct {
								App *struct {
									Slug string `json:"slug"`
								} `json:"app"`
							} `json:"checkSuite"`
						} `json:"nodes"`
					} `json:"contexts"`
				} `json:"statusCheckRollup"`
			} `json:"commit"`
		} `json:"nodes"`
	} `json:"commits"`
	Comments struct {
		TotalCount int `json:"totalCount"`
		Nodes      []struct {
			DatabaseID int64     `json:"databaseId"`
			Body       string    `json:"body"`
			CreatedAt  time.Time `json:"createdAt"`
			UpdatedAt  time.Time `json:"updatedAt"`
			URL        string    `json:"url"`
			Author     *gqlActor `json:"author"`
		} `json:"nodes"`
	} `json:"comments"`
	Reviews struct {
		TotalCount int `json:"totalCount"`
		Nodes      []struct {
			DatabaseID  int64      `json:"databaseId"`
			State       string     `json:"state"`
			SubmittedAt *time.Time `json:"submittedAt"`
			URL         string     `json:"url"`
			Commit      *struct {
				Oid string `json:"oid"`
			} `json:"commit"`
			Author *gqlActor `json:"author"`
		} `json:"nodes"`
	} `json:"reviews"`
}

type gqlResponse struct {
	Data struct {
		Repository *struct {
			PullRequests struct {
				PageInfo struct {
					HasNextPage bool   `json:"hasNextPage"`
					EndCursor   string `json:"endCursor"`
				} `json:"pageInfo"`
				Nodes []gqlPull `json:"nodes"`
			} `json:"pullRequests"`
		} `json:"repository"`
	} `json:"data"`
	Errors []gqlError `json:"errors"`
}

// gqlError is one entry of GraphQL's errors. GitHub answers data beside
// errors where only part of a query failed (a FORBIDDEN field, say): the
// failed field is null, and path says where it is.
type gqlError struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Path    []any  `json:"path"`
}

// partialNode says which pull request (index into the page's nodes) an
// error left partly unread: a field inside nodes[i], never the node
// itself. ok is false for any other error, which fails the whole page.
func (e gqlError) partialNode() (int, bool) {
	want := []string{"repository", "pullRequests", "nodes"}
	if len(e.Path) < len(want)+2 {
		return 0, false
	}
	for i, w := range want {
		if seg, _ := e.Path[i].(string); seg != w {
			return 0, false
		}
	}
	idx, ok := e.Path[len(want)].(float64)
	if !ok || idx < 0 || idx != float64(int(idx)) {
		return 0, false
	}
	return int(idx), true
}

// graphqlURL is GitHub's GraphQL endpoint beside the REST base:
// api.github.com/graphql, or HOST/api/graphql on GitHub Enterprise Server.
func (r *Reader) graphqlURL() string {
	if strings.HasSuffix(r.gh.BaseURL.Path, "/api/v3/") {
		return "../graphql"
	}
	return "graphql"
}

// openPullFacts reads every open pull request's facts, a page of 100 per
// request, one request after another (GitHub asks for no concurrency on
// GraphQL).
func (s *session) openPullFacts() (map[int]gqlPull, error) {
	out := map[int]gqlPull{}
	var cursor any
	for pages := 0; ; pages++ {
		if pages >= 1000 {
			return out, errors.New("stopped after 1,000 pages of pull requests")
		}
		req, err := s.r.gh.NewRequest("POST", s.r.graphqlURL(), map[string]any{
			"query":     PullFactsQuery,
			"variables": map[string]any{"owner": s.r.owner, "name": s.r.repo, "cursor": cursor},
		})
		if err != nil {
			return out, err
		}
		var resp gqlResponse
		if _, err := s.r.gh.Do(s.ctx, req, &resp); err != nil {
			return out, err
		}
		if resp.Data.Repository == nil {
			if len(resp.Errors) > 0 {
				return out, fmt.Errorf("GitHub's GraphQL API answered: %s", resp.Errors[0].Message)
			}
			return out, errors.New("GitHub's GraphQL API found no such repository")
		}
		page := resp.Data.Repository.PullRequests
		// Partial data: a pull request a field of which failed is still
		// listed, but none of its facts is taken from this answer (REST
		// reads them); any other error fails the page.
		for _, e := range resp.Errors {
			i, ok := e.partialNode()
			if !ok || i >= len(page.Nodes) || page.Nodes[i].Number == 0 {
				return out, fmt.Errorf("GitHub's GraphQL API answered: %s", e.Message)
			}
			page.Nodes[i].partial = true
			s.r.logf("GraphQL could not read part of pull request #%d (%s); its facts are read through REST", page.Nodes[i].Number, e.Message)
		}
		for _, pr := range page.Nodes {
			out[pr.Number] = pr
		}
		if !page.PageInfo.HasNextPage || page.PageInfo.EndCursor == "" {
			return out, nil
		}
		cursor = page.PageInfo.EndCursor
	}
}

// factsFrom turns one pull request of the batch into its facts, as
// pullFacts would read them; ok is false when the batch cannot stand in
// for REST: the head moved between the two reads, or a list was longer
// than the page.
func (s *session) factsFrom(open map[int]inbox.Issue, pr inbox.PullRequest, g gqlPull) (facts inbox.PRFacts, needGate, ok bool, err error) {
	if g.partial || g.HeadRefOid != pr.HeadSHA || g.Comments.TotalCount > len(g.Comments.Nodes) || g.Reviews.TotalCount > len(g.Reviews.Nodes) {
		return facts, false, false, nil
	}
	inspectPending := false
	var list []checks.Check
	for _, c := range g.Commits.Nodes {
		if c.Commit.Oid != pr.HeadSHA || c.Commit.Status == nil {
			continue
		}
		for _, st := range c.Commit.Status.Contexts {
			c := checks.FromStatus(st.Context, strings.ToLower(st.State), st.Creator.account().Login, st.TargetURL)
			status := inbox.Status{Context: untrusted.Context(st.Context), State: c.Detail, Description: untrusted.Text(st.Description),
				FromGate: checks.InspectFromGate(c, checks.RunsPath(s.r.owner, s.r.repo))}
			facts.Statuses = append(facts.Statuses, status)
			inspectPending = inspectPending || (status.Context == inbox.InspectContext && status.State == "pending")
			list = append(list, c)
		}
		if c.Commit.StatusCheckRollup == nil {
			continue
		}
		rollup := c.Commit.StatusCheckRollup.Contexts
		if rollup.TotalCount > len(rollup.Nodes) {
			return facts, false, false, nil // more checks than the page: REST reads them all
		}
		for _, n := range rollup.Nodes {
			if n.Typename != "CheckRun" {
				continue
			}
			app := ""
			if n.CheckSuite != nil && n.CheckSuite.App != nil {
				app = n.CheckSuite.App.Slug
			}
			list = append(list, checks.FromCheckRun(n.Name, n.Status, n.Conclusion, app, n.DetailsURL))
		}
	}
	facts.Failing = failingChecks(list)
	if !pr.Draft && linksOpen(open, pr, inbox.LabelStory) {
		for _, c := range g.Comments.Nodes {
			cm := identity.Comment{ID: c.DatabaseID, Author: c.Author.account(), Body: untrusted.Text(c.Body), CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC(), URL: c.URL}
			if err := s.fillPermission(&cm.Author); err != nil {
				return facts, false, false, err
			}
			facts.Comments = append(facts.Comments, cm)
		}
		_, needGate = inbox.ReadyToShipComment(facts.Comments, pr.HeadSHA, s.bots)
	}
	if inspectPending {
		for _, rv := range g.Reviews.Nodes {
			review := pass.Review{ID: rv.DatabaseID, Author: rv.Author.account(), State: rv.State, URL: rv.URL}
			if rv.Commit != nil {
				review.CommitID = rv.Commit.Oid
			}
			if rv.SubmittedAt != nil {
				review.SubmittedAt = rv.SubmittedAt.UTC()
			}
			facts.Reviews = append(facts.Reviews, review)
		}
	}
	return facts, needGate, true, nil
}

// pullFactsFuture is the GraphQL read started at the beginning of a full
// Read, beside the REST lists it does not depend on.
type pullFactsFuture struct {
	done  chan struct{}
	facts map[int]gqlPull
	err   error
}

func startPullFacts(s *session) *pullFactsFuture {
	f := &pullFactsFuture{done: make(chan struct{})}
	go func() {
		defer close(f.done)
		f.facts, f.err = s.openPullFacts()
	}()
	return f
}

func (f *pullFactsFuture) wait() (map[int]gqlPull, error) {
	<-f.done
	return f.facts, f.err
}

// pull is the open pull request as pullFrom reads it from REST; ok is
// false when its labels were longer than the page.
func (g gqlPull) pull() (inbox.PullRequest, bool) {
	pr := inbox.PullRequest{
		Number: g.Number, Title: untrusted.Text(g.Title), Body: untrusted.Text(g.Body), HeadRef: untrusted.Ref(g.HeadRefName), HeadSHA: g.HeadRefOid,
		BaseRef: untrusted.Ref(g.BaseRefName), State: "open", Draft: g.IsDraft, Author: g.Author.account(),
	}
	for _, l := range g.Labels.Nodes {
		pr.Labels = append(pr.Labels, untrusted.Label(l.Name))
	}
	return pr, g.Labels.TotalCount <= len(g.Labels.Nodes)
}
