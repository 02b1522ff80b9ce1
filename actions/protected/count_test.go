package protected_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/protected"
	"github.com/aayudha/aayu/model/pass"
)

// listingServer is a repository whose pull request #1 says it changes
// declared files and whose file list holds listed product files; the base
// branch has only a CODEOWNERS that owns .github/.
func listingServer(t *testing.T, declared, listed int) *github.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/repos/acme/big/pulls/1":
			_ = json.NewEncoder(w).Encode(map[string]any{"number": 1, "changed_files": declared,
				"base": map[string]any{"ref": "main"}, "head": map[string]any{"sha": "abc123"}, "user": map[string]any{"login": "agent"}})
		case r.URL.Path == "/repos/acme/big/git/ref/heads/main":
			_ = json.NewEncoder(w).Encode(map[string]any{"ref": "refs/heads/main", "object": map[string]any{"sha": "tip456"}})
		case r.URL.Path == "/repos/acme/big/pulls/1/files":
			page, _ := strconv.Atoi(r.URL.Query().Get("page"))
			page = max(page, 1)
			var files []map[string]any
			for i := (page - 1) * 100; i < min(page*100, listed); i++ {
				files = append(files, map[string]any{"filename": fmt.Sprintf("greet/f%d.go", i), "status": "modified"})
			}
			if page*100 < listed {
				next := *r.URL
				q := next.Query()
				q.Set("page", strconv.Itoa(page+1))
				next.RawQuery = q.Encode()
				w.Header().Set("Link", fmt.Sprintf(`<http://%s%s>; rel="next"`, r.Host, next.RequestURI()))
			}
			_ = json.NewEncoder(w).Encode(files)
		case r.URL.Path == "/repos/acme/big/contents/.github/CODEOWNERS":
			_ = json.NewEncoder(w).Encode(map[string]any{"type": "file", "encoding": "base64", "path": ".github/CODEOWNERS",
				"content": base64.StdEncoding.EncodeToString([]byte("/.github/ @founder\n"))})
		case r.URL.Path == "/repos/acme/big/pulls/1/reviews":
			_, _ = w.Write([]byte("[]"))
		default:
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"message":"Not Found"}`))
		}
	}))
	t.Cleanup(srv.Close)
	c := github.NewClient(nil)
	c.BaseURL, _ = url.Parse(srv.URL + "/")
	return c
}

// TestProtectedGateCountsFilesAsShipDoes: a list at GitHub's 3,000-file cap
// may be cut, so the gate refuses it as ship does, even when the pull
// request's own count agrees; a list shorter than the count is refused
// too, and a complete list is judged.
func TestProtectedGateCountsFilesAsShipDoes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		declared, listed int
		want             int
	}{
		{pass.MaxListedFiles, pass.MaxListedFiles, protected.ExitRefused},
		{pass.MaxListedFiles + 500, pass.MaxListedFiles, protected.ExitRefused},
		{120, 100, protected.ExitRefused},
		{150, 150, protected.ExitOK},
	} {
		code, lines, err := protected.Check(context.Background(), listingServer(t, c.declared, c.listed), "acme", "big", 1)
		text := strings.Join(lines, "\n")
		if err != nil || code != c.want {
			t.Errorf("%d declared, %d listed: exit %d %v, want %d:\n%s", c.declared, c.listed, code, err, c.want, text)
		}
		if why := pass.UnlistedFiles(c.listed, c.declared); why != "" && !strings.Contains(text, why) {
			t.Errorf("%d declared, %d listed: the gate does not give ship's reason %q:\n%s", c.declared, c.listed, why, text)
		}
	}
}
