// Package pack is the pack screen: it verifies a proof pack folder in the
// background and shows, to the byte, whether the pack proves what it claims:
// criteria with their verdicts, artifacts with theirs, the floors as a table,
// every problem in words, and the SHA-256 of pack.json. It does no I/O in
// Update; verification and artifact reads run as tea.Cmds into package proof.
package pack
