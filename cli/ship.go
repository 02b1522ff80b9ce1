package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/actions"
	core "github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/proof/sigstore"
	"github.com/aayudha/aayu/screens/login"
	"github.com/aayudha/aayu/screens/pack"
	"github.com/aayudha/aayu/screens/ship"
	"github.com/aayudha/aayu/tui"
)

// shipScreen wires `aayu ship PR [--solo-bypass]`: every gate that only
// reads first, then the presence check where this process needs one, then
// the person's yes to the writes listed, all in one screen.
func (w wiring) shipScreen() (tui.Screen, error) {
	pr, err := strconv.Atoi(w.inv.Args[0])
	if err != nil || pr < 1 {
		return nil, openErr(tui.ExitUsage, "%q is not a pull request number", tui.SanitizeLine(w.inv.Args[0]))
	}
	return w.shipScreenWith(pr, nil, w.inv.Flags["solo-bypass"] == "true")
}

// shipScreenWith is shipScreen with an approval already given (the inbox
// session's, when the ship was started from the inbox) and whether the
// person asked for the Solo-mode bypass (--solo-bypass, or the inbox's
// choice worded as one).
func (w wiring) shipScreenWith(pr int, given *identity.Session, soloBypass bool) (tui.Screen, error) {
	ctx, inv, e, common, sess := w.ctx, w.inv, w.e, w.common, w.sess
	if sess.owner == "" {
		return nil, openErr(tui.ExitUsage, whichRepository)
	}
	terminal := e.personsTerminal()
	// Whether a person is here is decided once for the whole command: the
	// run's gates read this same answer (core.Config.Human). aayu's own
	// lane and CI are refused at once: they never get a code, and ship
	// reads nothing for them.
	here := identity.Here(identity.HumanCheck{Command: core.Command(pr), Env: e.getenv, Terminal: terminal, CI: inv.Global.CI})
	if d := here.With(given, core.Command(pr), identity.AccessWrite); d.Outcome == identity.Refused {
		return nil, openErr(tui.ExitRefused, "refused: %s\nNothing was done.", d.Reason)
	}
	local, err := w.shipLocal()
	if err != nil {
		return nil, openErr(tui.ExitRefused, "refused: %v\nNothing was done.", err)
	}
	logDir, err := actions.DefaultLogDir(e.getenv)
	if err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "aayu-ship-*")
	if err != nil {
		return nil, err
	}
	run := func(ctx context.Context, pr int, events chan<- core.Event, ask ship.Ask) (core.Result, error) {
		tok, _, err := sess.resolve(ctx)
		if err != nil {
			return core.Result{ExitCode: tui.ExitFailed}, err
		}
		client, err := sess.client(tok)
		if err != nil {
			return core.Result{ExitCode: tui.ExitFailed}, err
		}
		user, _, err := client.Users.Get(ctx, "")
		if err != nil {
			return core.Result{ExitCode: tui.ExitFailed}, errors.New("could not read which account this token is: " + err.Error())
		}
		s, err := core.New(core.Config{
			Client: client, Owner: sess.owner, Repo: sess.repo, Viewer: user.GetLogin(),
			Log: actions.OpenLog(logDir, nil), WorkDir: work, Local: local,
			SoloBypass:  soloBypass,
			Presence:    given,
			AskPresence: ask.Presence,
			Confirm:     ask.Confirm,
			Terminal:    terminal,
			Env:         e.getenv,
			CI:          inv.Global.CI,
			Human:       func(identity.HumanCheck) identity.Decision { return here },
			// ctrl+c or SIGTERM after the yes: stop once the write under
			// way has landed; a later ship resumes from there.
			TrustedRoot: w.trustedRoot,
			AfterStep: func(core.GateID) error {
				if ask.Stopped != nil && ask.Stopped() {
					return errQuitAsked
				}
				return nil
			},
		})
		if err != nil {
			return core.Result{ExitCode: tui.ExitFailed}, err
		}
		res, err := s.Run(ctx, pr, events)
		if res.Merged || res.Shipped || res.Stopped || res.Unfinished != "" {
			// A write landed: the next inbox reads what GitHub holds
			// before it shows a card, never the cards kept from before.
			if cache, cerr := userCacheDir(e.getenv); cerr == nil {
				_ = inboxread.DropCache(filepath.Join(cache, "aayu", "inbox"), client, sess.owner+"/"+sess.repo, tok.Fingerprint("inbox user"))
			}
		}
		if errors.Is(err, errQuitAsked) {
			logShipStopped(actions.OpenLog(logDir, nil), sess.owner+"/"+sess.repo, user.GetLogin(), pr, res)
		}
		return res, err
	}
	presence := func(req core.PresenceRequest) (ship.PresenceScreen, error) {
		command := req.Command
		if soloBypass {
			command += " --solo-bypass"
		}
		m, err := w.loginScreen(login.Request{
			Command: command, Need: req.Need, MustBe: req.MustBe, Approving: req.Approving,
		}, here)
		return shipPresence{Model: m, command: req.Command}, err
	}
	return ship.New(ctx, common, ship.Options{
		PR: pr, Run: run, Presence: presence, URL: pullURL(sess, pr),
		Summary: func(r core.Result) []string { return pack.Summary(r.Pack) },
		OnClose: func() { _ = os.RemoveAll(work) },
	}), nil
}

// shipLocal are the configuration layers above the base branch's copy
// that ship checks for a looser value: this run's (user file, AAYU_*,
// --set) and the checkout's .aayudha/config.toml, which is checked only
// for being looser than the base branch's; it never decides policy.
func (w wiring) shipLocal() (config.Sources, error) {
	local := w.src.sources
	if w.inv.Global.Sandbox {
		return local, nil
	}
	b, err := readCapped(filepath.Join(".aayudha", "config.toml"), config.MaxTOMLBytes)
	switch {
	case err == nil:
		local.Repo = b
	case !errors.Is(err, os.ErrNotExist):
		return local, fmt.Errorf("your checkout's config cannot be read: %w", err)
	}
	return local, nil
}

