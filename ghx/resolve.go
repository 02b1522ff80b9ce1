package ghx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/zalando/go-keyring"
)

// Where a human token can come from, in the order they are tried (SPEC §6).
const (
	SourceAayuEnv   = "AAYU_GITHUB_TOKEN"
	SourceGitHubEnv = "GITHUB_TOKEN"
	SourceGh        = "gh auth token"
	SourceKeyring   = "keyring (aayu/github-token)"
	SourcePrompt    = "prompt"
)

// KeyringService and KeyringUser name the secret in the OS keyring.
const (
	KeyringService = "aayu"
	KeyringUser    = "github-token"
)

// Time limits for the slow sources: gh can stall on a network call, and a
// keyring can hang on a headless box with no secret service.
const (
	GhTimeout      = 5 * time.Second
	KeyringTimeout = 2 * time.Second
)

// Source states reported to `aayu auth`.
const (
	StateUsed       = "used"        // the token came from here
	StateAvailable  = "available"   // a token is here, a higher source won
	StateNotSet     = "not set"     // nothing here
	StateSkipped    = "skipped"     // not consulted on purpose (Detail says why)
	StateFailed     = "failed"      // could not be read (Detail says why)
	StateNotChecked = "not checked" // a higher source already gave the token
)

// ErrNoToken is matched when no source had a token.
var ErrNoToken = errors.New("no GitHub token found")

// SourceStatus is one line of `aayu auth`: a source, its state, and why.
// It never holds a token's value.
type SourceStatus struct {
	Source string
	State  string
	Detail string
}

// ResolveEnv is everything ResolveHumanToken reads, so tests can stage it.
type ResolveEnv struct {
	Getenv func(string) string
	// CI is --ci: only then does GITHUB_TOKEN count as the person's token.
	CI bool
	// GhToken runs `gh auth token`; nil skips gh. See GhAuthToken.
	GhToken func(ctx context.Context) (string, error)
	// Keyring reads the keyring secret; nil skips it. See KeyringToken.
	Keyring func(ctx context.Context) (string, error)
	// Prompt asks on the terminal; nil when there is no terminal.
	Prompt func(ctx context.Context) (string, error)
	// CheckAll probes the sources below the one used too (never the
	// prompt), so `aayu auth` can say which exist.
	CheckAll bool
}

// ResolveHumanToken finds the person's token, first match wins:
// AAYU_GITHUB_TOKEN; GITHUB_TOKEN only with --ci; `gh auth token`; the
// keyring secret aayu/github-token; a prompt on a terminal. The statuses
// list every source in that order.
func ResolveHumanToken(ctx context.Context, env ResolveEnv) (Token, []SourceStatus, error) {
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	type source struct {
		name  string
		read  func(context.Context) (string, error)
		state string // preset state when read is nil
		why   string
	}
	fromEnv := func(name string) func(context.Context) (string, error) {
		return func(context.Context) (string, error) { return getenv(name), nil }
	}
	sources := []source{{name: SourceAayuEnv, read: fromEnv(SourceAayuEnv)}}
	if env.CI {
		sources = append(sources, source{name: SourceGitHubEnv, read: fromEnv(SourceGitHubEnv)})
	} else {
		why := "used only with --ci"
		if strings.TrimSpace(getenv(SourceGitHubEnv)) != "" {
			why = "set, but used only with --ci"
		}
		sources = append(sources, source{name: SourceGitHubEnv, state: StateSkipped, why: why})
	}
	sources = append(sources,
		source{name: SourceGh, read: env.GhToken, state: StateSkipped, why: "not consulted here"},
		source{name: SourceKeyring, read: env.Keyring, state: StateSkipped, why: "not consulted here"},
		source{name: SourcePrompt, read: env.Prompt, state: StateSkipped, why: "no terminal to ask on"},
	)

	var found Token
	statuses := make([]SourceStatus, 0, len(sources))
	for _, s := range sources {
		status := SourceStatus{Source: s.name, State: s.state, Detail: s.why}
		switch {
		case s.read == nil:
		case !found.IsZero() && (!env.CheckAll || s.name == SourcePrompt):
			status = SourceStatus{Source: s.name, State: StateNotChecked}
		default:
			value, err := s.read(ctx)
			value = strings.TrimSpace(value)
			switch {
			case err != nil:
				status.State, status.Detail = StateFailed, err.Error()
			case value == "":
				status.State, status.Detail = StateNotSet, ""
			case found.IsZero():
				found = NewToken(value, s.name)
				status.State, status.Detail = StateUsed, ""
			default:
				status.State, status.Detail = StateAvailable, ""
			}
		}
		statuses = append(statuses, status)
	}
	if found.IsZero() {
		return Token{}, statuses, fmt.Errorf("%w: set AAYU_GITHUB_TOKEN, run `gh auth login`, or store one in the keyring as %s/%s", ErrNoToken, KeyringService, KeyringUser)
	}
	return found, statuses, nil
}

