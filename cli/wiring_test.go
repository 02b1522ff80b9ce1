package cli

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/model/identity"
)

// TestFallbackTrailersOnlyForAnAgentLaneUnderThePersonsToken: the
// human-fallback tag goes on ledger commits an agent lane makes when no bot
// identity is configured; a person's own push, or an agent with a machine
// user, is not tagged.
func TestFallbackTrailersOnlyForAnAgentLaneUnderThePersonsToken(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		env  map[string]string
		set  []string
		want []string
	}{
		{"agent lane, solo mode", map[string]string{identity.AgentVariable: "1"}, nil, []string{ghx.HumanFallbackTrailer}},
		{"a person", map[string]string{}, nil, nil},
		{"agent lane with AAYU_BOT_TOKEN", map[string]string{identity.AgentVariable: "1", ghx.BotTokenVariable: "ghs_bot"}, nil, nil},
		{"agent lane with a machine user", map[string]string{identity.AgentVariable: "1", "AAYU_MACHINE_TOKEN": "x"},
			[]string{"identity.machine_user=acme-bot", "identity.machine_user_secret=AAYU_MACHINE_TOKEN"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			getenv := func(k string) string { return c.env[k] }
			cfg, err := config.Load(config.Sources{Set: c.set})
			if err != nil {
				t.Fatal(err)
			}
			w := wiring{e: env{getenv: getenv}, cfg: cfg}
			if got := w.fallbackTrailers(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// TestAgentLaneWritesUnderTheBot: an agent lane's writes go out with
// AAYU_BOT_TOKEN, never the person's token; a person writes with their own;
// an agent lane in solo mode keeps the person's token (tagged, above).
func TestAgentLaneWritesUnderTheBot(t *testing.T) {
	t.Parallel()
	person := ghx.NewToken("ghp_person", "AAYU_GITHUB_TOKEN")
	sess := &session{resolve: func(context.Context) (ghx.Token, []ghx.SourceStatus, error) { return person, nil, nil }}
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"agent lane with a bot token", map[string]string{identity.AgentVariable: "1", ghx.BotTokenVariable: "ghs_bot"}, "ghs_bot"},
		{"a person, even with a bot token around", map[string]string{ghx.BotTokenVariable: "ghs_bot"}, "ghp_person"},
		{"agent lane in solo mode", map[string]string{identity.AgentVariable: "1"}, "ghp_person"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := config.Load(config.Sources{})
			if err != nil {
				t.Fatal(err)
			}
			w := wiring{e: env{getenv: func(k string) string { return c.env[k] }}, cfg: cfg, sess: sess}
			tok, err := w.writeToken(context.Background())
			if err != nil || tok.Reveal() != c.want {
				t.Errorf("writeToken = %v, %v; want the token %s", tok, err, c.want)
			}
		})
	}
}

// TestBatchAgentTokenIsTheConfiguredBotNotOnlyAAYUBotToken: the batch
// comment is posted with Resolver.Bot's token — the broker's when the App
// is configured, the machine user's from the secrets store — untagged; the
// person's token, tagged human-fallback, only when no bot is configured;
// and a configured bot that gives no token stops the batch.
func TestBatchAgentTokenIsTheConfiguredBotNotOnlyAAYUBotToken(t *testing.T) {
	t.Parallel()
	person := ghx.NewToken("ghp_person", "AAYU_GITHUB_TOKEN")
	sess := &session{owner: "acme", repo: "benefits", resolve: func(context.Context) (ghx.Token, []ghx.SourceStatus, error) { return person, nil, nil }}
	app := []string{"identity.app_slug=aayudha", "identity.app_id=7", "identity.broker=aayudha-token.yml"}
	machine := []string{"identity.machine_user=acme-bot", "identity.machine_user_secret=acme-bot-token"}
	cases := []struct {
		name     string
		env      map[string]string
		set      []string
		broker   error
		want     string
		trailers []string
		fails    bool
	}{
		{"AAYU_BOT_TOKEN", map[string]string{ghx.BotTokenVariable: "ghs_env"}, app, nil, "ghs_env", nil, false},
		{"the broker's App token", nil, app, nil, "ghs_broker", nil, false},
		{"the machine user's token", nil, machine, nil, "ghp_machine", nil, false},
		{"solo mode: the person's, tagged", nil, nil, nil, "ghp_person", []string{ghx.HumanFallbackTrailer}, false},
		{"a broker that fails stops the batch", nil, app, errors.New("run failed"), "", nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := config.Load(config.Sources{Set: c.set})
			if err != nil {
				t.Fatal(err)
			}
			w := wiring{e: env{getenv: func(k string) string { return c.env[k] }}, cfg: cfg, sess: sess}
			r := w.botResolver()
			r.Secret = func(_ context.Context, name string) (string, error) {
				if name == "acme-bot-token" {
					return "ghp_machine", nil
				}
				return "", nil
			}
			r.Broker = func(_ context.Context, human ghx.Token) (ghx.Token, error) {
				if human.Reveal() != "ghp_person" {
					t.Errorf("the broker was dispatched with %v, want the person's token", human)
				}
				if c.broker != nil {
					return ghx.Token{}, c.broker
				}
				return ghx.NewToken("ghs_broker", ghx.SourceBroker), nil
			}
			tok, trailers, err := agentTokenFrom(context.Background(), r)
			if c.fails {
				if err == nil || !tok.IsZero() || strings.Contains(err.Error(), "ghp_person") {
					t.Fatalf("agentToken = %v, %v; want an error naming no token", tok, err)
				}
				return
			}
			if err != nil || tok.Reveal() != c.want || !reflect.DeepEqual(trailers, c.trailers) {
				t.Errorf("agentToken = %v %v, %v; want %s %v", tok, trailers, err, c.want, c.trailers)
			}
		})
	}
}
