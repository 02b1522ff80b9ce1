package tui_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

func TestOSC52IsBase64OfTheTextAlone(t *testing.T) {
	seq, err := tui.OSC52("https://github.com/o/r/pull/4")
	if err != nil {
		t.Fatal(err)
	}
	if want := "\x1b]52;c;aHR0cHM6Ly9naXRodWIuY29tL28vci9wdWxsLzQ=\a"; seq != want {
		t.Errorf("OSC52 = %q, want %q", seq, want)
	}
}

func TestOSC52RefusesControlCharacters(t *testing.T) {
	for _, s := range []string{"", "a\nb", "a\x1b]0;t\ab", "a\x9bb", "a\x7fb", "a\tb"} {
		if seq, err := tui.OSC52(s); err == nil || !errors.Is(err, tui.ErrNotCopyable) {
			t.Errorf("OSC52(%q) = %q, %v; want a refusal", s, seq, err)
		}
	}
}

func TestCopyURLRefusesNonHTTPAndControlCharacters(t *testing.T) {
	called := false
	c := tui.Clipboard{Native: func(string) error { called = true; return nil }}
	for _, u := range []string{
		"javascript:alert(1)",
		"file:///etc/passwd",
		"ftp://example.com/x",
		"https://github.com/o/r/pull/4\x1b]52;c;ZWNobyBwd25lZA==\a",
		"https://github.com/o/r/pull/4\n; rm -rf ~",
		"https://github.com/o/r/pull/4 x",
		"https://github.com/o/r/pull/\u202e4",
		"/o/r/pull/4",
		"",
	} {
		cmd, err := c.CopyURL(u, "the link")
		if err == nil || cmd != nil {
			t.Errorf("CopyURL(%q) was not refused", u)
		}
	}
	if called {
		t.Error("a refused URL reached the native clipboard")
	}
}

func TestCopyURLWritesOSC52AndTheNativeClipboard(t *testing.T) {
	var native []string
	c := tui.Clipboard{Native: func(s string) error { native = append(native, s); return errors.New("xclip failed") }, InTmux: true}
	const u = "https://github.com/o/r/issues/7"
	cmd, err := c.CopyURL(u, "the link to #7")
	if err != nil {
		t.Fatal(err)
	}
	msgs := tuitest.RunCmd(cmd)
	if got := tuitest.OSC52Writes(msgs); len(got) != 1 || got[0] != u {
		t.Errorf("OSC 52 wrote %q, want [%q]", got, u)
	}
	if len(native) != 1 || native[0] != u {
		t.Errorf("the native clipboard got %q", native)
	}
	var copied *tui.CopiedMsg
	for _, m := range msgs {
		if cm, ok := m.(tui.CopiedMsg); ok {
			copied = &cm
		}
	}
	if copied == nil {
		t.Fatalf("no CopiedMsg among %#v", msgs)
	}
	n := c.Notice(*copied)
	for _, want := range []string{"Sent the link to #7 to the terminal's clipboard", "xclip failed", "tmux set -s set-clipboard on"} {
		if !strings.Contains(n, want) {
			t.Errorf("notice %q lacks %q", n, want)
		}
	}
	if n := (tui.Clipboard{}).Notice(tui.CopiedMsg{What: "the link"}); n != "Copied the link." {
		t.Errorf("notice = %q", n)
	}
}

func TestInTmux(t *testing.T) {
	if !tui.InTmux(func(k string) string { return map[string]string{"TMUX": "/tmp/tmux-0/default,1,0"}[k] }) || tui.InTmux(func(string) string { return "" }) {
		t.Fatal("InTmux reads TMUX wrongly")
	}
}
