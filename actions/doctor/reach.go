package doctor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"
	"go.yaml.in/yaml/v3"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/internal/lazyre"
)

// Credential is one GitHub credential the session can reach, named by
// where it is and whose it is, never by its value: the approvals row's
// list (seed 001, "The trust boundary").
type Credential struct {
	Source string // where it is: "environment variable GH_TOKEN", "gh (…/hosts.yml) github.com"
	// Account is the login GitHub (or gh's record) gives for it; "" when
	// Unknown says why it cannot be told just now, or when None is set.
	Account string
	// Unknown says why whose it is cannot be said just now (a timeout, a
	// rate limit, a source that does not answer): such a credential counts
	// as exposed.
	Unknown string
	// Elsewhere names another GitHub host the account is on: it cannot
	// approve on this repository's host.
	Elsewhere string
	// None says the source is there but holds no credential for the host
	// (a git credential helper with nothing stored for it).
	None bool
	// Refused says GitHub refuses the token (401: revoked, expired or
	// never valid): it approves nothing.
	Refused bool
	// App says it is a GitHub App's installation token (ghs_, or one
	// GET /user refuses as an integration's): a bot's, never a person's.
	App bool
	// Scopes are the classic token's scopes GitHub named (X-OAuth-Scopes)
	// when asked whose it is; nil for a fine-grained or App token.
	Scopes []string
}

// Reach is what FindCredentials reads; main wires it to the process's
// environment, files, git and GitHub, tests stage it.
type Reach struct {
	// Environ is the process's environment as KEY=VALUE lines.
	Environ []string
	// Home is the user's home folder (gh's default profile is under it).
	Home string
	// ReadFile reads a file; nil is os.ReadFile.
	ReadFile func(string) ([]byte, error)
	// Host is the repository's GitHub host as gh and git know it
	// ("github.com", or the sandbox's "127.0.0.1:PORT"); Scheme is "https"
	// (or the sandbox's "http").
	Host, Scheme string
	// GitCredential asks git's credential helper for Host; nil skips git.
	// See GitCredentialFill.
	GitCredential func(ctx context.Context, scheme, host string) GitAnswer
	// Own is the token aayu itself would use, with its source.
	Own ghx.Token
	// Keyring reads aayu's own secret store; nil skips it.
	Keyring func(ctx context.Context) (string, error)
	// WhoAmI asks GitHub whose a token is.
	WhoAmI func(ctx context.Context, tok ghx.Token) (string, error)
	// WhoAmIScopes, when set, is asked instead of WhoAmI and also gives
	// the token's classic scopes from the same answer.
	WhoAmIScopes func(ctx context.Context, tok ghx.Token) (string, []string, error)
}

// GitAnswer is what git's credential helper said: Configured is false when
// no helper is set; Err when one is set and did not answer.
type GitAnswer struct {
	Configured bool
	Helper     string // the helper's name, as configured
	Secret     string // "" when the helper holds nothing for the host
	Err        error
}

// gitHubTokenVars are the variables gh, git's tools and aayu read a token
// from, whatever its shape (a sandbox or GitHub Enterprise token need not
// look like github.com's).
var gitHubTokenVars = []string{"GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", ghx.SourceAayuEnv, "AAYU_BOT_TOKEN"}

// tokenShape is a GitHub token by its documented prefix: a classic or
// fine-grained personal token, an OAuth, user-to-server, server-to-server
// or refresh token.
var tokenShape = lazyre.New(`^(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})$`)

// legacyToken is a classic 40-hex token, which counts only in a variable
// named for GitHub (the shape alone is any SHA-1).
var legacyToken = lazyre.New(`^[0-9a-f]{40}$`)

// ignoredVar is a variable aayu never reads and never counts: the seed's
// WTW_* and GH_WTW_* names.
func ignoredVar(name string) bool {
	return strings.HasPrefix(name, "WTW_") || strings.HasPrefix(name, "GH_WTW_")
}

func namedForGitHub(name string) bool {
	up := strings.ToUpper(name)
	return strings.Contains(up, "GITHUB") || strings.HasPrefix(up, "GH_") || strings.Contains(up, "_GH_")
}

// found is a credential whose value is in hand, before GitHub is asked.
type found struct {
	source string
	tok    ghx.Token
}

// envTokens are the token-shaped variables of the environment, in order.
func envTokens(environ []string) []found {
	var out []found
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		value = strings.TrimSpace(value)
		if !ok || value == "" || ignoredVar(name) {
			continue
		}
		if tokenShape().MatchString(value) || slices.Contains(gitHubTokenVars, name) ||
			(namedForGitHub(name) && legacyToken().MatchString(value)) {
			src := "environment variable " + name
			out = append(out, found{src, ghx.NewToken(value, src)})
		}
	}
	return out
}

