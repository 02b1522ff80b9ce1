package sandbox_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cli/oauth/device"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// deviceToken runs the device flow for clientID with scope and approves
// it as login; it returns the token and the scope GitHub granted.
func deviceToken(t *testing.T, base, clientID, scope, login string) (string, string) {
	t.Helper()
	var scopes []string
	if scope != "" {
		scopes = []string{scope}
	}
	code, err := device.RequestCode(http.DefaultClient, base+"/login/device/code", clientID, scopes)
	if err != nil {
		t.Fatal(err)
	}
	if st := approve(t, base, code.UserCode, login, "approve"); st != http.StatusOK {
		t.Fatalf("approval page: %d", st)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tok, err := device.Wait(ctx, http.DefaultClient, base+"/login/oauth/access_token", device.WaitOptions{ClientID: clientID, DeviceCode: code})
	if err != nil {
		t.Fatal(err)
	}
	return tok.Token, tok.Scope
}

func deviceSandbox(t *testing.T, oauthClients ...string) (*sandbox.Server, string) {
	t.Helper()
	srv, err := sandbox.New(sandbox.Options{ShareSeed: true, Device: &sandbox.DeviceOptions{Interval: 0, Expiry: time.Minute, ClientIDs: oauthClients}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return srv, ts.URL
}

// TestPresenceAppTokenReadsUserAndWritesNothing: the demo's presence
// client is a GitHub App with no permissions, so the token a code yields,
// even one asked with scope=repo and approved by the admin, reads /user
// and answers every write and every private read with GitHub's 403.
func TestPresenceAppTokenReadsUserAndWritesNothing(t *testing.T) {
	t.Parallel()
	for _, id := range []string{sandbox.DeviceClientID, sandbox.OwnClientID} {
		t.Run(id, func(t *testing.T) {
			_, base := deviceSandbox(t)
			tok, scope := deviceToken(t, base, id, "repo workflow", "founder")
			if !strings.HasPrefix(tok, "ghu_") || scope != "" {
				t.Errorf("an App's user token: prefix %.4s, scope %q; want ghu_ and none", tok, scope)
			}
			if st, me := call(t, "GET", base+"/user", tok, nil); st.StatusCode != 200 || me["login"] != "founder" {
				t.Errorf("/user with the presence token: %d %v", st.StatusCode, me["login"])
			}
			if st, _ := call(t, "GET", base+"/repos/acme/benefits/issues/1", tok, nil); st.StatusCode != 200 {
				t.Errorf("reading the public repository: %d, want 200 (what anyone reads)", st.StatusCode)
			}
			writes := []struct {
				method, path string
				body         any
			}{
				{"POST", "/repos/acme/benefits/issues/1/comments", map[string]any{"body": "agent"}},
				{"POST", "/repos/acme/benefits/issues", map[string]any{"title": "x"}},
				{"POST", "/repos/acme/benefits/git/refs", map[string]any{"ref": "refs/heads/x", "sha": strings.Repeat("a", 40)}},
				{"PATCH", "/repos/acme/benefits/actions/variables/AAYUDHA_DEVICE_CLIENT_ID", map[string]any{"value": "Ov23liAgent"}},
				{"PUT", "/repos/acme/benefits/pulls/4/merge", map[string]any{}},
				{"POST", "/repos/acme/benefits/statuses/" + strings.Repeat("a", 40), map[string]any{"state": "success", "context": "aayudha/merge-gate"}},
				{"GET", "/repos/acme/benefits/actions/variables/AAYUDHA_DEVICE_CLIENT_ID", nil},
			}
			for _, w := range writes {
				st, body := call(t, w.method, base+w.path, tok, w.body)
				if st.StatusCode != http.StatusForbidden || body["message"] != "Resource not accessible by integration" {
					t.Errorf("%s %s with the presence token: %d %v, want 403 Resource not accessible by integration", w.method, w.path, st.StatusCode, body["message"])
				}
			}
		})
	}
}

// TestOAuthAppTokenWithRepoScopeCanWrite: the rule is the client's power,
// not a blanket refusal: an OAuth App's code asked with scope=repo and
// approved by a writer yields a token that writes; without a scope the
// same App's token writes nothing.
func TestOAuthAppTokenWithRepoScopeCanWrite(t *testing.T) {
	t.Parallel()
	_, base := deviceSandbox(t, "Ov23liTestOAuth")
	tok, scope := deviceToken(t, base, "Ov23liTestOAuth", "repo", "founder")
	if !strings.HasPrefix(tok, "gho_") || scope != "repo" {
		t.Errorf("an OAuth App's token: prefix %.4s, scope %q; want gho_ and repo", tok, scope)
	}
	st, _ := call(t, "POST", base+"/repos/acme/benefits/issues/1/comments", tok, map[string]any{"body": "from an OAuth App"})
	if st.StatusCode != http.StatusCreated {
		t.Errorf("a comment with scope=repo: %d, want 201", st.StatusCode)
	}
	if got := st.Header.Get("X-OAuth-Scopes"); got != "repo" {
		t.Errorf("X-OAuth-Scopes: %q, want repo", got)
	}
	bare, _ := deviceToken(t, base, "Ov23liTestOAuth", "", "founder")
	if st, _ := call(t, "POST", base+"/repos/acme/benefits/issues/1/comments", bare, map[string]any{"body": "x"}); st.StatusCode != http.StatusNotFound {
		t.Errorf("a comment with no scope: %d, want 404", st.StatusCode)
	}
	if st, me := call(t, "GET", base+"/user", bare, nil); st.StatusCode != 200 || me["login"] != "founder" {
		t.Errorf("/user with no scope: %d", st.StatusCode)
	}
	// The token stays the approver's: a reader's repo-scoped token still
	// cannot write what the reader cannot.
	readerTok, _ := deviceToken(t, base, "Ov23liTestOAuth", "repo", "reader")
	if st, _ := call(t, "POST", base+"/repos/acme/benefits/git/refs", readerTok, map[string]any{"ref": "refs/heads/x", "sha": strings.Repeat("a", 40)}); st.StatusCode != http.StatusForbidden {
		t.Errorf("a reader's repo-scoped ref write: %d, want 403", st.StatusCode)
	}
}

// TestPresenceAppReadableBySlug: GET /apps/{slug} shows the demo's
// presence App with its client ID and no permissions.
func TestPresenceAppReadableBySlug(t *testing.T) {
	t.Parallel()
	_, base := deviceSandbox(t)
	st, app := call(t, "GET", base+"/apps/"+sandbox.PresenceAppSlug, "", nil)
	perms, _ := app["permissions"].(map[string]any)
	if st.StatusCode != 200 || app["client_id"] != sandbox.DeviceClientID || perms == nil || len(perms) != 0 {
		t.Errorf("GET /apps/%s: %d %v", sandbox.PresenceAppSlug, st.StatusCode, app)
	}
	if st, _ := call(t, "GET", base+"/apps/no-such-app", "", nil); st.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown slug: %d", st.StatusCode)
	}
}
