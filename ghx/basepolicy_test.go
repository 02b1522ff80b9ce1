package ghx_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
)

// repoWith serves main at tip "tip1" holding files (path → text); any
// other file is missing. It counts the reads made at a ref other than the
// tip.
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
	t.Parallel()
	gh, offTip := repoWith(t, map[string]string{
		".aayudha/config.toml": "[autonomy]\nnever = [\"L04\"]\napprover = \"@ana\"\n[identity]\nbot_logins = [\"machine\"]\n",
		"CODEOWNERS":           "/.github/ @ana\n",
		// GitHub uses the first CODEOWNERS of its paths that exists; a later
		// one is never read as the rules, however it differs.
		"docs/CODEOWNERS": "* @mallory\n",
	})
	p, err := ghx.ReadBasePolicy(context.Background(), gh, "acme", "p", "main")
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
	t.Parallel()
	gh, _ := repoWith(t, map[string]string{
		".aayudha/config.toml": "[identity]\nbot_logins = \"machine\"\n",
		".github/CODEOWNERS":   "/src/[a-z/ @ana\n",
		"LAYERS.md":            "# Layers\n\nno table here\n",
	})
	p, err := ghx.ReadBasePolicy(context.Background(), gh, "acme", "p", "main")
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
	if p, err := ghx.ReadBasePolicy(context.Background(), empty, "acme", "p", "main"); err != nil || len(p.Refusals()) != 0 || !p.ConfigRead() {
		t.Errorf("no policy files: %v %q", err, p.Refusals())
	}
}

// TestBasePolicyOnlyA404IsAMissingFile: a policy file GitHub answered 404
// for is absent (the defaults), but any other failed read — no access, a
// server error, a folder where the file should be — refuses with an error:
// read as "missing", it would judge by the looser defaults (fail open). A
// failed read of the tip refuses too: read at no commit, the files would be
// the default branch's. Each error names what it read and on which branch.
func TestBasePolicyOnlyA404IsAMissingFile(t *testing.T) {
	t.Parallel()
	const config = "[autonomy]\nnever = [\"L04\"]\n"
	for _, tc := range []struct {
		name    string
		path    string // "tip": the read of the branch's tip
		status  int    // the answer for path; 0 serves a folder
		missing bool   // the read succeeds, with path absent
	}{
		{name: "the tip 500", path: "tip", status: http.StatusInternalServerError},
		{name: "config 404", path: ".aayudha/config.toml", status: http.StatusNotFound, missing: true},
		{name: "config 403", path: ".aayudha/config.toml", status: http.StatusForbidden},
		{name: "config 500", path: ".aayudha/config.toml", status: http.StatusInternalServerError},
		{name: "config a folder", path: ".aayudha/config.toml"},
		{name: "LAYERS.md 401", path: "LAYERS.md", status: http.StatusUnauthorized},
		{name: "LAYERS.md 404", path: "LAYERS.md", status: http.StatusNotFound, missing: true},
		{name: "CODEOWNERS 502", path: "docs/CODEOWNERS", status: http.StatusBadGateway},
		{name: "CODEOWNERS 404", path: "docs/CODEOWNERS", status: http.StatusNotFound, missing: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if r.URL.Path == "/repos/acme/p/git/ref/heads/main" {
					if tc.path == "tip" {
						w.WriteHeader(tc.status)
						_, _ = w.Write([]byte(`{"message":"no"}`))
						return
					}
					_ = json.NewEncoder(w).Encode(map[string]any{"ref": "refs/heads/main", "object": map[string]any{"sha": "tip1"}})
					return
				}
				path, _ := strings.CutPrefix(r.URL.Path, "/repos/acme/p/contents/")
				switch {
				case path == tc.path && tc.status == 0:
					_ = json.NewEncoder(w).Encode([]map[string]any{{"type": "file", "name": "x", "path": path + "/x"}})
				case path == tc.path:
					w.WriteHeader(tc.status)
					_, _ = w.Write([]byte(`{"message":"no"}`))
				case path == ".aayudha/config.toml":
					_ = json.NewEncoder(w).Encode(map[string]any{"type": "file", "encoding": "base64", "path": path,
						"content": base64.StdEncoding.EncodeToString([]byte(config))})
				default:
					w.WriteHeader(http.StatusNotFound)
					_, _ = w.Write([]byte(`{"message":"Not Found"}`))
				}
			}))
			t.Cleanup(srv.Close)
			gh := github.NewClient(nil)
			gh.BaseURL, _ = url.Parse(srv.URL + "/")
			ctx := context.Background()

			p, err := ghx.ReadBasePolicy(ctx, gh, "acme", "p", "main")
			words := "reading " + tc.path + " on main"
			if tc.path == "tip" {
				words = "reading the tip of main"
			}
			if tc.missing {
				if err != nil || len(p.Refusals()) != 0 || !p.ConfigRead() {
					t.Fatalf("a 404 for %s is a missing file, the defaults: err %v, refusals %q", tc.path, err, p.Refusals())
				}
			} else if err == nil || !strings.Contains(err.Error(), words) {
				t.Fatalf("a failed read of %s (status %d) was taken as a policy: err %v, policy %+v", tc.path, tc.status, err, p)
			}
			if tc.path != ".aayudha/config.toml" {
				return
			}
			c, err := ghx.ReadBaseConfig(ctx, gh, "acme", "p", "main")
			if tc.missing != (err == nil) {
				t.Fatalf("ReadBaseConfig with %s answered %d: err %v, want missing %v", tc.path, tc.status, err, tc.missing)
			}
			if tc.missing && (!c.ConfigRead() || c.Raw() != nil || len(c.Refusals()) != 0) {
				t.Errorf("a missing config is not the defaults: raw %q, refusals %q", c.Raw(), c.Refusals())
			}
		})
	}
}
