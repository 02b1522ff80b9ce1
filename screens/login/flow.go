package login

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/cli/oauth/device"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
)

// Method names how an approval was given, in the log and on the screen.
const Method = "device-flow"

// LogCommand is the actions log's command for a presence approval.
const LogCommand = "presence.approve"

// The device-flow endpoints on the OAuth host (github.com or the sandbox).
const (
	codePath  = "/login/device/code"
	tokenPath = "/login/oauth/access_token"
)

// codeMsg says GitHub gave a code to show. It carries only what the person
// sees; the device code that polls for the token stays in the flow.
type codeMsg struct {
	gen       int
	userCode  string
	uri       string
	expiresIn time.Duration
}

// checkingMsg says a code was approved and the account is being checked.
type checkingMsg struct{ gen int }

// resultMsg ends one run of the flow: approved, or a failure in words.
type resultMsg struct {
	gen     int
	account identity.Account // set when approved or refused
	access  identity.Access
	fail    *failure // nil when approved
}

// flowInput is everything one run of the flow uses, copied before the
// goroutine starts so it never reads the model.
type flowInput struct {
	gen  int
	req  Request
	deps Deps
}

// runFlow asks for a code, waits for its approval, checks the approving
// account and records the approval, sending what the screen needs to events.
// The token is a local variable of this function and nothing else.
func runFlow(ctx context.Context, in flowInput, events chan<- tea.Msg) tea.Cmd {
	return func() tea.Msg {
		events <- flow(ctx, in, events)
		return nil
	}
}

func flow(ctx context.Context, in flowInput, events chan<- tea.Msg) resultMsg {
	d := in.deps
	var codeStatus int // the HTTP status of the answer to the code request
	post := ghx.DevicePoster{Ctx: ctx, Client: d.HTTPClient, Status: &codeStatus}
	host := strings.TrimRight(d.OAuthHost, "/")
	if d.ClientID == "" {
		return resultMsg{gen: in.gen, fail: &failure{kind: failUnsupported, code: exitFailed,
			what: "No OAuth App is named for the presence check, so no code can be asked for.",
			next: "Nothing was done. Name one with the repository variable AAYUDHA_DEVICE_CLIENT_ID or [identity] device_client_id."}}
	}
	code, err := device.RequestCode(post, host+codePath, d.ClientID, nil)
	if err != nil {
		if f := unknownClient(host, d, codeStatus, err); f != nil {
			return resultMsg{gen: in.gen, fail: f}
		}
		return resultMsg{gen: in.gen, fail: codeFailure(ctx, host, d.ClientID, err)}
	}
	post.Status = nil
	events <- codeMsg{gen: in.gen, userCode: code.UserCode, uri: code.VerificationURI,
		expiresIn: time.Duration(code.ExpiresIn) * time.Second}
	tok, err := device.Wait(ctx, post, host+tokenPath, device.WaitOptions{ClientID: d.ClientID, DeviceCode: code})
	if err != nil {
		return resultMsg{gen: in.gen, fail: waitFailure(ctx, host, err)}
	}
	events <- checkingMsg{gen: in.gen}
	account, err := approvingAccount(ctx, d, tok.Token)
	if err != nil {
		return resultMsg{gen: in.gen, fail: &failure{kind: failNetwork, code: exitFailed,
			what: "The code was approved, but aayu could not read who approved it: " + err.Error() + ".",
			next: "Nothing was done. Check the network and run the command again."}}
	}
	if in.req.MustBe == "" && d.Writer != nil {
		w, err := d.Writer(ctx)
		if err != nil {
			return resultMsg{gen: in.gen, fail: &failure{kind: failNetwork, code: exitFailed,
				what: "The code was approved, but aayu could not read which account it writes as: " + err.Error() + ".",
				next: "Nothing was done. Check the network and your token (aayu auth), then run the command again."}}
		}
		in.req.MustBe = w
	}
	// Another account is refused at once, before its access is read.
	if must := in.req.MustBe; must == "" || identity.SameLogin(account.Login, must) {
		if account.Permission, err = permission(ctx, d, account.Login, in.req.Repo); err != nil {
			return resultMsg{gen: in.gen, fail: &failure{kind: failNetwork, code: exitFailed,
				what: "The code was approved, but aayu could not read @" + account.Login + "'s access: " + err.Error() + ".",
				next: "Nothing was done. Check the network and run the command again."}}
		}
	}
	return decide(in, account)
}

// decide checks the approving account against the request and records the
// outcome in the actions log. A log that cannot be written refuses the
// approval: an unrecorded approval must not let anything go ahead.
func decide(in flowInput, account identity.Account) resultMsg {
	req := in.req
	rec := actions.Record{Time: in.deps.Now(), Command: LogCommand, Repo: req.Repo, Item: req.Command,
		Who: account.Login, Lines: req.Approving, Method: Method}
	if err := identity.CheckApprover(account, req.Need, req.MustBe, req.BotLogins); err != nil {
		rec.Outcome, rec.Detail = "refused", err.Error()
		f := refusalFailure(err, account, req)
		if logErr := appendLog(in.deps.Log, rec); logErr != nil {
			f.next += " (The refusal could not be written to the actions log: " + logErr.Error() + ".)"
		}
		return resultMsg{gen: in.gen, account: account, access: account.Access(), fail: f}
	}
	rec.Outcome = "done"
	if err := appendLog(in.deps.Log, rec); err != nil {
		return resultMsg{gen: in.gen, account: account, fail: &failure{kind: failNetwork, code: exitFailed,
			what: "@" + account.Login + " approved, but the approval could not be written to the actions log: " + err.Error() + ".",
			next: "Nothing was done. Make the actions log folder writable and run the command again."}}
	}
	return resultMsg{gen: in.gen, account: account, access: account.Access()}
}

func appendLog(l *actions.Log, r actions.Record) error {
	if l == nil {
		return errors.New("no actions log was given to the login screen")
	}
	return l.Append(r)
}

// approvingAccount reads /user with the device token: that proves who
// approved, and the token reads nothing else.
func approvingAccount(ctx context.Context, d Deps, token string) (identity.Account, error) {
	client, err := d.APIClient(token)
	if err != nil {
		return identity.Account{}, fmt.Errorf("building a GitHub client: %w", err)
	}
	user, _, err := client.Users.Get(ctx, "")
	if err != nil {
		return identity.Account{}, fmt.Errorf("reading the approving account: %s", ghx.Describe(err))
	}
	return identity.Account{Login: user.GetLogin(), Bot: user.GetType() == "Bot"}, nil
}

// permission reads login's permission on repo with the writing token;
// "none" when no reader was given or the account has none.
func permission(ctx context.Context, d Deps, login, repo string) (string, error) {
	if d.Permission == nil || login == "" || !strings.Contains(repo, "/") {
		return "none", nil
	}
	return d.Permission(ctx, login)
}
