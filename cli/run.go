package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/model/identity"

	"github.com/aayudha/aayu/tui"
)

// Env is everything aayu takes from its process: main passes the real
// streams and variables; tests pass their own.
type Env struct {
	Stdin            io.Reader
	Stdout, Stderr   io.Writer
	Getenv           func(string) string
	Environ          []string
	StdoutIsTerminal bool
	StdinIsTerminal  bool
	TTYIn            *os.File // standard input when it is a terminal, for the token prompt
	// Signals routes SIGINT, SIGTERM and SIGHUP to the running screen as a
	// quit request; nil (tests in-process) keeps Bubble Tea's handler.
	Signals *tui.Signals
}

// Run is aayu from arguments to exit code.
func Run(ctx context.Context, args []string, e Env) int {
	return run(ctx, args, env{
		stdin: e.Stdin, stdout: e.Stdout, stderr: e.Stderr,
		getenv: e.Getenv, environ: e.Environ,
		stdoutIsTerminal: e.StdoutIsTerminal, stdinIsTerminal: e.StdinIsTerminal,
		ttyIn: e.TTYIn, signals: e.Signals,
	})
}

// env is everything run takes from the process, so tests can run aayu
// in-process with their own streams and variables.
type env struct {
	stdin            io.Reader
	stdout, stderr   io.Writer
	getenv           func(string) string
	environ          []string
	stdoutIsTerminal bool
	stdinIsTerminal  bool
	ttyIn            *os.File // standard input when it is a terminal, for the token prompt
	// lines is the process's one reader of plain input, shared by every
	// screen this run opens, so no typed line is lost between screens.
	lines *tui.LineReader
	// signals routes SIGINT, SIGTERM and SIGHUP to the running screen as a
	// quit request; nil (tests in-process) keeps Bubble Tea's handler.
	signals *tui.Signals
}

// personsTerminal says whether a person can be typing to this process, for
// the rule that refuses a human-only step to a process with neither an
// agent's marker nor a terminal: a terminal on standard input is the
// person's, wherever the output goes (through tee into a transcript, say).
// Whether the screen is full or plain is decided apart, from the output.
func (e env) personsTerminal() bool { return e.stdinIsTerminal }

// run is aayu from arguments to exit code.
func run(ctx context.Context, args []string, e env) int {
	if e.lines == nil {
		e.lines = tui.NewLineReader(e.stdin)
	}
	// Help pages, --version, completion scripts, the man page and usage
	// errors are printed here and end the run.
	inv, code, done := tui.Execute(ctx, args, tui.CLI{
		Stdout: e.stdout, Stderr: e.stderr, ConfigPath: userConfigPath(e.getenv),
	})
	if done {
		return code
	}
	cfg, src, err := loadConfig(inv, e)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu: the configuration could not be read: %v\nNothing was done. Fix the file or flag named above and run aayu again.\n", err)
		return tui.ExitUsage
	}
	plain, _ := tui.DecidePlain(inv.Global.Plain || inv.Global.CI, cfg.Bool("ui.plain"), e.getenv, e.stdoutIsTerminal)
	common := tui.Common{
		Width: 80, Height: 24,
		Styles: tui.NewStyles(true),
		Plain:  plain,
		Motion: tui.Motion(cfg.Bool("ui.motion"), plain, e.getenv),
		CI:     inv.Global.CI,
	}
	if !plain {
		// Plain mode copies nothing: it prints the link instead.
		common.Clipboard = tui.Clipboard{Native: tui.NativeClipboard, InTmux: tui.InTmux(e.getenv)}
	}

	if inv.Command == "sandbox" {
		return runSandbox(ctx, inv, e)
	}
	if code, done := refuseAayuLane(inv, e); done {
		return code
	}
	sess, err := openSession(ctx, inv, e)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu: %v\nNothing was done.\n", err)
		return tui.ExitFailed
	}
	defer sess.close()
	if e.stdinIsTerminal && needsToken(inv) {
		// A token prompt, when it comes to that, must read the terminal
		// before a screen takes it over.
		_, _, _ = sess.resolve(ctx)
	}

	w := wiring{ctx: ctx, inv: inv, e: e, cfg: cfg, sess: sess, common: common, src: src}
	switch inv.Command {
	case "inbox":
		if inv.Flags["json"] != "" {
			return w.runInboxJSON()
		}
		return w.runInbox()
	case "comment":
		return w.runComment()
	case "token seal":
		return w.runTokenSeal()
	case "init":
		if inv.Flags["bot-app"] == "true" {
			return w.runInitBotApp()
		}
		if presenceAppHere(inv, e.getenv) {
			return w.runInitPresenceApp()
		}
	case "verify":
		if inv.Flags["raw-out"] != "" {
			return w.runVerifyRaw()
		}
	case "protected":
		return w.runProtected()
	case "pack":
		if inv.Flags["statement"] == "true" {
			return w.runPackStatement()
		}
	case "next":
		return w.runNext()
	case "decide":
		if lane, _ := identity.AgentLane(e.getenv); lane && !inv.Global.DryRun {
			return w.runDecideBatch()
		}
	case "ready":
		// Freezing a goal is the person's act: an agent lane's command
		// becomes a batch for the person's approval; CI stays refused.
		lane, _ := identity.AgentLane(e.getenv)
		if ci, _, _ := identity.CIRun(e.getenv); lane && !ci && !inv.Global.DryRun && !inv.Global.CI && len(inv.Args) > 0 {
			return w.runReadyBatch()
		}
	case "ship":
		// Merging is the person's act: a host agent's ship (a marker, no
		// terminal) becomes a batch item, checked by ship's own read-only
		// gates. A marked shell with a terminal keeps the presence check
		// (an orb's Terminal tab: a person may be typing there); CI stays
		// refused; aayu's own lane was refused above.
		if ci, _, _ := identity.CIRun(e.getenv); hostBatchLane(e) && !ci && !inv.Global.DryRun && !inv.Global.CI && len(inv.Args) > 0 {
			return w.runShipBatch()
		}
	case "plan":
		// A plan review is the person's act: a host agent's plan (a
		// marker, no terminal) becomes a batch item, applied only as the
		// person's own comment (their reply, or aayu approve HASH at their
		// terminal).
		if ci, _, _ := identity.CIRun(e.getenv); hostBatchLane(e) && !ci && !inv.Global.DryRun && !inv.Global.CI && len(inv.Args) > 0 {
			return w.runPlanBatch()
		}
	case "approve":
		if !w.approveAsScreen() {
			return w.runApprove()
		}
	}
	screen, err := w.screen()
	if err != nil {
		return reportOpen(e, inv.Command, err)
	}

	// Every screen runs as the bottom of a screen stack (tui.Stack), so the
	// ones it opens share its program; Close releases what it was built with.
	if c, ok := screen.(tui.Closer); ok {
		defer c.Close()
	}
	code, err = tui.Run(ctx, screen, runOptions(inv, e, common))
	if err != nil && !errors.Is(err, tui.ErrInterrupted) {
		fmt.Fprintf(e.stderr, "aayu: %v\n", err)
	}
	return code
}

