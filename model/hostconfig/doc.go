// Package hostconfig is what `aayu hooks install` writes into a project
// for each agent host (Claude Code, Codex, Cursor, Gemini CLI), as each
// host documents it: a pre-tool hook on shell commands that runs
// `aayu hook HOST`, the MCP server's registration (`aayu mcp`), and where
// the host has project commands, the command that lists the inbox. It
// merges aayu's entries into a person's own settings (JSON key order and
// every value aayu does not touch kept, TOML appended to), decides whether
// each entry is present, and refuses a file it cannot parse. Pure: bytes
// in, bytes out; reading and writing the files is actions/hostsetup's.
package hostconfig
