package identity

// AgentVariable is aayu's own unattended lane (the MCP server, the loops):
// AAYU_AGENT=1 is refused at once and never offered a code.
const AgentVariable = "AAYU_AGENT"

// HostMarkers lists the environment variables agent hosts set in the shells
// their agents run (internal/hosts.AgentMarkers in the seed). A shell a
// person types into can inherit one (an orb's Terminal tab), so a marker
// asks for the presence check rather than refusing outright. They are honest
// agents' signals, not authentication.
func HostMarkers() []string {
	return []string{
		"AMP_THREAD_ID",                  // Amp
		"CLAUDECODE",                     // Claude Code
		"CLAUDE_CODE_ENTRYPOINT",         // Claude Code (set beside CLAUDECODE)
		"CURSOR_AGENT",                   // Cursor's agent
		"CODEX_SANDBOX",                  // OpenAI Codex CLI sandbox
		"CODEX_SANDBOX_NETWORK_DISABLED", // OpenAI Codex CLI sandbox without network
		"GEMINI_CLI",                     // Gemini CLI
	}
}

// AgentLane says whether env describes an agent lane and names the marker
// that says so. AAYU_AGENT counts with any value but "" and "0", so a typo
// errs towards refusing; a host marker counts with any non-empty value.
func AgentLane(env func(string) string) (lane bool, marker string) {
	if v := env(AgentVariable); v != "" && v != "0" {
		return true, AgentVariable
	}
	for _, m := range HostMarkers() {
		if env(m) != "" {
			return true, m
		}
	}
	return false, ""
}
