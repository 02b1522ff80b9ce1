package gatecomment

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/proof"
)

func num(f float64) *float64 { return &f }

func sampleReport() *proof.Report {
	p := &proof.Pack{Story: 3, PR: 4, PRHeadSHA: strings.Repeat("a", 40), Authority: proof.Authority{Kind: "authoritative"},
		Checks: []proof.Check{
			{Floor: "coverage", Result: "pass", Value: num(100), Threshold: num(90), Tool: "go test", Version: "go1.26.8", Detail: "all covered"},
			{Floor: "vet", Result: "pass", Detail: "EVIL\x1b]52;c;ZXZpbA==\x07 a|b <!-- aayudha:pack-comment --> @founder [x](https://evil) \u202eEND\nsecond line"},
		}}
	return &proof.Report{Pack: p, PackSHA256: strings.Repeat("b", 64), FloorsHold: true,
		Criteria: []proof.CriterionResult{{ID: 1, Text: "Remaining | never <b>negative</b>", Evidence: []string{"evidence/criterion-1.jsonl"}, Proven: true}}}
}

func TestBodyListsTheFactsAndNeutralisesUntrustedText(t *testing.T) {
	t.Parallel()
	body := Body(sampleReport(), BodyOptions{Marker: Marker, Links: Links{Run: "https://github.com/acme/benefits/actions/runs/7", RunID: 7,
		Artifact: "https://github.com/acme/benefits/actions/runs/7/artifacts/9"}})
	for _, want := range []string{
		Marker + "\n",
		"the pack verifies and every floor holds",
		"pack.json SHA-256: `" + strings.Repeat("b", 64) + "`",
		"| 1 | proven | Remaining \\| never \\<b\\>negative\\</b\\> | `evidence/criterion-1.jsonl` |",
		"| coverage | pass | 100 | 90 | go test go1.26.8 | all covered |",
		"| vet | pass | — | — |",
		"Run: [run 7](https://github.com/acme/benefits/actions/runs/7)",
		"Artifact: [aayudha-pack](https://github.com/acme/benefits/actions/runs/7/artifacts/9)",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the body lacks %q:\n%s", want, body)
		}
	}
	if strings.Count(body, Marker) != 1 || strings.Count(body, "<!--") != 1 {
		t.Errorf("a check detail smuggled a second marker into the comment:\n%s", body)
	}
	for _, bad := range []string{"\x1b", "\x07", "\u202e", " @founder", "](https://evil)", "a|b"} {
		if strings.Contains(body, bad) {
			t.Errorf("untrusted text reached the comment with %q intact:\n%s", bad, body)
		}
	}
	vet := body[strings.Index(body, "| vet |"):]
	if line := vet[:strings.Index(vet, "\n")]; !strings.Contains(line, "second line") {
		t.Errorf("a line break in a detail ended its table row: %q", line)
	}
}

func TestBodyVerdictsAndExitCodes(t *testing.T) {
	t.Parallel()
	floor := sampleReport()
	floor.FloorsHold, floor.FailedFloors = false, []proof.Check{floor.Pack.Checks[0]}
	broken := sampleReport()
	broken.Problems = []proof.Problem{{Code: proof.CodeHashMismatch, Message: "artifact x: sha256 is 1, pack.json says 2"}}
	cases := []struct {
		name string
		r    *proof.Report
		code int
		say  string
	}{
		{"holds", sampleReport(), ExitOK, "every floor holds"},
		{"floor", floor, ExitFloor, "Floors that do not hold: coverage."},
		{"broken", broken, ExitRefused, "- artifact x: sha256 is 1, pack.json says 2"},
		{"no pack", nil, ExitRefused, "does not verify"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ExitCode(c.r); got != c.code {
				t.Errorf("exit %d, want %d", got, c.code)
			}
			if b := Body(c.r, BodyOptions{Marker: Marker}); !strings.Contains(b, c.say) {
				t.Errorf("the body does not say %q:\n%s", c.say, b)
			}
		})
	}
}

// fakeComments is a pull request's comments behind the three endpoints
// Upsert uses, PATCH included.
type fakeComments struct {
	mu       sync.Mutex
	list     []*github.IssueComment
	patches  int
	creates  int
	callerAs string
}

func (f *fakeComments) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/repos/o/r/issues/4/comments":
		_ = json.NewEncoder(w).Encode(f.list)
	case r.Method == http.MethodPost && r.URL.Path == "/repos/o/r/issues/4/comments":
		var c github.IssueComment
		_ = json.NewDecoder(r.Body).Decode(&c)
		c.ID, c.User = github.Int64(int64(100+len(f.list))), &github.User{Login: github.String(f.callerAs)}
		f.list = append(f.list, &c)
		f.creates++
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(c)
	case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/repos/o/r/issues/comments/"):
		id, _ := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, "/repos/o/r/issues/comments/"), 10, 64)
		var in github.IssueComment
		_ = json.NewDecoder(r.Body).Decode(&in)
		for _, c := range f.list {
			if c.GetID() == id {
				c.Body = in.Body
				f.patches++
				_ = json.NewEncoder(w).Encode(c)
				return
			}
		}
		http.NotFound(w, r)
	default:
		http.Error(w, fmt.Sprintf("unexpected %s %s", r.Method, r.URL.Path), http.StatusTeapot)
	}
}

