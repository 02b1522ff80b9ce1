package main

import (
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
