package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/aayudha/aayu/model/config"

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
	if code, ok := hookFast(args, e.Stdin, e.Stdout, e.Stderr); ok {
		return code
	}
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

// run is aayu from arguments to exit code: the command line read through
// the table (commands), the composition root built for the command it
// names, and the command's run.
func run(ctx context.Context, args []string, e env) int {
	if e.lines == nil {
		e.lines = tui.NewLineReader(e.stdin)
	}
	// Help pages, --version, completion scripts, the man page and usage
	// errors are printed here and end the run.
	inv, code, done := tui.Execute(ctx, args, commandDefs(), tui.CLI{
		Stdout: e.stdout, Stderr: e.stderr, ConfigPath: userConfigPath(e.getenv),
	})
	if done {
		return code
	}
	c, _ := commandFor(inv.Command) // the parser names only the table's commands
	w, code, ok := openWiring(ctx, inv, e, c)
	if !ok {
		return code
	}
	if w.sess != nil {
		defer w.sess.close()
	}
	return c.route(w)(w)
}

// openWiring builds the composition root for c's invocation: the layered
// settings, what the shell shares with every screen, and (unless c is
// local) the lane check and the GitHub session. ok is false when the run
// ends here, with code.
func openWiring(ctx context.Context, inv tui.Invocation, e env, c command) (w wiring, code int, ok bool) {
	cfg, src, err := loadConfig(inv, e)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu: the configuration could not be read: %v\nNothing was done. Fix the file or flag named above and run aayu again.\n", err)
		return wiring{}, tui.ExitUsage, false
	}
	w = wiring{ctx: ctx, inv: inv, e: e, cfg: cfg, common: shellCommon(inv, e, cfg), src: src}
	if c.local {
		return w, 0, true
	}
	if code, done := refuseAayuLane(c, inv, e); done {
		return wiring{}, code, false
	}
	w.sess, err = openSession(ctx, inv, e, sessionOptions{
		allSources: c.allSources, noCheckout: c.offline != nil && c.offline(inv),
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu: %v\nNothing was done.\n", err)
		return wiring{}, tui.ExitFailed, false
	}
	if e.stdinIsTerminal && c.needsToken(inv) {
		// A token prompt, when it comes to that, must read the terminal
		// before a screen takes it over.
		_, _, _ = w.sess.resolve(ctx)
	}
	return w, 0, true
}

// shellCommon is what the shell shares with every screen of this run.
func shellCommon(inv tui.Invocation, e env, cfg *config.Config) tui.Common {
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
	return common
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
