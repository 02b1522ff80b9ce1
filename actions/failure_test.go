package actions

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/google/go-github/v66/github"
)

func TestInbox502OnAWrite(t *testing.T) {
	t.Parallel()
	accepted := "Accepted option 1 (Keep them in Go code, reviewed like any change) by @founder"
	cases := []struct {
		name        string
		write       int  // the write that gets the 502
		forward     bool // it reached GitHub; only the answer was lost
		what        string
		changed     string
		doneAtFirst bool
		method      string // the request that got the 502; POST when ""
	}{
		{name: "first write never arrived", write: 1,
			what:    "The comment on #1 was not posted: GitHub answered with a server error.",
			changed: "Nothing changed on GitHub."},
		{name: "second write never arrived", write: 2, method: "DELETE",
			what:    "The label status:proposed on #1 was not removed: GitHub answered with a server error.",
			changed: "The comment was posted; the label status:proposed was not removed."},
		{name: "first write landed, its answer lost", write: 1, forward: true, doneAtFirst: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fault := &faultOn{match: nthWrite(tc.write), forward: tc.forward}
			f := newFixture(t, func(next http.RoundTripper) http.RoundTripper { fault.next = next; return fault })
			ctx := context.Background()
			req := request(t, f.step(inbox.KindDecision, sandbox.DemoDecision), "1", "")
			out := f.exec.Execute(ctx, req)
			if fault.count() != 1 {
				t.Fatalf("the fault fired %d times", fault.count())
			}
			if tc.doneAtFirst {
				if !out.Done || out.Failure != nil {
					t.Fatalf("outcome %+v, failure %+v", out, out.Failure)
				}
			} else {
				fl := out.Failure
				if out.Done || fl == nil || fl.What != tc.what || fl.Changed != tc.changed || !strings.HasPrefix(fl.Next, "Press Enter to try again") || !fl.Retryable {
					t.Fatalf("outcome %+v, failure %#v", out, fl)
				}
				wordsOK(t, fl)
				if tc.method == "" {
					tc.method = "POST"
				}
				if !detailsSay(fl, "502") || !detailsSay(fl, tc.method) {
					t.Errorf("details %q do not keep the answer and the request", fl.Details)
				}
				// Nothing half done beyond what the Changed line says.
				is := f.issue(1)
				if is.GetState() != "open" || labelsOf(is)[inbox.LabelAccepted] {
					t.Errorf("#1 after the failure: %s %v", is.GetState(), labelsOf(is))
				}
				if n := len(f.commentsBy(1, "founder")); n != tc.write-1 {
					t.Errorf("%d comments after the failure, want %d", n, tc.write-1)
				}
				again := f.exec.Execute(ctx, req)
				if !again.Done {
					t.Fatalf("Enter again: %+v %+v", again, again.Failure)
				}
			}
			if got := f.commentsBy(1, "founder"); len(got) != 1 || got[0] != accepted {
				t.Errorf("comments %q, want exactly one %q", got, accepted)
			}
			if is := f.issue(1); is.GetState() != "closed" || !labelsOf(is)[inbox.LabelAccepted] {
				t.Errorf("#1 at the end: %s %v", is.GetState(), labelsOf(is))
			}
		})
	}
}

func detailsSay(f *Failure, s string) bool { return strings.Contains(strings.Join(f.Details, "\n"), s) }

var (
	urlWords    = regexp.MustCompile(`(?i)https?://|\bapi\.github|/repos/|127\.0\.0\.1`)
	methodWords = regexp.MustCompile(`\b(GET|POST|PATCH|PUT|DELETE|HEAD)\b`)
	statusWords = regexp.MustCompile(`\b[1-5][0-9][0-9]\b`)
	shaWords    = regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)
	errorWords  = regexp.MustCompile(`(?i)\b(err|nil|EOF|unexpected|dial tcp|unmarshal|json|x509|deadline exceeded|Bad Gateway|Not Found|Unprocessable)\b|%!|[{}]|:\s*$`)
)

