package cli

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/aayudha/aayu/actions"
	core "github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/model/identity"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/screens/inbox"
	"github.com/aayudha/aayu/screens/login"
	"github.com/aayudha/aayu/tui"
)

// reportDeps prints why the inbox's dependencies could not be wired for
// command and returns its exit code: a usage mistake (no repository) is 2,
// anything else a failure.
func reportDeps(e env, command string, err error) int {
	var oe *openError
	if errors.As(err, &oe) {
		return reportOpen(e, command, err)
	}
	fmt.Fprintf(e.stderr, "aayu %s: %v\nNothing was done.\n", command, err)
	return tui.ExitFailed
}

// inboxDeps wires the inbox screen to GitHub: reads through
// ghx/inboxread, writes through actions, the last read cached per user
// outside the repository, and the human-only check.
func (w wiring) inboxDeps(here identity.Decision, approval func() *identity.Session) (inbox.Deps, error) {
	ctx, e, sess := w.ctx, w.e, w.sess
	if sess.owner == "" {
		return inbox.Deps{}, openErr(tui.ExitUsage, whichRepository)
	}
	tok, _, err := sess.resolve(ctx)
	if err != nil {
		return inbox.Deps{}, err
	}
	client, err := sess.client(tok)
	if err != nil {
		return inbox.Deps{}, err
	}
	reader := inboxread.New(client, sess.owner, sess.repo, inboxread.Options{})
	cache, err := userCacheDir(e.getenv)
	if err != nil {
		return inbox.Deps{}, err
	}
	cacheDir := filepath.Join(cache, "aayu", "inbox")
	// The cache is per user; the token's hash names the user without a
	// request, so the cached cards can show before GitHub answers.
	userKey := tok.Fingerprint("inbox user")

	var (
		mu     sync.Mutex
		latest model.Snapshot
	)
	remember := func(s model.Snapshot) {
		mu.Lock()
		latest = s
		mu.Unlock()
	}
	reread := func(ctx context.Context, st model.Step) (model.Step, bool, error) {
		mu.Lock()
		prev := latest
		mu.Unlock()
		snap, err := reader.Reread(ctx, st.Kind, st.Item.Number, prev)
		if err != nil {
			return model.Step{}, false, err
		}
		now, ok := model.Find(model.Derive(snap), st.ID())
		return now, ok, nil
	}
	logDir, err := actions.DefaultLogDir(e.getenv)
	if err != nil {
		return inbox.Deps{}, err
	}
	var (
		execOnce sync.Once
		executor *actions.Executor
		execErr  error
	)
	getExecutor := func(ctx context.Context) (*actions.Executor, error) {
		execOnce.Do(func() {
			user, _, err := client.Users.Get(ctx, "")
			if err != nil {
				execErr = err
				return
			}
			executor, execErr = actions.NewExecutor(actions.ExecutorConfig{
				Client: client, Owner: sess.owner, Repo: sess.repo, Viewer: user.GetLogin(),
				Reread: reread, Log: actions.OpenLog(logDir, nil),
			})
		})
		return executor, execErr
	}
	web := sess.webURL()
	itemURL := func(n int) string {
		u, err := url.JoinPath(web, sess.owner, sess.repo, "issues", fmt.Sprint(n))
		if err != nil {
			return ""
		}
		return u
	}
	return inbox.Deps{
		ActionsLog: logDir,
		Repo:       sess.owner + "/" + sess.repo,
		Now:        time.Now,
		LoadCache: func() (model.Snapshot, time.Time, error) {
			return reader.LoadCache(cacheDir, userKey)
		},
		Read: func(ctx context.Context, prev *model.Snapshot, _ time.Time) (model.Snapshot, error) {
			var snap model.Snapshot
			var err error
			if prev == nil {
				// Cards show as they arrive (the screen asks for them).
				ctx = inboxread.WithProgress(ctx, inbox.PartialOf(ctx))
				snap, err = startRead(ctx, reader, cacheDir, userKey)
			} else {
				// A zero since asks from the last full read, so an unchanged
				// answer is a 304 that GitHub does not count.
				snap, _, err = reader.Refresh(ctx, *prev, time.Time{})
			}
			if err != nil {
				// Words a person reads; the request and its answer stay out.
				return snap, errors.New(ghx.Describe(err))
			}
			remember(snap)
			return snap, nil
		},
		SaveCache: func(s model.Snapshot, _ time.Time) error {
			return reader.SaveCache(cacheDir, userKey, s, reader.LastReadAt())
		},
		Execute: func(ctx context.Context, req inbox.Request) inbox.Outcome {
			ex, err := getExecutor(ctx)
			if err != nil {
				return inbox.Outcome{Failure: &inbox.Failure{
					What:      "Nothing was written: aayu could not find out which account it writes as.",
					Changed:   "Nothing changed on GitHub.",
					Next:      "Check your connection and token with aayu auth, then press Enter again.",
					Details:   []string{err.Error()},
					Retryable: true,
				}}
			}
			return ex.Execute(ctx, req)
		},
		ItemKey: func(st model.Step) string { return actions.ItemKey(sess.owner, sess.repo, st.Item.Number) },
		URL:     func(n int) string { return itemURL(n) },
		Open: func(n int) error {
			u := itemURL(n)
			if u == "" {
				return errors.New("no link for this item")
			}
			return tui.OpenBrowser(u, e.getenv, exec.LookPath)
		},
		HumanCheck: func() string { return humanRefusal(here, "aayu inbox", approval()) },
		Interrupted: func() []actions.Record {
			return actions.OpenLog(logDir, nil).Interrupted(sess.owner+"/"+sess.repo, time.Now(), 7)
		},
	}, nil
}

