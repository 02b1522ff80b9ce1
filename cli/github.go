package cli

import (
	"io"
	"sync"

	"github.com/charmbracelet/x/term"

	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-github/v66/github"

	build "github.com/aayudha/aayu/actions/packbuild"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/tui"
)

// session is where a screen's GitHub calls go: the API and device-flow
// hosts, the repository, and how the person's token is found. With
// --sandbox it also owns the in-process sandbox GitHub.
type session struct {
	apiURL, oauthURL string
	owner, repo      string
	resolve          func(ctx context.Context) (ghx.Token, []ghx.SourceStatus, error)
	cacheDir         string
	sandbox          *sandbox.Server

	// resolveQuiet finds the token without ever prompting, for reads that
	// are worth trying but not worth asking for (the presence check's App).
	resolveQuiet func(ctx context.Context) (ghx.Token, error)
}

func (s *session) close() {
	if s.sandbox != nil {
		_ = s.sandbox.Close()
	}
}

// webURL is the web host for links to issues: the device-flow host, which
// is github.com (or the GHES host, or the sandbox) without a trailing slash.
func (s *session) webURL() string { return strings.TrimSuffix(s.oauthURL, "/") }

// client returns a go-github client for tok through ghx's transport stack.
func (s *session) client(tok ghx.Token) (*github.Client, error) {
	return ghx.NewClient(ghx.ClientOptions{APIURL: s.apiURL, Token: tok, CacheDir: s.cacheDir, UserAgent: "aayu"})
}

// sandboxToken is the founder's account in the sandbox: what a newcomer who
// runs aayu --sandbox acts as unless AAYU_GITHUB_TOKEN names another.
const sandboxToken = "sandbox-founder"

// sessionRepo is the repository a session acts on, as OWNER/NAME: --repo,
// else the sandbox's, else the checkout's origin as gh takes it (unless the
// invocation reads only this machine); "" when none is found.
func sessionRepo(ctx context.Context, g tui.Global, o sessionOptions) string {
	switch {
	case g.Repo != "":
		return g.Repo
	case g.Sandbox:
		return sandbox.RepoOwner + "/" + sandbox.RepoName
	case o.noCheckout:
		return ""
	}
	cwd, err := os.Getwd()
	if err != nil {
		return ""
	}
	if owner, name, err := (build.Tools{}).RepoFromCheckout(ctx, cwd); err == nil {
		return owner + "/" + name
	}
	return ""
}

// startSandbox runs the in-process sandbox GitHub for this session, its
// state and HTTP cache under cache.
func (s *session) startSandbox(cache string) error {
	srv, err := sandbox.New(sandbox.Options{StateDir: filepath.Join(cache, "aayu", "sandbox")})
	if err != nil {
		return fmt.Errorf("starting the sandbox GitHub: %w", err)
	}
	url, err := srv.Start("127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("starting the sandbox GitHub: %w", err)
	}
	s.sandbox = srv
	s.apiURL, s.oauthURL = url+"/", url
	s.cacheDir = filepath.Join(cache, "aayu", "http-sandbox")
	return nil
}

// tokenPrompt asks the person at the terminal in for a token, the input
// hidden, the question on out.
func tokenPrompt(in *os.File, out io.Writer) func(ctx context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		fmt.Fprint(out, "No GitHub token was found (AAYU_GITHUB_TOKEN, gh auth token, the keyring).\nPaste a token for aayu (input hidden): ")
		b, err := term.ReadPassword(in.Fd())
		fmt.Fprintln(out)
		if err != nil {
			return "", fmt.Errorf("reading the token from the terminal: %w", err)
		}
		return strings.TrimSpace(string(b)), nil
	}
}

// sessionOptions is what openSession takes from the command it opens for.
type sessionOptions struct {
	// allSources: the token lookup reports every source (aayu auth).
	allSources bool
	// noCheckout: the invocation reads only this machine, so the
	// checkout's origin is not looked up (two runs of git).
	noCheckout bool
}

// openSession decides the hosts, the repository and the token sources.
func openSession(ctx context.Context, inv tui.Invocation, e env, o sessionOptions) (*session, error) {
	s := &session{}
	s.apiURL, s.oauthURL = tui.ResolveURLs(inv.Global, e.getenv)
	cache, err := userCacheDir(e.getenv)
	if err != nil {
		return nil, err
	}
	s.cacheDir = filepath.Join(cache, "aayu", "http")
	if inv.Global.Sandbox {
		if err := s.startSandbox(cache); err != nil {
			return nil, err
		}
	}
	if repo := sessionRepo(ctx, inv.Global, o); repo != "" {
		s.owner, s.repo, _ = strings.Cut(repo, "/")
	}
	resolveEnv := ghx.ResolveEnv{
		Getenv:  e.getenv,
		CI:      inv.Global.CI,
		GhToken: ghx.GhAuthToken(ghx.ExecRunner, ghx.GhHostname(s.apiURL)),
		Keyring: ghx.KeyringToken(nil, 0),
	}
	if e.stdinIsTerminal && e.ttyIn != nil {
		// The last source: ask the person, with the input hidden.
		resolveEnv.Prompt = tokenPrompt(e.ttyIn, e.stderr)
	}
	sandboxed := inv.Global.Sandbox
	resolve := func(ctx context.Context) (ghx.Token, []ghx.SourceStatus, error) {
		if sandboxed && e.getenv("AAYU_GITHUB_TOKEN") == "" {
			return ghx.NewToken(sandboxToken, "the sandbox's founder account"),
				[]ghx.SourceStatus{{Source: "sandbox", State: ghx.StateUsed, Detail: "the in-process sandbox GitHub; you act as @founder"}}, nil
		}
		env := resolveEnv
		env.CheckAll = o.allSources
		return ghx.ResolveHumanToken(ctx, env)
	}
	s.resolveQuiet = func(ctx context.Context) (ghx.Token, error) {
		if sandboxed && e.getenv("AAYU_GITHUB_TOKEN") == "" {
			return ghx.NewToken(sandboxToken, "the sandbox's founder account"), nil
		}
		env := resolveEnv
		env.Prompt = nil
		tok, _, err := ghx.ResolveHumanToken(ctx, env)
		return tok, err
	}
	// The token is looked up once per run: a prompt must never ask twice,
	// and must run before a screen takes the terminal (see run).
	var (
		once     sync.Once
		tok      ghx.Token
		statuses []ghx.SourceStatus
		rerr     error
	)
	s.resolve = func(ctx context.Context) (ghx.Token, []ghx.SourceStatus, error) {
		once.Do(func() { tok, statuses, rerr = resolve(ctx) })
		return tok, statuses, rerr
	}
	return s, nil
}

func userCacheDir(getenv func(string) string) (string, error) {
	if x := getenv("XDG_CACHE_HOME"); x != "" {
		return x, nil
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache"), nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", errors.New("neither XDG_CACHE_HOME nor HOME is set, so aayu has nowhere to keep its cache")
	}
	return d, nil
}

// identityConfig reads the seed's identity settings from the merged config.
func identityConfig(cfg *config.Config) ghx.IdentityConfig {
	return ghx.IdentityConfig{
		AppID:             int64(cfg.Int("identity.app_id")),
		AppSlug:           cfg.String("identity.app_slug"),
		Broker:            cfg.String("identity.broker"),
		MachineUser:       cfg.String("identity.machine_user"),
		MachineUserSecret: cfg.String("identity.machine_user_secret"),
		BotLogins:         cfg.Strings("identity.bot_logins"),
	}
}
