package approve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/cli/oauth/device"
	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
)

// DeviceFlow asks GitHub's OAuth device flow who approves a batch. The
// user code is what the person types and is shown in the batch comment;
// the device code that polls for the token, and the token itself, stay in
// this process: never printed, logged, posted or stored. The token reads
// /user and nothing else (no scopes are asked).
type DeviceFlow struct {
	OAuthHost string // github.com, or the sandbox
	ClientID  string
	// APIClient builds a client for the device token, to read /user.
	APIClient  func(token string) (*github.Client, error)
	HTTPClient *http.Client
}

// Code is a device code the person approves.
type Code struct {
	UserCode string
	URI      string
	Expires  time.Time
	secret   *device.CodeResponse
}

// Ask asks GitHub for a code.
func (d DeviceFlow) Ask(ctx context.Context, now time.Time) (Code, error) {
	if d.ClientID == "" {
		return Code{}, errors.New("no OAuth App is named for the device code (the repository variable AAYUDHA_DEVICE_CLIENT_ID, or [identity] device_client_id)")
	}
	c, err := device.RequestCode(d.poster(ctx), strings.TrimRight(d.OAuthHost, "/")+"/login/device/code", d.ClientID, nil)
	if err != nil {
		return Code{}, fmt.Errorf("asking GitHub for a device code: %w", err)
	}
	return Code{UserCode: c.UserCode, URI: c.VerificationURI, Expires: now.Add(time.Duration(c.ExpiresIn) * time.Second), secret: c}, nil
}

// Wait waits for the code's approval and returns the account that
// approved it, as /user names it with the device token.
func (d DeviceFlow) Wait(ctx context.Context, c Code) (identity.Account, error) {
	if c.secret == nil {
		return identity.Account{}, errors.New("no device code was asked for")
	}
	tok, err := device.Wait(ctx, d.poster(ctx), strings.TrimRight(d.OAuthHost, "/")+"/login/oauth/access_token",
		device.WaitOptions{ClientID: d.ClientID, DeviceCode: c.secret})
	switch {
	case errors.Is(err, device.ErrTimeout):
		return identity.Account{}, errors.New("the device code expired before anyone approved it")
	case err != nil:
		return identity.Account{}, fmt.Errorf("waiting for the device code's approval: %s", scrub(err.Error(), c))
	}
	client, err := d.APIClient(tok.Token)
	if err != nil {
		return identity.Account{}, fmt.Errorf("building a GitHub client: %w", err)
	}
	u, _, err := client.Users.Get(ctx, "")
	if err != nil {
		return identity.Account{}, fmt.Errorf("reading who approved the device code: %s", ghx.Describe(err))
	}
	return identity.Account{Login: u.GetLogin(), Bot: u.GetType() == "Bot"}, nil
}

// scrub keeps the polling secret out of an error's words.
func scrub(s string, c Code) string {
	if c.secret != nil && c.secret.DeviceCode != "" {
		s = strings.ReplaceAll(s, c.secret.DeviceCode, "[device code]")
	}
	return s
}

// poster is the one device-flow client (ghx.DevicePoster): it fails an
// oversized answer instead of cutting it short.
func (d DeviceFlow) poster(ctx context.Context) ghx.DevicePoster {
	return ghx.DevicePoster{Ctx: ctx, Client: d.HTTPClient}
}
