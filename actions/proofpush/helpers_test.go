package proofpush

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/aayudha/aayu/actions/ledgerpack"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/aayudha/aayu/proof"
)

const owner, repo = sandbox.RepoOwner, sandbox.RepoName

type fixture struct {
	t   *testing.T
	srv *sandbox.Server
	gh  *github.Client // the founder, who pushes
	ctx context.Context
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	srv, _, base := conformance.StartSandbox(t, sandbox.Options{})
	c, err := ghx.NewClient(ghx.ClientOptions{APIURL: base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+"founder", "test"),
		Retry: ghx.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, srv: srv, gh: c, ctx: context.Background()}
}

// checkout writes .aayudha/proof/STORY/ into a fresh folder the way aayu
// verify does (one evidence file per criterion of the ledger's Ready
// snapshot, a report, the checks), plus the media given, and returns the
// folder.
func (f *fixture) checkout(story, pr int, media map[string][]byte) string {
	f.t.Helper()
	ready, problem, err := ledgerpack.ReadReady(f.ctx, f.gh, owner, repo, story)
	if err != nil || ready == nil {
		f.t.Fatalf("the demo's Ready snapshot of story %d: %v %s", story, err, problem)
	}
	files := map[string][]byte{"reports/vet.txt": []byte("go vet: no findings\n"),
		proof.CoverageReportPath: []byte("benefits.go: 12 of 12 changed executable lines covered\n")}
	p := &proof.Pack{Schema: 1, Repo: owner + "/" + repo, Story: story, PR: pr, PRHeadSHA: f.srv.HeadSHA(pr),
		Seat: "ai-native-engineer", Host: "cli", Identity: proof.IdentityHuman,
		Authority:          proof.Authority{Kind: proof.AuthorityAdvisory},
		CompletionGoalHash: ready.RecordedHash, CreatedAt: time.Now().UTC().Format(time.RFC3339),
		Links: proof.Links{Issue: fmt.Sprintf("%s/%s#%d", owner, repo, story)}}
	for _, c := range ready.Criteria {
		path := proof.EvidencePath(c.ID)
		test := `"Package":"example.com/benefits","Test":"TestCriterion` + strconv.Itoa(c.ID) + `"}` + "\n"
		files[path] = []byte(`{"Action":"run",` + test + `{"Action":"pass",` + test)
		p.Criteria = append(p.Criteria, proof.Criterion{ID: c.ID, Evidence: []string{path}})
	}
	for path, b := range files {
		kind := proof.KindAPITrace
		if path == "reports/vet.txt" || path == proof.CoverageReportPath {
			kind = proof.KindReport
		}
		p.Artifacts = append(p.Artifacts, proof.ArtifactFromBytes(path, kind, b))
	}
	for path, b := range media {
		a := proof.ArtifactFromBytes(path, proof.KindScreenshot, b)
		a.Store = proof.StoreNone // bytes beside it, as a preview keeps them until --media copies them
		p.Artifacts = append(p.Artifacts, a)
		files[path] = b
	}
	value, threshold, none, ran := 100.0, 90.0, 0.0, float64(len(ready.Criteria))
	p.Checks = []proof.Check{{Floor: "coverage", Result: proof.ResultPass, Value: &value, Threshold: &threshold, Tool: "go test -cover", Version: "go1.26.8", Network: proof.NetworkIsolated},
		{Floor: "tests", Result: proof.ResultPass, Value: &ran, Tool: "go test -json", Version: "go1.26.8", Network: proof.NetworkIsolated},
		{Floor: "vet", Result: proof.ResultPass, Value: &none, Threshold: &none, Tool: "go vet", Version: "go1.26.8", Network: proof.NetworkIsolated}}
	dir := f.t.TempDir()
	if _, err := proof.WriteLocal(Dir(dir, story), p, files); err != nil {
		f.t.Fatal(err)
	}
	return dir
}

// s3Server is a real S3-speaking server in the process (gofakes3 over a
// memory backend, buckets made on first use) and the AWS variables that
// point the standard client at it.
func s3Server(t *testing.T) (*s3mem.Backend, map[string]string) {
	t.Helper()
	backend := s3mem.New()
	ts := httptest.NewServer(gofakes3.New(backend, gofakes3.WithAutoBucket(true)).Server())
	t.Cleanup(ts.Close)
	return backend, map[string]string{
		"AWS_ACCESS_KEY_ID": "AKIAEXAMPLEPROOFKEY", "AWS_SECRET_ACCESS_KEY": "proof-media-secret-never-printed",
		"AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL_S3": ts.URL,
	}
}

func ledgerFile(f *fixture, p string) ([]byte, error) {
	return ghx.ReadFile(f.ctx, f.gh, owner, repo, ledgerpack.LedgerBranch, p)
}

func packPath(f *fixture, story, pr int) string {
	return filepath.ToSlash(fmt.Sprintf("proof/%d/%s/advisory", story, f.srv.HeadSHA(pr)))
}

func readFile(dir, artifact string) ([]byte, error) {
	return os.ReadFile(filepath.Join(dir, "artifacts", filepath.FromSlash(artifact)))
}
