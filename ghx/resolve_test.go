package ghx

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

func stateOf(statuses []SourceStatus, source string) SourceStatus {
	for _, s := range statuses {
		if s.Source == source {
			return s
		}
	}
	return SourceStatus{}
}

func constSource(v string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) { return v, nil }
}

func TestHumanTokenOrder(t *testing.T) {
	t.Parallel()
	prompted := false
	prompt := func(context.Context) (string, error) { prompted = true; return "from-prompt", nil }
	cases := []struct {
		name       string
		env        map[string]string
		ci         bool
		gh, ring   string
		prompt     bool
		wantSource string
		wantValue  string
		wantStates map[string]string
	}{
		{name: "AAYU_GITHUB_TOKEN first", env: map[string]string{"AAYU_GITHUB_TOKEN": "aayu", "GITHUB_TOKEN": "gha"}, ci: true, gh: "gh", ring: "ring", prompt: true,
			wantSource: SourceAayuEnv, wantValue: "aayu",
			wantStates: map[string]string{SourceGitHubEnv: StateNotChecked, SourceGh: StateNotChecked, SourcePrompt: StateNotChecked}},
		{name: "GITHUB_TOKEN with --ci", env: map[string]string{"GITHUB_TOKEN": "gha"}, ci: true, gh: "gh",
			wantSource: SourceGitHubEnv, wantValue: "gha",
			wantStates: map[string]string{SourceAayuEnv: StateNotSet, SourceGh: StateNotChecked}},
		{name: "GITHUB_TOKEN ignored without --ci", env: map[string]string{"GITHUB_TOKEN": "gha"}, gh: "gh\n",
			wantSource: SourceGh, wantValue: "gh",
			wantStates: map[string]string{SourceGitHubEnv: StateSkipped}},
		{name: "keyring after gh", ring: "ring", prompt: true,
			wantSource: SourceKeyring, wantValue: "ring",
			wantStates: map[string]string{SourceGh: StateNotSet, SourcePrompt: StateNotChecked}},
		{name: "prompt last", prompt: true,
			wantSource: SourcePrompt, wantValue: "from-prompt",
			wantStates: map[string]string{SourceKeyring: StateNotSet}},
		{name: "whitespace is not a token", env: map[string]string{"AAYU_GITHUB_TOKEN": "  \n"}, ring: "ring",
			wantSource: SourceKeyring, wantValue: "ring",
			wantStates: map[string]string{SourceAayuEnv: StateNotSet, SourcePrompt: StateSkipped}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prompted = false
			env := ResolveEnv{
				Getenv:  func(k string) string { return c.env[k] },
				CI:      c.ci,
				GhToken: constSource(c.gh),
				Keyring: constSource(c.ring),
			}
			if c.prompt {
				env.Prompt = prompt
			}
			tok, statuses, err := ResolveHumanToken(context.Background(), env)
			if err != nil {
				t.Fatalf("ResolveHumanToken: %v", err)
			}
			if tok.Source() != c.wantSource || tok.Reveal() != c.wantValue {
				t.Errorf("token from %q, want %q (value matches: %v)", tok.Source(), c.wantSource, tok.Reveal() == c.wantValue)
			}
			if got := stateOf(statuses, c.wantSource).State; got != StateUsed {
				t.Errorf("%s state %q, want used", c.wantSource, got)
			}
			for source, want := range c.wantStates {
				if got := stateOf(statuses, source).State; got != want {
					t.Errorf("%s state %q, want %q", source, got, want)
				}
			}
			if len(statuses) != 5 {
				t.Errorf("%d statuses, want one per source", len(statuses))
			}
			if prompted && c.wantSource != SourcePrompt {
				t.Error("prompted although an earlier source had a token")
			}
			for _, s := range statuses {
				if strings.Contains(s.Detail, c.wantValue) {
					t.Errorf("status of %s reveals the token", s.Source)
				}
			}
		})
	}
}

func TestResolveCheckAllReportsLowerSources(t *testing.T) {
	t.Parallel()
	prompted := false
	env := ResolveEnv{
		Getenv:   func(k string) string { return map[string]string{"AAYU_GITHUB_TOKEN": "a"}[k] },
		GhToken:  constSource("g"),
		Keyring:  func(context.Context) (string, error) { return "", errors.New("no secret service on this box") },
		Prompt:   func(context.Context) (string, error) { prompted = true; return "p", nil },
		CheckAll: true,
	}
	_, statuses, err := ResolveHumanToken(context.Background(), env)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{SourceAayuEnv: StateUsed, SourceGitHubEnv: StateSkipped, SourceGh: StateAvailable,
		SourceKeyring: StateFailed, SourcePrompt: StateNotChecked}
	for source, state := range want {
		if got := stateOf(statuses, source); got.State != state {
			t.Errorf("%s: %q, want %q", source, got.State, state)
		}
	}
	if !strings.Contains(stateOf(statuses, SourceKeyring).Detail, "secret service") {
		t.Error("keyring failure reason not reported")
	}
	if prompted {
		t.Error("CheckAll must never prompt")
	}
}

