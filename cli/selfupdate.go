package cli

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/aayudha/aayu/actions/selfupdate"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// runSelfUpdate is `aayu self-update`: the newest release of aayu's own
// repository ([update] repository), its file for this platform proved by
// its build attestation, then put in place of the running binary
// (actions/selfupdate). Replacing the binary is the person's act on their
// own machine: the program that holds agents to the person's rules is not
// an agent's to swap, so every agent lane and CI is refused; --dry-run
// (which reads and proves, and replaces nothing) runs anywhere.
func (w wiring) runSelfUpdate() int {
	ctx, inv, e := w.ctx, w.inv, w.e
	dry := inv.Global.DryRun
	refused := func(format string, args ...any) int {
		fmt.Fprintf(e.stderr, "aayu self-update: refused: "+format+"\n", args...)
		return tui.ExitRefused
	}
	if why := selfUpdateLane(inv, e); why != "" && !dry {
		return refused("%s.\nThe person runs, at their own terminal: aayu self-update\nNothing was changed.", why)
	}
	repoName := w.cfg.String("update.repository")
	owner, repo, ok := strings.Cut(repoName, "/")
	if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
		fmt.Fprintf(e.stderr, "aayu self-update: [update] repository is %q, not OWNER/NAME.\nNothing was changed.\n", tui.SanitizeLine(repoName))
		return tui.ExitUsage
	}
	exe, err := runningBinary()
	if err != nil {
		return refused("%v\nNothing was changed.", err)
	}
	// The release is public: a token is used when one is found without
	// asking (it lifts the anonymous rate limit), never asked for.
	tok, _ := w.sess.resolveQuiet(ctx)
	client, err := w.sess.client(tok)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu self-update: %v\nNothing was changed.\n", err)
		return tui.ExitFailed
	}
	cfg := selfupdate.Config{
		Client: client, Owner: owner, Repo: repo, Trusted: w.trustedRoot, ServerURL: w.releaseServer(),
		Exe: exe, GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Version: moduleVersion(),
	}
	fmt.Fprintf(e.stdout, "reading the newest release of %s for %s/%s\n", repoName, runtime.GOOS, runtime.GOARCH)
	found, err := selfupdate.Check(ctx, cfg)
	switch {
	case selfupdate.IsRefusal(err):
		return refused("%s\nThe aayu at %s was not changed.", tui.SanitizeLine(err.Error()), exe)
	case err != nil:
		fmt.Fprintf(e.stderr, "aayu self-update: %s\nThe aayu at %s was not changed.\n", tui.SanitizeLine(ghx.Describe(err)), exe)
		return tui.ExitFailed
	case found.UpToDate:
		fmt.Fprintf(e.stdout, "aayu is up to date: release %s's %s is the aayu at %s\n", found.Tag, found.Asset, exe)
		return tui.ExitOK
	}
	fmt.Fprintf(e.stdout, "release %s: %s (sha256 %s) proven built by %s's release workflow at its tag: %s\n",
		found.Tag, found.Asset, found.SHA256, repoName, tui.SanitizeLine(found.Identity.Words()))
	if dry {
		fmt.Fprintf(e.stdout, "--dry-run: the aayu at %s was not replaced\n", exe)
		return tui.ExitOK
	}
	return w.installRelease(cfg, found)
}

// installRelease puts the proven release in place of the running binary
// and says what runs now.
func (w wiring) installRelease(cfg selfupdate.Config, found *selfupdate.Found) int {
	e, exe := w.e, cfg.Exe
	done, err := selfupdate.Install(w.ctx, cfg, found, nil)
	switch {
	case selfupdate.IsRefusal(err):
		fmt.Fprintf(e.stderr, "aayu self-update: refused: %s\n", tui.SanitizeLine(err.Error()))
		return tui.ExitRefused
	case err != nil:
		fmt.Fprintf(e.stderr, "aayu self-update: %s\n", tui.SanitizeLine(err.Error()))
		return tui.ExitFailed
	}
	fmt.Fprintf(e.stdout, "replaced the aayu at %s with release %s; the new aayu runs: %s\n", exe, found.Tag, done.Version)
	if done.OldKept != "" {
		fmt.Fprintf(e.stdout, "the old aayu is still at %s (it could not be removed); delete it when you like\n", done.OldKept)
	} else {
		fmt.Fprintf(e.stdout, "the old aayu was kept as %s until the new one ran, then removed\n", selfupdate.OldName(exe))
	}
	return tui.ExitOK
}

