package initrepo

import (
	"fmt"
	"regexp"
	"strings"
)

// AppGuide is how to create the presence check's OAuth App, step by step,
// on the web host (https://github.com, or a GitHub Enterprise Server).
func AppGuide(web, owner, repo string) []string {
	web = strings.TrimSuffix(web, "/")
	return []string{
		"The presence check needs an OAuth App with Device Flow enabled. Create it once:",
		"  1. Open " + web + "/settings/applications/new (for an organisation's App: " + web + "/organizations/" + owner + "/settings/applications/new).",
		"  2. Application name: aayu presence check (" + owner + "/" + repo + ")",
		"  3. Homepage URL: " + web + "/" + owner + "/" + repo,
		"  4. Authorization callback URL: " + web + "/" + owner + "/" + repo + " (the device flow never uses it, but GitHub asks for one)",
		"  5. Tick \"Enable Device Flow\", then press Register application.",
		"  6. Copy the Client ID. Do not generate a client secret: the device flow needs none.",
		"Then: aayu init --identity --client-id <Client ID>",
	}
}

var (
	clientIDForm = regexp.MustCompile(`^[A-Za-z0-9._-]{8,64}$`)
	secretForm   = regexp.MustCompile(`^[0-9a-f]{40}$`)
)

// CheckClientID refuses what cannot be an OAuth App's client ID, in words.
// A 40-hex string is a client secret: it must never be stored in a
// variable anyone with read access can see.
func CheckClientID(id string) error {
	switch {
	case secretForm.MatchString(id):
		return fmt.Errorf("that is 40 hex digits, the shape of a client secret, not a Client ID; nothing was set. Give the Client ID from the App's page, and keep the secret to yourself (the device flow needs none)")
	case !clientIDForm.MatchString(id):
		return fmt.Errorf("%q is not an OAuth App Client ID (8 to 64 letters, digits, dots, dashes or underscores); nothing was set", id)
	}
	return nil
}
