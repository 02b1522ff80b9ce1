package doctor

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/ghx"
)

// presenceNext is the one next step for a presence client that could
// mint a token that writes.
const presenceNext = "run aayu init --identity: it creates the presence App, a GitHub App with no permissions, and points " + ghx.DeviceClientVariable + " at it"

// presenceClientRow judges the presence check's client (SPEC §6, §11):
// its ID is public, so anyone can start a device code with it and get a
// person to approve it. An OAuth App's code hands out the scope it asks
// for (scope=repo writes); a GitHub App's user token holds only the
// permissions both the App and the person have, so an App with none
// yields a token that reads /user and nothing else. The ID's form tells
// the two apart (initrepo.IsAppClientID); for the App aayu init --identity
// names, GET /apps/{slug} confirms the client ID and reads its
// permissions.
func presenceClientRow(ctx context.Context, gh *github.Client, owner, repo, name, id string) Row {
	shown := strings.ReplaceAll(id, "\n", " ")
	if !initrepo.IsAppClientID(id) {
		return Row{name, Fail, "set to " + shown + ", which is not a GitHub App's client ID (those start Iv23 or Iv1.) but an OAuth App's: " +
			"its device codes hand out whatever scope they ask, so a code an agent starts with the public client ID could mint a token that writes", presenceNext}
	}
	slug := initrepo.PresenceAppSlug(owner, repo)
	app, status, err := appBySlug(ctx, gh, slug)
	switch {
	case err != nil && status != http.StatusNotFound:
		return Row{name, Warn, "set to " + shown + ", a GitHub App's client ID by its form; the App " + slug + " could not be read: " + ghx.Describe(err),
			"run aayu doctor again, or check on the App's page that every permission is No access"}
	case err != nil || app.ClientID != id:
		return Row{name, Warn, "set to " + shown + ", a GitHub App's client ID by its form, but not the App " + slug + ", so its permissions were not read",
			"check on the App's page that every permission is No access, or " + presenceNext}
	case len(app.Permissions) > 0:
		return Row{name, Fail, fmt.Sprintf("set to the App %s, which holds permissions (%s): a code an agent starts with the public client ID could mint a token that writes", slug, permList(app.Permissions)),
			presenceNext + ", or set every permission of " + slug + " to No access"}
	}
	return Row{name, OK, "set to " + shown + ", the GitHub App " + slug + ", which holds no permissions: a code anyone starts with it proves who approved and nothing more", ""}
}

// presenceApp is what GET /apps/{slug} says of an App.
type presenceApp struct {
	ClientID    string            `json:"client_id"`
	Permissions map[string]string `json:"permissions"`
}

// appBySlug reads GET /apps/{app_slug} (docs.github.com/rest/apps/
// apps#get-an-app); status is the HTTP status when there is one.
func appBySlug(ctx context.Context, gh *github.Client, slug string) (presenceApp, int, error) {
	var app presenceApp
	req, err := gh.NewRequest(http.MethodGet, "apps/"+slug, nil)
	if err != nil {
		return app, 0, err
	}
	resp, err := gh.Do(ctx, req, &app)
	status := 0
	if resp != nil {
		status = resp.StatusCode
	}
	return app, status, err
}

func permList(p map[string]string) string {
	var out []string
	for k, v := range p {
		out = append(out, k+": "+v)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
