package verify

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/aayudha/aayu/actions/packbuild"
	"github.com/aayudha/aayu/internal/syncbuf"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// packageEvents is one package going through go test: it starts, a test
// passes, it ends.
func packageEvents(pkg, test string, elapsed time.Duration) []packbuild.Event {
	return []packbuild.Event{
		packbuild.PackageStarted{Step: packbuild.StepTests, Package: pkg},
		packbuild.TestRunning{Step: packbuild.StepTests, Package: pkg, Test: test},
		out("=== RUN   " + test),
		packbuild.TestEnded{Step: packbuild.StepTests, Package: pkg, Test: test, Result: proof.ResultPass},
		packbuild.PackageEnded{Step: packbuild.StepTests, Package: pkg, Result: proof.ResultPass, Passed: 1, Elapsed: elapsed},
	}
}

// TestVerifyScreenShowsEachPackageAsItEnds feeds go test's events one at a
// time: after each package's end the screen says so, with the running
// total, before the step is over.
func TestVerifyScreenShowsEachPackageAsItEnds(t *testing.T) {
	m := driven(t, tuitest.Common(80, 24), script{req: story3Req, events: []packbuild.Event{
		packbuild.StepStarted{Step: packbuild.StepTests, What: "go test -json ./..."},
	}}, false)
	feed := func(evs []packbuild.Event) {
		for _, ev := range evs {
			m.Update(eventMsg{ev})
		}
	}
	feed(packageEvents("example.com/benefits/copay", "TestCopay", 250*time.Millisecond))
	v := ansi.Strip(m.View().Content)
	for _, want := range []string{"1 test passed · packages: 1 done, 0 running", "passed   copay 1 test passed in 250ms"} {
		if !strings.Contains(v, want) {
			t.Fatalf("after copay ended the screen lacks %q:\n%s", want, v)
		}
	}
	feed(packageEvents("example.com/benefits/plan", "TestPlan", time.Second)[:2])
	v = ansi.Strip(m.View().Content)
	if !strings.Contains(v, "running  plan  TestPlan") || !strings.Contains(v, "packages: 1 done, 1 running") {
		t.Fatalf("a package under way is not shown with its test:\n%s", v)
	}
	tuitest.AssertFits(t, m.View().Content, 80, 24)
	if got := m.Transcript()[len(m.Transcript())-1]; got != "tests: package example.com/benefits/copay passed — 1 test passed in 250ms" {
		t.Errorf("the plain line for a finished package = %q", got)
	}
}

// TestVerifyScreenProgressFitsManyPackages: a module of many packages keeps
// the screen within the terminal, newest packages shown.
func TestVerifyScreenProgressFitsManyPackages(t *testing.T) {
	var evs []packbuild.Event
	evs = append(evs, packbuild.StepStarted{Step: packbuild.StepTests, What: "go test"})
	for _, p := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t"} {
		evs = append(evs, packageEvents("example.com/m/"+p, "Test"+strings.ToUpper(p), time.Millisecond)...)
	}
	for _, w := range []int{40, 80, 120} {
		m := driven(t, tuitest.Common(w, 24), script{req: story3Req, events: evs}, false)
		view := m.View().Content
		tuitest.AssertFits(t, view, w, 24)
		v := ansi.Strip(view)
		if !strings.Contains(v, " t ") || !strings.Contains(v, "earlier packages") {
			t.Errorf("at %d columns the newest package or the earlier count is missing:\n%s", w, v)
		}
	}
}

// blockedRun emits evs, then waits (up to a bound) until seen says the
// screen has shown them, and only then ends: a screen that waited for the
// end of the run to show progress fails the test.
func blockedRun(evs []packbuild.Event, seen func() bool) func(context.Context, packbuild.Request, func(packbuild.Event)) (*packbuild.Outcome, error) {
	return func(ctx context.Context, _ packbuild.Request, emit func(packbuild.Event)) (*packbuild.Outcome, error) {
		for _, ev := range evs {
			emit(ev)
		}
		deadline := time.Now().Add(20 * time.Second)
		for !seen() && time.Now().Before(deadline) && ctx.Err() == nil {
			time.Sleep(10 * time.Millisecond)
		}
		if !seen() {
			return nil, errNoOutcome
		}
		return floorsHold().out, nil
	}
}

