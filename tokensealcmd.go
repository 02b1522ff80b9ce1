package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// Where the broker's workflow hands aayu token seal its inputs: through
// env:, never inside run: (templates/aayudha-token.yml).
const (
	sealTokenVar     = "AAYUDHA_APP_TOKEN"
	sealPublicKeyVar = "AAYUDHA_PUBLIC_KEY"
	sealRequestIDVar = "AAYUDHA_REQUEST_ID"
)

// runTokenSeal is `aayu token seal --ci --out FILE`, the broker's one aayu
// step: it seals the App's installation token, just minted in this run, to
// the requester's one-time age key (ghx.SealBrokerToken). It runs only
// inside an Actions run, never in an agent lane, and writes nothing to the
// terminal but what went wrong, never the token.
func (w wiring) runTokenSeal() int {
	ctx, inv, e, sess := w.ctx, w.inv, w.e, w.sess
	fail := func(code int, format string, args ...any) int {
		fmt.Fprintf(e.stderr, "aayu token seal: "+format+"\nNothing was sealed.\n", args...)
		return code
	}
	out := inv.Flags["out"]
	switch {
	case !inv.Global.CI || out == "":
		return fail(tui.ExitUsage, "the token broker's step; it needs --ci and --out FILE, inside the broker's workflow run.")
	case e.getenv("GITHUB_ACTIONS") != "true":
		return fail(tui.ExitRefused, "it runs only inside the broker's GitHub Actions run (GITHUB_ACTIONS is not \"true\").")
	}
	if lane, marker := identity.AgentLane(e.getenv); lane {
		return fail(tui.ExitRefused, "refused in an agent lane (%s is set): the broker's token is sealed only inside the broker's workflow.", marker)
	}
	tok := ghx.NewToken(e.getenv(sealTokenVar), sealTokenVar)
	if tok.IsZero() {
		return fail(tui.ExitFailed, "%s is empty: the step before it minted no token.", sealTokenVar)
	}
	gh, err := sess.client(tok)
	if err != nil {
		return fail(tui.ExitFailed, "%v", err)
	}
	var sealed bytes.Buffer
	if err := ghx.SealBrokerToken(ctx, gh, tok, e.getenv(sealPublicKeyVar), e.getenv(sealRequestIDVar), &sealed); err != nil {
		return fail(tui.ExitFailed, "%s", tui.SanitizeLine(err.Error()))
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o700); err != nil {
		return fail(tui.ExitFailed, "%v", err)
	}
	if err := os.WriteFile(out, sealed.Bytes(), 0o600); err != nil {
		return fail(tui.ExitFailed, "%v", err)
	}
	fmt.Fprintf(e.stdout, "sealed the App's installation token for request %s to its one-time key\n", tui.SanitizeLine(e.getenv(sealRequestIDVar)))
	return tui.ExitOK
}
