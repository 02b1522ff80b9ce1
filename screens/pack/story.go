package pack

import (
	"context"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
)

// Source is where the pack on the screen came from.
type Source int

const (
	SourceLedger Source = iota // the story's best pack on the ledger
	SourceLocal                // .aayudha/proof/STORY/ in the checkout
	SourceGate                 // the merge gate's aayudha-pack run artifact
)

func (s Source) String() string {
	switch s {
	case SourceLocal:
		return "local pack"
	case SourceGate:
		return "gate's run artifact"
	}
	return "ledger"
}

// Fetched is one pack folder ready to verify, with the outside facts it is
// verified against.
type Fetched struct {
	Source Source
	Dir    string // the pack folder: pack.json and artifacts/…
	// Label says which pack this is, e.g. "authoritative pack at
	// proof/14/<head>/authoritative"; it is shown sanitised.
	Label string
	// Ready is the story's Ready snapshot from the ledger; nil with
	// ReadyProblem saying why.
	Ready        *proof.Ready
	ReadyProblem string
	// Head is the pull request's current head; "" with HeadProblem saying
	// why. PR is the pull request the pack names.
	Head        string
	HeadProblem string
	PR          int
	Notes       []string // more facts in words (other packs, the run's link)
	// RunID is the merge-gate run whose artifact this is (the gate's); 0
	// when the pack itself must say (its authority's run).
	RunID int64
	// EvidenceMap, when the checkout has the story's, names the tests each
	// criterion's events must show passing; ModulePath is go.mod's module.
	EvidenceMap proof.EvidenceMap
	ModulePath  string
	// RequiredFloors are [verify] required_floors; nil: proof's defaults.
	RequiredFloors []string
	// CoverageThreshold is [verify] coverage_threshold; nil: proof's default.
	CoverageThreshold *float64
	// Waivers, when set, judges the floors that do not hold in the pack of
	// pull request pr at head by ship's floor-waiver rule: floor → ship's
	// words, for each one an accepted waiver covers.
	Waivers func(ctx context.Context, pr int, head string, floors []string) (map[string]string, error)
}

// StoryOptions are what `aayu pack STORY` needs. Every function runs in a
// tea.Cmd, never in Update; StoryFromLedger builds them from a GitHub
// client.
type StoryOptions struct {
	Story int
	// OnClose releases what the screen was built with (its work folder)
	// when it leaves the screen stack.
	OnClose func()
	CI      bool // --ci: push is refused
	// LocalDir is .aayudha/proof/STORY/ when that folder holds a pack.json;
	// "" when there is no local pack (l and p then say so).
	LocalDir string
	Ledger   func(ctx context.Context) (Fetched, error)
	Local    func(ctx context.Context) (Fetched, error)
	// Gate reads the merge gate's run artifact for pull request pr at head.
	Gate func(ctx context.Context, pr int, head string) (Fetched, error)
	// Push lands the local pack on the ledger as advisory and says what
	// landed in one sentence.
	Push func(ctx context.Context) (string, error)
	// ShipRun says which merge-gate run ship would take for pull request
	// pr, by ship's own rule (actions/ship.SelectRun); asked when the pack
	// on the screen does not verify. nil asks nothing.
	ShipRun func(ctx context.Context, pr int) (ShipChoice, error)
}

// storyState is the pack screen's state when it shows a story.
type storyState struct {
	opts    StoryOptions
	current Fetched
	loading Source // the source being read while fetching
	pr      int    // the pull request of the ledger's pack, for g
	head    string // its current head
	confirm bool   // p was pressed once; y pushes
	pushing bool
	notice  string // the last push's outcome, in words
	failed  bool   // the last fetch failed (m.err says why)
	// seq counts fetches, so ship's answer about an earlier pack is dropped.
	seq        int
	shipAsking bool        // asking which run ship would take
	ship       *ShipChoice // its answer
	shipErr    error       // why it could not be read
}

type storyKeys struct {
	Local, Gate, Best, Push, Yes key.Binding
}

func newStoryKeys() storyKeys {
	return storyKeys{
		Local: key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "local pack")),
		Gate:  key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "gate's artifact")),
		Best:  key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "ledger's best")),
		Push:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "push as advisory")),
		Yes:   key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes, push")),
	}
}

// fetchedMsg ends reading a source: a folder to verify, or why not.
type fetchedMsg struct {
	f   Fetched
	src Source
	err error
}

// pushedMsg ends a push.
type pushedMsg struct {
	said string
	err  error
}

