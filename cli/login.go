package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/charmbracelet/colorprofile"
	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/screens/login"
	"github.com/aayudha/aayu/tui"
)

// sandboxClientID is the sandbox's own device client, the default under
// --sandbox when neither config nor the repository names one.
const sandboxClientID = sandbox.OwnClientID

// here is whether a person is here for command, decided by identity.Here
// from this process's environment, terminal and --ci. A command takes it
// once and hands the answer to every step that asks (the presence check's
// screen, the inbox's writes, ship's gates), each applying its approval
// with Decision.With, so no step looks at the process again.
func (w wiring) here(command string) identity.Decision {
	return identity.Here(identity.HumanCheck{Command: command, Env: w.e.getenv,
		Terminal: w.e.personsTerminal(), CI: w.inv.Global.CI})
}

// loginScreen builds the presence check for one command; here is the
// answer the command took from w.here.
func (w wiring) loginScreen(req login.Request, here identity.Decision) (*login.Model, error) {
	ctx, e, cfg, sess, common := w.ctx, w.e, w.cfg, w.sess, w.common
	logDir, err := actions.DefaultLogDir(e.getenv)
	if err != nil {
		return nil, err
	}
	client := w.deviceClient()
	if req.Repo == "" && sess.owner != "" {
		req.Repo = sess.owner + "/" + sess.repo
	}
	if req.BotLogins == nil {
		req.BotLogins = cfg.Strings("identity.bot_logins")
	}
	api := sess.apiURL
	return login.New(ctx, common, req, login.Deps{
		OAuthHost:  sess.webURL(),
		ClientID:   client.ID,
		ClientFrom: client.From,
		// The device token proves who approved and nothing else: no cache,
		// no log, never stored.
		APIClient: func(token string) (*github.Client, error) {
			// The person's token, which this process also holds, is
			// stripped from what the server answers too.
			var held []ghx.Token
			if sess.resolveQuiet != nil {
				if tok, err := sess.resolveQuiet(ctx); err == nil {
					held = append(held, tok)
				}
			}
			return ghx.NewClient(ghx.ClientOptions{APIURL: api, Token: ghx.NewToken(token, "device flow"), Redact: held})
		},
		// Who approved is held to the account this command writes as, and
		// its access is read with that account's own token.
		Writer: func(ctx context.Context) (string, error) {
			return readAgain(ctx, func() (string, error) {
				client, err := writingClient(ctx, sess)
				if err != nil {
					return "", err
				}
				u, _, err := client.Users.Get(ctx, "")
				if err != nil {
					return "", errors.New(ghx.Describe(err))
				}
				return u.GetLogin(), nil
			})
		},
		Permission: func(ctx context.Context, login string) (string, error) {
			return readAgain(ctx, func() (string, error) {
				client, err := writingClient(ctx, sess)
				if err != nil {
					return "", err
				}
				return repoPermission(ctx, client, sess.owner, sess.repo, login)
			})
		},
		Log:         actions.OpenLog(logDir, nil),
		OpenBrowser: login.OpenInBrowser(e.getenv),
		Clipboard:   tui.NativeClipboard,
		InTmux:      tui.InTmux(e.getenv),
		Here:        here,
	}), nil
}

// readAgain repeats a read after a failure, a few times: the person has
// just approved a code, and a passing fault must not waste that approval.
// Reads change nothing, so repeating one is always safe.
func readAgain(ctx context.Context, read func() (string, error)) (string, error) {
	var v string
	err := ghx.Steps{Attempts: 3}.Retry(ctx, nil, func() (err error) {
		v, err = read()
		return err
	})
	if err != nil {
		return "", err
	}
	return v, nil
}

func writingClient(ctx context.Context, sess *session) (*github.Client, error) {
	tok, _, err := sess.resolve(ctx)
	if err != nil {
		return nil, err
	}
	return sess.client(tok)
}

