package verify

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/proof/build"
)

// Deps are the screen's ways into the core.
type Deps struct {
	// Story is the story being verified, for the heading.
	Story int
	// Prepare reads the story's facts from GitHub and finds or makes the
	// checkout (build.Prepare).
	Prepare func(ctx context.Context) (build.Request, error)
	// Run runs the floors and builds the pack; nil means build.Run with
	// the real git and go.
	Run func(ctx context.Context, req build.Request, emit func(build.Event)) (*build.Outcome, error)
}

// preparedMsg ends preparation.
type preparedMsg struct {
	req build.Request
	err error
}

// eventMsg is one event of the run.
type eventMsg struct{ ev build.Event }

// finishedMsg ends the run.
type finishedMsg struct {
	out *build.Outcome
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
func start(ctx context.Context, deps Deps, req build.Request, events chan<- tea.Msg) tea.Cmd {
	run := deps.Run
	if run == nil {
		run = func(ctx context.Context, req build.Request, emit func(build.Event)) (*build.Outcome, error) {
			return build.Run(ctx, build.Tools{}, req, emit)
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
			out, err := run(ctx, req, func(ev build.Event) { send(eventMsg{ev}) })
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
