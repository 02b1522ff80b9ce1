package inbox

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// settle runs what cmd asks for, one command at a time, and hands m each
// finished write's message, then runs what that asks for, until no write
// these commands started is left. Other messages (a refresh, a frame) are
// dropped: the tests read and draw by hand.
func settle(m *Model, cmd tea.Cmd) {
	todo := []tea.Cmd{cmd}
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			todo = append(todo, msg...)
		case jobDoneMsg:
			_, next := m.Update(msg)
			todo = append(todo, next)
		}
	}
}

// cmdRunner plays Bubble Tea's part: each command runs in its own
// goroutine and its message comes back on msgs, for the test to hand to
// Update as the program would.
type cmdRunner struct{ msgs chan tea.Msg }

func (r cmdRunner) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			for _, c := range batch {
				r.run(c)
			}
			return
		}
		if msg != nil {
			r.msgs <- msg
		}
	}()
}

// nextDone waits for the next finished write, dropping other messages.
func (r cmdRunner) nextDone(t *testing.T) jobDoneMsg {
	t.Helper()
	for {
		select {
		case msg := <-r.msgs:
			if done, ok := msg.(jobDoneMsg); ok {
				return done
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no write finished")
		}
	}
}

// gatedWrites is an Execute whose every write waits until the test
// releases it, counting how many run at once overall and per item.
type gatedWrites struct {
	started chan string
	mu      sync.Mutex
	release map[string]chan struct{}
	key     func(model.Step) string
	now     map[string]int // item key -> writes under way
	total   int
	maxAll  int
	maxItem int
}

func newGatedWrites(key func(model.Step) string) *gatedWrites {
	return &gatedWrites{started: make(chan string, 16), release: map[string]chan struct{}{}, key: key, now: map[string]int{}}
}

func (g *gatedWrites) gate(id string) chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.release[id] == nil {
		g.release[id] = make(chan struct{})
	}
	return g.release[id]
}

func (g *gatedWrites) execute(ctx context.Context, req Request) Outcome {
	id, key := req.Step.ID(), g.key(req.Step)
	g.mu.Lock()
	g.now[key]++
	g.total++
	g.maxItem, g.maxAll = max(g.maxItem, g.now[key]), max(g.maxAll, g.total)
	g.mu.Unlock()
	g.started <- id
	<-g.gate(id)
	g.mu.Lock()
	g.now[key]--
	g.total--
	g.mu.Unlock()
	return Outcome{Done: true, Wrote: []string{"wrote " + id}}
}

// wantStart waits for exactly these writes to start, in any order, and
// then for a moment in which no other starts.
func (g *gatedWrites) wantStart(t *testing.T, when string, ids ...string) {
	t.Helper()
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	for range ids {
		select {
		case id := <-g.started:
			if !want[id] {
				t.Fatalf("%s: %s started, want only %v", when, id, ids)
			}
			delete(want, id)
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: %v did not start", when, ids)
		}
	}
	select {
	case id := <-g.started:
		t.Fatalf("%s: %s started too, want only %v", when, id, ids)
	case <-time.After(150 * time.Millisecond):
	}
}

// queuedInbox is a full-screen inbox whose writes wait at gates. The
// merged Story #9 is keyed as if it were on item #1 (as two steps on one
// pull request would be), so its write must wait for Decision #1's.
func queuedInbox(t *testing.T) (*Model, *gatedWrites) {
	t.Helper()
	key := func(st model.Step) string {
		if st.ID() == "merged-without-ship#9" {
			return "acme/benefits#1"
		}
		return fmt.Sprintf("acme/benefits#%d", st.Item.Number)
	}
	g := newGatedWrites(key)
	f := newFake()
	d := f.deps()
	d.Execute, d.ItemKey = g.execute, key
	m := New(context.Background(), tui.Common{Width: 100, Height: 24, Styles: tui.NewStyles(true)}, d, Options{})
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	m.Update(readMsg{snap: demoSnapshot(), at: t0})
	return m, g
}

