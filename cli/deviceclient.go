package cli

import (
	"github.com/aayudha/aayu/ghx"
)

// deviceClient finds the presence check's App (SPEC §6): local
// config, the repository's config, its AAYUDHA_DEVICE_CLIENT_ID variable,
// else the default the README names — the sandbox's own client under
// --sandbox, none on GitHub (aayu init helps create one).
func (w wiring) deviceClient() ghx.DeviceClient {
	ctx, inv, cfg, sess := w.ctx, w.inv, w.cfg, w.sess
	l := ghx.DeviceClientLookup{Local: cfg.String("identity.device_client_id"), Owner: sess.owner, Repo: sess.repo}
	switch {
	case inv.Global.Sandbox:
		l.Default, l.DefaultFrom = sandboxClientID, "the sandbox's own device client"
	case w.newClientID != "":
		// The App being named proves itself: the person approves a code it
		// issues before its name is written. An App already named still
		// comes first, so replacing it needs the current App's approval.
		l.Default, l.DefaultFrom = w.newClientID, "the --client-id given to aayu init"
	}
	if l.Local == "" && sess.owner != "" {
		// Never a token prompt just for this: without a token the lookup
		// falls through to the default, and login says what to set.
		if tok, err := sess.resolveQuiet(ctx); err == nil {
			if gh, err := sess.client(tok); err == nil {
				l.Client = gh
			}
		}
	}
	return ghx.FindDeviceClient(ctx, l)
}
