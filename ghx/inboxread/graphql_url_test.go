package inboxread

import (
	"net/url"
	"testing"

	"github.com/google/go-github/v66/github"
)

// GitHub Enterprise Server serves GraphQL at /api/graphql beside REST's
// /api/v3/; github.com and the sandbox at /graphql.
func TestGraphQLEndpointBesideTheRESTBase(t *testing.T) {
	t.Parallel()
	for base, want := range map[string]string{
		"https://api.github.com/":         "https://api.github.com/graphql",
		"https://ghe.example.com/api/v3/": "https://ghe.example.com/api/graphql",
		"http://127.0.0.1:8765/":          "http://127.0.0.1:8765/graphql",
	} {
		c := github.NewClient(nil)
		c.BaseURL, _ = url.Parse(base)
		r := New(c, "acme", "benefits", Options{})
		req, err := r.gh.NewRequest("POST", r.graphqlURL(), map[string]any{})
		if err != nil {
			t.Fatal(err)
		}
		if got := req.URL.String(); got != want {
			t.Errorf("REST at %s: GraphQL at %s, want %s", base, got, want)
		}
	}
}