// repoPermission is login's permission on OWNER/REPO. GitHub answers 403 to
// a reader asking for collaborator permissions and 404 to an account that
// cannot see the repository: those read as "read" and "none".
func repoPermission(ctx context.Context, client *github.Client, owner, repo, login string) (string, error) {
	level, resp, err := client.Repositories.GetPermissionLevel(ctx, owner, repo, login)
	switch {
	case err == nil:
		return level.GetPermission(), nil
	case resp != nil && resp.StatusCode == http.StatusForbidden:
		return "read", nil
	case resp != nil && resp.StatusCode == http.StatusNotFound:
		return "none", nil
	}
	return "", fmt.Errorf("reading @%s's access to %s/%s: %s", login, owner, repo, ghx.Describe(err))
}

// presenceFor runs the presence check when the command needs it (a host
// marker, or no terminal) and returns the session approval, or an exit code
// when it was refused or failed. An agent lane (AAYU_AGENT=1) and CI are
// refused at once, without a code.
func (w wiring) presenceFor(req login.Request) (*identity.Session, int, bool) {
	ctx, inv, e, common := w.ctx, w.inv, w.e, w.common
	screen, code, ok := w.presenceScreen(req, w.here(req.Command))
	if !ok || screen == nil {
		return nil, code, ok
	}
	code, err := tui.Run(ctx, screen, runOptions(inv, e, common))
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu: %v\n", err)
	}
	if s, ok := screen.Session(); ok && code == tui.ExitOK {
		return s, code, true
	}
	return nil, code, false
}

// runOptions is how a screen is drawn for this invocation.
func runOptions(inv tui.Invocation, e env, common tui.Common) tui.RunOptions {
	opts := tui.RunOptions{Plain: common.Plain, Out: e.stdout, Signals: e.signals}
	if dir, err := actions.DefaultLogDir(e.getenv); err == nil {
		opts.ActionsLog = dir // named in the quit summary; without HOME there is none
	}
	if tui.NoColor(e.getenv) {
		opts.ColorProfile = colorprofile.Ascii // NO_COLOR drops colour, not the full screen
	}
	if common.Plain && !inv.Global.CI {
		opts.In, opts.Lines = e.stdin, e.lines // CI never waits for a person
	}
	return opts
}

// presenceScreen is the presence check this process needs before it may
// act as the person: nil and ok when it needs none, nil and not ok (with
// the exit code, the refusal printed) when it is refused outright. here is
// the answer the command took from w.here; no approval is held yet.
func (w wiring) presenceScreen(req login.Request, here identity.Decision) (*login.Model, int, bool) {
	e := w.e
	d := here
	switch d.Outcome {
	case identity.Allowed:
		return nil, tui.ExitOK, true
	case identity.Refused:
		fmt.Fprintf(e.stderr, "aayu: refused: %s\nNothing was done.\n", d.Reason)
		return nil, tui.ExitRefused, false
	}
	screen, err := w.loginScreen(req, here)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu: %v\nNothing was done.\n", err)
		return nil, tui.ExitFailed, false
	}
	return screen, tui.ExitOK, true
}

// loginCommand is aayu login's table entry and run.
func loginCommand() command {
	return command{
		def: tui.CommandDef{
			Name:    "login",
			Group:   "daily",
			Short:   "presence check by GitHub device flow",
			Long:    "The presence check: a device code you approve on GitHub from any device, proving a person is here.",
			Example: "aayu login\naayu login --sandbox",
		},
		run:   screenRun(wiring.loginCommandScreen),
		token: never,
	}
}

// loginCommandScreen is aayu login's screen: the presence check, asking
// for write access.
func (w wiring) loginCommandScreen() (tui.Screen, error) {
	s, err := w.loginScreen(login.Request{Command: "aayu login", Need: identity.AccessWrite}, w.here("aayu login"))
	if err != nil {
		return nil, openErr(tui.ExitFailed, "%v\nNothing was done.", err)
	}
	return s, nil
}
