package gatecomment

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/proof"
)

// localPackRefusal reads the pull request's files and says, in words, why
// the gate refuses a pull request that adds or changes files under
// .aayudha/proof/: a local pack committed to the branch is the builder's
// own word riding into the base, and never passes as proof. A pull request
// that only removes such files is not refused. A file list GitHub cut at
// its cap fails closed, as ship's does. "" means none.
func localPackRefusal(ctx context.Context, client *github.Client, owner, repo string, pull *github.PullRequest) (string, error) {
	n := pull.GetNumber()
	files, err := ghx.ListAll(ctx, func(lo *github.ListOptions) ([]*github.CommitFile, *github.Response, error) {
		return client.PullRequests.ListFiles(ctx, owner, repo, n, lo)
	})
	if err != nil {
		return "", fmt.Errorf("reading the files of #%d: %s Nothing was written", n, ghx.Describe(err))
	}
	if why := pass.UnlistedFiles(len(files), pull.GetChangedFiles()); why != "" {
		return fmt.Sprintf("Pull request #%d %s, so whether it carries a local pack under %s cannot be seen; the gate fails closed.", n, why, proof.LocalPackFolder), nil
	}
	var carried []string
	for _, f := range files {
		if f.GetStatus() != "removed" && (proof.InLocalPackFolder(f.GetFilename()) || proof.InLocalPackFolder(f.GetPreviousFilename())) {
			carried = append(carried, f.GetFilename())
		}
	}
	if len(carried) == 0 {
		return "", nil
	}
	shown := carried
	if len(shown) > 5 {
		shown = append(shown[:5:5], fmt.Sprintf("and %d more", len(carried)-5))
	}
	return fmt.Sprintf("Pull request #%d adds files under %s (%s): a local pack is never committed and never passes as proof; only the merge gate's own pack does. Remove them from the branch (git rm -r --cached %s) and keep the folder ignored (/%s in .gitignore).",
		n, proof.LocalPackFolder, strings.Join(shown, ", "), proof.LocalPackFolder, proof.LocalPackFolder), nil
}
