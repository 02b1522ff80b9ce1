package verify_test

import (
	"context"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/proof/build"
	"github.com/aayudha/aayu/screens/verify"
	"github.com/aayudha/aayu/tui"
)

// How main wires the screen: parse STORY, then let the screen prepare the
// checkout (Resolve through GitHub, a clone with --sandbox) in a tea.Cmd.
func ExampleNew() {
	var gh *github.Client // the session's client, for the person's token
	story, err := build.ParseStory("story/3-remaining-deductible")
	if err != nil {
		return // a usage error: exit 2
	}
	opts := build.PrepareOptions{Owner: "acme", Repo: "benefits", Story: story, Checkout: "."}
	screen := verify.New(context.Background(), tui.Common{Plain: true}, verify.Deps{
		Story: story,
		Prepare: func(ctx context.Context) (build.Request, error) {
			return build.Prepare(ctx, build.Tools{}, gh, opts)
		},
	})
	_ = screen // tui.Run(ctx, screen, …) returns the exit code
}
