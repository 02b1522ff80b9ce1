package inspect

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/checks"
	model "github.com/aayudha/aayu/model/inspect"
)

// View is inspect's judgement of a pull request's head as `aayu inspect
// PR` shows it: the aayudha/inspect status the merge gate's own run posted
// (checks.InspectFromGate; anyone else's is named and ignored) and, when
// that run's aayudha-inspect artifact can still be read, the judgement
// behind it.
type View struct {
	PR      int
	Head    string
	Title   string
	Found   bool   // the gate's own status is on the head
	State   string // its state
	Summary string // its description
	Run     string // the run it points at
	// Judgement is the run's aayudha-inspect file; nil when it could not
	// be read (Missing says why).
	Judgement *model.Judgement
	Missing   string
	// Ignored are aayudha/inspect statuses others posted on the head.
	Ignored []string
}

// maxJudgementZip caps the aayudha-inspect artifact read.
const maxJudgementZip = 8 << 20

// ReadView reads the view of pr's head. It writes nothing.
func ReadView(ctx context.Context, client *github.Client, owner, repo string, pr int) (View, error) {
	v := View{PR: pr}
	pull, _, err := client.PullRequests.Get(ctx, owner, repo, pr)
	if err != nil {
		return v, fmt.Errorf("reading pull request #%d: %s", pr, ghx.Describe(err))
	}
	v.Head, v.Title = pull.GetHead().GetSHA(), pull.GetTitle()
	sts, _, err := client.Repositories.ListStatuses(ctx, owner, repo, v.Head, &github.ListOptions{PerPage: 100})
	if err != nil {
		return v, fmt.Errorf("reading the statuses of head %s: %s", v.Head, ghx.Describe(err))
	}
	runs := checks.RunsPath(owner, repo)
	for _, st := range sts { // newest first
		if st.GetContext() != checks.InspectContext {
			continue
		}
		ck := checks.Check{Name: st.GetContext(), Kind: "status", URL: st.GetTargetURL(), By: st.GetCreator().GetLogin()}
		if !checks.InspectFromGate(ck, runs) {
			v.Ignored = append(v.Ignored, fmt.Sprintf("a status by @%s, not the merge gate's own run", st.GetCreator().GetLogin()))
			continue
		}
		if !v.Found {
			v.Found, v.State, v.Summary, v.Run = true, st.GetState(), st.GetDescription(), st.GetTargetURL()
		}
	}
	if !v.Found {
		return v, nil
	}
	j, why := readRunJudgement(ctx, client, owner, repo, v.Run, pr, v.Head)
	v.Judgement, v.Missing = j, why
	return v, nil
}

// readRunJudgement downloads the run's aayudha-inspect artifact and
// decodes its judgement of head.
func readRunJudgement(ctx context.Context, client *github.Client, owner, repo, runURL string, pr int, head string) (*model.Judgement, string) {
	u, err := url.Parse(runURL)
	if err != nil {
		return nil, "the status names no run"
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	id, err := strconv.ParseInt(parts[len(parts)-1], 10, 64)
	if err != nil || id <= 0 {
		return nil, "the status names no run"
	}
	arts, _, err := client.Actions.ListWorkflowRunArtifacts(ctx, owner, repo, id, &github.ListOptions{PerPage: 100})
	if err != nil {
		return nil, fmt.Sprintf("the run's artifacts could not be listed: %s", ghx.Describe(err))
	}
	for _, a := range arts.Artifacts {
		if a.GetName() != Artifact {
			continue
		}
		var buf bytes.Buffer
		if _, err := ghx.DownloadArtifact(ctx, client, owner, repo, a.GetID(), &buf, maxJudgementZip); err != nil {
			return nil, fmt.Sprintf("the run's %s artifact could not be downloaded: %s", Artifact, ghx.Describe(err))
		}
		zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			return nil, fmt.Sprintf("the run's %s artifact is not a zip", Artifact)
		}
		for _, f := range zr.File {
			if f.Name != File {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return nil, fmt.Sprintf("the run's %s could not be read", File)
			}
			b, err := io.ReadAll(io.LimitReader(rc, 4<<20+1))
			rc.Close()
			if err != nil {
				return nil, fmt.Sprintf("the run's %s could not be read", File)
			}
			j, err := Decode(b, pr, head)
			if err != nil {
				return nil, err.Error()
			}
			return &j, ""
		}
		return nil, fmt.Sprintf("the run's %s artifact holds no %s", Artifact, File)
	}
	return nil, fmt.Sprintf("the run has no %s artifact (it expired, or the run predates inspect)", Artifact)
}
