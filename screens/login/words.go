package login

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/cli/oauth/api"
	"github.com/cli/oauth/device"

	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// Exit codes, named here for the cases this screen ends in.
const (
	exitOK      = tui.ExitOK
	exitFailed  = tui.ExitFailed
	exitRefused = tui.ExitRefused
)

// failKind tells failures apart for the screen's logic; the words are in
// failure.what and failure.next.
type failKind int

const (
	failExpired     failKind = iota + 1 // the code expired; Enter asks for a new one
	failDenied                          // cancelled on GitHub (access_denied)
	failAccount                         // a bot, another account, or too little access
	failUnsupported                     // device flow off for this app
	failNetwork                         // GitHub could not be reached or answered oddly
	failAgent                           // aayu's own agent lane or CI: never offered a code
	failStopped                         // the person stopped waiting
)

// failure is what went wrong, in words: what happened and the one next step.
type failure struct {
	kind failKind
	code int // the exit code if the screen ends on it
	what string
	next string
}

// sentence trims an error's text to end a sentence of ours.
func sentence(err error) string {
	return strings.TrimRight(tui.SanitizeLine(err.Error()), ". ")
}

// codeFailure words a failed request for a code.
func codeFailure(ctx context.Context, host, clientID string, err error) *failure {
	switch {
	case ctx.Err() != nil:
		return stopped()
	case errors.Is(err, device.ErrUnsupported):
		return &failure{kind: failUnsupported, code: exitFailed,
			what: fmt.Sprintf("GitHub (%s) does not offer the device flow for the app with client id %s: the app has it switched off, or an organisation has not approved the app.", tui.SanitizeLine(host), tui.SanitizeLine(clientID)),
			next: "Nothing was done. Ask the app's owner to tick Enable Device Flow, or name an app that has it with the repository variable AAYUDHA_DEVICE_CLIENT_ID or [identity] device_client_id."}
	}
	return networkFailure(host, "asking for a code", err)
}

// unknownClient words GitHub's 404 to the request for a code: no OAuth App
// has this client id (github.com answers 404 error=Not Found, which
// cli/oauth folds into ErrUnsupported with a disabled device flow). nil
// for any other failure.
func unknownClient(host string, d Deps, status int, err error) *failure {
	if status != http.StatusNotFound || !errors.Is(err, device.ErrUnsupported) {
		return nil
	}
	from := ""
	if d.ClientFrom != "" {
		from = " (from " + tui.SanitizeLine(d.ClientFrom) + ")"
	}
	return &failure{kind: failUnsupported, code: exitFailed,
		what: fmt.Sprintf("GitHub (%s) knows no OAuth App with the client id %s%s: it answered 404 Not Found to the request for a device code.",
			tui.SanitizeLine(host), tui.SanitizeLine(d.ClientID), from),
		next: "Nothing was done. Fix the client id: set the repository variable AAYUDHA_DEVICE_CLIENT_ID, or [identity] device_client_id in your configuration, to the Client ID of your OAuth App (GitHub, Settings, Developer settings, OAuth Apps), then run the command again."}
}

// waitFailure words a wait that ended without a token.
func waitFailure(ctx context.Context, host string, err error) *failure {
	var apiErr *api.Error
	switch {
	case ctx.Err() != nil:
		return stopped()
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, device.ErrTimeout):
		return expired()
	case errors.As(err, &apiErr) && apiErr.Code == "expired_token":
		return expired()
	case errors.As(err, &apiErr) && apiErr.Code == "access_denied":
		return &failure{kind: failDenied, code: exitRefused,
			what: "The request was cancelled on GitHub: someone pressed Cancel on the approval page.",
			next: "Nothing was done. If you did want this command, run it again and approve the new code."}
	case strings.Contains(err.Error(), "slow_down"):
		return &failure{kind: failNetwork, code: exitFailed,
			what: "GitHub twice asked aayu to wait longer between checks, which points to this machine's clock running fast: " + sentence(err) + ".",
			next: "Nothing was done. Check the system clock (or the virtual machine's), then run the command again."}
	}
	return networkFailure(host, "waiting for the approval", err)
}

func networkFailure(host, doing string, err error) *failure {
	var urlErr *url.Error
	cause := err
	if errors.As(err, &urlErr) {
		cause = urlErr.Err // the URL holds nothing secret, but says nothing new either
	}
	return &failure{kind: failNetwork, code: exitFailed,
		what: fmt.Sprintf("aayu could not reach GitHub at %s while %s: %s.", tui.SanitizeLine(host), doing, sentence(cause)),
		next: "Nothing was done. Check the network (and --oauth-url), then run the command again."}
}

func expired() *failure {
	return &failure{kind: failExpired, code: exitRefused,
		what: "The code expired before anyone approved it.",
		next: "Nothing was done. Press Enter for a new code."}
}

func stopped() *failure {
	return &failure{kind: failStopped, code: exitRefused,
		what: "You stopped waiting before the code was approved.",
		next: "Nothing was done. Run the command again when you want to approve it."}
}

// refusalFailure words an approving account CheckApprover refused.
func refusalFailure(err error, a identity.Account, req Request) *failure {
	login := "@" + tui.SanitizeLine(a.Login)
	must := "@" + tui.SanitizeLine(strings.TrimPrefix(req.MustBe, "@"))
	f := &failure{kind: failAccount, code: exitRefused}
	switch {
	case errors.Is(err, identity.ErrBotApprover):
		f.what = login + " approved the code, but it is a bot, and only a person's account can approve."
		f.next = "Nothing was done. Run the command again and approve the new code signed in to your own account."
	case errors.Is(err, identity.ErrOtherApprover):
		f.what = login + " approved the code, but this step must be approved by " + must + "."
		f.next = "Nothing was done. Run the command again and approve the new code signed in as " + must + "."
	case errors.Is(err, identity.ErrAccessTooLow):
		f.what = fmt.Sprintf("%s approved the code, but has %s access to %s and this step needs %s access.",
			login, a.Access(), tui.SanitizeLine(req.Repo), req.Need)
		f.next = fmt.Sprintf("Nothing was done. Run the command again and approve from an account with %s access.", req.Need)
	default:
		f.what = "GitHub did not say which account approved the code."
		f.next = "Nothing was done. Run the command again and approve the new code."
	}
	return f
}

// agentRefusal words RequireHuman's refusal of aayu's own lane or CI.
func agentRefusal(reason string) *failure {
	what, next, ok := strings.Cut(reason, "; ")
	if !ok {
		next = "run it yourself from a terminal"
	}
	return &failure{kind: failAgent, code: exitRefused,
		what: "Refused: " + what + ". No code was asked for.",
		next: "Nothing was done. " + upperFirst(next) + "."}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// inWords says a duration the way a person would: "15 minutes",
// "1 minute 30 seconds", "45 seconds".
func inWords(d time.Duration) string {
	d = d.Round(time.Second)
	if d < 0 {
		d = 0
	}
	m, s := int(d/time.Minute), int(d%time.Minute/time.Second)
	plural := func(n int, unit string) string {
		if n == 1 {
			return "1 " + unit
		}
		return fmt.Sprintf("%d %ss", n, unit)
	}
	switch {
	case m == 0:
		return plural(s, "second")
	case s == 0:
		return plural(m, "minute")
	}
	return plural(m, "minute") + " " + plural(s, "second")
}

// clock is a countdown as a clock shows it: "14:59".
func clock(d time.Duration) string {
	d = d.Round(time.Second)
	if d < 0 {
		d = 0
	}
	return fmt.Sprintf("%d:%02d", int(d/time.Minute), int(d%time.Minute/time.Second))
}
