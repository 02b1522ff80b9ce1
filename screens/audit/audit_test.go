package audit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"

	core "github.com/aayudha/aayu/model/audit"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

var t0 = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func report() core.Report {
	late := core.Bypass{PR: 21, Login: "founder", Via: "an admin merge without aayu ship", MergedAt: t0,
		Comment: &core.Comment{URL: "https://github.com/acme/benefits/pull/21#issuecomment-9", CreatedAt: t0.Add(3 * time.Minute)}, Late: true}
	return core.Report{
		Bypasses: []core.Bypass{
			{PR: 4, Story: 3, Login: "founder", Via: "aayu ship --solo-bypass", Head: "4ebf2a1c520b9c0d9f7717a55c8b2b07c8fcb23c", MergedAt: t0,
				Comment: &core.Comment{URL: "https://github.com/acme/benefits/pull/4#issuecomment-7", CreatedAt: t0.Add(-time.Minute)}},
			late,
		},
		Fallbacks: []core.Fallback{{SHA: "9f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c", Subject: "ledger: note from an agent lane\x1b]52;c;aGk=\x07\u009b6n\u202e\u200b", Author: "Demo Founder", When: t0}},
		Late:      []core.Bypass{late},
	}
}

func deps(r core.Report, err error) Deps {
	return Deps{Repo: "acme/benefits", Read: func(context.Context) (core.Report, error) { return r, err }}
}

// TestAuditViewGolden: the full screen at 40, 80 and 120 columns.
func TestAuditViewGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := New(context.Background(), tui.Common{Width: w, Height: 24, Styles: tui.NewStyles(true)}, deps(report(), nil))
			m.Update(m.Init()())
			view := m.View().Content
			tuitest.AssertFits(t, view, w, 24)
			xgolden.RequireEqual(t, ansi.Strip(view))
		})
	}
}

// TestAuditPlainTwinGolden: the same report as plain lines, exit 0 with no
// input asked, and GitHub's text made harmless.
func TestAuditPlainTwinGolden(t *testing.T) {
	var out bytes.Buffer
	code, err := tui.Run(context.Background(), New(context.Background(), tui.Common{Plain: true}, deps(report(), nil)), tui.RunOptions{Plain: true, Out: &out})
	if err != nil || code != tui.ExitOK {
		t.Fatalf("exit %d, %v", code, err)
	}
	if strings.Contains(out.String(), "\x1b") || strings.Contains(out.String(), "\a") {
		t.Errorf("an escape sequence from GitHub reached the terminal:\n%q", out.String())
	}
	xgolden.RequireEqual(t, out.String())
}

func TestAuditReadFailureInWords(t *testing.T) {
	var out bytes.Buffer
	code, _ := tui.Run(context.Background(), New(context.Background(), tui.Common{Plain: true}, deps(core.Report{}, errors.New("GitHub could not be reached"))), tui.RunOptions{Plain: true, Out: &out})
	if code != tui.ExitFailed || !strings.Contains(out.String(), "failed: the audit could not be read: GitHub could not be reached") {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
}

func TestAuditScrollsAndQuits(t *testing.T) {
	m := New(context.Background(), tui.Common{Width: 80, Height: 8, Styles: tui.NewStyles(true)}, deps(report(), nil))
	m.Update(m.Init()())
	first := ansi.Strip(m.View().Content)
	m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if ansi.Strip(m.View().Content) == first {
		t.Error("down did not scroll")
	}
	m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	if done, code := m.Done(); !done || code != tui.ExitOK {
		t.Fatalf("done %v, code %d", done, code)
	}
}

// TestAuditLinesListUnusedBypasses: an unused bypass has its own section,
// and the report without one reads as before.
func TestAuditLinesListUnusedBypasses(t *testing.T) {
	at := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	lines := strings.Join(Lines(core.Report{Unused: []core.Unused{{PR: 4, Comment: core.Comment{ID: 1, Login: "founder", URL: "https://x/4#issuecomment-1", CreatedAt: at}}}}), "\n")
	if !strings.Contains(lines, "Unused bypasses: 1") || !strings.Contains(lines, "unused: PR #4: the Solo-mode bypass: comment by @founder (https://x/4#issuecomment-1") {
		t.Errorf("no unused bypass listed:\n%s", lines)
	}
	if strings.Contains(strings.Join(Lines(core.Report{}), "\n"), "Unused") {
		t.Error("a report with no unused bypass names the section")
	}
}

// TestAuditLeavesItsReportBehindNotOneLine: once the full screen closes,
// the whole report stays on the terminal, as doctor's does.
func TestAuditLeavesItsReportBehindNotOneLine(t *testing.T) {
	m := New(context.Background(), tui.Common{Width: 80, Height: 8, Styles: tui.NewStyles(true)}, deps(report(), nil))
	m.Update(m.Init()())
	m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	left := m.Epilogue()
	if len(left) < 3 || !strings.HasPrefix(left[len(left)-1], "result: ") {
		t.Errorf("audit leaves too little behind:\n%s", strings.Join(left, "\n"))
	}
}

// TestAuditSummaryBlockNamesItsExitCode: the quit summary's audit block
// says how it ended with its exit code, as every other screen's does,
// not the counts alone.
func TestAuditSummaryBlockNamesItsExitCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{{nil, "recorded late (exit 0)"}, {errors.New("no network"), "audit: not read (exit 1)"}} {
		m := New(context.Background(), tui.Common{Width: 80, Height: 8, Styles: tui.NewStyles(true)}, deps(report(), tc.err))
		m.Update(m.Init()())
		m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
		left := strings.Join(tui.NewStack(m).Epilogue(), "\n")
		if !strings.Contains(left, tc.want) {
			t.Errorf("the summary does not say %q:\n%s", tc.want, left)
		}
	}
}
