package verify

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/stopwatch"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/aayudha/aayu/actions/packbuild"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
)

// pkgRow is one package of a go test step, as go test -json reports it.
type pkgRow struct {
	step, name     string
	done           bool
	result         string
	passed, failed int
	elapsed        time.Duration
	why            string
	test           string // the top-level test under way
}

// motion says whether the spinner and the clock run: never in plain mode
// (it appends lines, it does not redraw) nor in CI.
func (m *Model) motion() bool { return !m.c.Plain && !m.c.CI }

func newSpinner() spinner.Model { return tui.NewSpinner() }

func newClock() stopwatch.Model { return stopwatch.New(stopwatch.WithInterval(time.Second)) }

func newOutputView(w, h int) viewport.Model {
	return viewport.New(viewport.WithWidth(w), viewport.WithHeight(max(1, h-2)))
}

// startMotion starts the spinner and the elapsed-time clock.
func (m *Model) startMotion() tea.Cmd {
	if !m.motion() {
		return nil
	}
	return tea.Batch(m.ticking.spin.Tick, m.ticking.clock.Start())
}

// updateMotion feeds the spinner and the clock their ticks. A tick after
// the run ended is dropped, which stops the spinner.
func (m *Model) updateMotion(msg tea.Msg) (tea.Cmd, bool) {
	var cmd tea.Cmd
	switch msg.(type) {
	case spinner.TickMsg:
		if m.finished {
			return nil, true
		}
		m.ticking.spin, cmd = m.ticking.spin.Update(msg)
		// The live output follows at the spinner's pace, not once per
		// line: a large module prints thousands.
		m.syncOutput()
		return cmd, true
	case stopwatch.TickMsg, stopwatch.StartStopMsg, stopwatch.ResetMsg:
		m.ticking.clock, cmd = m.ticking.clock.Update(msg)
		return cmd, true
	}
	return nil, false
}

// pkg finds a package's row of a step, adding it when new.
func (m *Model) pkg(step, name string) *pkgRow {
	for i := range m.pkgs {
		if m.pkgs[i].step == step && m.pkgs[i].name == name {
			return &m.pkgs[i]
		}
	}
	m.pkgs = append(m.pkgs, pkgRow{step: step, name: name})
	return &m.pkgs[len(m.pkgs)-1]
}

// applyPackage records a package starting or ending; an end is a plain
// line too, so the plain twin moves package by package.
func (m *Model) applyPackage(ev packbuild.Event) {
	switch ev := ev.(type) {
	case packbuild.PackageStarted:
		m.pkg(ev.Step, ev.Package)
	case packbuild.TestRunning:
		m.pkg(ev.Step, ev.Package).test = ev.Test
	case packbuild.TestEnded:
		p := m.pkg(ev.Step, ev.Package)
		p.test = ""
		switch ev.Result {
		case proof.ResultPass:
			p.passed++
		case proof.ResultFail:
			p.failed++
		}
	case packbuild.PackageEnded:
		p := m.pkg(ev.Step, ev.Package)
		p.done, p.result, p.test = true, ev.Result, ""
		p.passed, p.failed, p.elapsed, p.why = ev.Passed, ev.Failed, ev.Elapsed, ev.Why
		m.say(plainPackage(*p))
	}
}

func plainPackage(p pkgRow) string {
	return fmt.Sprintf("%s: package %s %s — %s", tui.SanitizeLine(p.step), tui.SanitizeLine(p.name), tui.ResultWord(p.result), pkgDetail(p))
}

// pkgDetail says how a package ended, in words.
func pkgDetail(p pkgRow) string {
	if !p.done {
		if p.test != "" {
			return tui.SanitizeLine(p.test)
		}
		return fmt.Sprintf("%d %s passed so far", p.passed, tui.Plural(p.passed, "test", "tests"))
	}
	took := " in " + p.elapsed.Round(time.Millisecond).String()
	switch {
	case p.why != "" && p.passed+p.failed == 0:
		return tui.SanitizeLine(p.why)
	case p.failed > 0:
		return fmt.Sprintf("%d of %d %s failed%s", p.failed, p.passed+p.failed, tui.Plural(p.passed+p.failed, "test", "tests"), took)
	}
	return fmt.Sprintf("%d %s passed%s", p.passed, tui.Plural(p.passed, "test", "tests"), took)
}

