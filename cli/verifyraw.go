package cli

import (
	"fmt"
	"os"

	build "github.com/aayudha/aayu/actions/packbuild"
	"github.com/aayudha/aayu/tui"
)

// tokenVariables are the environment variables a token reaches a process
// through; the merge gate's tests job must hold none of them.
var tokenVariables = []string{"GITHUB_TOKEN", "GH_TOKEN", "GH_ENTERPRISE_TOKEN", "AAYU_GITHUB_TOKEN", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN"}

// runVerifyRaw is `aayu verify STORY --raw-out DIR`, the merge gate's
// tests job: it runs the pull request's tests, go vet and red on base in
// the checkout and keeps only what they said in DIR, for the pack job to
// build the pack from (--from-raw). It talks to no GitHub, and refuses to
// run where a token is in its environment: the pull request's code runs
// beside it and must find none.
func (w wiring) runVerifyRaw() int {
	inv, e := w.inv, w.e
	story, err := build.ParseStory(inv.Args[0])
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu verify: %v\n", err)
		return tui.ExitUsage
	}
	if inv.Flags["from-raw"] != "" {
		fmt.Fprintln(e.stderr, "aayu verify: --raw-out runs the tests and --from-raw builds the pack from their outputs, in two jobs; give one. Nothing was run.")
		return tui.ExitUsage
	}
	for _, k := range tokenVariables {
		if e.getenv(k) != "" {
			fmt.Fprintf(e.stderr, "aayu verify --raw-out refuses to run the pull request's code with a token in its environment (%s is set): the merge gate's tests job holds no token. Remove %s from the job. Nothing was run.\n", k, k)
			return tui.ExitRefused
		}
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu verify: %v\n", err)
		return tui.ExitFailed
	}
	req := build.RawRequest{Dir: cwd, Story: story, BaseBranch: e.getenv("GITHUB_BASE_REF"), Out: inv.Flags["raw-out"], Config: w.src.sources}
	err = build.RunRaw(w.ctx, build.Tools{}, req, func(ev build.Event) {
		switch ev := ev.(type) {
		case build.StepStarted:
			fmt.Fprintf(e.stdout, "%s: %s\n", ev.Step, tui.SanitizeLine(ev.What))
		case build.StepEnded:
			fmt.Fprintf(e.stdout, "%s: %s\n", ev.Step, tui.SanitizeLine(ev.Detail))
		}
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu verify --raw-out: %s\n", tui.SanitizeLine(err.Error()))
		return tui.ExitFailed
	}
	fmt.Fprintf(e.stdout, "raw outputs of story %d written to %s; the pack job builds and judges the pack from them.\n", story, tui.SanitizeLine(req.Out))
	return tui.ExitOK
}
