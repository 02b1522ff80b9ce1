package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/actions/gatecomment"
	"github.com/aayudha/aayu/actions/protected"
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
		return nil, openErr(tui.ExitUsage, "which repository? Give --repo OWNER/NAME (or --sandbox for the demo). Nothing was done.")
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

// runComment is `aayu comment PR --ci`: the merge gate's one comment on the
// pull request. It writes nothing to the ledger, and refuses to run outside
// CI so a person never posts the gate's comment under their own name.
func (w wiring) runComment() int {
	ctx, inv, e, sess := w.ctx, w.inv, w.e, w.sess
	pr, err := strconv.Atoi(strings.TrimPrefix(inv.Args[0], "#"))
	if err != nil || pr <= 0 || sess.owner == "" || !inv.Global.CI {
		fmt.Fprintln(e.stderr, "aayu comment PR --ci --repo OWNER/NAME: the merge gate's step; it needs --ci, a repository and a pull request number. Nothing was done.")
		return tui.ExitUsage
	}
	tok, refusal := ciCommentToken(inv, e.getenv)
	if refusal != "" {
		fmt.Fprintf(e.stderr, "%s\nNothing was sent to GitHub.\n", refusal)
		return tui.ExitRefused
	}
	if inv.Global.DryRun {
		var err error
		if tok, _, err = sess.resolve(ctx); err != nil {
			fmt.Fprintf(e.stderr, "aayu comment: %v\nNothing was done.\n", err)
			return tui.ExitFailed
		}
	}
	gh, err := sess.client(tok)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu comment: %v\n", err)
		return tui.ExitFailed
	}
	if !inv.Global.DryRun {
		refusal, err := ciRunRefusal(ctx, gh, sess.owner, sess.repo, e.getenv)
		if err != nil {
			fmt.Fprintf(e.stderr, "aayu comment: %s\nNothing was written.\n", tui.SanitizeLine(err.Error()))
			return tui.ExitFailed
		}
		if refusal != "" {
			fmt.Fprintf(e.stderr, "%s\nNothing was written.\n", refusal)
			return tui.ExitRefused
		}
	}
	code, body, err := gatecomment.Run(ctx, gatecomment.Config{Client: gh, Owner: sess.owner, Repo: sess.repo, PR: pr, Dir: inv.Flags["dir"],
		Getenv: e.getenv, Preview: inv.Global.DryRun, WorkflowOnly: true, SetStatus: !inv.Global.DryRun, TrustedRoot: w.trustedRoot})
	fmt.Fprint(e.stdout, body)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu comment: %v\n", err)
	}
	if inv.Global.DryRun && err == nil {
		fmt.Fprintln(e.stderr, "aayu comment --dry-run: a preview; nothing was posted.")
	}
	return code
}

// runProtected is `aayu protected PR --ci`: the protected-paths gate's step
// in the workflow init proposes. Like comment, it is CI's, never a person's.
func (w wiring) runProtected() int {
	ctx, inv, e, sess := w.ctx, w.inv, w.e, w.sess
	pr, err := strconv.Atoi(strings.TrimPrefix(inv.Args[0], "#"))
	if err != nil || pr <= 0 || sess.owner == "" || !inv.Global.CI {
		fmt.Fprintln(e.stderr, "aayu protected PR --ci --repo OWNER/NAME: the protected-paths gate's step; it needs --ci, a repository and a pull request number. Nothing was done.")
		return tui.ExitUsage
	}
	tok, _, err := sess.resolve(ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu protected: %v\n", err)
		return tui.ExitFailed
	}
	gh, err := sess.client(tok)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu protected: %v\n", err)
		return tui.ExitFailed
	}
	code, lines, err := protected.Check(ctx, gh, sess.owner, sess.repo, pr)
	for _, l := range lines {
		fmt.Fprintln(e.stdout, tui.SanitizeLine(l))
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu protected: %s\n", tui.SanitizeLine(err.Error()))
	}
	return code
}
