// Package auth is the auth screen: where each token comes from, which
// account it is, which bot identity is configured, the scopes GitHub reports
// and warnings on dangerous ones. It never shows a token's value. The token
// lookup and the /user call run as tea.Cmds through package ghx.
package auth
