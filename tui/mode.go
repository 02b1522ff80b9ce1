package tui

// DecidePlain decides whether aayu draws plain lines instead of the full
// screen, and says why in words (for `aayu auth`-style diagnostics and the
// log). The first reason that applies wins, in this order: the --plain flag,
// TERM=dumb, NO_COLOR set to any non-empty value, `[ui] plain = true`, and
// standard output not being a terminal.
//
// NO_COLOR is checked here rather than through a library because some parse
// it as a boolean, while no-color.org says any non-empty value counts.
func DecidePlain(flagPlain, configPlain bool, env func(string) string, stdoutIsTerminal bool) (plain bool, why string) {
	switch {
	case flagPlain:
		return true, "--plain was given"
	case env("TERM") == "dumb":
		return true, "TERM is dumb"
	case env("NO_COLOR") != "":
		return true, "NO_COLOR is set"
	case configPlain:
		return true, "[ui] plain is true in the configuration"
	case !stdoutIsTerminal:
		return true, "standard output is not a terminal"
	}
	return false, "standard output is a terminal"
}

// Motion reports whether confetti and other motion may play: never in plain
// mode, never with NO_COLOR set, and never when `[ui] motion = false`.
func Motion(configMotion, plain bool, env func(string) string) bool {
	return configMotion && !plain && env("NO_COLOR") == ""
}
