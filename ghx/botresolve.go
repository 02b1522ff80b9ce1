package ghx

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/zalando/go-keyring"
)

// BotTokenVariable hands an agent lane the bot's token directly: the
// broker's output, or a machine user's token, put there by whoever set the
// lane up. It is the first place Resolver.Bot looks.
const BotTokenVariable = "AAYU_BOT_TOKEN"

// BotToken is the kind for a token from AAYU_BOT_TOKEN when no App or
// machine user is configured to say whose it is: GitHub says, on use.
const BotToken = "bot-token"

// Where a bot token came from, as `aayu auth` and errors name it.
const (
	SourceBotEnv      = BotTokenVariable
	SourceBroker      = "the token broker"
	SourceMachineUser = "the secrets store"
	SourceFallback    = "the person's token (human-fallback)"
)

// ErrNoBotToken is matched when a configured bot identity gave no token:
// aayu then stops rather than writing as the person, since the
// configuration says agents must not.
var ErrNoBotToken = errors.New("the configured bot identity gave no token")

// Resolver finds the tokens a run writes with. Human is the person's token
// (ResolveHumanToken); Bot is the identity agent lanes and CI write under.
// Each field is an outside effect, so tests stage them.
type Resolver struct {
	Getenv func(string) string
	// Identity is the [identity] table.
	Identity IdentityConfig
	// Human finds the person's token: the human-fallback writes with it,
	// and the broker dispatches its workflow with it.
	Human func(ctx context.Context) (Token, error)
	// Broker mints the App's installation token through the broker
	// workflow, dispatched with the person's token (see Broker.Mint).
	// nil means no broker can be reached from here.
	Broker func(ctx context.Context, human Token) (Token, error)
	// Secret reads a secret by name from the secrets store (the OS
	// keyring); nil means there is none.
	Secret func(ctx context.Context, name string) (string, error)
}

// Choice is the identity Bot would use, without fetching any token: what
// `aayu auth` shows and what decides the human-fallback trailer.
// AAYU_BOT_TOKEN comes first; then the configured identity (BotIdentity).
func (r Resolver) Choice() BotChoice {
	c := BotIdentity(r.Identity)
	if r.Getenv != nil && strings.TrimSpace(r.Getenv(BotTokenVariable)) != "" {
		switch c.Kind {
		case BotApp, BotMachineUser:
		default:
			c.Kind, c.Login = BotToken, ""
			if r.Identity.AppSlug != "" {
				c.Kind, c.Login = BotApp, r.Identity.AppSlug+"[bot]"
			} else if r.Identity.MachineUser != "" {
				c.Kind, c.Login = BotMachineUser, r.Identity.MachineUser
			}
		}
		c.Trailer, c.Source = "", SourceBotEnv
		c.Why = "agents write with the bot token in " + BotTokenVariable + "; aayu never reads the person's token for their writes"
		return c
	}
	switch c.Kind {
	case BotApp:
		c.Source = SourceBroker
	case BotMachineUser:
		c.Source = SourceMachineUser
	default:
		c.Source = SourceFallback
	}
	return c
}

// Bot finds the token agent lanes write with, in the seed's order:
// AAYU_BOT_TOKEN; the App's installation token from the broker; the
// machine user's token from the secrets store; and, only when none of
// them is configured, the person's token with the human-fallback trailer
// (today's solo mode). A configured identity that fails is an error, never
// a silent fall to the person's token.
func (r Resolver) Bot(ctx context.Context) (Token, BotChoice, error) {
	c := r.Choice()
	switch c.Source {
	case SourceBotEnv:
		return NewToken(strings.TrimSpace(r.Getenv(BotTokenVariable)), SourceBotEnv), c, nil
	case SourceBroker:
		if r.Broker == nil || r.Human == nil {
			return Token{}, c, fmt.Errorf("%w: the App is configured with the broker %s, but no broker can be reached from here; set %s", ErrNoBotToken, r.Identity.Broker, BotTokenVariable)
		}
		human, err := r.Human(ctx)
		if err != nil {
			return Token{}, c, fmt.Errorf("the broker is dispatched with the person's token: %w", err)
		}
		tok, err := r.Broker(ctx, human)
		if err != nil {
			return Token{}, c, fmt.Errorf("getting the App's token from the broker %s: %w", r.Identity.Broker, err)
		}
		return tok, c, nil
	case SourceMachineUser:
		name := r.Identity.MachineUserSecret
		if r.Secret == nil {
			return Token{}, c, fmt.Errorf("%w: no secrets store to read %s from", ErrNoBotToken, name)
		}
		v, err := r.Secret(ctx, name)
		if err != nil {
			return Token{}, c, fmt.Errorf("reading the machine user's token %s: %w", name, err)
		}
		if v = strings.TrimSpace(v); v == "" {
			return Token{}, c, fmt.Errorf("%w: the secret %s holds no token for the machine user %s", ErrNoBotToken, name, r.Identity.MachineUser)
		}
		return NewToken(v, SourceMachineUser+" ("+KeyringService+"/"+name+")"), c, nil
	}
	if r.Human == nil {
		return Token{}, c, ErrNoToken
	}
	tok, err := r.Human(ctx)
	return tok, c, err
}

// KeyringSecret reads any aayu secret by name from the OS keyring within
// timeout, as KeyringToken reads the person's (nil get means the real
// keyring). A missing secret reads as empty.
func KeyringSecret(get func(service, user string) (string, error), timeout time.Duration) func(ctx context.Context, name string) (string, error) {
	return func(ctx context.Context, name string) (string, error) {
		g := get
		if g == nil {
			g = keyring.Get
		}
		read := KeyringToken(func(service, _ string) (string, error) { return g(service, name) }, timeout)
		return read(ctx)
	}
}
