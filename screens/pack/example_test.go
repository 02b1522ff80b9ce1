package pack_test

import (
	"context"
	"os"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/screens/pack"
	"github.com/aayudha/aayu/tui"
)

// ExampleNewStory is how main wires `aayu pack STORY`: the story's packs
// read through a GitHub client, fetched folders kept in a temporary work
// folder removed when the screen ends, pushes logged to the actions log.
func ExampleNewStory() {
	ctx := context.Background()
	var gh *github.Client // sess.client(tok) in main
	work, err := os.MkdirTemp("", "aayu-pack-*")
	if err != nil {
		return
	}
	defer os.RemoveAll(work)
	common := tui.Common{Width: 80, Height: 24}
	screen := pack.NewStory(ctx, common, pack.StoryFromLedger(pack.LedgerConfig{
		Client: gh, Owner: "acme", Repo: "benefits", Story: 14,
		WorkDir: work, CI: common.CI, MediaBucket: "", // cfg.String("proof.media")
		Log: actions.OpenLog(os.TempDir(), nil), // actions.DefaultLogDir(getenv) in main
	}))
	_, _ = tui.Run(ctx, screen, tui.RunOptions{Plain: true, Out: os.Stdout})
}
