package ghx

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"github.com/aayudha/aayu/model/untrusted"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"
)

// ErrArtifactExpired is matched by the error for an Actions artifact GitHub
// no longer keeps (410 Gone on download).
var ErrArtifactExpired = errors.New("the artifact has expired on GitHub")

// IsExpired reports an expired artifact: ErrArtifactExpired, a 410 error
// response for an Actions artifact, or the untyped error go-github v66's
// DownloadArtifact returns for any status but 302 ("unexpected status
// code: 410 Gone"). A 410 elsewhere (issues disabled) is not an expiry.
func IsExpired(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrArtifactExpired) {
		return true
	}
	var resp *github.ErrorResponse
	if errors.As(err, &resp) && resp.Response != nil && resp.Response.StatusCode == http.StatusGone {
		req := resp.Response.Request
		return req != nil && strings.Contains(req.URL.Path, "/actions/artifacts/")
	}
	return strings.Contains(err.Error(), "unexpected status code: 410")
}

// IsNotFastForward reports GitHub's 422 "Update is not a fast forward" from
// updating a ref without force: the branch moved; re-read and retry.
func IsNotFastForward(err error) bool {
	var resp *github.ErrorResponse
	if !errors.As(err, &resp) || resp.Response == nil || resp.Response.StatusCode != http.StatusUnprocessableEntity {
		return false
	}
	return strings.Contains(strings.ToLower(resp.Message), "not a fast forward")
}

// IsNotFound reports a 404: the thing is missing or the token cannot see it.
func IsNotFound(err error) bool {
	status, ok := statusOf(err)
	return ok && status == http.StatusNotFound
}

func statusOf(err error) (int, bool) {
	var resp *github.ErrorResponse
	if errors.As(err, &resp) && resp.Response != nil {
		return resp.Response.StatusCode, true
	}
	return 0, false
}

// Describe turns an error from a GitHub call into one sentence a person
// reads: what happened, whether anything changed, and who acts next. It
// never includes a token, and it masks secrets in any URL it quotes.
func Describe(err error) string {
	if err == nil {
		return ""
	}
	var (
		landed    *MayHaveLandedError
		redirect  *CrossHostRedirectError
		limited   *LimitError
		primary   *PrimaryRateLimitError
		secondary *SecondaryRateLimitError
		ghRate    *github.RateLimitError
		ghAbuse   *github.AbuseRateLimitError
		ghResp    *github.ErrorResponse
		dnsErr    *net.DNSError
		opErr     *net.OpError
		unknownCA x509.UnknownAuthorityError
		hostname  x509.HostnameError
	)
	// An error that is already a sentence for a person (a policy that
	// cannot be read) is said as it is, not as a failed request to retry.
	var worded interface{ PersonSentence() string }
	switch {
	case errors.As(err, &worded):
		return worded.PersonSentence()
	case errors.As(err, &redirect):
		return fmt.Sprintf("GitHub's API at %s redirected a request to another host, %s; aayu does not follow an API request off its host, so nothing was read from there or changed; check --api-url.", redirect.From, clean(redirect.To))
	case errors.As(err, &landed):
		what := "the connection dropped"
		if landed.Status != 0 {
			what = fmt.Sprintf("GitHub answered %d %s", landed.Status, http.StatusText(landed.Status))
		}
		return fmt.Sprintf("%s after aayu sent %s %s, so the change may or may not have been made; aayu re-reads before trying again, and nothing is repeated blindly.",
			capitalise(what), landed.Method, pathOf(landed.URL))
	case errors.As(err, &limited):
		return capitalise(limited.Error()) + "."
	case errors.Is(err, context.Canceled):
		return "The request to GitHub was cancelled before it finished; if it was a change, re-read to see whether it was made before trying again."
	case errors.Is(err, context.DeadlineExceeded):
		return "GitHub did not answer in time; nothing is known to have changed; check the network and try again."
	case errors.As(err, &primary):
		return primaryLimitSentence(primary.Reset)
	case errors.As(err, &ghRate):
		return primaryLimitSentence(ghRate.Rate.Reset.Time)
	case errors.As(err, &secondary):
		return secondaryLimitSentence(secondary.RetryAfter)
	case errors.As(err, &ghAbuse):
		wait := time.Minute
		if ghAbuse.RetryAfter != nil {
			wait = *ghAbuse.RetryAfter
		}
		return secondaryLimitSentence(wait)
	case errors.Is(err, ErrArtifactExpired) || IsExpired(err):
		return "The proof artifact has expired on GitHub (410 Gone) and can no longer be downloaded; nothing was changed; re-run the merge gate to build a new one."
	case errors.Is(err, ErrTooManyPages):
		return "The list on GitHub is longer than aayu reads (over 10,000 items); nothing was changed; narrow the query."
	case errors.As(err, &ghResp) && ghResp.Response != nil:
		return describeResponse(ghResp)
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("Could not find the GitHub host %s (DNS lookup failed); nothing was sent; check the network or --api-url.", clean(dnsErr.Name))
	case errors.As(err, &unknownCA), errors.As(err, &hostname):
		return "The GitHub host's TLS certificate was not trusted; nothing was sent; check --api-url, or ask whoever runs that server for a valid certificate."
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return fmt.Sprintf("Could not connect to GitHub at %s; nothing was sent; check the network, or that the sandbox is running when --api-url points at it.", addrOf(opErr))
	case errors.As(err, &opErr):
		return "The connection to GitHub failed while reading; nothing was changed by a read; try again."
	}
	return "The GitHub request failed (" + clean(maskErrorText(err.Error())) + "); try again, and see the log for details."
}