// releaseServer is the web host a release workflow's certificate names:
// GitHub Enterprise Server's own (its API's scheme and host) when
// --api-url names one; "" (github.com) for github.com and for a sandbox on
// this machine, whose Sigstore signs as github.com's Actions.
func (w wiring) releaseServer() string {
	u, err := url.Parse(w.sess.apiURL)
	if err != nil || u.Host == "" || u.Hostname() == "api.github.com" || isLoopbackHost(u.Hostname()) {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

func isLoopbackHost(host string) bool {
	ip := net.ParseIP(host)
	return host == "localhost" || (ip != nil && ip.IsLoopback())
}

// selfUpdateLane is why this process may not replace aayu ("" when it
// may): aayu's own lane was refused before (refuseAayuLane); a host
// agent's lane and CI are refused here.
func selfUpdateLane(inv tui.Invocation, e env) string {
	if lane, marker := identity.AgentLane(e.getenv); lane {
		return fmt.Sprintf("an agent lane (%s is set) never replaces aayu: it is the person's program, which holds agents to their rules", marker)
	}
	if inv.Global.CI {
		return "--ci never replaces aayu: a CI job installs the aayu it pins"
	}
	if ci, marker, _ := identity.CIRun(e.getenv); ci {
		return fmt.Sprintf("a CI run (%s is set) never replaces aayu: a CI job installs the aayu it pins", marker)
	}
	return ""
}

// runningBinary is the file this process runs from, its symlinks
// resolved: what self-update replaces. A Go test binary is never one.
func runningBinary() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("aayu cannot tell which file it runs from: %w", err)
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return "", fmt.Errorf("aayu cannot tell which file it runs from: %w", err)
	}
	if strings.HasSuffix(exe, ".test") || strings.HasSuffix(exe, ".test.exe") {
		return "", fmt.Errorf("this process is a Go test binary (%s), not an installed aayu", exe)
	}
	return exe, nil
}

// moduleVersion is the module version this aayu was built at (v0.4.0 for
// go install …@v0.4.0; (devel) from a checkout).
func moduleVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		return info.Main.Version
	}
	return ""
}

// selfUpdateCommand is aayu self-update's table entry and run.
func selfUpdateCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "self-update",
			Group: "setup",
			Short: "replace aayu with its newest release, only if its attestation verifies",
			Long: "Read the newest release of aayu's own repository ([update] repository, default aayudha/aayu), download its file for this platform " +
				"and check its build attestation: signed through Sigstore by that repository's release workflow at the release's tag, over exactly the bytes downloaded. " +
				"Only then is the running aayu replaced: the new file is written beside it, the old one kept as aayu.old until the new one runs --version, " +
				"and put back when it does not.\n" +
				"An unattested release, a file changed since upload, another repository's attestation, or a folder aayu cannot write is refused, the binary unchanged.\n" +
				"It is the person's act: an agent lane and CI are refused. --dry-run proves the release and replaces nothing.",
			Example: "aayu self-update\n" +
				"aayu self-update --dry-run\n" +
				"aayu self-update --set update.repository=aayudha/aayu --api-url https://ghes.example.com/",
		},
		run:       func(w wiring) int { return w.runSelfUpdate() },
		humanOnly: true,
		token:     never,
		offline:   func(tui.Invocation) bool { return true },
	}
}
