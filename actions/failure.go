package actions

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/google/go-github/v66/github"
)

// Failure is a request that did not finish, in the seed's three plain
// lines — what happened, whether anything changed on GitHub, who acts
// next — which name no link, HTTP method, status code, commit or error
// text. Details (the step it stopped at, GitHub's own answer, the request,
// the commit) are shown only behind d and in the log printed on quit.
type Failure struct {
	What    string
	Changed string
	Next    string
	Details []string
	// Retryable is false when pressing Enter again cannot fix it: the
	// screen takes that action off the card.
	Retryable bool
}

// Error is the first line, so a Failure can travel as a Job's error.
func (f *Failure) Error() string { return f.What }

// Lines are the three lines a card shows.
func (f *Failure) Lines() []string { return []string{f.What, f.Changed, f.Next} }

// cause is an error in a person's words, and whether trying again can help.
type cause struct {
	words string // after "…was not posted: "
	retry bool
	next  string // the next step; "" means the usual one for retry
}

// permanentError marks an error that trying again cannot fix.
type permanentError struct{ error }

func (p permanentError) Unwrap() error { return p.error }

func permanent(err error) error { return permanentError{err} }

func causeOf(err error, item int) cause {
	byHand := fmt.Sprintf("open #%d on GitHub to act on it by hand.", item)
	var (
		landed    *ghx.MayHaveLandedError
		primary   *ghx.PrimaryRateLimitError
		secondary *ghx.SecondaryRateLimitError
		ghRate    *github.RateLimitError
		ghAbuse   *github.AbuseRateLimitError
		resp      *github.ErrorResponse
		perm      permanentError
		netErr    net.Error
	)
	wait := "Wait a few minutes, then press Enter to try again."
	switch {
	case errors.As(err, &perm):
		return cause{"aayu cannot make this change from the inbox", false, "Nothing more can be done from here; " + byHand}
	case errors.As(err, &landed) && landed.Status != 0:
		return cause{"GitHub answered with a server error", true, ""}
	case errors.As(err, &landed):
		return cause{"the connection to GitHub dropped", true, ""}
	case errors.Is(err, context.Canceled):
		return cause{"it was stopped before it finished (a second ctrl+c or quit signal)", true, ""}
	case errors.Is(err, context.DeadlineExceeded):
		return cause{"GitHub did not answer in time", true, ""}
	case errors.As(err, &primary), errors.As(err, &ghRate):
		return cause{"your hourly GitHub request limit is used up", true, "Wait until the limit resets, then press Enter to try again."}
	case errors.As(err, &secondary), errors.As(err, &ghAbuse):
		return cause{"GitHub asked aayu to slow down", true, wait}
	case errors.As(err, &resp) && resp.Response != nil:
		return causeOfResponse(resp, byHand)
	case errors.As(err, &netErr):
		return cause{"GitHub could not be reached", true, ""}
	}
	return cause{"something went wrong that aayu did not expect", true, ""}
}

func causeOfResponse(resp *github.ErrorResponse, byHand string) cause {
	status := resp.Response.StatusCode
	said := strings.ToLower(resp.Message)
	for _, e := range resp.Errors {
		said += " " + strings.ToLower(e.Message)
	}
	switch {
	case status == http.StatusUnauthorized:
		return cause{"GitHub refused your token", false, "Your GitHub token was refused; check it with aayu auth, then " + byHand}
	case status == http.StatusForbidden:
		return cause{"GitHub refused it, as your account lacks the permission", false, "GitHub refused the request; " + byHand}
	case status == http.StatusNotFound:
		return cause{"GitHub could not find it, or your account cannot see it", false, "GitHub refused the request; " + byHand}
	case status == http.StatusConflict:
		return cause{"something changed on GitHub meanwhile", true, ""}
	case status == http.StatusUnprocessableEntity && ghx.IsNotFastForward(resp):
		return cause{"the branch moved while aayu wrote to it", true, ""}
	case status == http.StatusUnprocessableEntity && strings.Contains(said, "own pull request"):
		return cause{"GitHub does not let an author approve their own pull request", false, "GitHub refused the request; " + byHand}
	case status == http.StatusUnprocessableEntity:
		return cause{"GitHub refused it as invalid", false, "GitHub refused the request; " + byHand}
	case status >= 500:
		return cause{"GitHub answered with a server error", true, ""}
	}
	return cause{"GitHub refused it", false, "GitHub refused the request; " + byHand}
}

// failure turns the write that failed into the three lines and details.
func (r *run) failure(index int, w inbox.Write, err error) *Failure {
	c := causeOf(err, r.req.Step.Item.Number)
	f := &Failure{
		What:      fmt.Sprintf("%s: %s.", capitalise(r.words(w, r.state)), c.words),
		Changed:   r.changedLine(w),
		Next:      nextLine(c),
		Retryable: c.retry,
	}
	if c.retry && c.next == "" && (len(r.changed) > 0 || len(r.wrote) > 0) {
		f.Next = "Press Enter to try again: aayu makes only the writes still missing, each once."
	}
	f.Details = append([]string{fmt.Sprintf("Stopped at write %d of %d: %s.", index+1, len(r.req.Choice.Writes), w.String())},
		details(err, r.commitOf(w))...)
	return f
}

func (r *run) changedLine(w inbox.Write) string {
	failing := r.shortWords(w, r.state)
	switch {
	case len(r.changed) == 0 && r.state == notLanded:
		return "Nothing changed on GitHub."
	case len(r.changed) == 0:
		return capitalise(failing) + "; nothing else changed, and aayu checks before writing it again."
	}
	return capitalise(strings.Join(r.changed, "; ")) + "; " + failing + "."
}

func (r *run) commitOf(w inbox.Write) string {
	switch {
	case r.commit != "":
		return r.commit
	case w.CommitID != "":
		return w.CommitID
	}
	return r.req.Step.Head
}

func nextLine(c cause) string {
	if c.next != "" {
		return c.next
	}
	return "Press Enter to try again."
}

// details are what d shows and the quit log keeps: GitHub's own answer,
// the request, the commit and the error as Go saw it.
func details(err error, commit string) []string {
	out := []string{"GitHub's answer: " + ghx.Describe(err)}
	if req := requestOf(err); req != "" {
		out = append(out, "Request: "+req)
	}
	if commit != "" {
		out = append(out, "Commit: "+commit)
	}
	return append(out, "Error: "+err.Error())
}

func requestOf(err error) string {
	var (
		landed *ghx.MayHaveLandedError
		resp   *github.ErrorResponse
	)
	switch {
	case errors.As(err, &landed):
		return landed.Method + " " + landed.URL
	case errors.As(err, &resp) && resp.Response != nil && resp.Response.Request != nil:
		req := resp.Response.Request
		return req.Method + " " + ghx.MaskURL(req.URL.String())
	}
	return ""
}

// rereadFailure is a re-read that did not answer: nothing was written.
func rereadFailure(st inbox.Step, err error) *Failure {
	c := causeOf(err, st.Item.Number)
	return &Failure{
		What:      fmt.Sprintf("#%d was not read again before writing: %s.", st.Item.Number, c.words),
		Changed:   "Nothing changed on GitHub.",
		Next:      nextLine(c),
		Retryable: c.retry,
		Details:   append([]string{fmt.Sprintf("Stopped at the re-read of #%d before the first write.", st.Item.Number)}, details(err, st.Head)...),
	}
}

// refused is a request turned down before anything was read or written.
func refused(what, next string, retry bool) *Failure {
	return &Failure{What: what, Changed: "Nothing changed on GitHub.", Next: next, Retryable: retry}
}