func describeResponse(e *github.ErrorResponse) string {
	status := e.Response.StatusCode
	method := http.MethodGet
	path := ""
	if req := e.Response.Request; req != nil {
		method = req.Method
		path = pathOf(req.URL.String())
	}
	write := method != http.MethodGet && method != http.MethodHead
	msg := clean(e.Message)
	if msg == "" {
		msg = http.StatusText(status)
	}
	for _, detail := range e.Errors {
		if detail.Message != "" {
			msg += ": " + clean(detail.Message)
		} else if detail.Field != "" {
			msg += fmt.Sprintf(": %s is %s", clean(detail.Field), clean(detail.Code))
		}
	}
	unchanged := "nothing was changed"
	switch {
	case status == http.StatusUnauthorized:
		return fmt.Sprintf("GitHub refused the token (401 %s): it is missing, expired or revoked; %s; run `aayu auth` to see where the token comes from, then replace it.", msg, unchanged)
	case status == http.StatusForbidden:
		return fmt.Sprintf("GitHub refused %s %s (403 %s): the token lacks the permission; %s; ask a repository admin for access or use a token that has it.", method, path, msg, unchanged)
	case status == http.StatusNotFound:
		return fmt.Sprintf("GitHub found nothing at %s (404 %s): it does not exist, or the token cannot see a private repository; %s; check the name and the token's access.", path, msg, unchanged)
	case status == http.StatusConflict:
		return fmt.Sprintf("GitHub reported a conflict on %s %s (409 %s): something changed meanwhile; %s; aayu re-reads and you decide again.", method, path, msg, unchanged)
	case status == http.StatusGone:
		return fmt.Sprintf("%s is gone from GitHub (410 %s); %s; it cannot be brought back from here.", path, msg, unchanged)
	case status == http.StatusUnprocessableEntity && IsNotFastForward(e):
		return fmt.Sprintf("The branch moved while aayu was writing to it (422 %s); %s; aayu re-reads the branch and writes again, never by force.", msg, unchanged)
	case status == http.StatusUnprocessableEntity:
		return fmt.Sprintf("GitHub rejected %s %s as invalid (422 %s); %s; this is likely a bug in aayu — report it with the log.", method, path, msg, unchanged)
	case status == http.StatusMethodNotAllowed:
		return fmt.Sprintf("GitHub would not do %s %s (405 %s); %s; resolve what it names, then try again.", method, path, msg, unchanged)
	case status == http.StatusNotModified:
		return fmt.Sprintf("GitHub said %s has not changed (304) and aayu had no copy to show; nothing was changed; refresh again.", path)
	case status >= 500 && write:
		return fmt.Sprintf("GitHub failed on %s %s (%d %s), so the change may or may not have been made; aayu re-reads before trying again.", method, path, status, msg)
	case status >= 500:
		return fmt.Sprintf("GitHub failed on %s (%d %s); nothing was changed; try again in a moment.", path, status, msg)
	}
	return fmt.Sprintf("GitHub answered %s %s with %d %s; %s; see the log for details.", method, path, status, msg, unchanged)
}

func primaryLimitSentence(reset time.Time) string {
	if reset.IsZero() {
		return "GitHub's hourly request limit for this token is used up; nothing was changed; try again later."
	}
	return fmt.Sprintf("GitHub's hourly request limit for this token is used up until %s; nothing was changed; try again after that.",
		reset.UTC().Format("15:04 UTC"))
}

func secondaryLimitSentence(wait time.Duration) string {
	return fmt.Sprintf("GitHub's secondary rate limit stopped this request; nothing was changed; wait %s and try again.",
		max(wait, time.Second).Round(time.Second))
}

// pathOf keeps the path and the masked query of a URL: enough to say what
// was asked, without the host or any secret.
func pathOf(raw string) string {
	masked := MaskURL(raw)
	if i := strings.Index(masked, "://"); i >= 0 {
		rest := masked[i+3:]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			return rest[j:]
		}
		return "/"
	}
	return masked
}

func addrOf(e *net.OpError) string {
	if e.Addr != nil {
		return e.Addr.String()
	}
	return "its address"
}

// clean shows control, bidi and zero-width characters in text GitHub sent
// by the one rule of model/untrusted (visibly, never obeyed) and shortens
// it; the terminal layer sanitises again, but an error sentence is also
// logged.
func clean(s string) string {
	s = untrusted.Line(s)
	if runes := []rune(s); len(runes) > 200 {
		s = string(runes[:200]) + "…"
	}
	return strings.TrimSpace(s)
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// IsForbidden reports a 403 that is not a rate limit's (the retry
// transport answers those): the token may not see or do this.
func IsForbidden(err error) bool {
	status, ok := statusOf(err)
	return ok && status == http.StatusForbidden
}

// Access is the access word GitHub's answer to "what may LOGIN do in this
// repository" gives: its role name where that is maintain or triage (the
// legacy permission field reports those as write and read), else its
// permission; "none" when GitHub shows no access (404, or 403 to a token
// that may not ask). Any other error is the read's, with "none".
func Access(lvl *github.RepositoryPermissionLevel, err error) (string, error) {
	switch {
	case err == nil:
		if rn := lvl.GetRoleName(); rn == "maintain" || rn == "triage" {
			return rn, nil
		}
		return lvl.GetPermission(), nil
	case IsNotFound(err) || IsForbidden(err):
		return "none", nil
	}
	return "none", err
}
