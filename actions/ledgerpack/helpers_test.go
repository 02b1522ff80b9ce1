package ledgerpack

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/aayudha/aayu/proof"
)

const owner, repo = sandbox.RepoOwner, sandbox.RepoName

type fixture struct {
	t   *testing.T
	srv *sandbox.Server
	v   *conformance.Validator
	gh  *github.Client // the founder
	bot *github.Client // agent-bot[bot], who pushes previews
	ctx context.Context
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	srv, v, base := conformance.StartSandbox(t, sandbox.Options{})
	return &fixture{t: t, srv: srv, v: v, gh: client(t, base, "founder"), bot: client(t, base, "agent-bot"), ctx: context.Background()}
}

func client(t *testing.T, base, login string) *github.Client {
	t.Helper()
	c, err := ghx.NewClient(ghx.ClientOptions{APIURL: base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+login, "test"),
		Retry: ghx.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// packSpec says how to build a local pack for a demo story.
type packSpec struct {
	story, pr int
	head      string    // "" is the pull request's current head
	created   time.Time // zero is now
	media     []proof.Artifact
	mediaData map[string][]byte
	floorFail bool
}

// localPack builds .aayudha/proof/STORY/ in a temporary checkout, the way
// aayu verify would: one evidence file per Ready criterion of the ledger's
// snapshot, a report, and the checks.
func (f *fixture) localPack(s packSpec) string {
	f.t.Helper()
	ready, problem, err := ReadReady(f.ctx, f.gh, owner, repo, s.story)
	if err != nil || ready == nil {
		f.t.Fatalf("the demo's Ready snapshot of story %d: %v %s", s.story, err, problem)
	}
	if s.head == "" && s.pr != 0 {
		s.head = f.srv.HeadSHA(s.pr)
	}
	if s.created.IsZero() {
		s.created = time.Now()
	}
	covered := 12
	if s.floorFail {
		covered = 5 // 41.6 of 100: the report the floor is recounted from agrees with the check
	}
	files := map[string][]byte{"reports/vet.txt": []byte("go vet: no findings\n"),
		proof.CoverageReportPath: []byte(fmt.Sprintf("benefits.go: %d of 12 changed executable lines covered\n", covered))}
	p := &proof.Pack{Schema: 1, Repo: owner + "/" + repo, Story: s.story, PR: s.pr, PRHeadSHA: s.head,
		Seat: "ai-native-engineer", Host: "cli", Identity: proof.IdentityBot,
		Authority:          proof.Authority{Kind: proof.AuthorityAdvisory},
		CompletionGoalHash: ready.RecordedHash, CreatedAt: s.created.UTC().Format(time.RFC3339),
		Links: proof.Links{Issue: fmt.Sprintf("%s/%s#%d", owner, repo, s.story)}}
	for _, c := range ready.Criteria {
		path := proof.EvidencePath(c.ID)
		test := `"Package":"example.com/benefits","Test":"TestCriterion` + strconv.Itoa(c.ID) + `"}` + "\n"
		files[path] = []byte(`{"Action":"run",` + test + `{"Action":"pass",` + test)
		p.Criteria = append(p.Criteria, proof.Criterion{ID: c.ID, Evidence: []string{path}})
	}
	for path, b := range files {
		kind := proof.KindAPITrace
		if strings.HasPrefix(path, "reports/") {
			kind = proof.KindReport
		}
		p.Artifacts = append(p.Artifacts, proof.ArtifactFromBytes(path, kind, b))
	}
	p.Artifacts = append(p.Artifacts, s.media...)
	for k, b := range s.mediaData {
		files[k] = b
	}
	result := proof.ResultPass
	if s.floorFail {
		result = proof.ResultFail
	}
	value, threshold, none := 100.0, 90.0, 0.0
	if s.floorFail {
		value = 41.6
	}
	ran := float64(len(ready.Criteria))
	p.Checks = []proof.Check{{Floor: "coverage", Result: result, Value: &value, Threshold: &threshold, Tool: "go test -cover", Version: "go1.26.8", Network: proof.NetworkIsolated},
		{Floor: "tests", Result: proof.ResultPass, Value: &ran, Tool: "go test -json", Version: "go1.26.8", Network: proof.NetworkIsolated},
		{Floor: "vet", Result: proof.ResultPass, Value: &none, Threshold: &none, Tool: "go vet", Version: "go1.26.8", Network: proof.NetworkIsolated}}
	dir := filepath.Join(f.t.TempDir(), ".aayudha", "proof", strconv.Itoa(s.story))
	if _, err := proof.WriteLocal(dir, p, files); err != nil {
		f.t.Fatal(err)
	}
	return dir
}

// verify checks a fetched ledger pack the way the pack screen does.
func (f *fixture) verify(l *Loaded) *proof.Report {
	f.t.Helper()
	r, err := proof.VerifyDir(f.ctx, l.Dir, proof.Options{Ready: l.Ready, HeadSHA: l.PRHead})
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

func (f *fixture) load(story int) *Loaded {
	f.t.Helper()
	l, err := Load(f.ctx, f.gh, owner, repo, story, filepath.Join(f.t.TempDir(), "pack"), Caps{})
	if err != nil {
		f.t.Fatalf("loading story %d's best pack: %v", story, err)
	}
	return l
}
