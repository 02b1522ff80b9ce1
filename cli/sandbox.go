package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// runSandbox is `aayu sandbox`: the sandbox GitHub alone, in the
// foreground, one log line per request on standard error, until Ctrl-C.
// With --reset it seeds the demo again and exits.
func runSandbox(ctx context.Context, inv tui.Invocation, e env) int {
	faults, err := sandbox.ParseFaults(inv.Flags["faults"])
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu sandbox: --faults: %v\n", err)
		return tui.ExitUsage
	}
	scale := 0
	if v := inv.Flags["scale"]; v != "" {
		scale, _ = strconv.Atoi(v) // ParseArgs checked it
	}
	cache, err := userCacheDir(e.getenv)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu sandbox: %v\n", err)
		return tui.ExitFailed
	}
	// The bot demo keeps its own state: one state dir holds one demo, and
	// the solo demo stays what the README's first run shows.
	bot := inv.Flags["bot"] != ""
	stateDir := filepath.Join(cache, "aayu", "sandbox")
	if bot {
		stateDir = filepath.Join(cache, "aayu", "sandbox-bot")
	}
	srv, err := sandbox.New(sandbox.Options{
		StateDir:    stateDir,
		BotIdentity: bot,
		Faults:      faults,
		Scale:       scale,
		Logf:        func(format string, args ...any) { fmt.Fprintf(e.stderr, format+"\n", args...) },
		Runner:      gateRunner(),
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu sandbox: %v\n", err)
		return tui.ExitFailed
	}
	if inv.Flags["reset"] != "" {
		if err := srv.Reset(); err != nil {
			fmt.Fprintf(e.stderr, "aayu sandbox: resetting: %v\n", err)
			return tui.ExitFailed
		}
		fmt.Fprintln(e.stdout, "the sandbox was reset to the demo repository acme/benefits")
		// --reset is a chore, not a session: save the fresh seed and
		// give the terminal back, as a person running it expects.
		if err := srv.Close(); err != nil {
			fmt.Fprintf(e.stderr, "aayu sandbox: saving state: %v\n", err)
			return tui.ExitFailed
		}
		return tui.ExitOK
	}
	addr := inv.Flags["addr"]
	if addr == "" {
		addr = "127.0.0.1:8765"
	}
	url, err := srv.Start(addr)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu sandbox: %v\n", err)
		return tui.ExitFailed
	}
	fmt.Fprintf(e.stdout, "sandbox GitHub serving acme/benefits at %s\n", url)
	if bot {
		fmt.Fprintln(e.stdout, "the demo has a bot identity: agents write as the App agent-bot, and a reply \"Approve batch HASH\" on a batch is applied by aayudha-approve.yml")
	}
	fmt.Fprintf(e.stdout, "use it with: aayu --api-url %s/ --oauth-url %s  (token sandbox-founder, -writer, -reader or -agent-bot)\n", url, url)
	fmt.Fprintf(e.stdout, "state kept in %s; Ctrl-C stops it\n", stateDir)
	// ship checks the gate's attestation with the sandbox's own Sigstore
	// root: found by itself on this machine, named here for anywhere else.
	rootFile := filepath.Join(stateDir, sandbox.TrustedRootFile)
	if bot {
		fmt.Fprintf(e.stdout, "its Sigstore root: %s (ship needs --set proof.trusted_root=%s)\n", rootFile, rootFile)
	} else {
		fmt.Fprintf(e.stdout, "its Sigstore root: %s (found by itself for a sandbox on this machine; elsewhere: --set proof.trusted_root=%s)\n", rootFile, rootFile)
	}
	<-ctx.Done()
	if err := srv.Close(); err != nil {
		fmt.Fprintf(e.stderr, "aayu sandbox: saving state: %v\n", err)
		return tui.ExitFailed
	}
	return tui.ExitOK
}

// gateRunner lets the standalone sandbox run the merge gate's aayu steps
// with this very binary when an agent pushes; a test binary is not aayu.
func gateRunner() *sandbox.RunnerOptions {
	exe, err := os.Executable()
	if err != nil || strings.HasSuffix(exe, ".test") {
		return nil
	}
	return &sandbox.RunnerOptions{Aayu: exe}
}

// sandboxCommand is aayu sandbox's table entry and run.
func sandboxCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "sandbox",
			Group: "setup",
			Short: "only the sandbox GitHub, in the foreground",
			Long: "Serve only the sandbox GitHub, in the foreground, until Ctrl-C.\n" +
				"--reset seeds the demo again, throwing away every change, and exits.",
			Example: "aayu sandbox --addr 127.0.0.1:8765\n" +
				"aayu sandbox --faults 5xx=0.1,latency=300ms\n" +
				"aayu sandbox --reset --addr 127.0.0.1:8765\n" +
				"aayu sandbox --bot --addr 127.0.0.1:8766",
			Flags: []tui.FlagDef{
				{Name: "addr", Value: "HOST:PORT", Usage: "where to listen, as HOST:PORT"},
				{Name: "faults", Value: "SPEC", Usage: "inject faults by SPEC, e.g. 5xx=0.1,latency=300ms"},
				{Name: "scale", Value: "N", Usage: "seed N times the demo's items"},
				{Name: "reset", Usage: "seed the demo again, throwing away every change, and exit"},
				{Name: "bot", Usage: "the demo with a bot identity and its App, where a reply approves a batch"},
			},
		},
		run:   func(w wiring) int { return runSandbox(w.ctx, w.inv, w.e) },
		local: true,
		token: never,
	}
}