// wordsOK asserts that the three lines name no link, method, status code,
// commit or error text, and are whole sentences.
func wordsOK(t *testing.T, f *Failure) {
	t.Helper()
	for i, line := range f.Lines() {
		for name, re := range map[string]*regexp.Regexp{"a link": urlWords, "an HTTP method": methodWords,
			"a status code": statusWords, "a commit": shaWords, "error text": errorWords} {
			if re.MatchString(line) {
				t.Errorf("line %d names %s: %q", i+1, name, line)
			}
		}
		if line == "" || !strings.HasSuffix(line, ".") || strings.ToUpper(line[:1]) != line[:1] {
			t.Errorf("line %d is not a sentence: %q", i+1, line)
		}
	}
}

func TestInboxFailureWords(t *testing.T) {
	t.Parallel()
	const head = "b046d1a1d113339eb80e130c9dc0008fa223e76f"
	req, _ := http.NewRequest(http.MethodPost, "https://api.github.com/repos/acme/benefits/issues/12/comments", nil)
	resp := func(status int, msg string, errs ...github.Error) error {
		return &github.ErrorResponse{Response: &http.Response{StatusCode: status, Request: req}, Message: msg, Errors: errs}
	}
	errs := map[string]error{
		"502 on a write":      &ghx.MayHaveLandedError{Method: "POST", URL: "https://api.github.com/repos/acme/benefits/issues/12/comments", Status: 502},
		"dropped connection":  fmt.Errorf("posting: %w", &ghx.MayHaveLandedError{Method: "PATCH", URL: "https://api.github.com/x", Err: io.ErrUnexpectedEOF}),
		"401":                 resp(401, "Bad credentials"),
		"403":                 resp(403, "Must have push access to change labels."),
		"404":                 resp(404, "Not Found"),
		"409":                 resp(409, "Git Repository is empty."),
		"422 not fast foward": resp(422, "Update is not a fast forward"),
		"422 own PR":          resp(422, "Unprocessable Entity", github.Error{Message: "Can not approve your own pull request"}),
		"422 invalid":         resp(422, "Validation Failed", github.Error{Resource: "Issue", Field: "state_reason", Code: "invalid"}),
		"500 on a read":       resp(500, "Server Error"),
		"primary limit":       &ghx.PrimaryRateLimitError{Method: "POST", URL: "https://api.github.com/x", Reset: time.Now().Add(time.Hour)},
		"secondary limit":     &ghx.SecondaryRateLimitError{Method: "POST", URL: "https://api.github.com/x", RetryAfter: time.Minute},
		"timeout":             fmt.Errorf("reading #12: %w", context.DeadlineExceeded),
		"cancelled":           context.Canceled,
		"no network":          &url.Error{Op: "Get", URL: "https://api.github.com/x", Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}},
		"not merged":          permanent(errors.New("#15 has not merged, so there is nothing to revert")),
		"surprise":            errors.New("json: cannot unmarshal number into Go value of type string at 0123456789abcdef0123"),
	}
	writes := []inbox.Write{
		{Kind: inbox.WriteComment, Number: 12, Body: "Fixed in #13"},
		{Kind: inbox.WriteAddLabel, Number: 12, Label: "status:done"},
		{Kind: inbox.WriteRemoveLabel, Number: 12, Label: "aayu:lease"},
		{Kind: inbox.WriteClose, Number: 12, Reason: "not_planned"},
		{Kind: inbox.WriteReview, Number: 12, CommitID: head, Login: "founder"},
		{Kind: inbox.WriteLedgerPut, Number: 12, Path: "reviews/12/" + head + ".json", CommitID: head},
		{Kind: inbox.WriteLedgerAppend, Number: 12, Path: inbox.SamplesPath, Correction: true},
		{Kind: inbox.WriteLedgerRemove, Number: 12, Path: inbox.AuditPath(12)},
		{Kind: inbox.WriteLedgerRemove, Number: 12, Path: "proof/3/" + head + "/advisory/pack.json"},
		{Kind: inbox.WriteRevertPR, Number: 12, Base: "dev"},
	}
	e := &Executor{cfg: ExecutorConfig{Owner: owner, Repo: repo, Viewer: "founder"}}
	for name, err := range errs {
		for _, w := range writes {
			for _, state := range []landing{notLanded, unknown} {
				r := &run{e: e, req: Request{Step: inbox.Step{Kind: inbox.KindAudit, Item: inbox.Item{Number: 12}, Head: head},
					Choice: inbox.Choice{Writes: []inbox.Write{writes[1], w}}}, state: state, commit: head}
				r.changed = []string{r.shortWords(writes[1], landed)}
				f := r.failure(1, w, err)
				t.Run(fmt.Sprintf("%s/%s/%d", name, w.Kind, state), func(t *testing.T) {
					wordsOK(t, f)
					if strings.Contains(strings.Join(f.Lines(), " "), err.Error()) {
						t.Errorf("the lines quote the error: %q", f.Lines())
					}
					if len(f.Details) < 2 || !detailsSay(f, err.Error()) {
						t.Errorf("details %q do not keep the error", f.Details)
					}
					if f.Retryable != strings.Contains(f.Next, "ress Enter to try again") {
						t.Errorf("retryable %v but next %q", f.Retryable, f.Next)
					}
				})
			}
		}
	}
}