func TestResolveNoTokenAnywhere(t *testing.T) {
	t.Parallel()
	_, statuses, err := ResolveHumanToken(context.Background(), ResolveEnv{GhToken: constSource(""), Keyring: constSource("")})
	if !errors.Is(err, ErrNoToken) {
		t.Fatalf("err = %v, want ErrNoToken", err)
	}
	if got := stateOf(statuses, SourcePrompt); got.State != StateSkipped || !strings.Contains(got.Detail, "terminal") {
		t.Errorf("prompt status %+v, want skipped for lack of a terminal", got)
	}
}

func TestKeyringTimesOut(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	hanging := func(service, user string) (string, error) { <-release; return "late", nil }
	start := time.Now()
	_, err := KeyringToken(hanging, 50*time.Millisecond)(context.Background())
	if err == nil || !strings.Contains(err.Error(), "did not answer") {
		t.Fatalf("err = %v, want a timeout", err)
	}
	if time.Since(start) > time.Second {
		t.Error("the keyring timeout was not honoured")
	}

	got, err := KeyringToken(func(service, user string) (string, error) {
		if service != "aayu" || user != "github-token" {
			t.Errorf("keyring asked for %s/%s", service, user)
		}
		return "", keyring.ErrNotFound
	}, 0)(context.Background())
	if got != "" || err != nil {
		t.Errorf("a missing secret should read as not set, got err %v", err)
	}
}

func TestGhAuthToken(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		run     CommandRunner
		want    string
		wantErr bool
	}{
		{"token", func(ctx context.Context, name string, args ...string) ([]byte, error) {
			if name != "gh" || strings.Join(args, " ") != "auth token --hostname ghes.example.com" {
				t.Errorf("ran %s %v", name, args)
			}
			return []byte("gho_x\n"), nil
		}, "gho_x", false},
		{"gh not installed", func(context.Context, string, ...string) ([]byte, error) {
			return nil, &exec.Error{Name: "gh", Err: exec.ErrNotFound}
		}, "", false},
		{"timeout", func(ctx context.Context, _ string, _ ...string) ([]byte, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			if c.name == "timeout" {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, 10*time.Millisecond)
				defer cancel()
			}
			got, err := GhAuthToken(c.run, "ghes.example.com")(ctx)
			if got != c.want || (err != nil) != c.wantErr {
				t.Errorf("got value match %v, err %v", got == c.want, err)
			}
		})
	}
	if GhHostname("") != "github.com" || GhHostname("https://ghes.example.com/") != "ghes.example.com" {
		t.Error("GhHostname maps API URLs wrongly")
	}
}

func TestBotResolution(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		cfg     IdentityConfig
		kind    string
		login   string
		trailer string
		why     string
	}{
		{"solo mode", IdentityConfig{}, BotHumanFallback, "", HumanFallbackTrailer, "solo mode"},
		{"app with broker", IdentityConfig{AppID: 7, AppSlug: "aayudha", Broker: "aayudha-token.yml", MachineUser: "m", MachineUserSecret: "s"},
			BotApp, "aayudha[bot]", "", "aayudha-token.yml"},
		{"app without broker falls to machine user", IdentityConfig{AppID: 7, MachineUser: "acme-bot", MachineUserSecret: "acme-bot-token"},
			BotMachineUser, "acme-bot", "", "no broker"},
		{"machine user", IdentityConfig{MachineUser: "acme-bot", MachineUserSecret: "acme-bot-token"}, BotMachineUser, "acme-bot", "", "acme-bot-token"},
		{"machine user without secret", IdentityConfig{MachineUser: "acme-bot"}, BotHumanFallback, "", HumanFallbackTrailer, "machine_user_secret"},
		{"app without broker, nothing else", IdentityConfig{AppSlug: "aayudha"}, BotHumanFallback, "", HumanFallbackTrailer, "no broker"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := BotIdentity(c.cfg)
			if got.Kind != c.kind || got.Login != c.login || got.Trailer != c.trailer || !strings.Contains(got.Why, c.why) {
				t.Errorf("BotIdentity = %+v, want kind %s login %q trailer %q why containing %q", got, c.kind, c.login, c.trailer, c.why)
			}
		})
	}
}
