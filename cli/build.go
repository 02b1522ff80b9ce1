package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/aayudha/aayu/actions/buildguide"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
)

// runBuild prints, for the builder agent, the Story's criteria and the
// evidence map it must commit, and checks a map already written (--check
// FILE, or the checkout's own .aayudha/evidence/STORY.toml) against them.
// It only reads GitHub, so any lane may run it.
func (w wiring) runBuild() int {
	story, client, err := w.storyCommand()
	if err != nil {
		return reportOpen(w.e, w.inv.Command, err)
	}
	gh, err := client(w.ctx)
	if err != nil {
		return reportOpen(w.e, w.inv.Command, err)
	}
	g, err := buildguide.Read(w.ctx, gh, w.sess.owner, w.sess.repo, story)
	if buildguide.IsRefusal(err) {
		fmt.Fprintf(w.e.stderr, "aayu build: %s\n", err)
		return tui.ExitRefused
	}
	if err != nil {
		fmt.Fprintf(w.e.stderr, "aayu build: %v\nNothing was read; check --repo and your token (aayu auth).\n", err)
		return tui.ExitFailed
	}
	out := w.e.stdout
	fmt.Fprintf(out, "Story #%d: %s\n", g.Story, untrusted.RecordLine(g.Title))
	if g.Frozen {
		fmt.Fprintf(out, "Completion Goal, frozen in the Ready snapshot (completion_goal_hash %s):\n", untrusted.RecordLine(g.Hash))
	} else {
		fmt.Fprintf(out, "Completion Goal, not frozen yet (the issue as it reads now; a person freezes it with aayu ready %d, and the gate checks the map against that snapshot):\n", story)
	}
	for _, c := range g.Criteria {
		lines := strings.Split(c.Text, "\n")
		fmt.Fprintf(out, "  %d. %s\n", c.ID, untrusted.Line(lines[0]))
		for _, l := range lines[1:] {
			fmt.Fprintf(out, "     %s\n", untrusted.Line(strings.TrimSpace(l)))
		}
	}
	path, raw, err := w.buildMap(story)
	if err != nil {
		fmt.Fprintf(w.e.stderr, "aayu build: %v\n", err)
		return tui.ExitRefused
	}
	if raw == nil {
		fmt.Fprintf(out, "\nCommit this evidence map as %s, naming for each criterion the tests that prove it:\n\n%s", buildguide.MapPath(story), g.Skeleton())
		return tui.ExitOK
	}
	problems := g.Check(raw)
	if len(problems) == 0 {
		fmt.Fprintf(out, "\nThe evidence map %s maps every criterion to tests and names no other.\n", path)
		return tui.ExitOK
	}
	fmt.Fprintf(w.e.stderr, "aayu build: the evidence map %s does not fit Story #%d:\n", path, story)
	for _, p := range problems {
		fmt.Fprintf(w.e.stderr, "  - %s\n", p)
	}
	fmt.Fprintf(w.e.stderr, "A map of this form fits:\n\n%s", g.Skeleton())
	return tui.ExitRefused
}

// buildMap is the evidence map to check, and the name it is shown by:
// --check FILE, else the Story's map in the checkout aayu runs in (never
// with --sandbox, whose repository has no checkout here); nil when there
// is none.
func (w wiring) buildMap(story int) (string, []byte, error) {
	if f := w.inv.Flags["check"]; f != "" {
		b, err := proof.ReadFileCapped(f, proof.MaxEvidenceMapBytes)
		if err != nil {
			return "", nil, fmt.Errorf("the evidence map to check cannot be read: %w", err)
		}
		return f, b, nil
	}
	if w.sess.sandbox != nil {
		return "", nil, nil
	}
	top, err := checkoutTop(w.ctx)
	if err != nil {
		return "", nil, nil // not in a checkout: nothing to check
	}
	rel := buildguide.MapPath(story)
	b, err := proof.ReadFileCapped(filepath.Join(top, filepath.FromSlash(rel)), proof.MaxEvidenceMapBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, fmt.Errorf("the checkout's evidence map %s cannot be read: %w", rel, err)
	}
	return rel, b, nil
}

// checkoutTop is the top of the git working tree aayu runs in.
func checkoutTop(ctx context.Context) (string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	out, err := exec.CommandContext(ctx, "git", "-C", cwd, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// buildCommand is aayu build's table entry and run.
func buildCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "build",
			Group: "daily",
			Arg:   "STORY",
			Short: "for the builder agent: the criteria and the evidence map to commit",
			Long: "Print the Story's Completion Goal criteria (from its Ready snapshot when frozen) and the evidence map " +
				"the builder commits as .aayudha/evidence/STORY.toml. A map already in the checkout, or named by --check, " +
				"is checked against the criteria: exit 4 says what is wrong. Read-only; any lane may run it.",
			Example: "aayu build 131\naayu build 131 --check .aayudha/evidence/131.toml",
			Flags: []tui.FlagDef{
				{Name: "check", Value: "FILE", Usage: "check the evidence map FILE against the Story's criteria"},
			},
		},
		run: wiring.runBuild,
	}
}
