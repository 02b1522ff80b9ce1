package ledgerpack

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gaterun"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/proof"
)

// The merge gate's workflow file and the artifact it uploads.
const (
	GateWorkflowFile = gaterun.WorkflowFile
	PackArtifact     = "aayudha-pack"
)

// GateOptions choose and bound the gate run GateArtifact reads.
type GateOptions struct {
	// RunID reads that run; 0 takes the newest run that qualifies by its
	// record (see GateArtifact).
	RunID int64
	// MaxZipBytes caps the download; default 1 GiB.
	MaxZipBytes int64
	Zip         proof.ZipCaps
	Now         func() time.Time
}

// GateRun is the gate run whose artifact was unpacked.
type GateRun struct {
	RunID      int64
	RunURL     string
	ArtifactID int64
	Dir        string // the unpacked pack folder
}

// IsExpired reports an artifact GitHub no longer keeps.
func IsExpired(err error) bool { return errors.Is(err, ghx.ErrArtifactExpired) || ghx.IsExpired(err) }

// GateArtifact downloads and unpacks, into dir (created; it must not
// exist), the aayudha-pack artifact of the merge gate's newest run for pull
// request pr on head: a pull_request_target run, completed with success,
// whose pull_requests[] entry names pr at exactly head (model/gaterun's
// rule, the one ship and the inbox use). This is for reading the gate's
// pack on the pack screen; ship also passes over runs whose artifact does
// not verify. An expired
// artifact gives an error IsExpired reports, in words that say "expired".
func GateArtifact(ctx context.Context, client *github.Client, owner, repo string, pr int, head, dir string, opts GateOptions) (*GateRun, error) {
	if opts.MaxZipBytes <= 0 {
		opts.MaxZipBytes = 1 << 30
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	run, err := gateRun(ctx, client, owner, repo, pr, head, opts.RunID)
	if err != nil {
		return nil, err
	}
	arts, _, err := client.Actions.ListWorkflowRunArtifacts(ctx, owner, repo, run.GetID(), &github.ListOptions{PerPage: 100})
	if err != nil {
		return nil, fmt.Errorf("listing the artifacts of run %d: %s", run.GetID(), ghx.Describe(err))
	}
	var art *github.Artifact
	for _, a := range arts.Artifacts {
		if a.GetName() == PackArtifact && (art == nil || a.GetCreatedAt().After(art.GetCreatedAt().Time)) {
			art = a
		}
	}
	if art == nil {
		return nil, fmt.Errorf("run %d of the merge gate has no %s artifact", run.GetID(), PackArtifact)
	}
	if art.GetExpired() || (!art.GetExpiresAt().IsZero() && !opts.Now().Before(art.GetExpiresAt().Time)) {
		return nil, expired(run.GetID(), art)
	}
	g := &GateRun{RunID: run.GetID(), RunURL: run.GetHTMLURL(), ArtifactID: art.GetID(), Dir: dir}
	zf, err := os.CreateTemp("", "aayu-gate-*.zip")
	if err != nil {
		return nil, fmt.Errorf("preparing to download the artifact: %w", err)
	}
	defer os.Remove(zf.Name())
	defer zf.Close()
	n, err := ghx.DownloadArtifact(ctx, client, owner, repo, art.GetID(), zf, opts.MaxZipBytes)
	switch {
	case IsExpired(err):
		return nil, expired(run.GetID(), art)
	case err != nil:
		return nil, fmt.Errorf("downloading the %s artifact of run %d: %s", PackArtifact, run.GetID(), ghx.Describe(err))
	}
	if err := proof.ExtractPackZip(zf, n, dir, opts.Zip); err != nil {
		return nil, fmt.Errorf("the %s artifact of run %d: %w", PackArtifact, run.GetID(), err)
	}
	return g, nil
}

func expired(run int64, art *github.Artifact) error {
	when := ""
	if t := art.GetExpiresAt(); !t.IsZero() {
		when = " on " + t.UTC().Format("2006-01-02")
	}
	return fmt.Errorf("the %s artifact of run %d expired%s; GitHub no longer keeps its bytes: %w", PackArtifact, run, when, ghx.ErrArtifactExpired)
}

// gateRun picks the run: the one asked for, or the newest that qualifies
// by its record.
func gateRun(ctx context.Context, client *github.Client, owner, repo string, pr int, head string, id int64) (*github.WorkflowRun, error) {
	if id != 0 {
		run, _, err := client.Actions.GetWorkflowRunByID(ctx, owner, repo, id)
		if err != nil {
			return nil, fmt.Errorf("reading run %d: %s", id, ghx.Describe(err))
		}
		return run, nil
	}
	runs, err := ghx.ListWorkflowRuns(ctx, client, owner, repo, GateWorkflowFile, nil)
	if err != nil {
		return nil, fmt.Errorf("listing the runs of %s: %s", GateWorkflowFile, ghx.Describe(err))
	}
	for _, r := range runs {
		if gaterun.Qualifies(ghx.GateRunFacts(r), gaterun.Target{PR: pr, Head: head}) {
			return r, nil
		}
	}
	return nil, fmt.Errorf("no run of %s qualifies for pull request #%d at head %s (a pull_request_target run, completed with success, on exactly that head)", GateWorkflowFile, pr, gitsha.Short(head))
}