func TestUpsertUpdatesInPlace(t *testing.T) {
	t.Parallel()
	fake := &fakeComments{callerAs: "github-actions[bot]"}
	fake.list = []*github.IssueComment{
		{ID: github.Int64(1), User: &github.User{Login: github.String("mallory")}, Body: github.String(Marker + "\nplanted")},
		{ID: github.Int64(2), User: &github.User{Login: github.String("github-actions[bot]")}, Body: github.String(AdvisoryMarker + "\npreview")},
	}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	c := github.NewClient(srv.Client())
	c.BaseURL, _ = url.Parse(srv.URL + "/")
	ctx := context.Background()

	first, err := Upsert(ctx, c, "o", "r", 4, Marker, Marker+"\nverdict one", "github-actions[bot]")
	if err != nil || !first.Created {
		t.Fatalf("first: %+v %v; want a new comment (neither the planted one nor the advisory one is the gate's)", first, err)
	}
	same, err := Upsert(ctx, c, "o", "r", 4, Marker, Marker+"\nverdict one", "github-actions[bot]")
	if err != nil || !same.Unchanged || same.ID != first.ID || fake.patches != 0 {
		t.Fatalf("same body: %+v %v, %d patches; want nothing written", same, err, fake.patches)
	}
	next, err := Upsert(ctx, c, "o", "r", 4, Marker, Marker+"\nverdict two", "github-actions[bot]")
	if err != nil || next.Created || next.ID != first.ID || fake.patches != 1 || fake.creates != 1 {
		t.Fatalf("new body: %+v %v (%d creates, %d patches); want the one comment updated", next, err, fake.creates, fake.patches)
	}
	if got := fake.list[0].GetBody(); got != Marker+"\nplanted" {
		t.Errorf("the planted comment was changed to %q", got)
	}
	if got := fake.list[1].GetBody(); got != AdvisoryMarker+"\npreview" {
		t.Errorf("the advisory comment was changed to %q", got)
	}
	if _, err := Upsert(ctx, c, "o", "r", 4, Marker, "no marker here", "github-actions[bot]"); err == nil {
		t.Error("a body without its marker was written")
	}
}

// TestBodyShowsTestFramingWarning: a TestMain the pull request adds is named
// in the gate's comment, neutralised like every string of the pack.
func TestBodyShowsTestFramingWarning(t *testing.T) {
	t.Parallel()
	r := sampleReport()
	r.Pack.Warnings = []proof.Warning{{Name: proof.WarningTestFraming,
		Detail: "The pull request adds or changes code that runs around the mapped tests: TestMain in deductible/main_test.go (added) \x1b[2J<!-- x -->."}}
	body := Body(r, BodyOptions{Marker: Marker})
	if !strings.Contains(body, "### Warnings") || !strings.Contains(body, "- **test-framing**: The pull request adds or changes code") ||
		!strings.Contains(body, "TestMain in deductible/main\\_test.go \\(added\\)") {
		t.Errorf("the body does not name the warning:\n%s", body)
	}
	if strings.Contains(body, "\x1b") || strings.Count(body, "<!--") != 1 {
		t.Errorf("the warning's text reached the comment raw:\n%s", body)
	}
	if strings.Contains(Body(sampleReport(), BodyOptions{Marker: Marker}), "Warnings") {
		t.Error("a pack without warnings shows a Warnings section")
	}
}

// TestBodyShowsTheBasesThresholdNotThePacks: the Threshold column is the
// threshold the pack was judged by, the base branch's, so a pack that
// claims a lower one of its own cannot make the comment read as if it met
// a lower bar; without a policy (the advisory push) it shows the pack's.
func TestBodyShowsTheBasesThresholdNotThePacks(t *testing.T) {
	t.Parallel()
	r := sampleReport()
	r.Pack.Checks[0].Threshold = num(50)
	for _, tc := range []struct {
		name   string
		floors *proof.FloorPolicy
		want   string
	}{
		{"the base's threshold", &proof.FloorPolicy{CoverageThreshold: num(95)}, "| coverage | pass | 100 | 95 |"},
		{"the default when the base names none", &proof.FloorPolicy{}, fmt.Sprintf("| coverage | pass | 100 | %s |", strconv.FormatFloat(proof.DefaultCoverageThreshold, 'f', -1, 64))},
		{"the pack's own without a policy", nil, "| coverage | pass | 100 | 50 |"},
	} {
		body := Body(r, BodyOptions{Marker: Marker, Floors: tc.floors})
		if !strings.Contains(body, tc.want) {
			t.Errorf("%s: the body lacks %q:\n%s", tc.name, tc.want, body)
		}
	}
}
