package ghx

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"
)

func TestNotFastForward(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t)
	f.mux.HandleFunc("PATCH /repos/acme/benefits/git/refs/heads/ledger", func(w http.ResponseWriter, r *http.Request) {
		githubError(w, http.StatusUnprocessableEntity, "Update is not a fast forward",
			"https://docs.github.com/rest/git/refs#update-a-reference")
	})
	f.mux.HandleFunc("PATCH /repos/acme/benefits/git/refs/heads/missing", func(w http.ResponseWriter, r *http.Request) {
		githubError(w, http.StatusUnprocessableEntity, "Reference does not exist", "https://docs.github.com/rest")
	})
	s := newTestClient(t, f, nil)
	ctx := context.Background()
	update := func(branch string) error {
		_, _, err := s.client.Git.UpdateRef(ctx, "acme", "benefits",
			&github.Reference{Ref: github.String("refs/heads/" + branch), Object: &github.GitObject{SHA: github.String("b046d1a1d113339eb80e130c9dc0008fa223e76f")}}, false)
		return err
	}
	err := update("ledger")
	if !IsNotFastForward(err) {
		t.Fatalf("IsNotFastForward(%v) = false", err)
	}
	if d := Describe(err); !strings.Contains(d, "branch moved") || !strings.Contains(d, "never by force") {
		t.Errorf("Describe = %q", d)
	}
	if other := update("missing"); other == nil || IsNotFastForward(other) {
		t.Errorf("another 422 (%v) is not a non-fast-forward", other)
	}
}

func errorResponse(method, rawURL string, status int, message string, details ...github.Error) *github.ErrorResponse {
	req, _ := http.NewRequest(method, rawURL, nil)
	return &github.ErrorResponse{
		Response: &http.Response{StatusCode: status, Status: http.StatusText(status), Request: req},
		Message:  message, Errors: details,
	}
}

func TestDescribe(t *testing.T) {
	t.Parallel()
	retryAfter := 30 * time.Second
	rateReq, _ := http.NewRequest("GET", "https://api.github.com/user", nil)
	cases := []struct {
		name string
		err  error
		want []string
	}{
		{"nil", nil, nil},
		{"401", errorResponse("GET", "https://api.github.com/user", 401, "Bad credentials"),
			[]string{"refused the token", "Bad credentials", "nothing was changed", "aayu auth"}},
		{"403", errorResponse("POST", "https://api.github.com/repos/a/b/pulls/1/reviews", 403, "Resource not accessible by integration"),
			[]string{"403", "lacks the permission", "nothing was changed"}},
		{"404", errorResponse("GET", "https://api.github.com/repos/acme/secret", 404, "Not Found"),
			[]string{"/repos/acme/secret", "cannot see a private repository", "nothing was changed"}},
		{"409", errorResponse("PUT", "https://api.github.com/repos/a/b/pulls/1/merge", 409, "Head branch was modified. Review and try the merge again."),
			[]string{"conflict", "Head branch was modified", "re-reads"}},
		{"410 issue", errorResponse("GET", "https://api.github.com/repos/a/b/issues/3", 410, "Issues are disabled for this repo"),
			[]string{"/repos/a/b/issues/3 is gone", "Issues are disabled"}},
		{"410 artifact", errorResponse("GET", "https://api.github.com/repos/a/b/actions/artifacts/9/zip", 410, "Gone"),
			[]string{"artifact has expired", "re-run the merge gate"}},
		{"422", errorResponse("POST", "https://api.github.com/repos/a/b/labels", 422, "Validation Failed",
			github.Error{Resource: "Label", Field: "color", Code: "invalid"}),
			[]string{"invalid", "color is invalid", "nothing was changed"}},
		{"405", errorResponse("PUT", "https://api.github.com/repos/a/b/pulls/1/merge", 405, "Pull Request is not mergeable"),
			[]string{"not mergeable"}},
		{"500 on write", errorResponse("POST", "https://api.github.com/repos/a/b/git/blobs", 500, "Server Error"),
			[]string{"may or may not"}},
		{"500 on read", errorResponse("GET", "https://api.github.com/repos/a/b", 500, "Server Error"),
			[]string{"nothing was changed", "try again"}},
		{"go-github rate limit", &github.RateLimitError{Rate: github.Rate{Limit: 5000, Reset: github.Timestamp{Time: time.Date(2026, 10, 12, 10, 0, 0, 0, time.UTC)}},
			Response: &http.Response{StatusCode: 403, Request: rateReq}}, []string{"hourly request limit", "10:00 UTC"}},
		{"go-github abuse", &github.AbuseRateLimitError{RetryAfter: &retryAfter, Response: &http.Response{StatusCode: 403, Request: rateReq}},
			[]string{"secondary rate limit", "wait 30s"}},
		{"wrapped url error with signed URL", fmt.Errorf("downloading: %w", &url.Error{Op: "Get", URL: "https://blob.example/a.zip?sig=SECRET",
			Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}}),
			[]string{"Could not connect", "nothing was sent"}},
		{"dns", &net.DNSError{Name: "ghes.example.com", Err: "no such host"}, []string{"ghes.example.com", "DNS"}},
		{"cancelled", fmt.Errorf("x: %w", context.Canceled), []string{"cancelled", "re-read"}},
		{"deadline", context.DeadlineExceeded, []string{"did not answer in time"}},
		{"too many pages", fmt.Errorf("x: %w", ErrTooManyPages), []string{"longer than aayu reads"}},
		{"other", errors.New(`Get "https://blob.example/x?sig=SECRET": tls: bad record MAC`), []string{"sig=***"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Describe(c.err)
			if c.err == nil {
				if got != "" {
					t.Errorf("Describe(nil) = %q", got)
				}
				return
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("Describe = %q, want it to contain %q", got, w)
				}
			}
			if strings.Contains(got, "SECRET") || strings.Contains(got, "\n") {
				t.Errorf("Describe = %q shows a secret or spans lines", got)
			}
			if !strings.HasSuffix(got, ".") {
				t.Errorf("Describe = %q is not a sentence", got)
			}
		})
	}
}