// fourWrites starts Decision #1 and #2 and queues the housekeeping (#9 on
// Decision #1's item, #11 on its own): two run, two wait.
func fourWrites(t *testing.T, m *Model, g *gatedWrites, r cmdRunner) {
	t.Helper()
	r.run(press(m, "1"))
	g.wantStart(t, "Decision #1", "decision#1")
	m.list.cursor = 1
	if st, _ := m.list.current(); st.ID() != "decision#2" {
		t.Fatalf("cursor on %s, want decision#2", st.ID())
	}
	r.run(press(m, "1", "y")) // a one-way door asks once; y applies
	g.wantStart(t, "Decision #2", "decision#2")
	r.run(press(m, "C", "y"))
	g.wantStart(t, "the housekeeping, with two writes under way")
	if running, waiting := m.writes.queue.Counts(); running != 2 || waiting != 2 {
		t.Fatalf("%d writes under way and %d waiting, want 2 and 2", running, waiting)
	}
}

// TestInboxWritesTwoAtATimeNeverTwoOnOneItem: the writes' results come
// back as messages, and each one that frees a slot starts the next write
// that may start: a third waits for a slot, and a write on an item under
// way waits for that item although a slot is free.
func TestInboxWritesTwoAtATimeNeverTwoOnOneItem(t *testing.T) {
	m, g := queuedInbox(t)
	r := cmdRunner{msgs: make(chan tea.Msg, 16)}
	fourWrites(t, m, g, r)

	close(g.gate("decision#2"))
	r.run(m.updateCmd(r.nextDone(t)))
	g.wantStart(t, "Decision #2 done, #1 still under way", "bug-fix-merged#11")

	close(g.gate("decision#1"))
	r.run(m.updateCmd(r.nextDone(t)))
	g.wantStart(t, "Decision #1 done", "merged-without-ship#9")

	close(g.gate("bug-fix-merged#11"))
	close(g.gate("merged-without-ship#9"))
	r.run(m.updateCmd(r.nextDone(t)))
	r.run(m.updateCmd(r.nextDone(t)))
	if running, waiting := m.writes.queue.Counts(); running != 0 || waiting != 0 || m.writes.running != 0 {
		t.Fatalf("after every write: %d under way, %d waiting, %d counted", running, waiting, m.writes.running)
	}
	for _, id := range []string{"decision#1", "decision#2", "merged-without-ship#9", "bug-fix-merged#11"} {
		if !m.writes.finished[id] {
			t.Errorf("%s is not reported done", id)
		}
	}
	if g.maxAll != 2 || g.maxItem != 1 {
		t.Errorf("%d writes ran at once and %d on one item, want 2 and 1", g.maxAll, g.maxItem)
	}
}

// TestInboxQuitWaitsOnlyForWritesUnderWay: q while writes run asks; w
// waits for the two under way, says the waiting ones were not started, and
// starts none of them.
func TestInboxQuitWaitsOnlyForWritesUnderWay(t *testing.T) {
	m, g := queuedInbox(t)
	r := cmdRunner{msgs: make(chan tea.Msg, 16)}
	fourWrites(t, m, g, r)

	press(m, "q")
	if !m.quit.quitAsk || !strings.Contains(m.status.message, "2 writes are under way and 2 waiting") {
		t.Fatalf("q while writes run: quitAsk=%v message %q", m.quit.quitAsk, m.status.message)
	}
	press(m, "w")
	if m.done {
		t.Fatal("quit before the writes under way finished")
	}
	said := strings.Join(m.lines, "\n")
	for _, card := range []string{"Story merged without ship #9", "Bug with its fix merged #11"} {
		if !strings.Contains(said, "not done: "+card+" was not started; nothing was written for it.") {
			t.Errorf("the transcript does not say %s was not started:\n%s", card, said)
		}
	}
	close(g.gate("decision#1"))
	r.run(m.updateCmd(r.nextDone(t)))
	g.wantStart(t, "Decision #1 done while quitting")
	if m.done {
		t.Fatal("quit while Decision #2's write was under way")
	}
	close(g.gate("decision#2"))
	r.run(m.updateCmd(r.nextDone(t)))
	g.wantStart(t, "Decision #2 done while quitting")
	if !m.done {
		t.Fatal("did not quit once the writes under way finished")
	}
	left := strings.Join(m.Epilogue(), "\n")
	for _, want := range []string{"done: Decision #1", "done: Decision #2", "not done: Story merged without ship #9 was not started"} {
		if !strings.Contains(left, want) {
			t.Errorf("what the full screen leaves behind lacks %q:\n%s", want, left)
		}
	}
}

// updateCmd hands m one message and returns what it asked to run.
func (m *Model) updateCmd(msg tea.Msg) tea.Cmd {
	_, cmd := m.Update(msg)
	return cmd
}
