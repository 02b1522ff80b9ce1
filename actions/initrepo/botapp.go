package initrepo

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"
	"golang.org/x/crypto/nacl/box"

	"github.com/aayudha/aayu/ghx"
)

// The bot App (seed 001, "Setup for replies", step 1): aayu init --identity
// creates the aayudha GitHub App through GitHub's App-manifest flow. A page
// aayu serves on 127.0.0.1 posts the manifest to GitHub; GitHub sends the
// browser back to that page with a one-time code; aayu alone converts the
// code (whoever converts it first holds the App's key, so the code never
// goes to a page aayu does not serve); aayu checks the App is the one it
// asked for, and only then sets the variable and the secret the broker
// reads and prints the install link.

// BotAppPermissions are what the bot App asks for: what an agent lane
// writes (branches and the ledger, issues and comments, pull requests)
// and nothing more. No events: the App never needs a webhook.
func BotAppPermissions() map[string]string {
	return map[string]string{"contents": "write", "issues": "write", "pull_requests": "write", "metadata": "read"}
}

// ErrNoBrowserHere is the refusal over SSH or without a browser.
var ErrNoBrowserHere = errors.New("aayu init --identity needs a browser on this computer")

// BrowserRefusal says why the manifest flow cannot run here ("" when it
// can): over SSH the local page is on the other computer, and a process
// with no browser cannot post the manifest. It stops before anything is
// created.
func BrowserRefusal(getenv func(string) string, goos string) string {
	if getenv("SSH_CONNECTION") != "" || getenv("SSH_TTY") != "" || getenv("SSH_CLIENT") != "" {
		return "this is an SSH session, so the page aayu serves on 127.0.0.1 would open on the wrong computer. Run aayu init --identity on the computer whose browser is signed in to GitHub; nothing was created."
	}
	if getenv("BROWSER") != "" || goos == "darwin" || goos == "windows" {
		return ""
	}
	if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
		return "there is no browser here (no DISPLAY, WAYLAND_DISPLAY or BROWSER). Run aayu init --identity on a computer with a browser signed in to GitHub; nothing was created."
	}
	return ""
}

// BotAppOptions are the manifest flow's inputs and outside effects.
type BotAppOptions struct {
	Client      *github.Client // the person's, for the repository's variable and secret
	Web         string         // https://github.com, a GHES host, or the sandbox
	Owner, Repo string
	OwnerIsOrg  bool
	Name        string // the App's name; "aayudha agent (OWNER/REPO)" when empty
	// Open shows a URL in the person's browser.
	Open    func(url string) error
	Getenv  func(string) string
	Timeout time.Duration // for the person to press Create; 10 minutes when zero
	Now     func() time.Time
}

// BotAppResult is the App made and checked.
type BotAppResult struct {
	Slug, ClientID string
	InstallURL     string
}

// createdApp is the conversion's answer, the parts aayu checks and keeps.
type createdApp struct {
	ID          int64             `json:"id"`
	Slug        string            `json:"slug"`
	ClientID    string            `json:"client_id"`
	PEM         string            `json:"pem"`
	Permissions map[string]string `json:"permissions"`
	Events      []string          `json:"events"`
	Owner       struct {
		Login string `json:"login"`
	} `json:"owner"`
}

// CreateBotApp runs the manifest flow and returns the install link only
// when the App is the one asked for.
func CreateBotApp(ctx context.Context, o BotAppOptions) (BotAppResult, error) {
	name := o.Name
	if name == "" {
		name = "aayudha agent (" + o.Owner + "/" + o.Repo + ")"
	}
	web := strings.TrimSuffix(o.Web, "/")
	app, now, err := runManifestFlow(ctx, o, manifestApp{name: name, what: "the bot App", perms: BotAppPermissions()})
	if err != nil {
		return BotAppResult{}, err
	}
	if err := checkApp(ctx, o.Client, app, o.Owner, BotAppPermissions(), now); err != nil {
		return BotAppResult{}, fmt.Errorf("%w. Delete the App at %s/settings/apps/%s/advanced instead of installing it; nothing was set", err, web, app.Slug)
	}
	if err := setAppSettings(ctx, o.Client, o.Owner, o.Repo, app); err != nil {
		return BotAppResult{}, err
	}
	return BotAppResult{Slug: app.Slug, ClientID: app.ClientID, InstallURL: web + "/apps/" + app.Slug + "/installations/new"}, nil
}

