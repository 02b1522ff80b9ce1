package identity

import "strings"

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

// OwnLane says env is aayu's own unattended lane: AAYU_AGENT with any
// value but "" and "0", so a typo errs towards refusing.
func OwnLane(env func(string) string) bool {
	v := env(AgentVariable)
	return v != "" && v != "0"
}

// AgentLane says whether env describes an agent lane and names the marker
// that says so: aayu's own (OwnLane), or a host marker with any non-empty
// value.
func AgentLane(env func(string) string) (lane bool, marker string) {
	if OwnLane(env) {
		return true, AgentVariable
	}
	for _, m := range HostMarkers() {
		if env(m) != "" {
			return true, m
		}
	}
	return false, ""
}

// CIMarkers lists the environment variables CI systems set in every step
// they run. A human-only step is refused outright where one is set: a CI
// run has no person to approve a code, and its token is the workflow's, not
// a person's (seed 001: "aayu's own lanes (AAYU_AGENT=1) and CI are
// refused"). Like the host markers they are honest signals, not
// authentication; a shell a person types into does not carry them.
func CIMarkers() []string {
	return []string{
		"CI",                     // set by GitHub Actions, GitLab, CircleCI, Travis, Buildkite and most others
		"GITHUB_ACTIONS",         // GitHub Actions
		"GITHUB_RUN_ID",          // GitHub Actions (a run's id, set beside GITHUB_ACTIONS)
		"GITLAB_CI",              // GitLab CI
		"BUILDKITE",              // Buildkite
		"CIRCLECI",               // CircleCI
		"TRAVIS",                 // Travis CI
		"JENKINS_URL",            // Jenkins
		"TF_BUILD",               // Azure Pipelines
		"TEAMCITY_VERSION",       // TeamCity
		"BITBUCKET_BUILD_NUMBER", // Bitbucket Pipelines
		"CODEBUILD_BUILD_ID",     // AWS CodeBuild
	}
}

// CIRun says whether env describes a CI run and names the marker and its
// value. A marker counts with any value but "", "0" and "false" (any letter
// case): those are how a person or a tool says "not CI" (CI=false), and
// anything else, CI=true and CI=1 alike, errs towards refusing.
func CIRun(env func(string) string) (ci bool, marker, value string) {
	for _, m := range CIMarkers() {
		v := env(m)
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "", "0", "false":
			continue
		}
		return true, m, v
	}
	return false, "", ""
}

// SessionVariables name an agent's session, first found wins: aayu's own
// (set it per agent session), then a host's thread id. The human-only steps
// an agent starts under one value go into one batch for the person.
func SessionVariables() []string {
	return []string{"AAYU_SESSION", "AMP_THREAD_ID"}
}

// AgentSessionKey is the value that names env's agent session, or "" when
// none is set (each step is then its own batch).
func AgentSessionKey(env func(string) string) string {
	for _, v := range SessionVariables() {
		if k := strings.TrimSpace(env(v)); k != "" {
			return k
		}
	}
	return ""
}
