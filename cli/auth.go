package cli

import (
	"github.com/aayudha/aayu/screens/auth"
	"github.com/aayudha/aayu/tui"
)

// authCommand is aayu auth's table entry and run.
func authCommand() command {
	return command{
		def: tui.CommandDef{
			Name:    "auth",
			Group:   "setup",
			Short:   "where each token comes from; never a token's value",
			Example: "aayu auth",
		},
		run:        screenRun(wiring.authScreen),
		allSources: true,
	}
}

// authScreen says where each token comes from.
func (w wiring) authScreen() (tui.Screen, error) {
	return auth.New(w.ctx, w.common, auth.Deps{
		Resolve: w.sess.resolve, Client: w.sess.client, APIURL: w.sess.apiURL,
		Bot: w.botResolver().Choice(),
	}), nil
}