// configSources are the layers read for this run, kept so a screen that
// reads the base branch's file can layer it under them again.
type configSources struct{ sources config.Sources }

// loadConfig layers the user's config file, AAYU_* variables and --set.
// The repository layer joins when a screen reads the base branch.
func loadConfig(inv tui.Invocation, e env) (*config.Config, configSources, error) {
	src := config.Sources{Environ: e.environ, Set: inv.Global.Set}
	if p := userConfigPath(e.getenv); p != "" {
		b, err := readCapped(p, config.MaxTOMLBytes)
		switch {
		case err == nil:
			src.User, src.UserPath = b, p
		case !errors.Is(err, os.ErrNotExist):
			return nil, configSources{}, fmt.Errorf("%s: %w", p, err)
		}
	}
	cfg, err := config.Load(src)
	return cfg, configSources{src}, err
}

func userConfigPath(getenv func(string) string) string {
	if x := getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "aayu", "config.toml")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "aayu", "config.toml")
	}
	return ""
}

// needsToken says whether the command talks to GitHub as the person.
func needsToken(inv tui.Invocation) bool {
	switch inv.Command {
	case "verify":
		// --raw-out runs the tests job's half: no GitHub, no token.
		return inv.Flags["raw-out"] == ""
	case "sandbox", "login", "comment", "token seal":
		// comment --ci takes the workflow's token only (commentci.go).
		return false
	case "approve":
		// approve --ci writes with the App's token (AAYU_BOT_TOKEN) and an
		// agent lane with the bot's: a prompt for the person's is wrong.
		return false
	case "proof push":
		// proof push --ci is refused before any token is read.
		return !inv.Global.CI
	case "pack":
		return !localPack(inv)
	}
	return true
}

// localPack reports `aayu pack DIR`: a pack folder on this machine, checked
// against the facts its flags give. It needs no GitHub, no token and no
// repository, so nothing is looked up for it (not even the checkout's
// origin, two runs of git before the first artifact is read).
func localPack(inv tui.Invocation) bool {
	if inv.Command != "pack" || len(inv.Args) == 0 {
		return false
	}
	fi, err := os.Stat(inv.Args[0])
	return err == nil && fi.IsDir()
}