func TestIsExpiredOnlyForArtifacts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("x: %w", ErrArtifactExpired), true},
		{errors.New("unexpected status code: 410 Gone"), true},
		{errorResponse("GET", "https://api.github.com/repos/a/b/actions/artifacts/9/zip", 410, "Gone"), true},
		{errorResponse("GET", "https://api.github.com/repos/a/b/issues/3", 410, "Issues are disabled"), false},
		{errors.New("unexpected status code: 404 Not Found"), false},
		{nil, false},
	}
	for _, c := range cases {
		if got := IsExpired(c.err); got != c.want {
			t.Errorf("IsExpired(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// TestAccessTakesTheRoleNameAndReadsNoAccessAsNone: maintain and triage
// come from role_name (the permission field says write and read for them);
// a 404 or a 403 is no access, any other error is the read's.
func TestAccessTakesTheRoleNameAndReadsNoAccessAsNone(t *testing.T) {
	t.Parallel()
	status := func(code int) error {
		return &github.ErrorResponse{Response: &http.Response{StatusCode: code, Request: &http.Request{Method: "GET", URL: &url.URL{}}}}
	}
	for _, tc := range []struct {
		name      string
		perm, rn  string
		err       error
		want      string
		wantError bool
	}{
		{"admin", "admin", "admin", nil, "admin", false},
		{"maintain reads as write", "write", "maintain", nil, "maintain", false},
		{"triage reads as read", "read", "triage", nil, "triage", false},
		{"a custom role keeps the permission", "write", "deployer", nil, "write", false},
		{"not found", "", "", status(404), "none", false},
		{"forbidden", "", "", status(403), "none", false},
		{"a server error", "", "", status(502), "none", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var lvl *github.RepositoryPermissionLevel
			if tc.err == nil {
				lvl = &github.RepositoryPermissionLevel{Permission: github.String(tc.perm), RoleName: github.String(tc.rn)}
			}
			got, err := Access(lvl, tc.err)
			if got != tc.want || (err != nil) != tc.wantError {
				t.Fatalf("Access = %q, %v; want %q, error %v", got, err, tc.want, tc.wantError)
			}
		})
	}
}
