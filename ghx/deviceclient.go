package ghx

import (
	"context"
	"errors"
	"net/http"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/model/basepolicy"
)

// DeviceClientVariable is the repository variable that names the presence App
// the presence check asks for a device code (SPEC §6); aayu init sets it.
const DeviceClientVariable = "AAYUDHA_DEVICE_CLIENT_ID"

// DeviceClient is the presence check's App and where it was found: a
// GitHub App with no permissions, so a token its device flow mints reads
// /user and nothing else (doctor fails any other kind).
type DeviceClient struct {
	ID   string
	From string // in words, for the screen and the log
}

// DeviceClientLookup is what FindDeviceClient reads.
type DeviceClientLookup struct {
	Local  string         // [identity] device_client_id from the person's config, AAYU_* or --set
	Client *github.Client // the person's client; nil skips the repository
	Owner  string
	Repo   string
	// Default is the last resort the README names; "" when there is none.
	Default, DefaultFrom string
}

// FindDeviceClient picks the App for the presence check in SPEC §6's
// order: local config, the repository's .aayudha/config.toml on its default
// branch, the repository variable AAYUDHA_DEVICE_CLIENT_ID, the default.
// A repository that cannot be read just falls through to the next source:
// the login screen names every source when nothing is found.
func FindDeviceClient(ctx context.Context, l DeviceClientLookup) DeviceClient {
	if l.Local != "" {
		return DeviceClient{l.Local, "[identity] device_client_id in your configuration"}
	}
	if l.Client != nil && l.Owner != "" {
		// The one reader of the policy file: a file it cannot read or
		// parse names no App here, and the lookup falls through.
		if p, err := ReadBaseConfig(ctx, l.Client, l.Owner, l.Repo, ""); err == nil && p.ConfigRead() {
			if id := p.Identity().DeviceClientID; id != "" {
				return DeviceClient{id, "[identity] device_client_id in " + l.Owner + "/" + l.Repo + "'s " + basepolicy.ConfigPath}
			}
		}
		if id, err := RepoVariable(ctx, l.Client, l.Owner, l.Repo, DeviceClientVariable); err == nil && id != "" {
			return DeviceClient{id, "the repository variable " + DeviceClientVariable + " of " + l.Owner + "/" + l.Repo}
		}
	}
	return DeviceClient{l.Default, l.DefaultFrom}
}

// ErrNoVariable is a repository variable that is not set.
var ErrNoVariable = errors.New("the repository variable is not set")

// RepoVariable reads one Actions variable of a repository (GET
// /repos/{owner}/{repo}/actions/variables/{name}).
func RepoVariable(ctx context.Context, c *github.Client, owner, repo, name string) (string, error) {
	v, resp, err := c.Actions.GetRepoVariable(ctx, owner, repo, name)
	if resp != nil && resp.StatusCode == http.StatusNotFound {
		return "", ErrNoVariable
	}
	if err != nil {
		return "", err
	}
	return v.Value, nil
}

// SetRepoVariable creates the variable, or updates it when it exists.
func SetRepoVariable(ctx context.Context, c *github.Client, owner, repo, name, value string) error {
	_, err := RepoVariable(ctx, c, owner, repo, name)
	switch {
	case errors.Is(err, ErrNoVariable):
		_, err = c.Actions.CreateRepoVariable(ctx, owner, repo, &github.ActionsVariable{Name: name, Value: value})
	case err == nil:
		_, err = c.Actions.UpdateRepoVariable(ctx, owner, repo, &github.ActionsVariable{Name: name, Value: value})
	}
	return err
}
