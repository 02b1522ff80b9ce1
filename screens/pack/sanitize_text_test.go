package pack

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// hostile is text a hostile writer could get into a pack, an artifact or an
// error the pack screen shows: a screen clear, an OSC 52 clipboard write, a
// C1 CSI, a bidi override and a zero-width space.
const hostile = tuitest.Hostile

// TestArtifactViewNeutralisesHostileBytes: an artifact's bytes come from CI;
// as text or as go test events, every field is shown, none obeyed.
func TestArtifactViewNeutralisesHostileBytes(t *testing.T) {
	tuitest.AssertShowsHostile(t, "a text artifact", strings.Join(renderArtifact("log.txt", []byte("line "+hostile+"\nnext "+hostile)), "\n"), 2)
	var events []byte
	for _, e := range []testEvent{
		{Action: "run", Package: "example.com/" + hostile, Test: "TestA" + hostile},
		{Action: "output", Package: "p", Test: "TestA", Output: "said " + hostile + "\n"},
		{Action: "bench" + hostile, Package: "p", Test: "TestA"},
	} {
		b, _ := json.Marshal(e)
		events = append(append(events, b...), '\n')
	}
	lines := renderArtifact("evidence/criterion-1.jsonl", events)
	tuitest.AssertShowsHostile(t, "go test events", strings.Join(lines, "\n"), 4)
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "run     ") {
		t.Fatalf("the events were not read as events: %q", lines)
	}
}

// TestPackErrorsQuotingOutsideTextAreNeutralised: the folder named and a
// failed read, in the transcript and the full screen; an artifact that
// could not be opened; a story whose pack could not be fetched.
func TestPackErrorsQuotingOutsideTextAreNeutralised(t *testing.T) {
	c := tui.Common{Width: 200, Height: 40, Styles: tui.NewStyles(true)}
	m := New(context.Background(), c, Options{Dir: "packs/" + hostile})
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	tuitest.AssertShowsHostile(t, "the verifying view", ansi.Strip(m.View().Content), 1)
	m.Update(verifiedMsg{err: errors.New("reading pack.json: " + hostile)})
	tuitest.AssertShowsHostile(t, "the folder's transcript", strings.Join(m.Transcript(), "\n"), 2)
	tuitest.AssertShowsHostile(t, "the folder's view", ansi.Strip(m.View().Content), 1)

	m.view = &viewer{path: "evidence/" + hostile, err: errors.New("opening it: " + hostile)}
	tuitest.AssertShowsHostile(t, "the artifact viewer", ansi.Strip(strings.Join(m.viewerLines(200, 40), "\n")), 2)

	s := NewStory(context.Background(), c, StoryOptions{Story: 3})
	s.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	s.Update(fetchedMsg{src: SourceLedger, err: errors.New("the ledger answered " + hostile)})
	tuitest.AssertShowsHostile(t, "the story's transcript", strings.Join(s.Transcript(), "\n"), 1)
	tuitest.AssertShowsHostile(t, "the story's view", ansi.Strip(s.View().Content), 1)
}

// TestPackPushOutcomeQuotingGitHubIsNeutralised: a push's outcome, failed
// or landed, can quote GitHub; the transcript and the header show it
// neutralised.
func TestPackPushOutcomeQuotingGitHubIsNeutralised(t *testing.T) {
	for _, msg := range []pushedMsg{{err: errors.New("GitHub answered " + hostile)}, {said: "landed " + hostile}} {
		s := NewStory(context.Background(), tui.Common{Width: 200, Height: 40, Styles: tui.NewStyles(true)}, StoryOptions{Story: 3})
		s.Update(msg)
		tuitest.AssertShowsHostile(t, "the transcript", strings.Join(s.Transcript(), "\n"), 1)
		tuitest.AssertShowsHostile(t, "the header", ansi.Strip(strings.Join(s.storyHeader(), "\n")), 1)
	}
}
