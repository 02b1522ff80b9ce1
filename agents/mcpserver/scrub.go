package mcpserver

import (
	"strings"

	"github.com/aayudha/aayu/internal/lazyre"
)

// tokenShape is a GitHub token as GitHub issues them (ghp_, gho_, ghu_,
// ghs_, ghr_, github_pat_), whichever account it belongs to.
var tokenShape = lazyre.New(`gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}`)

// hiddenToken stands where a token was.
const hiddenToken = "[a token, not shown]"

// scrub takes every token out of s: each value this process can reach
// (Deps.Secrets), then anything shaped like a GitHub token. aayu's
// transport already strips an echoed token from GitHub's answers; this is
// the last guard before an answer leaves the process.
func (s *server) scrub(text string) string {
	for _, secret := range s.d.Secrets {
		if len(secret) >= 8 {
			text = strings.ReplaceAll(text, secret, hiddenToken)
		}
	}
	return tokenShape().ReplaceAllString(text, hiddenToken)
}
