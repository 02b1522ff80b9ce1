// Package inbox is aayu's home screen: every step waiting for the person,
// grouped (needs you first, housekeeping after), each card with its counsel
// and its choices, acted on with one key. Reads, re-reads and writes all run
// as tea.Cmds through injected dependencies (ghx/inboxread and actions); the
// model holds no client and does no I/O in Update. The plain twin prints the
// same cards line by line with a key legend once at the top.
package inbox
