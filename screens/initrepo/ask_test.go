package initrepo

import (
	"context"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// pump runs cmd as Bubble Tea would and hands every message back to m,
// then runs what that asks for, until a write is asked for (its message,
// appliedMsg, is returned and not handed on) or nothing is left (nil).
func pump(m tea.Model, cmd tea.Cmd) tea.Msg {
	todo := []tea.Cmd{cmd}
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		if c == nil {
			continue
		}
		msg := c()
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeFor[tea.Cmd]() {
			// A batch or a sequence of commands.
			for i := range v.Len() {
				todo = append(todo, v.Index(i).Interface().(tea.Cmd))
			}
			continue
		}
		if _, ok := msg.(appliedMsg); ok {
			return msg
		}
		var next tea.Cmd
		m, next = m.Update(msg)
		todo = append(todo, next)
	}
	return nil
}

// askingScreen is the full screen with the question asked, its form started.
func askingScreen(t *testing.T, f *fakeCore) *Model {
	t.Helper()
	m := New(context.Background(), tuitest.Common(80, 24), f.deps(false))
	_, cmd := m.Update(planMsg{plan: f.plan})
	if pump(m, cmd) != nil || m.phase != asking {
		t.Fatalf("the question was not asked: phase %d", m.phase)
	}
	return m
}

func press(m *Model, k string) tea.Msg {
	_, cmd := m.Update(tuitest.Key(k))
	return pump(m, cmd)
}

// TestInitQuestionEnterAloneWritesNothing: the answer starts at "Write
// nothing", so Enter alone writes nothing and says so.
func TestInitQuestionEnterAloneWritesNothing(t *testing.T) {
	f := &fakeCore{plan: freshPlan()}
	m := askingScreen(t, f)
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "enter now writes nothing.") {
		t.Fatalf("the question does not say in words what enter does:\n%s", v)
	}
	if msg := press(m, "enter"); msg != nil || f.applied != 0 {
		t.Fatalf("enter alone wrote (applied %d, %T)", f.applied, msg)
	}
	if done, code := m.Done(); m.phase != finished || code != tui.ExitRefused || !done {
		t.Fatalf("phase %d, done %v, exit %d; want it ended with exit 4, the outcome left on the normal screen", m.phase, done, code)
	}
	if !strings.Contains(strings.Join(m.Epilogue(), "\n"), "Nothing was written.") {
		t.Errorf("the outcome does not say nothing was written:\n%s", strings.Join(m.lines, "\n"))
	}
}

// TestInitQuestionChooseThenEnterWrites: ←/→ moves to "Write them", the
// screen says enter now writes them, and enter asks for the write once.
func TestInitQuestionChooseThenEnterWrites(t *testing.T) {
	f := &fakeCore{plan: freshPlan()}
	m := askingScreen(t, f)
	press(m, "left")
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "enter now writes them.") {
		t.Fatalf("after ← the screen does not say enter writes them:\n%s", v)
	}
	if _, ok := press(m, "enter").(appliedMsg); !ok || f.applied != 1 {
		t.Fatalf("enter on Write them did not write once (applied %d)", f.applied)
	}
}

// TestInitQuestionNoQuitAndEscWriteNothing: n, q and esc each answer no.
func TestInitQuestionNoQuitAndEscWriteNothing(t *testing.T) {
	for _, k := range []string{"n", "q", "esc"} {
		f := &fakeCore{plan: freshPlan()}
		m := askingScreen(t, f)
		press(m, "left") // even with "Write them" chosen
		if msg := press(m, k); msg != nil || f.applied != 0 || m.phase != finished || m.code != tui.ExitRefused {
			t.Errorf("%s: applied %d, phase %d, exit %d", k, f.applied, m.phase, m.code)
		}
	}
}

// TestInitScreenPlainYesInAnyCase: the plain twin reads a yes as huh's
// accessible mode does: y or yes, in any letter case.
func TestInitScreenPlainYesInAnyCase(t *testing.T) {
	for _, in := range []string{"yes\n", "Y\n", " y \n"} {
		f := &fakeCore{plan: freshPlan()}
		code, out := runPlain(t, f.deps(false), in)
		if code != tui.ExitOK || f.applied != 1 {
			t.Errorf("input %q: exit %d, applied %d:\n%s", in, code, f.applied, out)
		}
	}
}
