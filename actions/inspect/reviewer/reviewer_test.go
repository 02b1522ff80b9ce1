package reviewer_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/actions/inspect"
	"github.com/aayudha/aayu/actions/inspect/reviewer"
	"github.com/aayudha/aayu/ghx/sandbox"
	model "github.com/aayudha/aayu/model/inspect"
)

const assertingTest = `package greet

import "testing"

func TestShout(t *testing.T) {
	if got := Shout("ada"); got != "HELLO, ADA!" {
		t.Errorf("got %q", got)
	}
}

func TestShoutNoFailurePath(t *testing.T) { _ = Shout("ada") }
`

// sandboxReviewer is the sandbox's deterministic reviewer endpoint, as
// [inspect] names it, with the sandbox's key.
func sandboxReviewer(t *testing.T, key string) inspect.Reviewer {
	t.Helper()
	return sandboxReviewerOf(t, "openai", key)
}

// sandboxReviewerOf is the sandbox's endpoint spoken as kind ("openai" or
// "anthropic").
func sandboxReviewerOf(t *testing.T, kind, key string) inspect.Reviewer {
	t.Helper()
	srv, err := sandbox.New(sandbox.Options{ShareSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	rv, err := reviewer.New(inspect.Settings{Reviewer: kind, Endpoint: hs.URL + sandbox.ReviewerPath, Model: sandbox.ReviewerModel}, key, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rv
}

// judged is a judgement of one criterion mapped to test, before review.
func judged(text, test string) (*model.Judgement, model.Facts) {
	f := model.Facts{
		Goals:     []model.Goal{{ID: 1, Text: text}},
		Map:       []model.Mapping{{ID: 1, Tests: []string{"greet:" + test}}},
		Mapped:    true,
		Outcome:   map[string]model.Outcome{"greet:" + test: model.Passed},
		TestFiles: map[string]map[string][]byte{"greet": {"shout_test.go": []byte(assertingTest)}},
	}
	// A builder of another family than the sandbox's reviewer, so its
	// rung is not capped (model/inspect.Cap).
	return &model.Judgement{Version: model.Version, PR: 4, Head: "abc", Criteria: model.Judge(f),
		Builder: "claude-sonnet-4-5", ReviewerModel: sandbox.ReviewerModel}, f
}

// TestReviewerRecordsTheRungReasonsAndSpend: the sandbox's reviewer reads
// the mapped test inside the untrusted block, answers rung A for a test
// that asserts and C, not shown, for one that cannot fail; tokens are
// counted.
func TestReviewerRecordsTheRungReasonsAndSpend(t *testing.T) {
	rv := sandboxReviewer(t, sandbox.ReviewerKey)
	j, f := judged("Shout greets a name in capitals", "TestShout")
	ok, why := inspect.Review(context.Background(), rv, 10*time.Second, j, f)
	if !ok || why != "" || j.Criteria[0].Rung != "A" || !j.Criteria[0].Shown || j.Spend.TokensIn == 0 || j.Spend.TokensOut == 0 {
		t.Fatalf("Review = %v %q, %+v, spend %+v", ok, why, j.Criteria[0], j.Spend)
	}
	j.Decide(ok, why, 0)
	if state, desc := j.Status(); state != "success" || !strings.HasPrefix(desc, "rung A: ") {
		t.Errorf("status %s %q", state, desc)
	}
	j, f = judged("Shout greets a name in capitals", "TestShoutNoFailurePath")
	ok, _ = inspect.Review(context.Background(), rv, 10*time.Second, j, f)
	j.Decide(ok, "", 0)
	if state, desc := j.Status(); !ok || j.Criteria[0].Rung != "C" || j.Criteria[0].Shown || state != "failure" || !strings.Contains(desc, "round 1 of 3 did not converge") {
		t.Errorf("a test with no failure path: %v %+v, %s %q", ok, j.Criteria[0], state, desc)
	}
}

// TestReviewerTimeoutLeavesTheHumanRungNeverAPass: a reviewer that does not
// answer in time leaves the judgement at the human rung, pending, with the
// reason in words; never success.
func TestReviewerTimeoutLeavesTheHumanRungNeverAPass(t *testing.T) {
	rv := sandboxReviewer(t, sandbox.ReviewerKey)
	j, f := judged("Shout greets a name in capitals "+sandbox.ReviewerSlow, "TestShout")
	start := time.Now()
	ok, why := inspect.Review(context.Background(), rv, 300*time.Millisecond, j, f)
	if ok || !strings.Contains(why, "the reviewer did not answer for criterion 1 within 300ms") || time.Since(start) > 10*time.Second {
		t.Fatalf("Review = %v %q after %s", ok, why, time.Since(start))
	}
	j.Decide(ok, why, 0)
	if state, desc := j.Status(); state != "pending" || !strings.HasPrefix(desc, "human rung: the reviewer did not answer") {
		t.Errorf("status %s %q, want the human rung", state, desc)
	}
}

// TestReviewerAnswerThatIsNotValidLeavesTheHumanRung: prose instead of the
// JSON object is refused, and the human rung stands.
func TestReviewerAnswerThatIsNotValidLeavesTheHumanRung(t *testing.T) {
	rv := sandboxReviewer(t, sandbox.ReviewerKey)
	j, f := judged("Shout greets a name in capitals "+sandbox.ReviewerProse, "TestShout")
	ok, why := inspect.Review(context.Background(), rv, 10*time.Second, j, f)
	j.Decide(ok, why, 0)
	if state, desc := j.Status(); ok || state != "pending" || !strings.Contains(desc, "is not a JSON object") {
		t.Errorf("Review = %v; status %s %q", ok, state, desc)
	}
}

// TestReviewerAnswerInjectingACommandLeavesTheHumanRung: an answer that
// asks for a merge is refused, nothing it asks is done, and the human rung
// stands.
func TestReviewerAnswerInjectingACommandLeavesTheHumanRung(t *testing.T) {
	rv := sandboxReviewer(t, sandbox.ReviewerKey)
	j, f := judged("Shout greets a name in capitals "+sandbox.ReviewerInject, "TestShout")
	ok, why := inspect.Review(context.Background(), rv, 10*time.Second, j, f)
	j.Decide(ok, why, 0)
	state, desc := j.Status()
	if ok || state != "pending" || !strings.Contains(why, `asks for "command", but a reviewer may only choose a rung and give reasons; nothing it asks is done`) || j.Criteria[0].Rung != "" {
		t.Errorf("Review = %v %q; status %s %q; %+v", ok, why, state, desc, j.Criteria[0])
	}
}

// TestReviewerKeyNeverInAnError: a wrong key is refused by the endpoint,
// and the refusal does not carry the key.
func TestReviewerKeyNeverInAnError(t *testing.T) {
	rv := sandboxReviewer(t, "sk-not-the-key-12345")
	j, f := judged("Shout greets a name in capitals", "TestShout")
	ok, why := inspect.Review(context.Background(), rv, 10*time.Second, j, f)
	if ok || !strings.Contains(why, "401") || strings.Contains(why, "sk-not-the-key-12345") {
		t.Errorf("Review = %v %q", ok, why)
	}
}

// TestReviewerUnknownOrUnsetIsRefusedInWords: a reviewer aayu does not
// speak, or no model or key, is refused before any call.
func TestReviewerUnknownOrUnsetIsRefusedInWords(t *testing.T) {
	for _, tc := range []struct {
		s    inspect.Settings
		key  string
		want string
	}{
		{inspect.Settings{Reviewer: "openai"}, "k", "[inspect] model is not set"},
		{inspect.Settings{Reviewer: "gemini", Model: "m"}, "k", `reviewer "gemini" is none aayu knows (openai, anthropic)`},
		{inspect.Settings{Reviewer: "openai", Model: "m"}, "", "AAYUDHA_REVIEWER_KEY is empty"},
		{inspect.Settings{Reviewer: "openai", Model: "m", Endpoint: "file:///etc"}, "k", "is not an http(s) address"},
	} {
		if _, err := reviewer.New(tc.s, tc.key, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v, want %q", tc.s, err, tc.want)
		}
	}
}

// TestReviewerAnthropicRecordsTheRungAndSpend: the same judgement over
// Anthropic's Messages API (x-api-key, anthropic-version, content blocks,
// usage), and a refused answer there too leaves the human rung.
func TestReviewerAnthropicRecordsTheRungAndSpend(t *testing.T) {
	rv := sandboxReviewerOf(t, "anthropic", sandbox.ReviewerKey)
	if !strings.HasPrefix(rv.Name(), "anthropic "+sandbox.ReviewerModel+" at ") {
		t.Errorf("Name = %q", rv.Name())
	}
	j, f := judged("Shout greets a name in capitals", "TestShout")
	ok, why := inspect.Review(context.Background(), rv, 10*time.Second, j, f)
	if !ok || why != "" || j.Criteria[0].Rung != "A" || !j.Criteria[0].Shown || j.Spend.TokensIn == 0 {
		t.Fatalf("Review = %v %q, %+v, spend %+v", ok, why, j.Criteria[0], j.Spend)
	}
	j, f = judged("Shout greets a name in capitals "+sandbox.ReviewerInject, "TestShout")
	if ok, why = inspect.Review(context.Background(), rv, 10*time.Second, j, f); ok || !strings.Contains(why, `asks for "command"`) {
		t.Errorf("an injecting answer over Anthropic's API: %v %q", ok, why)
	}
	bad := sandboxReviewerOf(t, "anthropic", "sk-ant-wrong-999")
	j, f = judged("Shout greets a name in capitals", "TestShout")
	if ok, why = inspect.Review(context.Background(), bad, 10*time.Second, j, f); ok || !strings.Contains(why, "401") || strings.Contains(why, "sk-ant-wrong-999") {
		t.Errorf("a wrong key: %v %q", ok, why)
	}
}

// TestReviewerOfTheBuildersFamilyIsRungCShown: a reviewer answering as
// one of the builder's own family (the sandbox's same-family word) takes
// the criterion as shown at rung C, so the status is a green rung C: enough
// for merge on proof by the default proof_rungs, never for a streak.
func TestReviewerOfTheBuildersFamilyIsRungCShown(t *testing.T) {
	rv := sandboxReviewer(t, sandbox.ReviewerKey)
	j, f := judged("Shout greets a name in capitals "+sandbox.ReviewerSameFamily, "TestShout")
	ok, why := inspect.Review(context.Background(), rv, 10*time.Second, j, f)
	if !ok || j.Criteria[0].Rung != "C" || !j.Criteria[0].Shown {
		t.Fatalf("Review = %v %q, %+v", ok, why, j.Criteria[0])
	}
	j.Decide(ok, why, 0)
	if state, desc := j.Status(); state != "success" || !strings.HasPrefix(desc, "rung C: every criterion's mapped tests show its promise") {
		t.Errorf("status %s %q", state, desc)
	}
}
