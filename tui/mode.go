package tui

// DecidePlain decides whether aayu draws plain lines instead of the full
// screen, and says why in words (for `aayu auth`-style diagnostics and the
// log). The first reason that applies wins, in this order: the --plain flag,
// TERM=dumb, `[ui] plain = true`, and standard output not being a terminal.
//
// NO_COLOR is not among them: no-color.org asks a program only to drop its
// colour, so the full screen stays, drawn without colour (see NoColor).
func DecidePlain(flagPlain, configPlain bool, env func(string) string, stdoutIsTerminal bool) (plain bool, why string) {
	switch {
	case flagPlain:
		return true, "--plain was given"
	case env("TERM") == "dumb":
		return true, "TERM is dumb"
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

// NoColor reports whether NO_COLOR asks for no colour: any non-empty value,
// as no-color.org says. It is checked here rather than through a library
// because some parse it as a boolean ("NO_COLOR=0" would then keep colour).
func NoColor(env func(string) string) bool { return env("NO_COLOR") != "" }