// TestVerifyPlainPrintsEachPackageWhileRunning: the plain twin prints a line
// per finished package while go test is still running, and no spinner.
func TestVerifyPlainPrintsEachPackageWhileRunning(t *testing.T) {
	var buf syncbuf.Buffer
	want := "tests: package example.com/benefits/copay passed — 1 test passed in 250ms"
	deps := Deps{Story: 3,
		Prepare: func(context.Context) (packbuild.Request, error) { return story3Req, nil },
		Run: blockedRun(append([]packbuild.Event{packbuild.StepStarted{Step: packbuild.StepTests, What: "go test"}},
			packageEvents("example.com/benefits/copay", "TestCopay", 250*time.Millisecond)...),
			func() bool { return strings.Contains(buf.String(), want) }),
	}
	code, err := tui.Run(context.Background(), New(context.Background(), tui.Common{Plain: true}, deps), tui.RunOptions{Plain: true, Out: &buf})
	if err != nil || code != packbuild.ExitOK {
		t.Fatalf("exit %d, %v; the package line was not printed while the run went on:\n%s", code, err, buf.String())
	}
	tuitest.AssertPlain(t, buf.String())
	for _, glyph := range []string{"| ", "/ ", "\\ "} {
		if strings.Contains(buf.String(), "\n"+glyph) {
			t.Errorf("plain output holds a spinner frame %q:\n%s", glyph, buf.String())
		}
	}
}

// TestVerifyFullScreenStreamsPackages runs the real program: the package's
// end is on screen while the run still waits, with the spinner and the
// clock; o shows the live output.
func TestVerifyFullScreenStreamsPackages(t *testing.T) {
	var shown syncFlag
	deps := Deps{Story: 3,
		Prepare: func(context.Context) (packbuild.Request, error) { return story3Req, nil },
		Run: blockedRun(append([]packbuild.Event{packbuild.StepStarted{Step: packbuild.StepTests, What: "go test"}},
			packageEvents("example.com/benefits/copay", "TestCopay", 250*time.Millisecond)...), shown.get),
	}
	tm := teatest.NewTestModel(t, New(context.Background(), tuitest.Common(80, 24), deps),
		teatest.WithInitialTermSize(80, 24),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	start := time.Now()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("copay 1 test passed in 250ms")) && bytes.Contains(b, []byte("packages: 1 done"))
	}, teatest.WithDuration(15*time.Second))
	t.Logf("the package's end was on screen %v after the program started", time.Since(start).Round(time.Millisecond))
	tm.Type("o")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("test output")) && bytes.Contains(b, []byte("TestCopay"))
	}, teatest.WithDuration(15*time.Second))
	shown.set()
	tm.Type("o")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("verified"))
	}, teatest.WithDuration(15*time.Second))
	tm.Type("q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	if done, _ := final.Done(); !done {
		t.Fatal("q did not end the screen")
	}
}

type syncFlag struct {
	mu sync.Mutex
	on bool
}

func (f *syncFlag) set() { f.mu.Lock(); f.on = true; f.mu.Unlock() }
func (f *syncFlag) get() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.on
}

// TestVerifyScreenMovesWhilePreparing: the clone or fetch before go test
// shows the spinner and the clock too, and the spinner turns on its tick.
func TestVerifyScreenMovesWhilePreparing(t *testing.T) {
	m := New(context.Background(), tuitest.Common(80, 24), floorsHold().deps())
	before := ansi.Strip(m.View().Content)
	if !strings.Contains(before, "preparing the checkout") || !strings.Contains(before, "| 0s") {
		t.Fatalf("preparing shows no spinner or clock:\n%s", before)
	}
	if _, cmd := m.Update(m.ticking.spin.Tick()); cmd == nil {
		t.Error("the spinner asked for no next tick")
	}
	if after := ansi.Strip(m.View().Content); !strings.Contains(after, "/ 0s") {
		t.Errorf("the spinner did not turn on its tick:\n%s", after)
	}
	plain := New(context.Background(), tui.Common{Plain: true}, floorsHold().deps())
	if plain.motion() || plain.startMotion() != nil {
		t.Error("plain mode starts a spinner")
	}
}
