// Command aayu is the person's side of aayudha: one full-screen terminal
// program in which a solo founder governs the work coding agents do on
// GitHub. See README.md; the commands themselves live in package cli, one
// file each.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/charmbracelet/x/term"

	"github.com/aayudha/aayu/cli"
	"github.com/aayudha/aayu/tui"
)

func main() {
	// SIGINT, SIGTERM and SIGHUP cancel ctx only while no screen runs; a
	// running screen takes them as a quit request and finishes the writes
	// under way first (tui.Signals), so no signal cuts a write in the middle.
	ctx, cancel := context.WithCancel(context.Background())
	signals := tui.NewSignals(cancel)
	caught := make(chan os.Signal, 4)
	signal.Notify(caught, tui.QuitSignals()...)
	go func() {
		for sig := range caught {
			signals.Deliver(sig)
		}
	}()
	code := cli.Run(ctx, os.Args[1:], cli.Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Getenv: os.Getenv, Environ: os.Environ(),
		StdoutIsTerminal: term.IsTerminal(os.Stdout.Fd()),
		StdinIsTerminal:  term.IsTerminal(os.Stdin.Fd()),
		TTYIn:            os.Stdin,
		Signals:          signals,
	})
	signal.Stop(caught)
	cancel()
	os.Exit(code)
}
