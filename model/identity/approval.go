package identity

import (
	"errors"
	"fmt"
	"strings"
)

// Why an approving account is refused; CheckApprover's errors wrap one, so
// the caller can choose the one next step.
var (
	ErrBotApprover    = errors.New("a bot cannot approve")
	ErrAccessTooLow   = errors.New("the approving account lacks the access")
	ErrOtherApprover  = errors.New("another account approved")
	ErrNoApproverName = errors.New("the approving account has no login")
)

// CheckApprover checks the account that approved a presence check (or that
// is about to make a human-only write): never a bot (GitHub's flag, a
// "[bot]" login, or identity.bot_logins), at least need access (admin for a
// solo-mode bypass, write otherwise), and, when mustBe is set, exactly that
// login. Nothing is done when it refuses; the error says what happened and
// the one next step.
func CheckApprover(a Account, need Access, mustBe string, botLogins []string) error {
	if strings.TrimSpace(a.Login) == "" {
		return fmt.Errorf("%w: GitHub did not say who approved; nothing was done, ask for a new code", ErrNoApproverName)
	}
	if IsBot(a, botLogins) {
		return fmt.Errorf("%w: @%s is a bot and only a person's account can approve; nothing was done, approve from your own account", ErrBotApprover, a.Login)
	}
	if mustBe != "" && !SameLogin(a.Login, mustBe) {
		return fmt.Errorf("%w: @%s approved, but this step must be approved by @%s; nothing was done, approve as @%s",
			ErrOtherApprover, a.Login, strings.TrimPrefix(mustBe, "@"), strings.TrimPrefix(mustBe, "@"))
	}
	if have := a.Access(); have < need {
		return fmt.Errorf("%w: @%s has %s access and this step needs %s; nothing was done, approve from an account with %s access",
			ErrAccessTooLow, a.Login, have, need, need)
	}
	return nil
}

// Session is one presence approval. It covers the later steps of the same
// command in the same run at its access level, and never another command
// (nor a run started after it: a Session lives only in the running process
// and is never stored).
type Session struct {
	Command string // the command approved, exactly as shown on the Command: line
	Login   string // the approving account
	Access  Access // its access when it approved
	Method  string // "device-flow"
}

// Covers says whether this approval lets command go on at need.
func (s *Session) Covers(command string, need Access) bool {
	return s != nil && s.Command != "" && s.Command == command && s.Access >= need && need > AccessNone
}
