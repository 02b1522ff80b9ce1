package sandbox

import (
	"context"
	"net/http"
	"strings"
)

// Account is one sandbox GitHub account.
type Account struct {
	Login      string // as GitHub shows it (the bot ends in [bot])
	Key        string // the LOGIN in its token sandbox-LOGIN
	ID         int64
	Name       string
	Type       string // User or Bot
	Permission string // admin, write or read on acme/benefits
}

// Accounts are the sandbox's users. Tokens are "sandbox-" + Key.
var accounts = []Account{
	{Login: "founder", Key: "founder", ID: 1001, Name: "Demo Founder", Type: "User", Permission: "admin"},
	{Login: "writer", Key: "writer", ID: 1002, Name: "Demo Writer", Type: "User", Permission: "write"},
	{Login: "reader", Key: "reader", ID: 1003, Name: "Demo Reader", Type: "User", Permission: "read"},
	{Login: BotLogin, Key: "agent-bot", ID: 1004, Name: "aayudha agent", Type: "Bot", Permission: "write"},
}

// BotLogin is the agent bot's login; its token is sandbox-agent-bot.
const BotLogin = "agent-bot[bot]"

// TokenPrefix starts every sandbox token: sandbox-founder, sandbox-writer,
// sandbox-reader, sandbox-agent-bot.
const TokenPrefix = "sandbox-"

// accountByKey finds an account by token key ("agent-bot") or login.
func accountByKey(key string) (Account, bool) {
	for _, a := range accounts {
		if strings.EqualFold(a.Key, key) || strings.EqualFold(a.Login, key) {
			return a, true
		}
	}
	return Account{}, false
}

func accountByLogin(login string) (Account, bool) {
	for _, a := range accounts {
		if strings.EqualFold(a.Login, login) {
			return a, true
		}
	}
	return Account{}, false
}

// canPush reports write access or better.
func (a Account) canPush() bool { return a.Permission == "admin" || a.Permission == "write" }

type ctxKey int

const callerKey ctxKey = 1

// caller is who made a request; zero Login means anonymous.
type caller struct {
	Account
	anonymous bool
	job       *jobToken     // set for a workflow token (jobtoken.go)
	app       *appRec       // set for an App's JWT (apps.go)
	install   *installToken // set for an installation token (apps.go)
	user      *userToken    // set for a device-flow token (devicepower.go)
}

func callerOf(r *http.Request) caller {
	c, _ := r.Context().Value(callerKey).(caller)
	return c
}

func withCaller(r *http.Request, c caller) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), callerKey, c))
}

// authenticate reads Authorization ("token X" or "Bearer X"). ok is false
// when a token was sent and is neither a sandbox token nor one of
// Options.ExtraTokens.
func (s *Server) authenticate(r *http.Request) (c caller, ok bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return caller{anonymous: true}, true
	}
	scheme, tok, found := strings.Cut(h, " ")
	if !found || (!strings.EqualFold(scheme, "token") && !strings.EqualFold(scheme, "bearer")) {
		return caller{}, false
	}
	tok = strings.TrimSpace(tok)
	if c, known, ok := s.jobCaller(tok); known {
		return c, ok
	}
	if c, known, ok := s.appCaller(tok); known {
		return c, ok
	}
	if c, known := s.userCaller(tok); known {
		return c, c.Login != ""
	}
	if login, extra := s.opts.ExtraTokens[tok]; extra {
		a, known := accountByLogin(login)
		return caller{Account: a}, known
	}
	key, isSandbox := strings.CutPrefix(tok, TokenPrefix)
	if !isSandbox {
		return caller{}, false
	}
	a, known := accountByKey(key)
	if !known {
		return caller{}, false
	}
	return caller{Account: a}, true
}
