package initrepo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/cli/oauth/device"

	"github.com/aayudha/aayu/ghx"
)

// The presence App (SPEC §6, §11): the client the presence check asks for
// a device code is a GitHub App with no permissions. Its client ID is
// public (a repository variable), so anyone, an agent included, may start
// a code with it and get a person to approve that code. A GitHub App's
// user access token "only has permissions that both the user and the app
// have" (docs.github.com/apps/creating-github-apps/
// authenticating-with-a-github-app/
// generating-a-user-access-token-for-a-github-app), so an App with none
// yields a token that reads /user and writes nothing: the approval proves
// who approved and is worth nothing else. An OAuth App, by contrast, hands
// out whatever scope the code asked for (scope=repo writes).

// PresenceAppPermissions are what the presence App asks for: none.
func PresenceAppPermissions() map[string]string { return map[string]string{} }

// PresenceAppName is the presence App's name; GitHub makes its slug from
// it (aayu-presence-OWNER-REPO).
func PresenceAppName(owner, repo string) string { return "aayu presence (" + owner + "/" + repo + ")" }

// presenceManifest is the presence App's manifest: no permissions, no
// events, no webhook, no OAuth step at installation, and public, so every
// approver of the repository can authorize it (it holds nothing, so being
// public gives nothing away). GitHub's manifest has no field for the
// device flow: the person ticks "Enable Device Flow" on the App's page.
func presenceManifest(owner, repo string) manifestApp {
	return manifestApp{name: PresenceAppName(owner, repo), what: "the presence App", public: true, perms: PresenceAppPermissions()}
}

// PresenceAppManifest is the manifest JSON the local page posts to GitHub.
func PresenceAppManifest(web, owner, repo, redirect string) []byte {
	return presenceManifest(owner, repo).manifest(strings.TrimSuffix(web, "/"), owner, repo, redirect)
}

// PresenceAppOptions are the manifest flow's inputs (BotAppOptions' Name
// is ignored) and what waiting for the device flow needs.
type PresenceAppOptions struct {
	BotAppOptions
	// Say tells the person a step only they can take (ticking Enable
	// Device Flow on the App's page).
	Say func(string)
	// Poll is how often aayu asks whether the device flow is on; 5 s when
	// zero.
	Poll time.Duration
	// HTTPClient asks for the device codes that test the flow; a client
	// with a 30-second timeout when nil.
	HTTPClient *http.Client
}

// PresenceAppResult is the App made, checked and named in the variable.
type PresenceAppResult struct {
	Slug, ClientID string
	SettingsURL    string // the App's page on GitHub
}

// CreatePresenceApp runs the manifest flow for the presence App, refuses
// an App that holds any permission, an event or a webhook, waits until its
// device flow is on, and only then sets AAYUDHA_DEVICE_CLIENT_ID to its
// client ID. The App's private key, which GitHub makes for every App, is
// used once to read the App's webhook and then dropped: nothing the
// presence check does needs it.
func CreatePresenceApp(ctx context.Context, o PresenceAppOptions) (PresenceAppResult, error) {
	web := strings.TrimSuffix(o.Web, "/")
	m := presenceManifest(o.Owner, o.Repo)
	app, now, err := runManifestFlow(ctx, o.BotAppOptions, m)
	if err != nil {
		return PresenceAppResult{}, err
	}
	settings := web + "/settings/apps/" + app.Slug
	if o.OwnerIsOrg {
		settings = web + "/organizations/" + o.Owner + "/settings/apps/" + app.Slug
	}
	if len(app.Permissions) > 0 {
		return PresenceAppResult{}, fmt.Errorf("the App holds permissions (%s), and the presence App must hold none: a code an agent starts with its public client ID would mint a token with them. Delete the App at %s/advanced; nothing was set", permString(app.Permissions), settings)
	}
	if err := checkApp(ctx, o.Client, app, o.Owner, m.perms, now); err != nil {
		return PresenceAppResult{}, fmt.Errorf("%w. Delete the App at %s/advanced; nothing was set", err, settings)
	}
	if err := waitForDeviceFlow(ctx, o, app.ClientID, settings); err != nil {
		return PresenceAppResult{}, err
	}
	if err := ghx.SetRepoVariable(ctx, o.Client, o.Owner, o.Repo, ghx.DeviceClientVariable, app.ClientID); err != nil {
		return PresenceAppResult{}, fmt.Errorf("the App %s is made and checked, but setting %s failed: %s. Run aayu init --identity --client-id %s", app.Slug, ghx.DeviceClientVariable, ghx.Describe(err), app.ClientID)
	}
	return PresenceAppResult{Slug: app.Slug, ClientID: app.ClientID, SettingsURL: settings}, nil
}

// waitForDeviceFlow asks GitHub for a device code with the App's client
// ID until it stops answering device_flow_disabled (the code is never
// shown and expires unused), telling the person once what to tick.
func waitForDeviceFlow(ctx context.Context, o PresenceAppOptions, clientID, settings string) error {
	hc := ghx.DevicePoster{Ctx: ctx, Client: o.HTTPClient}
	poll := o.Poll
	if poll <= 0 {
		poll = 5 * time.Second
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	told := false
	for {
		_, err := device.RequestCode(hc, strings.TrimSuffix(o.Web, "/")+"/login/device/code", clientID, nil)
		switch {
		case err == nil:
			return nil
		case !errors.Is(err, device.ErrUnsupported):
			return fmt.Errorf("asking GitHub whether the App's device flow is on: %w; nothing was set", err)
		case !told && o.Say != nil:
			o.Say("Tick \"Enable Device Flow\" on " + settings + " and press Save changes; aayu waits for it.")
			told = true
		}
		select {
		case <-time.After(poll):
		case <-deadline.C:
			return fmt.Errorf("the App's device flow was not switched on within %s; tick Enable Device Flow on %s, then run aayu init --identity --client-id %s. Nothing was set", timeout, settings, clientID)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// PresenceAppSlug is the slug GitHub makes from PresenceAppName: lower
// case, each run of other characters one dash, none at either end
// ("aayu presence (acme/benefits)" is aayu-presence-acme-benefits).
func PresenceAppSlug(owner, repo string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(PresenceAppName(owner, repo)) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	return b.String()
}

// IsAppClientID reports whether a client ID has the form of a GitHub
// App's: Iv1. (Apps made before 2023) or Iv23 (since). OAuth Apps' IDs
// start Ov23 (or are 20 hex digits, for older ones). It is a heuristic
// from the IDs' form, which GitHub does not document as a contract;
// doctor confirms with GET /apps/{slug} where it can.
func IsAppClientID(id string) bool {
	return strings.HasPrefix(id, "Iv1.") || strings.HasPrefix(id, "Iv23")
}
