package verify_test

import (
	"context"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/packbuild"
	"github.com/aayudha/aayu/screens/verify"
	"github.com/aayudha/aayu/tui"
)

// How main wires the screen: parse STORY, then let the screen prepare the
// checkout (Resolve through GitHub, a clone with --sandbox) in a tea.Cmd.
func ExampleNew() {
	var gh *github.Client // the session's client, for the person's token
	story, err := packbuild.ParseStory("story/3-remaining-deductible")
	if err != nil {
		return // a usage error: exit 2
	}
	opts := packbuild.PrepareOptions{Owner: "acme", Repo: "benefits", Story: story, Checkout: "."}
	screen := verify.New(context.Background(), tui.Common{Plain: true}, verify.Deps{
		Story: story,
		Prepare: func(ctx context.Context) (packbuild.Request, error) {
			return packbuild.Prepare(ctx, packbuild.Tools{}, gh, opts)
		},
	})
	_ = screen // tui.Run(ctx, screen, …) returns the exit code
}