// ghHosts is gh's hosts.yml: per host, the active user, its token when
// stored in the file, and every account logged in (gh 2.40 and later).
type ghHosts map[string]struct {
	User       string `yaml:"user"`
	OAuthToken string `yaml:"oauth_token"`
	Users      map[string]struct {
		OAuthToken string `yaml:"oauth_token"`
	} `yaml:"users"`
}

// ghConfigDirs are gh's profiles to read: GH_CONFIG_DIR when set, and the
// default profile besides, which an agent can still reach.
func ghConfigDirs(getenv func(string) string, home string) []string {
	def := filepath.Join(home, ".config", "gh")
	if x := getenv("XDG_CONFIG_HOME"); x != "" {
		def = filepath.Join(x, "gh")
	}
	var dirs []string
	if d := getenv("GH_CONFIG_DIR"); d != "" {
		dirs = append(dirs, d)
	}
	if !slices.Contains(dirs, def) {
		dirs = append(dirs, def)
	}
	return dirs
}

// FindCredentials lists every GitHub credential the session can reach, in
// a fixed order: the environment's token-shaped variables, every account
// in gh's hosts.yml (each profile), the git credential helper, aayu's own
// token and its secret store. Each token in hand is shown to GitHub once
// (GET /user) to learn whose it is; the values never leave this function.
func FindCredentials(ctx context.Context, r Reach) []Credential {
	readFile := r.ReadFile
	if readFile == nil {
		readFile = os.ReadFile
	}
	getenv := func(k string) string {
		for _, kv := range r.Environ {
			if name, v, ok := strings.Cut(kv, "="); ok && name == k {
				return v
			}
		}
		return ""
	}
	whose := map[string]Credential{} // by token value: one question each
	ask := func(f found) Credential {
		c, ok := whose[f.tok.Reveal()]
		if !ok {
			var login string
			var err error
			switch {
			case strings.HasPrefix(f.tok.Reveal(), "ghs_"):
			case r.WhoAmIScopes != nil:
				login, c.Scopes, err = r.WhoAmIScopes(ctx, f.tok)
			default:
				login, err = r.WhoAmI(ctx, f.tok)
			}
			switch {
			case strings.HasPrefix(f.tok.Reveal(), "ghs_") || integrationToken(err):
				c.App = true
			case refusedToken(err):
				c.Refused = true
			case err != nil:
				c.Unknown = "GitHub could not say whose it is just now: " + firstClause(ghx.Describe(err))
			default:
				c.Account = login
			}
			whose[f.tok.Reveal()] = c
		}
		c.Source = f.source
		return c
	}
	var out []Credential
	for _, f := range envTokens(r.Environ) {
		out = append(out, ask(f))
	}
	for _, dir := range ghConfigDirs(getenv, r.Home) {
		out = append(out, ghAccounts(readFile, filepath.Join(dir, "hosts.yml"), r.Host, ask)...)
	}
	if r.GitCredential != nil {
		if c, ok := gitCredential(ctx, r, ask); ok {
			out = append(out, c)
		}
	}
	if !r.Own.IsZero() {
		out = append(out, ask(found{OwnSource(r.Own), r.Own}))
	}
	if r.Keyring != nil && r.Own.Source() != ghx.SourceKeyring {
		src := "aayu's secret store (" + ghx.SourceKeyring + ")"
		v, err := r.Keyring(ctx)
		switch {
		case err != nil && lockedKeychainCounts():
			out = append(out, Credential{Source: src, Unknown: "it could not be read just now: " + err.Error()})
		case err == nil && strings.TrimSpace(v) != "":
			out = append(out, ask(found{src, ghx.NewToken(strings.TrimSpace(v), src)}))
		}
	}
	return out
}

// refusedToken says GitHub answered 401 for the token: it opens nothing.
func refusedToken(err error) bool {
	var resp *github.ErrorResponse
	return errors.As(err, &resp) && resp.Response != nil && resp.Response.StatusCode == http.StatusUnauthorized
}

// integrationToken says GET /user refused the token as an App's: GitHub
// answers 403 "Resource not accessible by integration" to an installation
// token, which belongs to no person.
func integrationToken(err error) bool {
	var resp *github.ErrorResponse
	return errors.As(err, &resp) && resp.Response != nil && resp.Response.StatusCode == http.StatusForbidden &&
		strings.Contains(strings.ToLower(resp.Message), "integration")
}

// firstClause keeps an error's words up to its first ";", enough to say
// why in a row that lists many sources.
func firstClause(s string) string {
	s, _, _ = strings.Cut(s, ";")
	return strings.TrimSuffix(strings.TrimSpace(s), ".")
}

// OwnSource names aayu's own token in the list.
func OwnSource(own ghx.Token) string { return "the token aayu uses (" + own.Source() + ")" }

