package identity

import "fmt"

// Outcome is what a human-only step may do next.
type Outcome int

const (
	// Allowed: go on; a person is at a terminal, or approved this run.
	Allowed Outcome = iota
	// NeedsPresence: show a device code and go on only once a person
	// approves it on GitHub (the presence check).
	NeedsPresence
	// Refused: stop at once; no code is offered.
	Refused
)

func (o Outcome) String() string {
	switch o {
	case Allowed:
		return "allowed"
	case NeedsPresence:
		return "needs the presence check"
	}
	return "refused"
}

// Decision is RequireHuman's answer. Reason is a sentence a person reads;
// Marker names the environment variable that made it, if any.
type Decision struct {
	Outcome Outcome
	Reason  string
	Marker  string
	// shown is Marker as a refusal may show it (NAME=value, or NAME alone),
	// so the bypass's refusal can name a CI marker without reading the
	// environment again.
	shown string
}

// HumanCheck is what RequireHuman looks at.
type HumanCheck struct {
	Command  string              // the command as the person would type it, e.g. "aayu ship 148"
	Env      func(string) string // os.Getenv or a test's map
	Terminal bool                // standard input and output are a terminal
	CI       bool                // --ci
	// Session is this run's presence approval, if one was made; it lets the
	// later steps of the same command go on without a second code.
	Session *Session
	// Need is the access the step needs from whoever approves (write, or
	// admin for a solo-mode bypass).
	Need Access
}

// RequireHuman applies the guard on human-only steps (seed invariant 6,
// SPEC §6), in this order: aayu's own lane (AAYU_AGENT) is refused at once
// and never offered a code; CI (--ci, or a CI system's marker in the
// environment, CIMarkers) is refused; an approval this run that covers
// the command allows it; a host's agent marker, or a process with neither a
// marker nor a terminal, needs the presence check; a terminal without a
// marker is allowed. It is Here followed by With: a command that asks at
// several steps takes Here once and applies With at each.
func RequireHuman(in HumanCheck) Decision {
	return Here(in).With(in.Session, in.Command, in.Need)
}

// Here is the part of RequireHuman that looks at the process — the
// environment, the terminal and --ci — and not at any approval: is a person
// here, and by which means would one show it. in.Session and in.Need are
// ignored. A command takes it once per run, so every step that asks reads
// the same answer for the same process (issue #21: ship used to ask four
// times).
func Here(in HumanCheck) Decision {
	env := in.Env
	if env == nil {
		env = func(string) string { return "" }
	}
	if OwnLane(env) {
		return Decision{Outcome: Refused, Marker: AgentVariable,
			Reason: fmt.Sprintf("%s is a human-only step and this is aayu's own agent lane (%s), which never waits for an approval; run it yourself from a terminal", in.Command, shownVariable(AgentVariable, env(AgentVariable)))}
	}
	if in.CI {
		return Decision{Outcome: Refused,
			Reason: fmt.Sprintf("%s is a human-only step and CI (--ci) has no person to approve it; run it yourself from a terminal", in.Command)}
	}
	if ci, marker, value := CIRun(env); ci {
		shown := shownVariable(marker, value)
		return Decision{Outcome: Refused, Marker: marker, shown: shown,
			Reason: fmt.Sprintf("%s is a human-only step and this is a CI run (%s), which has no person to approve it; run it yourself from a terminal", in.Command, shown)}
	}
	if lane, marker := AgentLane(env); lane {
		return Decision{Outcome: NeedsPresence, Marker: marker,
			Reason: fmt.Sprintf("%s is a human-only step and this shell carries an agent host's marker (%s); approve it on any device with the code shown, if you asked for it", in.Command, marker)}
	}
	if !in.Terminal {
		return Decision{Outcome: NeedsPresence,
			Reason: fmt.Sprintf("%s is a human-only step and this process has no terminal, so nothing shows a person is here; approve it on any device with the code shown, if you asked for it", in.Command)}
	}
	return Decision{Outcome: Allowed, Reason: "a person's terminal with no agent marker"}
}

// With applies this run's presence approval to what Here decided: a
// refusal stands whatever was approved (aayu's own lane and CI never get
// a code), and an approval that covers command with need allows the step.
// It is pure, so a step asked again after the approval was given gets the
// new answer without the process being looked at again.
func (d Decision) With(s *Session, command string, need Access) Decision {
	if d.Outcome == Refused || !s.Covers(command, need) {
		return d
	}
	// Marker stays the agent host's, when one made Here ask for a code.
	return Decision{Outcome: Allowed, Marker: d.Marker,
		Reason: fmt.Sprintf("approved by @%s (%s, %s access) earlier in this run", s.Login, s.Method, s.Access)}
}

// shownVariable writes NAME=value for a refusal, the value only when it is
// short printable ASCII: an environment value is nobody's to trust, and the
// name alone still says what refused.
func shownVariable(name, value string) string {
	if len(value) > 40 {
		return name
	}
	for _, r := range value {
		if r < 0x21 || r > 0x7e {
			return name
		}
	}
	return name + "=" + value
}
