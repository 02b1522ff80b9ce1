package cli

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/aayudha/aayu/actions/loops"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/tui"
)

// runLoops is `aayu loops --ci`, aayudha-loops.yml's step: the bot App's
// token (AAYU_BOT_TOKEN, minted by the workflow) recomputes each layer's
// streak from the ledger's samples, lists the housekeeping the inbox shows
// (a Story merged without ship, a Bug whose fix merged) and lands both. It
// never runs outside CI and never as a person: without the App's token
// nothing is written.
func (w wiring) runLoops() int {
	e, sess := w.e, w.sess
	if !w.inv.Global.CI {
		fmt.Fprintln(e.stderr, "aayu loops: refused: the loops run in CI as the bot App (aayudha-loops.yml runs aayu loops --ci); a person has nothing to run here. Nothing was done.")
		return tui.ExitRefused
	}
	if sess.owner == "" {
		if r := e.getenv("GITHUB_REPOSITORY"); r != "" {
			sess.owner, sess.repo, _ = strings.Cut(r, "/")
		}
	}
	if sess.owner == "" {
		fmt.Fprintln(e.stderr, "aayu loops: "+whichRepository)
		return tui.ExitUsage
	}
	tok := strings.TrimSpace(e.getenv("AAYU_BOT_TOKEN"))
	if tok == "" {
		fmt.Fprintln(e.stderr, "aayu loops: refused: no App token in AAYU_BOT_TOKEN (the workflow mints it from AAYUDHA_APP_CLIENT_ID and AAYUDHA_APP_PRIVATE_KEY); the loops write the ledger only as the bot. Nothing was done.")
		return tui.ExitRefused
	}
	gh, err := sess.client(ghx.NewToken(tok, "AAYU_BOT_TOKEN"))
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu loops: %v\n", err)
		return tui.ExitFailed
	}
	user, _, err := gh.Users.Get(w.ctx, "")
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu loops: could not read which account the App's token is: %s. Nothing was done.\n", ghx.Describe(err))
		return tui.ExitFailed
	}
	res, err := loops.Run(w.ctx, gh, sess.owner, sess.repo, user.GetLogin(), time.Now())
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu loops: %s\n", tui.SanitizeLine(err.Error()))
		return tui.ExitFailed
	}
	layers := make([]string, 0, len(res.Streaks.Layers))
	for l := range res.Streaks.Layers {
		layers = append(layers, l)
	}
	sort.Strings(layers)
	for _, l := range layers {
		fmt.Fprintf(e.stdout, "streak %s: %d\n", tui.SanitizeLine(l), res.Streaks.Layers[l])
	}
	for _, h := range res.Housekeeping {
		fmt.Fprintf(e.stdout, "housekeeping: %s\n", h.Words())
	}
	if len(res.Housekeeping) == 0 {
		fmt.Fprintln(e.stdout, "housekeeping: nothing waits (no Story merged without ship, no Bug whose fix merged).")
	}
	if res.Commit == "" {
		fmt.Fprintf(e.stdout, "the ledger already holds these streaks from these %d samples and this housekeeping; nothing written.\n", res.Streaks.Samples)
		return tui.ExitOK
	}
	fmt.Fprintf(e.stdout, "wrote %s on the ledger (commit %s) as %s, from %d samples.\n", strings.Join(res.Wrote, " and "), gitsha.Short(res.Commit), tui.SanitizeLine(user.GetLogin()), res.Streaks.Samples)
	return tui.ExitOK
}

// loopsCommand is aayu loops's table entry and run.
func loopsCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "loops",
			Group: "ci",
			Short: "the scheduled loops: each layer's streak and the housekeeping waiting, landed on the ledger as the bot (CI)",
			Long: "aayudha-loops.yml's step, as the bot App (AAYU_BOT_TOKEN): recompute each layer's correction-free streak from " +
				"autonomy/samples.jsonl by ship's own rule, list the housekeeping the inbox shows (a Story merged without ship, a Bug whose fix merged) by the inbox's own rule, " +
				"and land them as autonomy/streaks.json and autonomy/housekeeping.json on the ledger. It writes nothing on issues or pull requests and takes no human-only step.",
			Example: "aayu loops --ci --repo acme/benefits",
		},
		run:   func(w wiring) int { return w.runLoops() },
		token: never,
	}
}
