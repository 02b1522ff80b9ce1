package initrepo

import (
	"fmt"
	"strings"

	"github.com/aayudha/aayu/internal/lazyre"
)

// AppGuide is how to create the presence check's App by hand, step by
// step, on the web host (https://github.com, or a GitHub Enterprise
// Server), for a computer where aayu init --identity cannot open a
// browser to do it. It is a GitHub App with no permissions: its client ID
// is public, and a code anyone starts with it must mint a token that
// reads who approved and nothing else (presenceapp.go).
func AppGuide(web, owner, repo string) []string {
	web = strings.TrimSuffix(web, "/")
	return []string{
		"The presence check needs a GitHub App with no permissions and Device Flow on.",
		"With a browser here, aayu init --identity creates it. By hand:",
		"  1. Open " + web + "/settings/apps/new (for an organisation's App: " + web + "/organizations/" + owner + "/settings/apps/new).",
		"  2. GitHub App name: " + PresenceAppName(owner, repo),
		"  3. Homepage URL: " + web + "/" + owner + "/" + repo,
		"  4. Tick \"Enable Device Flow\". Untick Webhook \"Active\". Leave every permission at No access and subscribe to no events.",
		"  5. Where can this GitHub App be installed: Any account (so every approver can authorize it), then press Create GitHub App.",
		"  6. Copy the Client ID (it starts Iv23 or Iv1.). Generate no client secret and no private key: the device flow needs neither.",
		"Then: aayu init --identity --client-id <Client ID>",
	}
}

var (
	clientIDForm = lazyre.New(`^[A-Za-z0-9._-]{8,64}$`)
	secretForm   = lazyre.New(`^[0-9a-f]{40}$`)
)

// CheckClientID refuses what cannot be a client ID, in words.
// A 40-hex string is a client secret: it must never be stored in a
// variable anyone with read access can see.
func CheckClientID(id string) error {
	switch {
	case secretForm().MatchString(id):
		return fmt.Errorf("that is 40 hex digits, the shape of a client secret, not a Client ID; nothing was set. Give the Client ID from the App's page, and keep the secret to yourself (the device flow needs none)")
	case !clientIDForm().MatchString(id):
		return fmt.Errorf("%q is not a Client ID (8 to 64 letters, digits, dots, dashes or underscores); nothing was set", id)
	}
	return nil
}
