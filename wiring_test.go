package main

import (
	"context"
	"reflect"
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
