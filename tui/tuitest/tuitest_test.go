package tuitest

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// recorder is a testing.TB that keeps failures instead of failing, so the
// assertions themselves can be tested. Any other method panics on the nil
// embedded TB, which would show an assertion using more than it should.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper()           {}
func (r *recorder) Error(args ...any) { r.failures = append(r.failures, fmt.Sprint(args...)) }
func (r *recorder) Errorf(format string, a ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, a...))
}

func TestAssertFits(t *testing.T) {
	cases := []struct {
		name          string
		view          string
		width, height int
		failures      int
	}{
		{"fits exactly", "abcd\nefgh", 4, 2, 0},
		{"a line one column too wide", "abcde\nefgh", 4, 2, 1},
		{"one line too many", "a\nb\nc", 4, 2, 1},
		{"colour does not count", "\x1b[31mabcd\x1b[0m", 4, 1, 0},
		{"wide runes count twice", "日本", 3, 1, 1},
		{"too tall and two lines too wide", "abcde\nfghij\nk", 4, 2, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &recorder{}
			AssertFits(r, c.view, c.width, c.height)
			if len(r.failures) != c.failures {
				t.Errorf("%d failures, want %d: %q", len(r.failures), c.failures, r.failures)
			}
		})
	}
}

func TestAssertPlain(t *testing.T) {
	cases := []struct {
		name     string
		text     string
		failures int
	}{
		{"words only", "step: tests passed\nexit 0\n", 0},
		{"an escape sequence", "\x1b[2Jcleared\n", 1},
		{"box drawing", "┌ gate\n", 1},
		{"a braille spinner", "⠋ working\n", 1},
		{"an escape and box drawing", "\x1b]0;title\a│\n", 2},
		{"an ellipsis and an em dash are words", "working… — fine\n", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &recorder{}
			AssertPlain(r, c.text)
			if len(r.failures) != c.failures {
				t.Errorf("%d failures, want %d: %q", len(r.failures), c.failures, r.failures)
			}
		})
	}
}

func TestKey(t *testing.T) {
	cases := []struct {
		name string
		want tea.KeyPressMsg
		says string // what the key prints as, which is what key bindings match
	}{
		{"enter", tea.KeyPressMsg{Code: tea.KeyEnter}, "enter"},
		{"esc", tea.KeyPressMsg{Code: tea.KeyEscape}, "esc"},
		{"tab", tea.KeyPressMsg{Code: tea.KeyTab}, "tab"},
		{"up", tea.KeyPressMsg{Code: tea.KeyUp}, "up"},
		{"space", tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}, "space"},
		{"q", tea.KeyPressMsg{Code: 'q', Text: "q"}, "q"},
		{"3", tea.KeyPressMsg{Code: '3', Text: "3"}, "3"},
		{"é", tea.KeyPressMsg{Code: 'é', Text: "é"}, "é"},
		{"ctrl+c", tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}, "ctrl+c"},
	}
	for _, c := range cases {
		got := Key(c.name)
		if got.Code != c.want.Code || got.Text != c.want.Text || got.String() != c.says {
			t.Errorf("Key(%q) = %+v (%q), want %+v (%q)", c.name, got, got.String(), c.want, c.says)
		}
	}
	for _, bad := range []string{"", "qq", "ctrl+x", "\xff"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Key(%q) did not panic", bad)
				}
			}()
			Key(bad)
		}()
	}
}

// TestAssertUnbrokenFailsOnASplitToken: the check every full-screen golden
// runs refuses a URL or a command cut across two lines, and lets a token
// that ends one line whole be.
func TestAssertUnbrokenFailsOnASplitToken(t *testing.T) {
	t.Parallel()
	for _, view := range []string{
		"Get a clone: git clone http://\n127.0.0.1:8080/acme/benefits.git",
		"and delete the tables): aayu decide 2 --\naccept 2.",
		"do each row's next step, then run aayu\ndoctor again.",
		"https://github.com/acme/benefits/pull/4#\nissuecomment-7 at 08:59",
		"failed: no pack was built: git merge-\nbase origin/dev HEAD",
	} {
		rec := &recorder{}
		AssertUnbroken(rec, view, 40)
		if len(rec.failures) == 0 {
			t.Errorf("the check let a broken token pass:\n%s", view)
		}
	}
	for _, view := range []string{
		"do each row's next step, then run\naayu doctor again.",
		"account: @founder at https://api.github.com/\nscopes: repo",
		"run aayu ship 4\nagain; it will not merge twice.",
	} {
		rec := &recorder{}
		AssertUnbroken(rec, view, 40)
		if len(rec.failures) > 0 {
			t.Errorf("the check refused whole tokens:\n%s", view)
		}
	}
}