// NewStory returns the pack screen for a story: the ledger's best pack
// first, with l, g and b to switch to the local pack, the gate's run
// artifact and back, and p to push the local pack as advisory.
func NewStory(ctx context.Context, c tui.Common, o StoryOptions) *Model {
	if c.Width == 0 {
		c.Width, c.Height = 80, 24
	}
	ctx, cancel := context.WithCancel(ctx)
	m := &Model{c: c, keys: newKeys(), ctx: ctx, cancel: cancel, onClose: o.OnClose, events: make(chan tea.Msg, 1)}
	// l and b are this mode's source keys, so they no longer move between
	// sections or page up.
	m.keys.Right = key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "next section"))
	m.keys.PageUp = key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up"))
	m.story = &storyState{opts: o, loading: SourceLedger}
	m.skeys = newStoryKeys()
	m.say(fmt.Sprintf("aayu pack: story %d: reading its best pack on the ledger (newest authoritative, else newest advisory) and verifying it against the ledger's Ready snapshot and the pull request's current head; this screen prints its result and exits (no choice is asked).", o.Story))
	m.say("working…")
	return m
}

// fetch reads a source in the background.
func (m *Model) fetch(src Source) tea.Cmd {
	st := m.story
	st.loading, st.failed, st.confirm = src, false, false
	st.seq++
	st.shipAsking, st.ship, st.shipErr = false, nil, nil
	m.verifying.phase, m.verifying.report, m.verifying.err, m.finished, m.view = phaseVerifying, nil, nil, false, nil
	m.verifying.progress = proof.Progress{}
	ctx, o, pr, head := m.ctx, st.opts, st.pr, st.head
	return func() tea.Msg {
		var f Fetched
		var err error
		switch src {
		case SourceLedger:
			f, err = o.Ledger(ctx)
		case SourceLocal:
			f, err = o.Local(ctx)
		case SourceGate:
			f, err = o.Gate(ctx, pr, head)
		}
		f.Source = src
		return fetchedMsg{f: f, src: src, err: err}
	}
}

// gotFetched starts verifying what a source gave, or records why it gave
// nothing.
func (m *Model) gotFetched(msg fetchedMsg) tea.Cmd {
	st := m.story
	if msg.err != nil {
		st.failed = true
		m.finished, m.verifying.phase, m.verifying.err = true, phaseFailed, msg.err
		m.exitCode = tui.ExitFailed
		if msg.src == SourceLedger && isNoPack(msg.err) {
			m.exitCode = tui.ExitRefused // nothing qualifies
		}
		m.say(fmt.Sprintf("failed: the %s could not be read: %s", msg.src, tui.SanitizeLine(msg.err.Error())))
		m.say(fmt.Sprintf("result: nothing was verified (exit %d)", m.exitCode))
		if m.c.Plain || m.c.CI {
			return m.quit()
		}
		return nil
	}
	st.current = msg.f
	if msg.src == SourceLedger {
		st.pr, st.head = msg.f.PR, msg.f.Head
	}
	for _, l := range fetchedLines(msg.f) {
		m.say(l)
	}
	return tea.Batch(verifyFetched(m.ctx, msg.f, m.events), wait(m.events))
}

// verifyFetched verifies a fetched folder; the "could not check" problems
// name the specific reason the fact was missing.
func verifyFetched(ctx context.Context, f Fetched, events chan<- tea.Msg) tea.Cmd {
	return func() tea.Msg {
		progress := func(p proof.Progress) {
			select {
			case events <- progressMsg(p):
			default:
			}
		}
		report, err := proof.VerifyDir(ctx, f.Dir, proof.Options{Ready: f.Ready, HeadSHA: f.Head, Progress: progress,
			EvidenceMap: f.EvidenceMap, ModulePath: f.ModulePath, RequiredFloors: f.RequiredFloors,
			CoverageThreshold: f.CoverageThreshold})
		var waived map[string]string
		var note string
		if err == nil && f.Waivers != nil && report.Pack != nil && !report.FloorsHold && len(report.FailedFloors) > 0 {
			var floors []string
			for _, c := range report.FailedFloors {
				floors = append(floors, c.Floor)
			}
			pr := report.Pack.PR
			if pr == 0 {
				pr = f.PR
			}
			var werr error
			if waived, werr = f.Waivers(ctx, pr, report.Pack.PRHeadSHA, floors); werr != nil {
				// Unread waivers waive nothing: the floors show as they are.
				waived = nil
				note = "the floor waivers could not be read, so none is shown: " + werr.Error()
			}
		}
		if err == nil {
			if f.Ready == nil && f.ReadyProblem != "" {
				report.Problems = replaceProblem(report.Problems, proof.CodeNoReady, proof.Problem{Code: proof.CodeNoReady, Message: f.ReadyProblem})
			}
			if f.Head == "" && f.HeadProblem != "" {
				report.Problems = replaceProblem(report.Problems, proof.CodeNoHead, proof.Problem{Code: proof.CodeNoHead, Message: f.HeadProblem})
			}
		}
		events <- verifiedMsg{report: report, err: err, waived: waived, waiverNote: note}
		return nil
	}
}

