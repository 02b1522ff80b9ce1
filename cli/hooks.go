package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/aayudha/aayu/actions/hostsetup"
	"github.com/aayudha/aayu/model/hostconfig"
	"github.com/aayudha/aayu/tui"
)

// `aayu hooks install` and `aayu hooks status`: the agent hosts' own
// files in this project (hostconfig says what goes where, as each host
// documents it; hostsetup reads and writes them). Both run on this
// machine alone and write nothing to GitHub.
//
// Lanes: install only ever adds an entry that is missing. It never
// removes, rewrites or loosens one that is there (a hook, a server named
// aayudha, a command file: each is left as the person wrote it), and aayu
// has no command that removes a hook. So an agent's lane, which install
// serves like any other, can add the guard on itself but cannot take it
// off or change it through aayu; the person removes a hook by editing the
// file. status only reads.

// hooksRoot is the checkout's root the hosts' files go into.
func hooksRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("finding the working folder: %w", err)
	}
	return hostsetup.FindRoot(wd)
}

// runHooksInstall shows every entry it will add, refuses (writing nothing)
// if any target file cannot be read or merged into, then writes.
func (w wiring) runHooksInstall() int {
	e := w.e
	hosts, err := hostconfig.ParseHosts(w.inv.Flags["host"])
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu hooks install: %v\n", err)
		return tui.ExitUsage
	}
	root, err := hooksRoot()
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu hooks install: refused: %s\nNothing was written.\n", tui.SanitizeLine(err.Error()))
		return tui.ExitRefused
	}
	plan, err := hostsetup.Prepare(root, hosts)
	var refused *hostsetup.RefusedError
	if errors.As(err, &refused) {
		fmt.Fprintf(e.stderr, "aayu hooks install: refused, and nothing was written: aayu writes no file it cannot read whole, and none through a link.\n")
		for _, r := range refused.Refusals {
			fmt.Fprintf(e.stderr, "  %s: %s\n", tui.SanitizeLine(r.Path), tui.SanitizeLine(r.Reason))
		}
		fmt.Fprintf(e.stderr, "Next: fix or move the file named above (or add aayu's entries by hand: docs/agents.md, \"Connecting each host\"), then run aayu hooks install again.\n")
		return tui.ExitRefused
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu hooks install: %s\nNothing was written.\n", tui.SanitizeLine(err.Error()))
		return tui.ExitFailed
	}
	fmt.Fprintf(e.stdout, "aayu hooks install: the agent hosts' files in %s\n", tui.SanitizeLine(root))
	printEntries(e.stdout, plan.Entries, true)
	switch {
	case len(plan.Files) == 0:
		fmt.Fprintln(e.stdout, "Every entry was there already: nothing was written.")
	case w.inv.Global.DryRun:
		fmt.Fprintf(e.stdout, "--dry-run: %d files would be written; nothing was.\n", len(plan.Files))
	default:
		written, err := hostsetup.Write(plan)
		if err != nil {
			fmt.Fprintf(e.stderr, "aayu hooks install: %s\nWritten before it stopped: %s.\n", tui.SanitizeLine(err.Error()), orNone(written))
			return tui.ExitFailed
		}
		fmt.Fprintf(e.stdout, "Wrote %s. Each host reads them when it next starts; Codex and Gemini CLI ask you to trust a project's hooks first.\n", strings.Join(written, ", "))
	}
	warnNotOnPath(e)
	return tui.ExitOK
}

// runHooksStatus says, for each host, whether it is set up here.
func (w wiring) runHooksStatus() int {
	e := w.e
	root, err := hooksRoot()
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu hooks status: %s\n", tui.SanitizeLine(err.Error()))
		return tui.ExitRefused
	}
	fmt.Fprintf(e.stdout, "aayu hooks status: the agent hosts in %s\n", tui.SanitizeLine(root))
	all := true
	for _, hs := range hostsetup.ByHost(hostsetup.Status(root)) {
		word := "not set up"
		switch {
		case hs.SetUp():
			word = "set up"
		case hs.Touched():
			word = "partly set up"
		}
		all = all && hs.SetUp()
		fmt.Fprintf(e.stdout, "%s: %s\n", hs.Host, word)
		printEntries(e.stdout, hs.Entries, false)
	}
	if !all {
		fmt.Fprintln(e.stdout, "Next: aayu hooks install (--host HOST for one host) adds what is missing.")
	}
	warnNotOnPath(e)
	return tui.ExitOK
}

// printEntries lists entries, one a line: install's words (add, there
// already) or status's (present, missing).
func printEntries(out io.Writer, entries []hostsetup.Entry, install bool) {
	var host hostconfig.Host
	for _, en := range entries {
		if install && en.Host != host {
			host = en.Host
			fmt.Fprintf(out, "%s:\n", host)
		}
		word := map[hostconfig.State]string{hostconfig.Missing: "missing", hostconfig.Present: "present", hostconfig.Differs: "not aayu's"}[en.State]
		if install {
			word = map[hostconfig.State]string{hostconfig.Missing: "add", hostconfig.Present: "there already", hostconfig.Differs: "left as it is"}[en.State]
		}
		fmt.Fprintf(out, "  %-13s  %-13s  %s: %s\n", en.Part, word, en.Path, en.What)
		if en.Note != "" {
			fmt.Fprintf(out, "  %-13s  %-13s  %s\n", "", "", tui.SanitizeLine(en.Note))
		}
	}
}

// warnNotOnPath says so when the hosts could not start the hook: a
// host runs `aayu hook HOST` by name, and a hook that cannot start lets
// the command run (Claude Code blocks only on exit 2).
func warnNotOnPath(e env) {
	if !hostsetup.OnPath(e.getenv("PATH")) {
		fmt.Fprintln(e.stdout, "Note: aayu is not on this shell's PATH. The hosts start aayu by that name for the hook and the MCP server, and a hook that cannot start lets the command run: put aayu on the PATH the host's shell sees.")
	}
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}

// hooksInstallCommand is aayu hooks install's table entry and run.
func hooksInstallCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "hooks install",
			Group: "setup",
			Short: "connect the agent hosts: the pre-tool hook, the MCP server and the inbox command, in this project",
			Long: "Writes into this checkout, for each host (Claude Code, Codex, Cursor, Gemini CLI) in its documented format: " +
				"a pre-tool hook on shell commands that runs aayu hook HOST, the MCP server that aayu mcp serves, and where the host has project commands, the inbox command. " +
				"It only adds what is missing, keeps every other setting, and refuses a file it cannot parse or one reached through a link, writing nothing. " +
				"--dry-run shows the entries and writes nothing. Local files only; any lane may run it.",
			Example: "aayu hooks install\naayu hooks install --host claude-code\naayu hooks install --dry-run",
			Flags: []tui.FlagDef{
				{Name: "host", Value: "HOST", Usage: "one host: claude-code, codex, cursor, gemini (default: all)"},
			},
		},
		run:   wiring.runHooksInstall,
		local: true,
		token: never,
	}
}

// hooksStatusCommand is aayu hooks status's table entry and run.
func hooksStatusCommand() command {
	return command{
		def: tui.CommandDef{
			Name:    "hooks status",
			Group:   "setup",
			Short:   "which agent hosts are set up in this project (read-only)",
			Long:    "For each host: whether its pre-tool hook runs aayu hook HOST, whether the MCP server runs aayu mcp, and whether the inbox command is there. Reads only.",
			Example: "aayu hooks status",
		},
		run:   wiring.runHooksStatus,
		local: true,
		token: never,
	}
}