// lockedKeychainCounts says whether a keyring that did not answer counts
// as exposed: a locked keychain on macOS or Windows may hold the token; a
// Linux box with no secret service at all holds nothing.
func lockedKeychainCounts() bool { return runtime.GOOS == "darwin" || runtime.GOOS == "windows" }

func ghAccounts(readFile func(string) ([]byte, error), path, host string, ask func(found) Credential) []Credential {
	b, err := readFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	src := "gh (" + path + ")"
	if err != nil {
		return []Credential{{Source: src, Unknown: "it could not be read: " + err.Error()}}
	}
	var hosts ghHosts
	if err := yaml.Unmarshal(b, &hosts); err != nil {
		return []Credential{{Source: src, Unknown: "it is not gh's hosts.yml as aayu reads it: " + strings.SplitN(err.Error(), "\n", 2)[0]}}
	}
	var names []string
	for h := range hosts {
		names = append(names, h)
	}
	slices.Sort(names)
	var out []Credential
	for _, h := range names {
		e := hosts[h]
		var logins []string
		for l := range e.Users {
			logins = append(logins, l)
		}
		if e.User != "" && !slices.Contains(logins, e.User) {
			logins = append(logins, e.User)
		}
		slices.Sort(logins)
		for _, l := range logins {
			s := fmt.Sprintf("%s %s, account %s", src, h, l)
			tok := e.Users[l].OAuthToken
			if tok == "" && l == e.User {
				tok = e.OAuthToken
			}
			switch {
			case !strings.EqualFold(h, host):
				out = append(out, Credential{Source: s, Account: l, Elsewhere: h})
			case tok != "":
				// The file holds the token: ask GitHub rather than trust
				// the name beside it.
				out = append(out, ask(found{s, ghx.NewToken(tok, s)}))
			default:
				// The token is in gh's keyring, under the login gh
				// recorded from GitHub when it logged in.
				out = append(out, Credential{Source: s, Account: l})
			}
		}
	}
	return out
}

func gitCredential(ctx context.Context, r Reach, ask func(found) Credential) (Credential, bool) {
	a := r.GitCredential(ctx, r.Scheme, r.Host)
	if !a.Configured {
		return Credential{}, false
	}
	src := "git credential helper"
	if a.Helper != "" {
		src += " (" + a.Helper + ")"
	}
	switch {
	case a.Err != nil:
		return Credential{Source: src, Unknown: "it is configured but did not answer: " + a.Err.Error()}, true
	case a.Secret == "":
		return Credential{Source: src, None: true}, true
	}
	return ask(found{src, ghx.NewToken(a.Secret, src)}), true
}

// GitCredentialFill asks git for a credential for scheme://host as any
// process of the session could (git credential fill), with no prompt and a
// time limit: a helper that does not answer in time counts as exposed.
// environ is the session's environment, which decides git's
// configuration (HOME, GIT_CONFIG_GLOBAL) as it does for any process there.
func GitCredentialFill(environ []string) func(ctx context.Context, scheme, host string) GitAnswer {
	return func(ctx context.Context, scheme, host string) GitAnswer {
		return gitCredentialFill(ctx, environ, scheme, host)
	}
}

func gitCredentialFill(ctx context.Context, environ []string, scheme, host string) GitAnswer {
	if environ == nil {
		environ = os.Environ()
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	list := exec.CommandContext(ctx, "git", "config", "--get-regexp", `^credential\.(.*\.)?helper$`)
	list.Env = environ
	list.WaitDelay = time.Second
	helpers, _ := list.Output()
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(string(helpers)), "\n") {
		if _, v, ok := strings.Cut(l, " "); ok && strings.TrimSpace(v) != "" {
			names = append(names, strings.Fields(v)[0])
		}
	}
	if len(names) == 0 {
		return GitAnswer{}
	}
	a := GitAnswer{Configured: true, Helper: strings.Join(slices.Compact(names), ", ")}
	cmd := exec.CommandContext(ctx, "git", "credential", "fill")
	cmd.Stdin = strings.NewReader("protocol=" + scheme + "\nhost=" + host + "\n\n")
	cmd.Env = append(slices.Clone(environ), "GIT_TERMINAL_PROMPT=0", "GCM_INTERACTIVE=never", "GIT_ASKPASS=", "SSH_ASKPASS=")
	// A helper's own children may hold git's output open after git is
	// killed at the deadline: stop waiting for them soon after.
	cmd.WaitDelay = time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ctx.Err() != nil {
		a.Err = errors.New("no answer in time")
		return a
	}
	if err != nil {
		// With prompts off, git says it could not ask when no helper had
		// anything for the host: nothing is stored there.
		if msg := stderr.String(); strings.Contains(msg, "terminal prompts disabled") || strings.Contains(msg, "could not read") {
			return a
		}
		a.Err = fmt.Errorf("git credential fill: %w", err)
		return a
	}
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(l, "password="); ok {
			a.Secret = strings.TrimSpace(v)
		}
	}
	return a
}