func replaceProblem(problems []proof.Problem, code proof.Code, specific proof.Problem) []proof.Problem {
	out := problems[:0:0]
	for _, p := range problems {
		if p.Code != code {
			out = append(out, p)
		}
	}
	return append([]proof.Problem{specific}, out...)
}

// push lands the local pack in the background.
func (m *Model) push() tea.Cmd {
	st := m.story
	st.confirm, st.pushing, st.notice = false, true, ""
	ctx, fn := m.ctx, st.opts.Push
	return func() tea.Msg {
		said, err := fn(ctx)
		return pushedMsg{said: said, err: err}
	}
}

// handleStoryKey handles the source and push keys; ok is false when the key
// is not one of them.
func (m *Model) handleStoryKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	st, k := m.story, m.skeys
	if st.confirm {
		if key.Matches(msg, k.Yes) {
			return m.push(), true
		}
		st.confirm = false
		st.notice = "push cancelled; nothing was written"
		return nil, true
	}
	busy := m.verifying.phase == phaseVerifying || st.pushing
	switch {
	case key.Matches(msg, k.Local):
		if !busy && m.localWhy() == "" {
			return m.fetch(SourceLocal), true
		}
	case key.Matches(msg, k.Gate):
		if !busy && m.gateWhy() == "" {
			return m.fetch(SourceGate), true
		}
	case key.Matches(msg, k.Best):
		if !busy {
			return m.fetch(SourceLedger), true
		}
	case key.Matches(msg, k.Push):
		if !busy && m.pushWhy() == "" {
			st.confirm = true
		}
	default:
		return nil, false
	}
	return nil, true
}

func (m *Model) localWhy() string {
	if m.story.opts.LocalDir == "" || m.story.opts.Local == nil {
		return fmt.Sprintf("no local pack in .aayudha/proof/%d/", m.story.opts.Story)
	}
	return ""
}

func (m *Model) gateWhy() string {
	switch {
	case m.story.opts.Gate == nil:
		return "no GitHub access"
	case m.story.pr == 0:
		return "the ledger's pack names no pull request"
	case m.story.head == "":
		return "the pull request's head is unknown"
	}
	return ""
}

func (m *Model) pushWhy() string {
	switch {
	case m.story.opts.CI:
		return "--ci: CI writes nothing to the ledger"
	case m.localWhy() != "":
		return m.localWhy()
	case m.story.opts.Push == nil:
		return "no GitHub access"
	}
	return ""
}

// storyBindings are the source and push keys for the help line, each
// disabled with its reason when it cannot be used now.
func (m *Model) storyBindings() []key.Binding {
	st, k := m.story, m.skeys
	if st.confirm {
		return []key.Binding{k.Yes, key.NewBinding(key.WithKeys("n"), key.WithHelp("any other key", "cancel"))}
	}
	busy := ""
	switch {
	case st.pushing:
		busy = "pushing"
	case m.verifying.phase == phaseVerifying:
		busy = "still reading"
	}
	gate := func(b key.Binding, why string) key.Binding {
		if busy != "" {
			why = busy
		}
		if why != "" {
			return tui.Disable(b, why)
		}
		return b
	}
	return []key.Binding{gate(k.Best, ""), gate(k.Local, m.localWhy()), gate(k.Gate, m.gateWhy()), gate(k.Push, m.pushWhy())}
}

// fetchedLines are the plain facts about where the pack came from.
func fetchedLines(f Fetched) []string {
	out := []string{fmt.Sprintf("source: %s: %s", sourceTitle(f.Source), tui.SanitizeLine(f.Label))}
	if f.Dir != "" && f.Source == SourceLocal {
		out = append(out, "folder: "+tui.SanitizeLine(f.Dir))
	}
	for _, n := range f.Notes {
		out = append(out, "note: "+tui.SanitizeLine(n))
	}
	return out
}
