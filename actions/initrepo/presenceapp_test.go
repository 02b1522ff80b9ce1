package initrepo_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cli/oauth/device"

	"github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestPresenceAppManifestAsksNoPermissions: the manifest init --identity
// posts for the presence App asks for no permission, no event and no
// webhook, no OAuth step at installation, and is public so every approver
// can authorize it.
func TestPresenceAppManifestAsksNoPermissions(t *testing.T) {
	t.Parallel()
	var m map[string]any
	if err := json.Unmarshal(initrepo.PresenceAppManifest("https://github.com/", "acme", "benefits", "http://127.0.0.1:1/callback"), &m); err != nil {
		t.Fatal(err)
	}
	perms, ok := m["default_permissions"].(map[string]any)
	if !ok || len(perms) != 0 {
		t.Errorf("default_permissions = %v, want {} (no permissions)", m["default_permissions"])
	}
	if ev, _ := m["default_events"].([]any); ev == nil || len(ev) != 0 {
		t.Errorf("default_events = %v, want []", m["default_events"])
	}
	hook, _ := m["hook_attributes"].(map[string]any)
	if hook["active"] != false || hook["url"] != "" {
		t.Errorf("hook_attributes = %v, want an inactive webhook with no URL", hook)
	}
	if m["request_oauth_on_install"] != false || m["public"] != true {
		t.Errorf("request_oauth_on_install %v, public %v; want false and true", m["request_oauth_on_install"], m["public"])
	}
	if m["name"] != "aayu presence (acme/benefits)" || m["url"] != "https://github.com/acme/benefits" || m["redirect_url"] != "http://127.0.0.1:1/callback" {
		t.Errorf("name %v, url %v, redirect_url %v", m["name"], m["url"], m["redirect_url"])
	}
}

func presenceOptions(o initrepo.BotAppOptions) initrepo.PresenceAppOptions {
	return initrepo.PresenceAppOptions{BotAppOptions: o, Poll: 10 * time.Millisecond}
}

// TestInitIdentityCreatesThePresenceApp: the manifest flow makes the App
// with no permissions, aayu checks it and sets AAYUDHA_DEVICE_CLIENT_ID to
// its client ID, and the App's device-flow token reads /user and writes
// nothing.
func TestInitIdentityCreatesThePresenceApp(t *testing.T) {
	t.Parallel()
	srv, base, o := botAppSandbox(t, nil)
	ctx := context.Background()
	res, err := initrepo.CreatePresenceApp(ctx, presenceOptions(o))
	if err != nil {
		t.Fatal(err)
	}
	if res.Slug != "aayu-presence-acme-benefits" || !strings.HasPrefix(res.ClientID, "Iv23") || res.SettingsURL != base+"/organizations/acme/settings/apps/"+res.Slug {
		t.Errorf("result %+v", res)
	}
	if id, ok := srv.AppBySlug(res.Slug); !ok || id != res.ClientID {
		t.Errorf("the sandbox has App %s with client ID %q, aayu says %q", res.Slug, id, res.ClientID)
	}
	if v, err := ghx.RepoVariable(ctx, o.Client, o.Owner, o.Repo, ghx.DeviceClientVariable); err != nil || v != res.ClientID {
		t.Errorf("%s = %q, %v", ghx.DeviceClientVariable, v, err)
	}
	if _, ok := srv.Secret(ghx.AppKeySecret); ok {
		t.Error("the presence App's key was stored: nothing needs it")
	}
	// The App GitHub made answers as the presence App must.
	code, err := device.RequestCode(http.DefaultClient, base+"/login/device/code", res.ClientID, []string{"repo"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.PostForm(base+"/login/device", map[string][]string{"user_code": {code.UserCode}, "login": {"founder"}, "action": {"approve"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	tok, err := device.Wait(ctx, http.DefaultClient, base+"/login/oauth/access_token", device.WaitOptions{ClientID: res.ClientID, DeviceCode: code})
	if err != nil {
		t.Fatal(err)
	}
	dc, err := ghx.NewClient(ghx.ClientOptions{APIURL: base + "/", Token: ghx.NewToken(tok.Token, "device")})
	if err != nil {
		t.Fatal(err)
	}
	if me, _, err := dc.Users.Get(ctx, ""); err != nil || me.GetLogin() != "founder" {
		t.Errorf("/user with the presence App's token: %v", err)
	}
	if err := ghx.SetRepoVariable(ctx, dc, "acme", "benefits", ghx.DeviceClientVariable, "Ov23liAgent"); err == nil {
		t.Error("the presence App's token changed a variable")
	}
}

// TestInitIdentityRefusesAPresenceAppWithPermissions: an App GitHub made
// with any permission (another manifest posted in its place) is refused,
// naming why, and the variable is left as it was.
func TestInitIdentityRefusesAPresenceAppWithPermissions(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		tamper func(*sandbox.CreatedApp)
		why    string
	}{
		{"contents write", func(a *sandbox.CreatedApp) { a.Permissions = map[string]string{"contents": "write"} }, "must hold none"},
		{"metadata read", func(a *sandbox.CreatedApp) { a.Permissions = map[string]string{"metadata": "read"} }, "must hold none"},
		{"events", func(a *sandbox.CreatedApp) { a.Events = []string{"push"} }, "events"},
		{"webhook", func(a *sandbox.CreatedApp) { a.HookURL = "https://attacker.example/hook" }, "webhook"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, o := botAppSandbox(t, c.tamper)
			ctx := context.Background()
			before, _ := ghx.RepoVariable(ctx, o.Client, o.Owner, o.Repo, ghx.DeviceClientVariable)
			res, err := initrepo.CreatePresenceApp(ctx, presenceOptions(o))
			if err == nil || !strings.Contains(err.Error(), c.why) || !strings.Contains(err.Error(), "nothing was set") {
				t.Fatalf("CreatePresenceApp = %+v, %v; want a refusal naming %q", res, err, c.why)
			}
			if after, _ := ghx.RepoVariable(ctx, o.Client, o.Owner, o.Repo, ghx.DeviceClientVariable); after != before {
				t.Errorf("%s changed from %q to %q", ghx.DeviceClientVariable, before, after)
			}
		})
	}
}

// TestInitPresenceAppStopsWithoutABrowser: nothing is opened or created.
func TestInitPresenceAppStopsWithoutABrowser(t *testing.T) {
	t.Parallel()
	opened := false
	_, err := initrepo.CreatePresenceApp(context.Background(), initrepo.PresenceAppOptions{BotAppOptions: initrepo.BotAppOptions{Owner: "acme", Repo: "benefits",
		Open: func(string) error { opened = true; return nil }, Getenv: func(k string) string { return map[string]string{"SSH_TTY": "/dev/pts/1"}[k] }}})
	if !errors.Is(err, initrepo.ErrNoBrowserHere) || opened {
		t.Errorf("err %v, opened %v", err, opened)
	}
}
