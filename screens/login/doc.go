// Package login is the presence check (seed 001, "Approving from any
// device"; SPEC §6): a screen that asks GitHub's OAuth device flow for a
// code, shows it large with the link, a copy key and a countdown, waits for
// a person to approve it on any device, then checks the approving account —
// never a bot, the access the step needs, the login it must be — and hands
// the caller one identity.Session for the rest of the run.
//
// It owns the screen, its plain twin and the background commands of the
// flow. It must not store, log, cache or put into a message the device-flow
// token (it lives only inside the command that polls for it), must not write
// the user code to any file or log, must not offer an agent lane
// (AAYU_AGENT) a code, and must not write to GitHub: the token is used to
// read /user and the account's permission, nothing else.
package login