func TestInboxFailedChoiceLeaves(t *testing.T) {
	t.Parallel()
	t.Run("GitHub refuses a write", func(t *testing.T) {
		f := newFixture(t, nil)
		gh := newClient(t, f.base, "reader", nil)
		reads := inboxread.New(gh, owner, repo, inboxread.Options{Settings: &inboxread.Settings{IntegrationBranch: "dev", Approver: "founder", SoloMode: true}})
		e, err := NewExecutor(ExecutorConfig{Client: gh, Owner: owner, Repo: repo, Viewer: "reader", Reread: rereadWith(reads), Log: OpenLog(f.logDir, nil)})
		if err != nil {
			t.Fatal(err)
		}
		card, _, err := e.cfg.Reread(context.Background(), inbox.Step{Kind: inbox.KindDecision, Item: inbox.Item{Number: 1}})
		if err != nil {
			t.Fatal(err)
		}
		out := e.Execute(context.Background(), request(t, card, "1", ""))
		fl := out.Failure
		if fl == nil || fl.Retryable || out.Done {
			t.Fatalf("outcome %+v, failure %+v: want a failure Enter cannot fix", out, fl)
		}
		if fl.Next != "GitHub refused the request; open #1 on GitHub to act on it by hand." ||
			fl.Changed != "The comment was posted; the label status:proposed was not removed." {
			t.Errorf("lines %q", fl.Lines())
		}
		wordsOK(t, fl)
		t.Logf("the card says:\n%s\nbehind d:\n%s", strings.Join(fl.Lines(), "\n"), strings.Join(fl.Details, "\n"))
		if recs := f.records(); len(recs) != 1 || recs[0].Outcome != OutcomeFailed || !strings.Contains(recs[0].Detail, "403") {
			t.Errorf("log %+v", recs)
		}
	})
	t.Run("a disabled choice", func(t *testing.T) {
		e, err := NewExecutor(ExecutorConfig{Client: github.NewClient(nil), Owner: owner, Repo: repo, Viewer: "writer",
			Reread: func(context.Context, inbox.Step) (inbox.Step, bool, error) {
				t.Error("a refused choice re-read the item")
				return inbox.Step{}, false, nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		approve := inbox.Choice{Key: "2", Label: "approve its head", Disabled: "only the [autonomy] approver, @founder, may approve a head here",
			Writes: []inbox.Write{{Kind: inbox.WriteReview, Number: 6, CommitID: strings.Repeat("a", 40), Login: "writer"}}}
		st := inbox.Step{Kind: inbox.KindNeedsReview, Item: inbox.Item{Number: 6, IsPR: true}, Choices: []inbox.Choice{approve}}
		out := e.Execute(context.Background(), Request{Step: st, Choice: approve, Note: "read it"})
		if out.Failure == nil || out.Failure.Retryable || out.Done || !strings.Contains(out.Failure.What, "only the [autonomy] approver") {
			t.Fatalf("outcome %+v, failure %+v", out, out.Failure)
		}
		wordsOK(t, out.Failure)
	})
}