// startRead is a process's first read: from the last read kept for this
// user when there is a recent one (two conditional requests, free of the
// rate limit when nothing changed), else a full read.
func startRead(ctx context.Context, reader *inboxread.Reader, cacheDir, userKey string) (model.Snapshot, error) {
	cached, at, err := reader.LoadCache(cacheDir, userKey)
	if err != nil || time.Since(at) > inboxread.MaxWarmAge || time.Since(at) < 0 {
		return reader.Read(ctx)
	}
	snap, _, err := reader.Warm(ctx, cached, at)
	return snap, err
}

// humanRefusal says why this process may not act as the person, or "":
// here is the answer the command took once (wiring.here), with the
// approval applied. The presence check ran before the inbox opened when
// it was needed; its approval covers this run's later steps at its access
// level.
func humanRefusal(here identity.Decision, command string, approval *identity.Session) string {
	d := here.With(approval, command, identity.AccessWrite)
	switch d.Outcome {
	case identity.Allowed:
		return ""
	case identity.NeedsPresence:
		return d.Reason + " — approve it from any device with the presence check (aayu login), then run aayu inbox again"
	}
	return d.Reason
}

// runInbox runs the inbox as the home of its program's screen stack: the
// presence check (when needed), ship, the pack viewer and verify open on
// top of it. The presence check is asked once: the inbox session's
// approval covers each ship started from it (seed 001, "The inbox"), never
// a command started later.
func (w wiring) runInbox() int {
	ctx, inv, e, common := w.ctx, w.inv, w.e, w.common
	list := inv.Flags["list"] != ""
	var (
		approval *identity.Session
		presence *login.Model
	)
	// Whether a person is here is decided once for the session: the
	// presence check and every write the inbox makes read this answer.
	here := w.here("aayu inbox")
	if !list && !inv.Global.DryRun {
		// The presence check, when this process needs one, opens on top of
		// the inbox in its program; the inbox reads once it is approved.
		m, code, ok := w.presenceScreen(login.Request{
			Command: "aayu inbox", Need: identity.AccessWrite,
			Approving: []string{"Each step you accept in this inbox session is written as you, including each pull request you ship from it."},
		}, here)
		if !ok {
			return code
		}
		presence = m
	}
	if list {
		common.Plain = true // --list prints the cards as lines, for people and agents alike
	}
	deps, err := w.inboxDeps(here, func() *identity.Session { return approval })
	if err != nil {
		return reportDeps(e, w.inv.Command, err)
	}
	if presence != nil {
		deps.Presence = presence
		deps.Approved = func() bool {
			s, ok := presence.Session()
			if ok && s != nil {
				approval = s
			}
			return approval != nil
		}
	}
	if !list && !inv.Global.CI {
		// Ship, the pack viewer and verify open on top of the inbox, in
		// its program; esc or q there comes back to it as it was.
		deps.OpenShip = func(pr int, soloBypass bool) (tui.Screen, error) {
			var shipApproval *identity.Session
			if approval != nil {
				s := *approval
				s.Command = core.Command(pr)
				s.Method = approval.Method + ", this inbox session"
				shipApproval = &s
			}
			// The card's choice says whether it is the Solo-mode bypass;
			// ship still asks for a yes before it writes anything.
			return w.shipScreenWith(pr, shipApproval, soloBypass)
		}
		deps.OpenPack = func(story int) (tui.Screen, error) {
			return w.storyPackScreen(story)
		}
		deps.OpenVerify = func(story int) (tui.Screen, error) {
			return w.storyVerifyScreen(story)
		}
		// A Story waiting for its Ready snapshot, or a pull request for its
		// plan review: aayu ready's or aayu plan's own screen.
		deps.OpenCommand = func(command string, story int, soloBypass bool) (tui.Screen, error) {
			return w.inboxCommandScreen(approval, command, story, soloBypass)
		}
	}
	screen := inbox.New(ctx, common, deps, inbox.Options{List: list, DryRun: inv.Global.DryRun})
	code, err := tui.Run(ctx, screen, runOptions(inv, e, common))
	if err != nil && !errors.Is(err, tui.ErrInterrupted) {
		fmt.Fprintf(e.stderr, "aayu: %v\n", err)
	}
	return code
}

// inboxCommand is aayu inbox's table entry and run.
func inboxCommand() command {
	return command{
		def: tui.CommandDef{
			Name:    "inbox",
			Group:   "daily",
			Default: true,
			Short:   "every step waiting for you, one key each (the default command)",
			Long: "The inbox: every step waiting for a person, as cards, each acted on with one key.\n" +
				"--list prints the cards and writes nothing; it is allowed for agents. " +
				"--json FIELDS prints them as a JSON array of objects with those fields (implies --list); " +
				"--json with no fields names the fields.",
			Example: "aayu\n" +
				"aayu inbox --list\n" +
				"aayu inbox --json number,kind,title,recommendation\n" +
				"# the fields --json knows\n" +
				"aayu inbox --json",
			Flags: []tui.FlagDef{
				{Name: "list", Usage: "print the cards and stop; read-only, allowed for agents"},
				{Name: "json", Value: "FIELDS", Usage: "print the cards as JSON with these comma-separated FIELDS (implies --list)"},
			},
		},
		run: func(w wiring) int {
			if w.inv.Flags["json"] != "" {
				return w.runInboxJSON()
			}
			return w.runInbox()
		},
	}
}
