package identity

import (
	"strings"
	"time"

	"github.com/aayudha/aayu/model/untrusted"
)

// Account is a GitHub account as a fact: its login, whether GitHub says it
// is a bot, and its permission on the repository when the reader knew it.
type Account struct {
	Login string
	Bot   bool // GitHub's type "Bot" (Apps); machine users are named in identity.bot_logins instead
	// Permission is the account's repository permission as GitHub names it
	// (admin, maintain, write, triage, read, none); "" when unknown, which
	// counts as none.
	Permission string
}

// Access reads Permission.
func (a Account) Access() Access { return ParseAccess(a.Permission) }

// SameLogin compares logins as GitHub does, ignoring case.
func SameLogin(a, b string) bool {
	return a != "" && strings.EqualFold(strings.TrimPrefix(a, "@"), strings.TrimPrefix(b, "@"))
}

// IsBot says whether an account can never be a person: GitHub marks it a
// bot, its login ends in "[bot]", or identity.bot_logins names it.
func IsBot(a Account, botLogins []string) bool {
	if a.Bot || strings.HasSuffix(strings.ToLower(a.Login), "[bot]") {
		return true
	}
	for _, b := range botLogins {
		if SameLogin(a.Login, b) {
			return true
		}
	}
	return false
}

// Comment is an issue or pull-request comment as a fact. Body is raw text
// from GitHub: untrusted, and never read as an instruction.
type Comment struct {
	ID        int64
	Author    Account
	Body      untrusted.Text
	CreatedAt time.Time
	// UpdatedAt is GitHub's updated_at; later than CreatedAt means the
	// comment was edited. Zero where the reader did not ask for it.
	UpdatedAt time.Time
	URL       string // html_url, recorded in ship.json for a bypass
}

// Edited says GitHub records an edit of the comment after it was posted.
func (c Comment) Edited() bool { return c.UpdatedAt.After(c.CreatedAt) }

// Access is a repository permission level, ordered so that a higher level
// includes the lower ones.
type Access int

const (
	AccessNone Access = iota
	AccessRead
	AccessTriage
	AccessWrite
	AccessMaintain
	AccessAdmin
)

// ParseAccess reads GitHub's permission names, including the REST API's
// older pull/push spellings. Anything else is none: unknown never grants.
func ParseAccess(s string) Access {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "admin":
		return AccessAdmin
	case "maintain":
		return AccessMaintain
	case "write", "push":
		return AccessWrite
	case "triage":
		return AccessTriage
	case "read", "pull":
		return AccessRead
	}
	return AccessNone
}

// String is the word a person reads.
func (a Access) String() string {
	switch a {
	case AccessAdmin:
		return "admin"
	case AccessMaintain:
		return "maintain"
	case AccessWrite:
		return "write"
	case AccessTriage:
		return "triage"
	case AccessRead:
		return "read"
	}
	return "none"
}
