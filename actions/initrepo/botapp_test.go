package initrepo_test

import (
	"context"
	"errors"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// browser plays the person's browser: it opens aayu's local page, presses
// its button (posting the manifest to the sandbox's GitHub), presses
// Create there, and follows GitHub's redirect back to aayu's page.
func browser(t *testing.T) func(string) error {
	return func(local string) error {
		resp, err := http.Get(local)
		if err != nil {
			return err
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		m := regexp.MustCompile(`action="([^"]+)"[^>]*><input type="hidden" name="manifest" value="([^"]+)"`).FindSubmatch(page)
		if m == nil {
			t.Errorf("aayu's page has no manifest form:\n%s", page)
			return errors.New("no form")
		}
		resp, err = http.PostForm(html.UnescapeString(string(m[1])), url.Values{"manifest": {html.UnescapeString(string(m[2]))}})
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("the round trip through GitHub ended %s", resp.Status)
		}
		return nil
	}
}

func botAppSandbox(t *testing.T, tamper func(*sandbox.CreatedApp)) (*sandbox.Server, string, initrepo.BotAppOptions) {
	t.Helper()
	srv, err := sandbox.New(sandbox.Options{TamperApp: tamper, ShareSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	base, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	gh, err := ghx.NewClient(ghx.ClientOptions{APIURL: base + "/", Token: ghx.NewToken("sandbox-founder", "test"), CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return srv, base, initrepo.BotAppOptions{Client: gh, Web: base, Owner: sandbox.RepoOwner, Repo: sandbox.RepoName, OwnerIsOrg: true,
		Open: browser(t), Getenv: func(k string) string { return map[string]string{"BROWSER": "test"}[k] }}
}

// TestInitIdentityCreatesTheBotApp: the manifest flow makes the App, aayu
// converts the code, checks the App, sets AAYUDHA_APP_CLIENT_ID and the
// sealed secret AAYUDHA_APP_PRIVATE_KEY (which the sandbox opens with the
// repository's key, as GitHub does), and gives the install link.
func TestInitIdentityCreatesTheBotApp(t *testing.T) {
	t.Parallel()
	srv, base, o := botAppSandbox(t, nil)
	ctx := context.Background()
	res, err := initrepo.CreateBotApp(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.InstallURL != base+"/apps/"+res.Slug+"/installations/new" {
		t.Errorf("install link %q", res.InstallURL)
	}
	if id, ok := srv.AppBySlug(res.Slug); !ok || id != res.ClientID {
		t.Errorf("the sandbox has App %s with client ID %q, aayu says %q", res.Slug, id, res.ClientID)
	}
	if v, err := ghx.RepoVariable(ctx, o.Client, o.Owner, o.Repo, ghx.AppClientIDVariable); err != nil || v != res.ClientID {
		t.Errorf("%s = %q, %v", ghx.AppClientIDVariable, v, err)
	}
	if key, ok := srv.Secret(ghx.AppKeySecret); !ok || !strings.HasPrefix(key, "-----BEGIN RSA PRIVATE KEY-----") {
		t.Errorf("the secret %s did not arrive as the App's key", ghx.AppKeySecret)
	}
}

// TestInitIdentityRefusesAnAppItDidNotAskFor: an App with events, with a
// webhook, owned by another account, or holding other permissions gets no
// install link, and neither the variable nor the secret is set.
func TestInitIdentityRefusesAnAppItDidNotAskFor(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		tamper func(*sandbox.CreatedApp)
		why    string
	}{
		{"events", func(a *sandbox.CreatedApp) { a.Events = []string{"issue_comment"} }, "events"},
		{"webhook", func(a *sandbox.CreatedApp) { a.HookURL = "https://attacker.example/hook" }, "webhook"},
		{"other owner", func(a *sandbox.CreatedApp) { a.Owner = "mallory" }, "belongs to mallory"},
		{"other permissions", func(a *sandbox.CreatedApp) {
			a.Permissions = map[string]string{"contents": "write", "issues": "write", "pull_requests": "write", "metadata": "read", "administration": "write"}
		}, "permissions"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, _, o := botAppSandbox(t, c.tamper)
			ctx := context.Background()
			res, err := initrepo.CreateBotApp(ctx, o)
			if err == nil || !strings.Contains(err.Error(), c.why) || !strings.Contains(err.Error(), "Delete the App") {
				t.Fatalf("CreateBotApp = %+v, %v; want a refusal naming %q", res, err, c.why)
			}
			if res.InstallURL != "" || strings.Contains(err.Error(), "/installations/new") {
				t.Errorf("an install link was given: %+v %v", res, err)
			}
			if _, err := ghx.RepoVariable(ctx, o.Client, o.Owner, o.Repo, ghx.AppClientIDVariable); !errors.Is(err, ghx.ErrNoVariable) {
				t.Errorf("%s was set (%v)", ghx.AppClientIDVariable, err)
			}
			if _, ok := srv.Secret(ghx.AppKeySecret); ok {
				t.Errorf("the secret %s was set", ghx.AppKeySecret)
			}
		})
	}
}

// TestInitIdentityStopsOverSSHOrWithoutABrowser: nothing is served,
// opened or created.
func TestInitIdentityStopsOverSSHOrWithoutABrowser(t *testing.T) {
	t.Parallel()
	for name, env := range map[string]map[string]string{
		"SSH_CONNECTION": {"SSH_CONNECTION": "10.0.0.2 5555 10.0.0.1 22", "BROWSER": "x"},
		"SSH_TTY":        {"SSH_TTY": "/dev/pts/3", "DISPLAY": ":0"},
	} {
		t.Run(name, func(t *testing.T) {
			opened := false
			_, err := initrepo.CreateBotApp(context.Background(), initrepo.BotAppOptions{Owner: "acme", Repo: "benefits",
				Open: func(string) error { opened = true; return nil }, Getenv: func(k string) string { return env[k] }})
			if !errors.Is(err, initrepo.ErrNoBrowserHere) || opened {
				t.Errorf("err %v, browser opened %v; want ErrNoBrowserHere and nothing opened", err, opened)
			}
		})
	}
	if why := initrepo.BrowserRefusal(func(string) string { return "" }, "linux"); why == "" {
		t.Error("a Linux box with no display and no BROWSER is taken to have a browser")
	}
}
