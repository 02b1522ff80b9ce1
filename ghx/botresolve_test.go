package ghx

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// botStage records which sources Resolver.Bot consulted.
type botStage struct {
	env      map[string]string
	human    string
	broker   string
	brokerFn error
	secret   map[string]string
	asked    []string
}

func (s *botStage) resolver(cfg IdentityConfig) Resolver {
	return Resolver{
		Getenv:   func(k string) string { return s.env[k] },
		Identity: cfg,
		Human: func(context.Context) (Token, error) {
			s.asked = append(s.asked, "human")
			if s.human == "" {
				return Token{}, ErrNoToken
			}
			return NewToken(s.human, "AAYU_GITHUB_TOKEN"), nil
		},
		Broker: func(_ context.Context, human Token) (Token, error) {
			s.asked = append(s.asked, "broker with "+human.Source())
			if s.brokerFn != nil {
				return Token{}, s.brokerFn
			}
			return NewToken(s.broker, SourceBroker), nil
		},
		Secret: func(_ context.Context, name string) (string, error) {
			s.asked = append(s.asked, "secret "+name)
			return s.secret[name], nil
		},
	}
}

// TestResolverBotOrder: AAYU_BOT_TOKEN first, then the broker (dispatched
// with the person's token), then the machine user's secret, and the
// person's token with the human-fallback trailer only when nothing is
// configured.
func TestResolverBotOrder(t *testing.T) {
	t.Parallel()
	app := IdentityConfig{AppSlug: "aayudha", Broker: "aayudha-token.yml", MachineUser: "acme-bot", MachineUserSecret: "acme-bot-token"}
	machine := IdentityConfig{MachineUser: "acme-bot", MachineUserSecret: "acme-bot-token"}
	cases := []struct {
		name    string
		cfg     IdentityConfig
		env     map[string]string
		value   string
		kind    string
		source  string
		trailer string
		asked   string
	}{
		{"AAYU_BOT_TOKEN wins over the broker", app, map[string]string{BotTokenVariable: "ghs_env"}, "ghs_env", BotApp, SourceBotEnv, "", ""},
		{"AAYU_BOT_TOKEN with nothing configured", IdentityConfig{}, map[string]string{BotTokenVariable: "ghs_env"}, "ghs_env", BotToken, SourceBotEnv, "", ""},
		{"the broker, with the person's token", app, nil, "ghs_broker", BotApp, SourceBroker, "", "human,broker with AAYU_GITHUB_TOKEN"},
		{"the machine user's secret", machine, nil, "ghp_machine", BotMachineUser, SourceMachineUser, "", "secret acme-bot-token"},
		{"solo mode: the person's token, tagged", IdentityConfig{}, nil, "ghp_person", BotHumanFallback, SourceFallback, HumanFallbackTrailer, "human"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &botStage{env: c.env, human: "ghp_person", broker: "ghs_broker", secret: map[string]string{"acme-bot-token": "ghp_machine"}}
			tok, choice, err := s.resolver(c.cfg).Bot(context.Background())
			if err != nil {
				t.Fatalf("Bot: %v", err)
			}
			if tok.Reveal() != c.value || choice.Kind != c.kind || choice.Source != c.source || choice.Trailer != c.trailer {
				t.Errorf("Bot = %v %+v, want %s kind %s source %s trailer %q", tok, choice, c.value, c.kind, c.source, c.trailer)
			}
			if got := strings.Join(s.asked, ","); got != c.asked {
				t.Errorf("consulted %q, want %q", got, c.asked)
			}
		})
	}
}

// TestResolverBotRefusesToFallBackWhenConfigured: a configured bot that
// gives no token is an error, never the person's token: the configuration
// says agents must not write as the person.
func TestResolverBotRefusesToFallBackWhenConfigured(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		cfg  IdentityConfig
		mod  func(*botStage, *Resolver)
	}{
		{"broker fails", IdentityConfig{AppSlug: "aayudha", Broker: "aayudha-token.yml"}, func(s *botStage, _ *Resolver) { s.brokerFn = errors.New("run failed") }},
		{"no broker reachable", IdentityConfig{AppSlug: "aayudha", Broker: "aayudha-token.yml"}, func(_ *botStage, r *Resolver) { r.Broker = nil }},
		{"machine user's secret empty", IdentityConfig{MachineUser: "acme-bot", MachineUserSecret: "acme-bot-token"}, func(s *botStage, _ *Resolver) { s.secret = nil }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &botStage{human: "ghp_person", secret: map[string]string{}}
			r := s.resolver(c.cfg)
			c.mod(s, &r)
			tok, _, err := r.Bot(context.Background())
			if err == nil || !tok.IsZero() {
				t.Fatalf("Bot = %v, %v; want an error and no token", tok, err)
			}
			if strings.Contains(fmt.Sprint(err), "ghp_person") {
				t.Errorf("the error names the person's token: %v", err)
			}
		})
	}
}