// manifestApp is what one run of the manifest flow asks GitHub for.
type manifestApp struct {
	name   string            // the App's name
	what   string            // what the local page calls it: "the bot App"
	public bool              // anyone may authorize it
	perms  map[string]string // default_permissions; empty for none
}

// manifest is the App-manifest JSON GitHub's "Create GitHub App" page
// reads (docs.github.com/apps/sharing-github-apps/
// registering-a-github-app-from-a-manifest): no events, the webhook off,
// request_oauth_on_install off (no OAuth step at installation).
func (m manifestApp) manifest(web, owner, repo, redirect string) []byte {
	perms := m.perms
	if perms == nil {
		perms = map[string]string{}
	}
	b, _ := json.Marshal(map[string]any{
		"name": m.name, "url": web + "/" + owner + "/" + repo, "public": m.public,
		"redirect_url":             redirect,
		"hook_attributes":          map[string]any{"url": "", "active": false},
		"default_permissions":      perms,
		"default_events":           []string{},
		"request_oauth_on_install": false,
	})
	return b
}

// runManifestFlow serves the local page that posts the manifest, waits for
// GitHub's redirect with the code, and converts it; it returns the App as
// GitHub made it (to be checked) and the clock the checks use.
func runManifestFlow(ctx context.Context, o BotAppOptions, m manifestApp) (createdApp, time.Time, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if why := BrowserRefusal(getenv, runtime.GOOS); why != "" {
		return createdApp{}, time.Time{}, fmt.Errorf("%w: %s", ErrNoBrowserHere, why)
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	web := strings.TrimSuffix(o.Web, "/")
	var sb [16]byte
	if _, err := rand.Read(sb[:]); err != nil {
		return createdApp{}, time.Time{}, err
	}
	state := hex.EncodeToString(sb[:])

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return createdApp{}, time.Time{}, fmt.Errorf("serving the local page: %w", err)
	}
	local := "http://" + ln.Addr().String()
	manifest := m.manifest(web, o.Owner, o.Repo, local+"/callback")
	action := web + "/settings/apps/new?state=" + state
	if o.OwnerIsOrg {
		action = web + "/organizations/" + o.Owner + "/settings/apps/new?state=" + state
	}
	codes := make(chan string, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>aayu: create %s</title>
<p>aayu asks GitHub to create %s <b>%s</b>. Press the button, then Create GitHub App on GitHub.</p>
<form method="post" action="%s"><input type="hidden" name="manifest" value="%s"><button>Continue to GitHub</button></form>`,
			html.EscapeString(m.what), html.EscapeString(m.what), html.EscapeString(m.name), html.EscapeString(action), html.EscapeString(string(manifest)))
	})
	mux.HandleFunc("GET /callback", func(w http.ResponseWriter, r *http.Request) {
		got := r.URL.Query().Get("state")
		if subtle.ConstantTimeCompare([]byte(got), []byte(state)) != 1 {
			http.Error(w, "This page did not start this request.", http.StatusForbidden)
			return
		}
		select {
		case codes <- r.URL.Query().Get("code"):
		default:
		}
		fmt.Fprint(w, "aayu has the code; go back to the terminal.")
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	if o.Open == nil {
		return createdApp{}, time.Time{}, fmt.Errorf("%w: nothing can open it", ErrNoBrowserHere)
	}
	if err := o.Open(local + "/"); err != nil {
		return createdApp{}, time.Time{}, fmt.Errorf("opening the browser: %w", err)
	}
	var code string
	select {
	case code = <-codes:
	case <-time.After(timeout):
		return createdApp{}, time.Time{}, fmt.Errorf("no App was created within %s; nothing was set", timeout)
	case <-ctx.Done():
		return createdApp{}, time.Time{}, ctx.Err()
	}
	app, err := convertManifest(ctx, o.Client, code)
	return app, now(), err
}

// convertManifest trades the code for the App, once, through the API.
func convertManifest(ctx context.Context, gh *github.Client, code string) (createdApp, error) {
	var app createdApp
	if code == "" || strings.ContainsAny(code, "/?#") {
		return app, errors.New("GitHub sent back no usable code; nothing was set")
	}
	req, err := gh.NewRequest(http.MethodPost, "app-manifests/"+code+"/conversions", nil)
	if err != nil {
		return app, err
	}
	if _, err := gh.Do(ctx, req, &app); err != nil {
		return app, fmt.Errorf("GitHub did not convert the App's code: %s. If an App was made, delete it instead of installing it; nothing was set", ghx.Describe(err))
	}
	if app.PEM == "" || app.ClientID == "" || app.Slug == "" {
		return app, errors.New("GitHub's conversion gave no key or client ID; nothing was set")
	}
	return app, nil
}

// checkApp refuses an App that is not the one asked for: another owner,
// other permissions than want, any event, or a webhook (read with the
// App's own key from GET /app/hook/config).
func checkApp(ctx context.Context, gh *github.Client, app createdApp, owner string, want map[string]string, now time.Time) error {
	if !strings.EqualFold(app.Owner.Login, owner) {
		return fmt.Errorf("the App belongs to %s, not %s", app.Owner.Login, owner)
	}
	if !samePermissions(app.Permissions, want) {
		return fmt.Errorf("the App holds permissions %s, not the ones asked for (%s)", permString(app.Permissions), permString(want))
	}
	if len(app.Events) > 0 {
		return fmt.Errorf("the App subscribes to events (%s); aayu asked for none", strings.Join(app.Events, ", "))
	}
	jwt, err := ghx.SignAppJWT(app.PEM, app.ClientID, now)
	if err != nil {
		return fmt.Errorf("the App's key is unusable: %w", err)
	}
	// A client of its own: the person's transport would put their token
	// in place of the App's JWT.
	jc := github.NewClient(nil)
	jc.BaseURL = gh.BaseURL
	req, err := jc.NewRequest(http.MethodGet, "app/hook/config", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+jwt)
	var hook struct {
		URL string `json:"url"`
	}
	if _, err := jc.Do(ctx, req, &hook); err != nil {
		return fmt.Errorf("could not read the App's webhook with its own key: %s", ghx.Describe(err))
	}
	if strings.TrimSpace(hook.URL) != "" {
		return errors.New("the App has a webhook; aayu asked for none")
	}
	return nil
}

func samePermissions(got, want map[string]string) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

func permString(p map[string]string) string {
	var out []string
	for k, v := range p {
		out = append(out, k+": "+v)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// setAppSettings sets AAYUDHA_APP_CLIENT_ID and the secret
// AAYUDHA_APP_PRIVATE_KEY, sealed to the repository's public key with an
// anonymous sealed box exactly as GitHub asks.
func setAppSettings(ctx context.Context, gh *github.Client, owner, repo string, app createdApp) error {
	v := &github.ActionsVariable{Name: ghx.AppClientIDVariable, Value: app.ClientID}
	if _, err := gh.Actions.CreateRepoVariable(ctx, owner, repo, v); err != nil {
		if _, uerr := gh.Actions.UpdateRepoVariable(ctx, owner, repo, v); uerr != nil {
			return fmt.Errorf("setting %s: %s", ghx.AppClientIDVariable, ghx.Describe(uerr))
		}
	}
	pk, _, err := gh.Actions.GetRepoPublicKey(ctx, owner, repo)
	if err != nil {
		return fmt.Errorf("reading %s/%s's secrets key: %s", owner, repo, ghx.Describe(err))
	}
	raw, err := base64.StdEncoding.DecodeString(pk.GetKey())
	if err != nil || len(raw) != 32 {
		return errors.New("the repository's secrets key is not 32 bytes of base64")
	}
	var pub [32]byte
	copy(pub[:], raw)
	sealed, err := box.SealAnonymous(nil, []byte(app.PEM), &pub, rand.Reader)
	if err != nil {
		return fmt.Errorf("sealing the App's key: %w", err)
	}
	_, err = gh.Actions.CreateOrUpdateRepoSecret(ctx, owner, repo, &github.EncryptedSecret{
		Name: ghx.AppKeySecret, KeyID: pk.GetKeyID(), EncryptedValue: base64.StdEncoding.EncodeToString(sealed)})
	if err != nil {
		return fmt.Errorf("setting the secret %s: %s", ghx.AppKeySecret, ghx.Describe(err))
	}
	return nil
}