// CommandRunner runs a program and returns its standard output; the
// default is exec. Tests pass a fake.
type CommandRunner func(ctx context.Context, name string, args ...string) ([]byte, error)

// ExecRunner runs the command with exec, keeping standard error for the
// error message (gh writes no token there).
func ExecRunner(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("%w: %s", err, clean(msg))
		}
		return nil, err
	}
	return out, nil
}

// GhAuthToken reads `gh auth token --hostname HOST` through run within
// GhTimeout. gh missing or logged out reads as "not set", not as a failure.
func GhAuthToken(run CommandRunner, host string) func(ctx context.Context) (string, error) {
	if run == nil {
		run = ExecRunner
	}
	return func(ctx context.Context) (string, error) {
		ctx, cancel := context.WithTimeout(ctx, GhTimeout)
		defer cancel()
		args := []string{"auth", "token"}
		if host != "" {
			args = append(args, "--hostname", host)
		}
		out, err := run(ctx, "gh", args...)
		switch {
		case errors.Is(err, exec.ErrNotFound):
			return "", nil
		case ctx.Err() == context.DeadlineExceeded:
			return "", fmt.Errorf("gh auth token did not answer within %s", GhTimeout)
		case err != nil:
			var exitErr *exec.ExitError
			if errors.As(err, &exitErr) {
				return "", nil // gh says: not logged in to this host
			}
			return "", fmt.Errorf("running gh auth token: %w", err)
		}
		return strings.TrimSpace(string(out)), nil
	}
}

// KeyringToken reads aayu/github-token from the OS keyring through get
// (nil means zalando/go-keyring). The read runs in its own goroutine and
// is given up after timeout (0 means KeyringTimeout): on a headless box a
// keyring call can block for good, and a stuck goroutine is better than a
// stuck aayu.
func KeyringToken(get func(service, user string) (string, error), timeout time.Duration) func(ctx context.Context) (string, error) {
	if get == nil {
		get = keyring.Get
	}
	if timeout <= 0 {
		timeout = KeyringTimeout
	}
	return func(ctx context.Context) (string, error) {
		type result struct {
			value string
			err   error
		}
		done := make(chan result, 1) // buffered: a late answer must not block the goroutine
		go func() {
			value, err := get(KeyringService, KeyringUser)
			done <- result{value, err}
		}()
		timer := time.NewTimer(timeout)
		defer timer.Stop()
		select {
		case r := <-done:
			if errors.Is(r.err, keyring.ErrNotFound) {
				return "", nil
			}
			if r.err != nil {
				return "", fmt.Errorf("reading the keyring: %w", r.err)
			}
			return r.value, nil
		case <-timer.C:
			return "", fmt.Errorf("the keyring did not answer within %s", timeout)
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// GhHostname is the host `gh` knows an API URL's accounts under.
func GhHostname(apiURL string) string {
	u, err := ParseAPIURL(apiURL)
	if err != nil {
		return ""
	}
	if u.Host == "api.github.com" {
		return "github.com"
	}
	return u.Host
}
