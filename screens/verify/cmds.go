package verify

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/actions/packbuild"
)

// Deps are the screen's ways into the core.
type Deps struct {
	// Story is the story being verified, for the heading.
	Story int
	// Prepare reads the story's facts from GitHub and finds or makes the
	// checkout (packbuild.Prepare).
	Prepare func(ctx context.Context) (packbuild.Request, error)
	// Run runs the floors and builds the pack; nil means packbuild.Run with
	// the real git and go.
	Run func(ctx context.Context, req packbuild.Request, emit func(packbuild.Event)) (*packbuild.Outcome, error)
}

// preparedMsg ends preparation.
type preparedMsg struct {
	req packbuild.Request
	err error
}

// eventMsg is one event of the run.
type eventMsg struct{ ev packbuild.Event }

// finishedMsg ends the run.
type finishedMsg struct {
	out *packbuild.Outcome
	err error
}

func prepare(ctx context.Context, deps Deps) tea.Cmd {
	return func() tea.Msg {
		req, err := deps.Prepare(ctx)
		return preparedMsg{req: req, err: err}
	}
}

// start runs the floors on their own goroutine, sending each event and
// then the outcome into events. A send gives up when ctx ends, so a screen
// that quit early never leaves the run blocked.
func start(ctx context.Context, deps Deps, req packbuild.Request, events chan<- tea.Msg) tea.Cmd {
	run := deps.Run
	if run == nil {
		run = func(ctx context.Context, req packbuild.Request, emit func(packbuild.Event)) (*packbuild.Outcome, error) {
			return packbuild.Run(ctx, packbuild.Tools{}, req, emit)
		}
	}
	send := func(msg tea.Msg) {
		select {
		case events <- msg:
		case <-ctx.Done():
		}
	}
	return func() tea.Msg {
		go func() {
			out, err := run(ctx, req, func(ev packbuild.Event) { send(eventMsg{ev}) })
			send(finishedMsg{out: out, err: err})
		}()
		return nil
	}
}

// wait delivers the next message of the run.
func wait(ctx context.Context, events <-chan tea.Msg) tea.Cmd {
	return func() tea.Msg {
		select {
		case msg := <-events:
			return msg
		case <-ctx.Done():
			return nil
		}
	}
}
