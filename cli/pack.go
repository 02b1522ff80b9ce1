package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/proof/attest"
	"github.com/aayudha/aayu/screens/pack"
	"github.com/aayudha/aayu/tui"
)

// packScreen wires `aayu pack DIR` (a local folder, checked against the
// facts given by --ready and --head) and `aayu pack STORY` (the story's best
// pack on the ledger, with its local pack and the gate's run artifact one
// key away).
func (w wiring) packScreen() (tui.Screen, error) {
	ctx, inv, cfg, common := w.ctx, w.inv, w.cfg, w.common
	arg := inv.Args[0]
	if fi, err := os.Stat(arg); err == nil && fi.IsDir() {
		floors := proof.FloorsFrom(cfg)
		return pack.New(ctx, common, pack.Options{Dir: arg, ReadyFile: inv.Flags["ready"], Head: inv.Flags["head"],
			RequiredFloors: floors.Required, CoverageThreshold: floors.CoverageThreshold}), nil
	}
	story, err := strconv.Atoi(strings.TrimPrefix(arg, "#"))
	if err != nil || story <= 0 {
		return nil, openErr(tui.ExitUsage, "%s is neither a pack folder nor a story number. Nothing was done.", tui.SanitizeLine(arg))
	}
	return w.storyPackScreen(story)
}

// runPackStatement is `aayu pack DIR --statement`: the folder's pack.json
// as the in-toto Statement the merge gate attests, on standard output. It
// reads only pack.json; whether the pack verifies is the viewer's question.
func (w wiring) runPackStatement() int {
	e, dir := w.e, w.inv.Args[0]
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		fmt.Fprintf(e.stderr, "aayu pack --statement: %s is not a pack folder. Nothing was done.\n", tui.SanitizeLine(dir))
		return tui.ExitUsage
	}
	raw, err := proof.ReadFileCapped(filepath.Join(dir, "pack.json"), proof.DefaultPackJSONBytes)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu pack --statement: %s\n", tui.SanitizeLine(err.Error()))
		return tui.ExitRefused
	}
	out, err := attest.StatementJSON(raw)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu pack --statement: %s\n", tui.SanitizeLine(err.Error()))
		return tui.ExitRefused
	}
	_, _ = e.stdout.Write(out)
	return tui.ExitOK
}

// storyPackScreen is the pack viewer of a Story's best pack on the ledger:
// `aayu pack STORY`, and p on an inbox card.
func (w wiring) storyPackScreen(story int) (tui.Screen, error) {
	ctx, inv, e, cfg, sess, common := w.ctx, w.inv, w.e, w.cfg, w.sess, w.common
	if sess.owner == "" {
		return nil, openErr(tui.ExitUsage, whichRepository)
	}
	// An agent lane's ledger writes go under the bot (writeToken).
	tok, err := w.writeToken(ctx)
	if err != nil {
		return nil, openErr(tui.ExitFailed, "%v\nNothing was done.", err)
	}
	gh, err := sess.client(tok)
	if err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "aayu-pack-*")
	if err != nil {
		return nil, err
	}
	var log *actions.Log
	if d, err := actions.DefaultLogDir(e.getenv); err == nil {
		log = actions.OpenLog(d, nil)
	}
	floors := proof.FloorsFrom(cfg)
	opts := pack.StoryFromLedger(pack.LedgerConfig{
		Client: gh, Owner: sess.owner, Repo: sess.repo, Story: story, WorkDir: work,
		CI: inv.Global.CI, MediaBucket: cfg.String("proof.media"), Log: log,
		RequiredFloors:    floors.Required,
		CoverageThreshold: floors.CoverageThreshold,
		Trailers:          w.fallbackTrailers(),
	})
	opts.OnClose = func() { _ = os.RemoveAll(work) }
	return pack.NewStory(ctx, common, opts), nil
}

// packCommand is aayu pack's table entry and run.
func packCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "pack",
			Group: "daily",
			Arg:   "STORY or DIR",
			Short: "best pack of a story on the ledger, or a local pack folder",
			Long: "The pack viewer: the best proof pack of a Story on the ledger (its newest authoritative pack, " +
				"else its newest advisory one), or a pack folder on disk, verified as ship verifies it.\n" +
				"A folder's checks that need outside facts take them from --ready and --head.",
			Example: "aayu pack 131\n" +
				"aayu pack ./aayudha-pack --ready ready.md --head 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b\n" +
				"# the pack as an in-toto Statement v1 (what the merge gate attests)\n" +
				"aayu pack ./aayudha-pack --statement",
			Flags: []tui.FlagDef{
				{Name: "statement", Usage: "print a local pack folder's pack.json as an in-toto Statement v1 and exit"},
				{Name: "ready", Value: "FILE", Usage: "the Ready snapshot FILE to check a local pack folder against"},
				{Name: "head", Value: "SHA", Usage: "the pull request's current head SHA, for a local pack folder"},
			},
		},
		run: func(w wiring) int {
			if w.inv.Flags["statement"] == "true" {
				return w.runPackStatement()
			}
			return w.runScreen(w.packScreen)
		},
		token:   func(inv tui.Invocation) bool { return !localPack(inv) },
		offline: localPack,
	}
}

// localPack reports `aayu pack DIR`: a pack folder on this machine, checked
// against the facts its flags give. It needs no GitHub, no token and no
// repository, so nothing is looked up for it (not even the checkout's
// origin, two runs of git before the first artifact is read).
func localPack(inv tui.Invocation) bool {
	if len(inv.Args) == 0 {
		return false
	}
	fi, err := os.Stat(inv.Args[0])
	return err == nil && fi.IsDir()
}
