package sandbox_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestEnterpriseLayoutIsServed: a client configured for a host other than
// github.com (gh with GH_HOST) asks under /api/v3/ and at /api/graphql, as
// GitHub Enterprise Server lays them out. The sandbox answers there exactly
// as at github.com's paths, and the validator sees the same operation.
func TestEnterpriseLayoutIsServed(t *testing.T) {
	t.Parallel()
	_, v, base := startValidated(t, sandbox.Options{ShareSeed: true})
	plain := get(t, base+"/repos/acme/benefits/git/ref/heads/story/3-remaining-deductible", "token sandbox-founder", nil)
	ghes := get(t, base+"/api/v3/repos/acme/benefits/git/ref/heads/story/3-remaining-deductible", "token sandbox-founder", nil)
	pb, _ := io.ReadAll(plain.Body)
	gb, _ := io.ReadAll(ghes.Body)
	if ghes.StatusCode != 200 || string(gb) != string(pb) || ghes.Header.Get("ETag") != plain.Header.Get("ETag") {
		t.Errorf("GET /api/v3/repos/…/git/ref/…: %d, same body %v, same ETag %v", ghes.StatusCode, string(gb) == string(pb), ghes.Header.Get("ETag") == plain.Header.Get("ETag"))
	}
	if !v.SeenOperation("git/get-ref") {
		t.Error("the validator did not see git/get-ref under /api/v3/")
	}

	req, _ := http.NewRequest("POST", base+"/api/graphql", strings.NewReader(`{"query":"{ viewer { login } }"}`))
	req.Header.Set("Authorization", "bearer sandbox-founder")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"login":"founder"`) {
		t.Errorf("POST /api/graphql: %d %s", resp.StatusCode, body)
	}
}