// errQuitAsked stops a ship after the write under way: the person pressed
// ctrl+c or the process got a quit signal.
var errQuitAsked = errors.New("you asked to quit, so ship stopped after the write under way landed")

// logShipStopped records a ship a quit request stopped after a write
// landed: each landed write has its own record already; this one says
// where it stopped and what was not written, so the next inbox shows it
// half done rather than as a merge without ship.
func logShipStopped(log *actions.Log, repo, who string, pr int, res core.Result) {
	detail := "stopped on a quit request after the write under way landed; nothing was merged, and the next aayu ship starts again from the gates"
	if res.Unfinished != "" {
		detail = res.Unfinished // what landed and what did not, from the run
	}
	_ = log.Append(actions.Record{Command: fmt.Sprintf("ship %d", pr), Repo: repo, Item: fmt.Sprintf("#%d", pr), Who: who,
		Outcome: actions.OutcomeInterrupted, Detail: detail})
}

// shipPresence is the login screen for one ship: its approval covers the
// ship command itself, whichever flags the person's Command: line shows.
type shipPresence struct {
	*login.Model
	command string
}

func (p shipPresence) Session() (*identity.Session, bool) {
	s, ok := p.Model.Session()
	if !ok || s == nil {
		return nil, false
	}
	c := *s
	c.Command = p.command
	return &c, true
}

// pullURL is pull request pr's web address, for the ship screen's copy key;
// "" when it cannot be made.
func pullURL(sess *session, pr int) string {
	u, err := url.JoinPath(sess.webURL(), sess.owner, sess.repo, "pull", fmt.Sprint(pr))
	if err != nil {
		return ""
	}
	return u
}

// standaloneSandboxRoot is the trusted root `aayu sandbox` wrote beside its
// state in this user's cache, when this run talks to a GitHub on this
// machine (a loopback --api-url): the walkthrough's ship then checks the
// gate's attestation with no setting to copy. It never applies to a
// remote host, whose attestations only its own root may vouch for; ""
// when there is none.
func (w wiring) standaloneSandboxRoot() string {
	u, err := url.Parse(w.sess.apiURL)
	if err != nil {
		return ""
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return ""
	}
	cache, err := userCacheDir(w.e.getenv)
	if err != nil {
		return ""
	}
	p := filepath.Join(cache, "aayu", "sandbox", sandbox.TrustedRootFile)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// trustedRoot is the Sigstore root ship checks the merge gate's
// attestation with, decided by whom this run talks to: the in-process
// sandbox's virtual root only against that sandbox; a trusted_root.json
// named by [proof] trusted_root (a sandbox started with aayu sandbox writes
// its own beside its state, or GitHub Enterprise's root); else, for
// github.com, Sigstore's public-good root through its TUF repository (what
// actions/attest uses for public repositories). Anything else has none.
func (w wiring) trustedRoot() (*sigstore.TrustedRoot, error) {
	if w.sess.sandbox != nil {
		return w.sess.sandbox.TrustedRoot(), nil
	}
	if p := w.cfg.String("proof.trusted_root"); p != "" {
		tr, err := sigstore.ReadTrustedRoot(p)
		if err != nil {
			return nil, fmt.Errorf("[proof] trusted_root %s: %w", p, err)
		}
		return tr, nil
	}
	if p := w.standaloneSandboxRoot(); p != "" {
		tr, err := sigstore.ReadTrustedRoot(p)
		if err != nil {
			return nil, fmt.Errorf("the sandbox's trusted root %s: %w", p, err)
		}
		return tr, nil
	}
	if strings.TrimSuffix(w.sess.apiURL, "/") == "https://api.github.com" {
		tr, err := sigstore.FetchPublicGoodRoot()
		if err != nil {
			return nil, fmt.Errorf("fetching Sigstore's public-good trusted root: %w", err)
		}
		return tr, nil
	}
	return nil, nil
}

// shipCommand is aayu ship's table entry and run.
func shipCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "ship",
			Group: "daily",
			Arg:   "PR",
			Short: "the ship screen: read-only gates, presence, then your yes",
			Long: "The ship screen: every gate that only reads (the pull request, policy, the gate's pack, the human pass), " +
				"then the presence check, then one confirmation listing what will be written " +
				"(the squash merge, the ledger record, the Story's update), written only on your yes.\n" +
				"A Solo-mode bypass is taken only with --solo-bypass (or its worded choice on screen).\n" +
				"In a host agent's lane (a host's marker, no terminal) it posts a batch for the person instead, pinned to the head ship read; " +
				"its approval by device code stands in for the presence check, and every other gate is checked again on that head.",
			Example: "aayu ship 148\n" +
				"aayu ship 148 --solo-bypass\n" +
				"# plain lines, the yes read from standard input\n" +
				"aayu ship 148 --plain",
			Flags: []tui.FlagDef{
				{Name: "solo-bypass", Usage: "ship by the Solo-mode bypass when no human pass qualifies"},
			},
		},
		run:       screenRun(wiring.shipScreen),
		batch:     wiring.runShipBatch,
		humanOnly: true,
		person: func(inv tui.Invocation) string {
			pr, err := strconv.Atoi(firstArg(inv))
			if err != nil || pr <= 0 {
				return ""
			}
			c := core.Command(pr)
			if inv.Flags["solo-bypass"] == "true" {
				c += " --solo-bypass"
			}
			return c
		},
	}
}
