package tui

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/model/inbox"
)

// Default GitHub endpoints, used when neither a flag nor the environment
// names one.
const (
	DefaultAPIURL   = "https://api.github.com/"
	DefaultOAuthURL = "https://github.com"
)

// Invocation is a parsed command line.
type Invocation struct {
	// Command is the command to run, a Name from the table Execute was
	// given (its Default when none is named; Of for another name).
	Command string
	// Args are the command's positional arguments (STORY, DIR or PR).
	Args []string
	// Global holds the flags every command accepts.
	Global Global
	// Flags holds the command's own flags by name without dashes ("list",
	// "ready", "head", "addr", "faults", "scale"); a flag that takes no value
	// is stored as "true".
	Flags map[string]string
	// Help is set by --help or -h (ParseArgs only: Execute prints the page).
	Help bool
}

// Global holds the flags accepted before or after the command name.
type Global struct {
	Repo     string   // --repo OWNER/NAME
	APIURL   string   // --api-url URL (REST base); "" means not given
	OAuthURL string   // --oauth-url URL (device-flow host); "" means not given
	Plain    bool     // --plain
	CI       bool     // --ci: headless merge gate, never waits for a person
	Sandbox  bool     // --sandbox: run against the in-process GitHub
	DryRun   bool     // --dry-run: show what would be written, write nothing
	Set      []string // --set key=value, in the order given
}

// UsageError is a command line aayu cannot act on. main prints it with the
// usage text and exits with ExitUsage.
type UsageError struct {
	Msg string
	// Command is the command whose help page the hint names ("ship",
	// "proof push"); "" names aayu --help.
	Command string
}

// Error returns the message in words, without the usage text.
func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// setFlag stores one flag's value after checking its form.
func setFlag(inv *Invocation, name, value string) error {
	if isGlobal(name) || name == "help" {
		return setGlobal(inv, name, value)
	}
	return setCommandFlag(inv, name, value)
}

// setGlobal stores a global flag (or --help).
func setGlobal(inv *Invocation, name, value string) error {
	g := &inv.Global
	bools := map[string]*bool{"plain": &g.Plain, "ci": &g.CI, "sandbox": &g.Sandbox, "dry-run": &g.DryRun, "help": &inv.Help}
	if b, ok := bools[name]; ok {
		*b = value == "true"
		return nil
	}
	switch name {
	case "repo":
		owner, repo, ok := strings.Cut(value, "/")
		if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
			return usagef("--repo wants OWNER/NAME, got %q", SanitizeLine(value))
		}
		g.Repo = value
	case "set":
		key, _, ok := strings.Cut(value, "=")
		if !ok || strings.TrimSpace(key) == "" {
			return usagef("--set wants key=value, got %q", SanitizeLine(value))
		}
		g.Set = append(g.Set, value)
	case "api-url", "oauth-url":
		if err := checkURL(name, value); err != nil {
			return err
		}
		if name == "api-url" {
			g.APIURL = value
		} else {
			g.OAuthURL = value
		}
	}
	return nil
}

// setCommandFlag stores a command's own flag, checking the form of those
// whose values have one.
func setCommandFlag(inv *Invocation, name, value string) error {
	switch name {
	case "head":
		if !isHexSHA(value) {
			return usagef("--head wants a full commit SHA (40 hex digits), got %q", SanitizeLine(value))
		}
		value = strings.ToLower(value)
	case "addr":
		if _, _, err := net.SplitHostPort(value); err != nil {
			return usagef("--addr wants HOST:PORT, got %q", SanitizeLine(value))
		}
	case "scale":
		if n, err := strconv.Atoi(value); err != nil || n < 1 {
			return usagef("--scale wants a whole number of 1 or more, got %q", SanitizeLine(value))
		}
	case "json":
		if err := checkJSONFields(value); err != nil {
			return err
		}
		inv.Flags["list"] = "true" // --json prints the list, as JSON
	case "ready", "faults", "dir", "client-id", "accept":
		if value == "" {
			return usagef("flag --%s needs a value", name)
		}
	}
	// list, reset, solo-bypass and the others take their value as it is.
	inv.Flags[name] = value
	return nil
}

// checkJSONFields refuses a --json list naming a field the inbox has not.
func checkJSONFields(value string) error {
	for _, field := range strings.Split(value, ",") {
		if !slices.Contains(inbox.JSONFields(), field) {
			return usagef("--json has no field %q; the fields are %s", SanitizeLine(field), strings.Join(inbox.JSONFields(), ", "))
		}
	}
	return nil
}

func checkURL(flag, value string) error {
	u, err := url.Parse(value)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usagef("--%s wants an http or https URL such as https://github.example.com, got %q", flag, SanitizeLine(value))
	}
	return nil
}

func isHexSHA(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range strings.ToLower(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// ResolveURLs picks the GitHub REST base and device-flow host: the flag,
// else AAYU_GITHUB_API_URL / AAYU_GITHUB_OAUTH_URL, else github.com. The REST
// base always ends in "/" (go-github requires it); the OAuth host never does.
func ResolveURLs(g Global, env func(string) string) (api, oauth string) {
	api = firstNonEmpty(g.APIURL, env("AAYU_GITHUB_API_URL"), DefaultAPIURL)
	oauth = firstNonEmpty(g.OAuthURL, env("AAYU_GITHUB_OAUTH_URL"), DefaultOAuthURL)
	if !strings.HasSuffix(api, "/") {
		api += "/"
	}
	return api, strings.TrimRight(oauth, "/")
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// UsageLine is what a usage error prints: the mistake in one line and where
// to read more, not the whole usage text (which buries the mistake).
func UsageLine(err error) string {
	msg := strings.TrimRight(err.Error(), ".")
	if !strings.HasSuffix(msg, "?") {
		msg += "."
	}
	page := "aayu --help"
	var ue *UsageError
	if errors.As(err, &ue) && ue.Command != "" {
		page = "aayu " + ue.Command + " --help"
	}
	return "aayu: " + msg + " Run " + page + " for usage."
}
