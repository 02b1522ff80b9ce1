package inboxread_test

import (
	"reflect"
	"testing"

	"github.com/aayudha/aayu/ghx/inboxread"
)

func TestParseSettings(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		toml string
		want inboxread.Settings
		bad  bool
	}{
		{"no file: defaults, solo", "", inboxread.Settings{IntegrationBranch: "dev", SoloMode: true}, false},
		{"approver and branch", "[autonomy]\napprover = \"founder\"\nintegration_branch = \"next\"\n",
			inboxread.Settings{IntegrationBranch: "next", Approver: "founder", SoloMode: true}, false},
		{"bot logins end solo mode (SPEC §9)", "[identity]\nbot_logins = [\"agent-bot[bot]\"]\n",
			inboxread.Settings{IntegrationBranch: "dev", BotLogins: []string{"agent-bot[bot]"}}, false},
		{"an App ends solo mode", "[identity]\napp_id = 42\napp_slug = \"aayudha\"\n", inboxread.Settings{IntegrationBranch: "dev"}, false},
		{"a machine user ends solo mode", "[identity]\nmachine_user = \"acme-bot\"\n", inboxread.Settings{IntegrationBranch: "dev"}, false},
		{"the device client id alone stays solo", "[identity]\ndevice_client_id = \"Iv1.x\"\n", inboxread.Settings{IntegrationBranch: "dev", SoloMode: true}, false},
		{"malformed TOML", "[autonomy\napprover = ", inboxread.Settings{}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := inboxread.ParseSettings([]byte(c.toml))
			if (err != nil) != c.bad {
				t.Fatalf("error %v, want error: %v", err, c.bad)
			}
			if !c.bad && !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}
