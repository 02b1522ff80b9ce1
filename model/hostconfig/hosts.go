package hostconfig

import (
	"fmt"
	"strings"
)

// Host is an agent host aayu connects, named as `aayu hook HOST` names it.
type Host string

const (
	ClaudeCode Host = "claude-code"
	Codex      Host = "codex"
	Cursor     Host = "cursor"
	Gemini     Host = "gemini"
)

// Hosts are the hosts aayu connects, in the order it lists them. Amp is
// not among them: it forwards no command to a hook, so on Amp the
// binary's own lane check is the first one (seed 001).
func Hosts() []Host { return []Host{ClaudeCode, Codex, Cursor, Gemini} }

// ParseHosts reads --host: one host's name, or "all" (or nothing) for
// every host.
func ParseHosts(s string) ([]Host, error) {
	switch s {
	case "", "all":
		return Hosts(), nil
	}
	for _, h := range Hosts() {
		if string(h) == s {
			return []Host{h}, nil
		}
	}
	return nil, fmt.Errorf("--host %q is not a host aayu connects: give claude-code, codex, cursor, gemini or all", s)
}

// Part is one of the three things aayu sets up for a host.
type Part string

const (
	HookPart    Part = "pre-tool hook"
	MCPPart     Part = "MCP server"
	CommandPart Part = "inbox command"
)

// ServerName is the name aayu's MCP server is registered under.
const ServerName = "aayudha"

// HookCommand is the command line a host's pre-tool hook runs.
func HookCommand(h Host) string { return "aayu hook " + string(h) }

// IsHookCommand says whether cmd runs `aayu hook HOST` for h: the words
// exactly, the binary named aayu (on the PATH or by a path ending in it).
func IsHookCommand(cmd string, h Host) bool {
	f := strings.Fields(cmd)
	return len(f) == 3 && isAayu(f[0]) && f[1] == "hook" && f[2] == string(h)
}

// isAayu says whether word names the aayu binary: aayu, or a path to it.
func isAayu(word string) bool {
	base := word[strings.LastIndexAny(word, `/\`)+1:]
	return base == "aayu" || base == "aayu.exe"
}

// Edit is one entry aayu sets up for a host: which file, what it adds
// and where the host documents it.
type Edit struct {
	Host Host
	Part Part
	// Path is the file, relative to the project's root, in slashes.
	Path string
	// What says in words what the entry is, as install and status show it.
	What string
	// Doc is the host's documentation of this file's format.
	Doc   string
	apply func(old []byte, exists bool) (Result, error)
}

// State is whether an entry is in a file.
type State int

const (
	// Missing: the entry is not there; Apply adds it.
	Missing State = iota
	// Present: the entry is there as aayu writes it (or equivalent); Apply
	// changes nothing.
	Present
	// Differs: something else stands where the entry would go (an MCP
	// server named aayudha that does not run aayu mcp, a command file with
	// other text); Apply leaves it as the person wrote it.
	Differs
)

// Result is what an Edit makes of a file's bytes.
type Result struct {
	// State is the entry's state in the bytes given.
	State State
	// Out is the file with the entry added when State is Missing; the
	// bytes given otherwise.
	Out []byte
	// Note says what stands there when State is Differs.
	Note string
}

// Apply merges the entry into old (exists false: no file yet). An error
// says, in words, why the file cannot be merged into (it does not parse,
// or a key holds what the host does not document there); nothing is
// changed then.
func (e Edit) Apply(old []byte, exists bool) (Result, error) {
	r, err := e.apply(old, exists)
	if err != nil {
		return Result{}, err
	}
	if r.State != Missing {
		r.Out = old
	}
	return r, nil
}

// Edits are host h's entries, in the order install writes them. Every
// format below is the host's own documented one (the URL on each); a part
// a host does not document for a project is left out and said in
// docs/agents.md.
func Edits(h Host) []Edit {
	switch h {
	case ClaudeCode:
		return []Edit{
			// Project settings and their hooks: PreToolUse with the matcher
			// "Bash" runs before every shell command; exit 2 blocks it.
			// https://code.claude.com/docs/en/hooks,
			// https://code.claude.com/docs/en/settings
			hookEdit(h, ".claude/settings.json", "https://code.claude.com/docs/en/hooks", "PreToolUse", "Bash", false),
			// Project-scoped MCP servers live in .mcp.json at the root.
			// https://code.claude.com/docs/en/mcp#project-scope
			mcpJSONEdit(h, ".mcp.json", "https://code.claude.com/docs/en/mcp"),
			// Project commands are Markdown files under .claude/commands/;
			// the file's name is the command's.
			// https://code.claude.com/docs/en/slash-commands#custom-slash-commands
			commandEdit(h, ".claude/commands/aayudha-inbox.md", "/aayudha-inbox", "https://code.claude.com/docs/en/slash-commands", markdownCommand()),
		}
	case Codex:
		return []Edit{
			// <repo>/.codex/hooks.json, Claude Code's shape: PreToolUse,
			// matcher "Bash", exit 2 blocks. Codex loads a project's hooks
			// only once the project is trusted, and asks for each hook to be
			// trusted (/hooks). https://developers.openai.com/codex/hooks
			hookEdit(h, ".codex/hooks.json", "https://developers.openai.com/codex/hooks", "PreToolUse", "Bash", false),
			// [mcp_servers.<name>] in the project's .codex/config.toml,
			// read in a trusted project. https://developers.openai.com/codex/mcp
			codexMCPEdit(),
			// Codex documents custom prompts only in the user's own
			// ~/.codex/prompts, not in a project: the MCP server's prompt
			// is its inbox command.
		}
	case Cursor:
		return []Edit{
			// .cursor/hooks.json, version 1: beforeShellExecution runs
			// before every shell command and may deny it.
			// https://cursor.com/docs/agent/hooks
			hookEdit(h, ".cursor/hooks.json", "https://cursor.com/docs/agent/hooks", "beforeShellExecution", "", true),
			// Project MCP servers: .cursor/mcp.json, mcpServers.
			// https://cursor.com/docs/context/mcp
			mcpJSONEdit(h, ".cursor/mcp.json", "https://cursor.com/docs/context/mcp"),
			// Project commands: Markdown files in .cursor/commands/, named
			// by the file. https://cursor.com/docs/agent/chat/commands
			commandEdit(h, ".cursor/commands/aayudha-inbox.md", "/aayudha-inbox", "https://cursor.com/docs/agent/chat/commands", markdownCommand()),
		}
	case Gemini:
		return []Edit{
			// Project settings' hooks: BeforeTool with the matcher
			// run_shell_command (the shell tool's name); exit 2 blocks.
			// https://geminicli.com/docs/hooks/reference
			hookEdit(h, ".gemini/settings.json", "https://geminicli.com/docs/hooks/reference", "BeforeTool", "run_shell_command", false),
			// mcpServers in the same settings file.
			// https://geminicli.com/docs/tools/mcp-server
			mcpJSONEdit(h, ".gemini/settings.json", "https://geminicli.com/docs/tools/mcp-server"),
			// TOML commands under .gemini/commands/; a subfolder is a
			// namespace, so aayudha/inbox.toml is /aayudha:inbox.
			// https://geminicli.com/docs/cli/custom-commands
			commandEdit(h, ".gemini/commands/aayudha/inbox.toml", "/aayudha:inbox", "https://geminicli.com/docs/cli/custom-commands", tomlCommand()),
		}
	}
	return nil
}
