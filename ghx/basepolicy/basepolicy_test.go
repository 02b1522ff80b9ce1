package basepolicy_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/basepolicy"
)

// repoWith serves main at tip "tip1" holding files (path → text); any
// other file is missing. A text of the form "HTTP 503" is answered with
// that status instead, as GitHub answers a read it cannot serve. It counts
// the reads made at a ref other than the tip.
func repoWith(t *testing.T, files map[string]string) (*github.Client, *atomic.Int32) {
	t.Helper()
	var offTip atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/repos/acme/p/git/ref/heads/main" {
			_ = json.NewEncoder(w).Encode(map[string]any{"ref": "refs/heads/main", "object": map[string]any{"sha": "tip1"}})
			return
		}
		path, ok := strings.CutPrefix(r.URL.Path, "/repos/acme/p/contents/")
		if ok && r.URL.Query().Get("ref") != "tip1" {
			offTip.Add(1)
		}
		if text, found := files[path]; ok && found && strings.HasPrefix(text, "HTTP ") {
			status, _ := strconv.Atoi(strings.TrimPrefix(text, "HTTP "))
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"message":"` + http.StatusText(status) + `"}`))
			return
		}
		if text, found := files[path]; ok && found {
			_ = json.NewEncoder(w).Encode(map[string]any{"type": "file", "encoding": "base64", "path": path,
				"content": base64.StdEncoding.EncodeToString([]byte(text))})
			return
		}
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"message":"Not Found"}`))
	}))
	t.Cleanup(srv.Close)
	c := github.NewClient(nil)
	c.BaseURL, _ = url.Parse(srv.URL + "/")
	return c, &offTip
}

// TestBasePolicyIsOneReadOnlyValue: every file is read at the tip, and
// what a consumer gets cannot change what the next one judges by.
func TestBasePolicyIsOneReadOnlyValue(t *testing.T) {
	gh, offTip := repoWith(t, map[string]string{
		".aayudha/config.toml": "[autonomy]\nnever = [\"L04\"]\napprover = \"@ana\"\n[identity]\nbot_logins = [\"machine\"]\n",
		"CODEOWNERS":           "/.github/ @ana\n",
		// GitHub uses the first CODEOWNERS of its paths that exists; a later
		// one is never read as the rules, however it differs.
		"docs/CODEOWNERS": "* @mallory\n",
	})
	p, err := basepolicy.Read(context.Background(), gh, "acme", "p", "main")
	if err != nil || len(p.Refusals()) != 0 || p.Tip() != "tip1" || !p.ConfigRead() {
		t.Fatalf("read: %v, refusals %q, tip %q", err, p.Refusals(), p.Tip())
	}
	if n := offTip.Load(); n != 0 {
		t.Errorf("%d files were read at another ref than the tip", n)
	}
	if path, text := p.CodeownersText(); path != "CODEOWNERS" || text != "/.github/ @ana\n" || p.Codeowners() == nil {
		t.Errorf("CODEOWNERS: %q %q", path, text)
	}
	pass, id := p.Pass(), p.Identity()
	pass.Never[0], id.BotLogins[0] = "none", "someone"
	raw := p.Raw()
	raw[0] = 'X'
	if p.Pass().Never[0] != "L04" || p.Identity().BotLogins[0] != "machine" || p.Raw()[0] != '[' {
		t.Errorf("a consumer changed the policy: never %q, bots %q", p.Pass().Never, p.Identity().BotLogins)
	}
}

// TestBasePolicyRefusalsAreWorded: each file that exists and cannot be
// read is a refusal in words; an absent file is the defaults, no refusal.
func TestBasePolicyRefusalsAreWorded(t *testing.T) {
	gh, _ := repoWith(t, map[string]string{
		".aayudha/config.toml": "[identity]\nbot_logins = \"machine\"\n",
		".github/CODEOWNERS":   "/src/[a-z/ @ana\n",
		"LAYERS.md":            "# Layers\n\nno table here\n",
	})
	p, err := basepolicy.Read(context.Background(), gh, "acme", "p", "main")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(p.Refusals(), "\n")
	for _, want := range []string{"the base branch's policy cannot be read: the base branch's .aayudha/config.toml: identity.bot_logins", "so this fails closed",
		"the base branch's .github/CODEOWNERS has a rule aayu cannot evaluate",
		"the base branch's LAYERS.md cannot be read (LAYERS.md has no layer rows", "so the footprint cannot be computed"} {
		if !strings.Contains(got, want) {
			t.Errorf("refusals lack %q:\n%s", want, got)
		}
	}
	if p.ConfigRead() || len(p.Identity().BotLogins) != 0 {
		t.Errorf("an unreadable config was still read: %v", p.Identity().BotLogins)
	}
	if s := p.Sentence(); !strings.HasPrefix(s, "The base branch's policy cannot be read") || !strings.HasSuffix(s, ".") {
		t.Errorf("Sentence: %q", s)
	}

	empty, _ := repoWith(t, nil)
	if p, err := basepolicy.Read(context.Background(), empty, "acme", "p", "main"); err != nil || len(p.Refusals()) != 0 || !p.ConfigRead() {
		t.Errorf("no policy files: %v %q", err, p.Refusals())
	}
}

// TestBasePolicyFailsOnAReadGitHubDidNotAnswer: only GitHub's 404 means a
// policy file is absent (the defaults); any other failed read of any of
// them is an error naming the file, never a missing file, so a base policy
// GitHub could not serve is not judged as no policy at all. ReadConfig, the
// inbox's reader, holds the same line.
func TestBasePolicyFailsOnAReadGitHubDidNotAnswer(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string // in Read's error; "" when Read succeeds
	}{
		{"every file absent is the defaults", nil, ""},
		{"the config answered 500", map[string]string{".aayudha/config.toml": "HTTP 500"}, "reading .aayudha/config.toml on main"},
		{"the config answered 403", map[string]string{".aayudha/config.toml": "HTTP 403"}, "reading .aayudha/config.toml on main"},
		{"LAYERS.md answered 502", map[string]string{"LAYERS.md": "HTTP 502"}, "reading LAYERS.md on main"},
		{"the first CODEOWNERS answered 500", map[string]string{".github/CODEOWNERS": "HTTP 500", "CODEOWNERS": "* @ana\n"}, "reading .github/CODEOWNERS on main"},
		{"the last CODEOWNERS answered 503", map[string]string{"docs/CODEOWNERS": "HTTP 503"}, "reading docs/CODEOWNERS on main"},
	} {
		t.Run(c.name, func(t *testing.T) {
			gh, _ := repoWith(t, c.files)
			p, err := basepolicy.Read(context.Background(), gh, "acme", "p", "main")
			if c.want == "" {
				if err != nil || len(p.Refusals()) != 0 || !p.ConfigRead() {
					t.Fatalf("Read = %v, refusals %q; want the defaults", err, p.Refusals())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Read = %v (policy %+v); want an error saying %q", err, p, c.want)
			}
			if status := c.files[".aayudha/config.toml"]; status != "" {
				if _, err := basepolicy.ReadConfig(context.Background(), gh, "acme", "p", "main"); err == nil || !strings.Contains(err.Error(), "reading .aayudha/config.toml on main of acme/p") {
					t.Errorf("ReadConfig = %v; want an error naming the file", err)
				}
			}
		})
	}
}