// progressLines show, while a go test step runs, the spinner, the time
// since the run began, and its packages as they end: at most room lines.
func (m *Model) progressLines(room int) []string {
	st := m.c.Styles
	step := m.runningStep()
	var rows []pkgRow
	done, running, passed, failed := 0, 0, 0, 0
	for _, p := range m.pkgs {
		if p.step != step {
			continue
		}
		rows = append(rows, p)
		passed, failed = passed+p.passed, failed+p.failed
		if p.done {
			done++
		} else {
			running++
		}
	}
	status := st.Warning.Render(m.ticking.spin.View()) + " " + elapsed(m.ticking.clock.Elapsed())
	if step != "" && len(rows) > 0 {
		status += fmt.Sprintf(" · %d %s passed", passed, tui.Plural(passed, "test", "tests"))
		if failed > 0 {
			status += fmt.Sprintf(", %d failed", failed)
		}
		status += fmt.Sprintf(" · packages: %d done, %d running", done, running)
	}
	out := []string{status}
	if room <= 1 || len(rows) == 0 {
		return out
	}
	// The newest packages: those that just ended and those under way.
	shown := rows[max(0, len(rows)-(room-1)):]
	if hidden := len(rows) - len(shown); hidden > 0 {
		shown = shown[1:]
		out = append(out, st.Subtle.Render(fmt.Sprintf("  … %d earlier %s", hidden+1, tui.Plural(hidden+1, "package", "packages"))))
	}
	width := 0
	for _, p := range shown {
		width = max(width, len(shortPkg(p.name)))
	}
	width = min(width, 20)
	for _, p := range shown {
		word := st.Warning.Render(fmt.Sprintf("%-8s", "running"))
		if p.done {
			word = m.resultStyle(p.result).Render(fmt.Sprintf("%-8s", tui.ResultWord(p.result)))
		}
		out = append(out, strings.TrimRight(fmt.Sprintf("  %s %-*s %s", word, width, shortPkg(p.name), pkgDetail(p)), " "))
	}
	return out
}

func (m *Model) resultStyle(result string) lipgloss.Style {
	st := m.c.Styles
	switch result {
	case proof.ResultPass:
		return st.OK
	case proof.ResultSkipped:
		return st.Subtle
	}
	return st.Failed
}

// runningStep is the step under way, "" when none is.
func (m *Model) runningStep() string {
	for _, r := range m.steps {
		if r.state == stepRunning {
			return r.name
		}
	}
	return ""
}

// shortPkg names a package by its last element, as the test names do.
func shortPkg(p string) string { return tui.SanitizeLine(path.Base(p)) }

// elapsed is a duration as a person reads it: 9s, 41s, 1m05s.
func elapsed(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s < 60 {
		return fmt.Sprintf("%ds", s)
	}
	return fmt.Sprintf("%dm%02ds", s/60, s%60)
}

// addOutput keeps one line of go's output for the viewer, neutralised as
// it enters.
func (m *Model) addOutput(line string) {
	m.output = append(m.output, strings.TrimRight(tui.SanitizeLine(line), " "))
	if over := len(m.output) - maxOutputLines; over > 0 {
		m.output = m.output[over:]
	}
	m.outputView.outDirty = true
}

// syncOutput hands the viewer the lines that came since, keeping it at the
// bottom when it was there (following the run).
func (m *Model) syncOutput() {
	if !m.outputView.outDirty || !m.outputView.showOutput {
		return
	}
	follow := m.outputView.out.AtBottom() || m.outputView.out.TotalLineCount() == 0
	m.outputView.out.SetContentLines(slices.Clone(m.output))
	if follow {
		m.outputView.out.GotoBottom()
	}
	m.outputView.outDirty = false
}
