package ledgerpack

import (
	"context"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/proof"
)

// Fetch writes the ledger folder src (proof/STORY/HEAD/KIND) into dir in
// the pack-folder layout, as Load does for a story's best pack: `aayu
// release` verifies again exactly the folder a ship record names. The pack
// is nil when pack.json is not a valid pack (verification then says why).
func Fetch(ctx context.Context, client *github.Client, owner, repo, src, dir string, caps Caps) (*proof.Pack, error) {
	return fetchPack(ctx, client, owner, repo, src, dir, caps.withDefaults())
}
