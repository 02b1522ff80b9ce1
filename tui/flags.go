package tui

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Default GitHub endpoints, used when neither a flag nor the environment
// names one.
const (
	DefaultAPIURL   = "https://api.github.com/"
	DefaultOAuthURL = "https://github.com"
)

// Invocation is a parsed command line.
type Invocation struct {
	// Command is the screen to run: inbox (the default), login, pack,
	// verify, ready, proof (Args[0] is its subcommand, push), ship,
	// comment, auth or sandbox.
	Command string
	// Args are the command's positional arguments (STORY, DIR or PR).
	Args []string
	// Global holds the flags every command accepts.
	Global Global
	// Flags holds the command's own flags by name without dashes ("list",
	// "ready", "head", "addr", "faults", "scale"); a flag that takes no value
	// is stored as "true".
	Flags map[string]string
	// Help is set by --help or -h: print Usage and exit 0.
	Help bool
}

// Global holds the flags accepted before or after the command name.
type Global struct {
	Repo     string   // --repo OWNER/NAME
	APIURL   string   // --api-url URL (REST base); "" means not given
	OAuthURL string   // --oauth-url URL (device-flow host); "" means not given
	Plain    bool     // --plain
	CI       bool     // --ci: headless merge gate, never waits for a person
	Sandbox  bool     // --sandbox: run against the in-process GitHub
	DryRun   bool     // --dry-run: show what would be written, write nothing
	Set      []string // --set key=value, in the order given
}

// UsageError is a command line aayu cannot act on. main prints it with the
// usage text and exits with ExitUsage.
type UsageError struct{ Msg string }

// Error returns the message in words, without the usage text.
func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// commandSpec says how many positional arguments a command takes and what
// they are called, for the error when the count is wrong.
type commandSpec struct {
	args    int
	argName string
}

// lookupCommand returns the spec of a command name.
func lookupCommand(name string) (commandSpec, bool) {
	switch name {
	case "inbox", "login", "auth", "sandbox", "audit", "init", "doctor":
		return commandSpec{0, ""}, true
	case "pack":
		return commandSpec{1, "STORY or DIR"}, true
	case "verify", "ready":
		return commandSpec{1, "STORY"}, true
	case "proof":
		return commandSpec{2, "push STORY"}, true
	case "ship", "comment", "protected":
		return commandSpec{1, "PR"}, true
	}
	return commandSpec{}, false
}

// commandNames lists the commands for error messages, in Usage's order.
func commandNames() []string {
	return []string{"inbox", "login", "pack", "verify", "ready", "proof", "ship", "comment", "protected", "init", "doctor", "auth", "audit", "sandbox"}
}

// flagSpec describes one flag: whether it takes a value, and which command
// owns it ("" for a global flag).
type flagSpec struct {
	value   bool
	command string
}

// lookupFlag returns the spec of a flag name given without dashes.
func lookupFlag(name string) (flagSpec, bool) {
	switch name {
	case "repo", "set", "api-url", "oauth-url":
		return flagSpec{value: true}, true
	case "plain", "ci", "sandbox", "dry-run", "help":
		return flagSpec{}, true
	case "list":
		return flagSpec{command: "inbox"}, true
	case "reset":
		return flagSpec{command: "sandbox"}, true
	case "solo-bypass":
		return flagSpec{command: "ship"}, true
	case "again":
		return flagSpec{command: "ready"}, true
	case "media":
		return flagSpec{command: "proof"}, true
	case "yes", "gates", "identity":
		return flagSpec{command: "init"}, true
	case "client-id":
		return flagSpec{value: true, command: "init"}, true
	case "dir":
		return flagSpec{value: true, command: "comment"}, true
	case "ready", "head":
		return flagSpec{value: true, command: "pack"}, true
	case "raw-out", "from-raw":
		return flagSpec{value: true, command: "verify"}, true
	case "addr", "faults", "scale":
		return flagSpec{value: true, command: "sandbox"}, true
	}
	return flagSpec{}, false
}

// ParseArgs parses the arguments after the program name. Global flags may
// come before or after the command name; a command's own flags may too, but
// must belong to that command. "--" ends the flags. Every mistake is a
// *UsageError whose message names the argument and what was expected.
func ParseArgs(args []string) (Invocation, error) {
	inv := Invocation{Flags: map[string]string{}}
	var positional []string
	owner := map[string]string{} // command flag → the command that owns it
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if arg == "-h" {
			inv.Help = true
			continue
		}
		if !strings.HasPrefix(arg, "--") || arg == "-" {
			if strings.HasPrefix(arg, "-") && arg != "-" {
				return inv, usagef("unknown flag %s: aayu's flags start with two dashes", SanitizeLine(arg))
			}
			positional = append(positional, arg)
			continue
		}
		name, value, hasValue := strings.Cut(arg[2:], "=")
		spec, ok := lookupFlag(name)
		if !ok {
			return inv, usagef("unknown flag --%s", SanitizeLine(name))
		}
		switch {
		case spec.value && !hasValue:
			if i+1 >= len(args) || strings.HasPrefix(args[i+1], "--") {
				return inv, usagef("flag --%s needs a value", name)
			}
			i++
			value = args[i]
		case !spec.value && hasValue:
			b, err := strconv.ParseBool(value)
			if err != nil {
				return inv, usagef("flag --%s takes no value (or true/false), got %q", name, SanitizeLine(value))
			}
			value = strconv.FormatBool(b)
		case !spec.value:
			value = "true"
		}
		if err := setFlag(&inv, name, value); err != nil {
			return inv, err
		}
		if spec.command != "" {
			owner[name] = spec.command
		}
	}
	if inv.Help {
		return inv, nil
	}

	inv.Command = "inbox"
	if len(positional) > 0 {
		inv.Command, positional = positional[0], positional[1:]
	}
	spec, ok := lookupCommand(inv.Command)
	if !ok {
		return inv, usagef("unknown command %q: the commands are %s", SanitizeLine(inv.Command), strings.Join(commandNames(), ", "))
	}
	for _, name := range sortedKeys(owner) {
		if owner[name] != inv.Command {
			return inv, usagef("--%s belongs to aayu %s, not aayu %s", name, owner[name], inv.Command)
		}
	}
	if inv.Command == "proof" {
		// proof has one subcommand; its STORY is the second argument.
		if len(positional) == 0 || positional[0] != "push" {
			return inv, usagef("aayu proof has one subcommand: aayu proof push STORY [--media]")
		}
		if len(positional) != 2 {
			return inv, usagef("aayu proof push takes one argument, STORY")
		}
	}
	if len(positional) != spec.args {
		return inv, argCountError(inv.Command, spec, positional)
	}
	if len(positional) > 0 {
		inv.Args = positional
	}
	if inv.Global.Sandbox && (inv.Global.APIURL != "" || inv.Global.OAuthURL != "") {
		return inv, usagef("--sandbox runs aayu's own GitHub; leave out --api-url and --oauth-url, or drop --sandbox to use them")
	}
	return inv, nil
}

func argCountError(command string, spec commandSpec, got []string) error {
	if spec.args == 0 {
		return usagef("aayu %s takes no arguments, got %q", command, SanitizeLine(strings.Join(got, " ")))
	}
	if len(got) == 0 {
		return usagef("aayu %s needs one argument, %s", command, spec.argName)
	}
	return usagef("aayu %s takes one argument, %s, got %d: %q", command, spec.argName, len(got), SanitizeLine(strings.Join(got, " ")))
}

// setFlag stores one flag's value after checking its form.
func setFlag(inv *Invocation, name, value string) error {
	g := &inv.Global
	switch name {
	case "repo":
		owner, repo, ok := strings.Cut(value, "/")
		if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
			return usagef("--repo wants OWNER/NAME, got %q", SanitizeLine(value))
		}
		g.Repo = value
	case "plain":
		g.Plain = value == "true"
	case "ci":
		g.CI = value == "true"
	case "sandbox":
		g.Sandbox = value == "true"
	case "dry-run":
		g.DryRun = value == "true"
	case "help":
		inv.Help = value == "true"
	case "set":
		key, _, ok := strings.Cut(value, "=")
		if !ok || strings.TrimSpace(key) == "" {
			return usagef("--set wants key=value, got %q", SanitizeLine(value))
		}
		g.Set = append(g.Set, value)
	case "api-url":
		if err := checkURL(name, value); err != nil {
			return err
		}
		g.APIURL = value
	case "oauth-url":
		if err := checkURL(name, value); err != nil {
			return err
		}
		g.OAuthURL = value
	case "head":
		if !isHexSHA(value) {
			return usagef("--head wants a full commit SHA (40 hex digits), got %q", SanitizeLine(value))
		}
		inv.Flags[name] = strings.ToLower(value)
	case "addr":
		if _, _, err := net.SplitHostPort(value); err != nil {
			return usagef("--addr wants HOST:PORT, got %q", SanitizeLine(value))
		}
		inv.Flags[name] = value
	case "scale":
		if n, err := strconv.Atoi(value); err != nil || n < 1 {
			return usagef("--scale wants a whole number of 1 or more, got %q", SanitizeLine(value))
		}
		inv.Flags[name] = value
	case "ready", "faults", "dir", "client-id":
		if value == "" {
			return usagef("flag --%s needs a value", name)
		}
		inv.Flags[name] = value
	default: // list, reset, solo-bypass
		inv.Flags[name] = value
	}
	return nil
}

func checkURL(flag, value string) error {
	u, err := url.Parse(value)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usagef("--%s wants an http or https URL such as https://github.example.com, got %q", flag, SanitizeLine(value))
	}
	return nil
}

func isHexSHA(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range strings.ToLower(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// ResolveURLs picks the GitHub REST base and device-flow host: the flag,
// else AAYU_GITHUB_API_URL / AAYU_GITHUB_OAUTH_URL, else github.com. The REST
// base always ends in "/" (go-github requires it); the OAuth host never does.
func ResolveURLs(g Global, env func(string) string) (api, oauth string) {
	api = firstNonEmpty(g.APIURL, env("AAYU_GITHUB_API_URL"), DefaultAPIURL)
	oauth = firstNonEmpty(g.OAuthURL, env("AAYU_GITHUB_OAUTH_URL"), DefaultOAuthURL)
	if !strings.HasSuffix(api, "/") {
		api += "/"
	}
	return api, strings.TrimRight(oauth, "/")
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// UsageLine is what a usage error prints: the mistake in one line and where
// to read more, not the whole usage text (which buries the mistake).
func UsageLine(err error) string {
	return "aayu: " + strings.TrimRight(err.Error(), ".") + ". Run aayu --help for usage."
}

// Usage is the text printed for --help.
func Usage() string {
	return `aayu: the person's side of aayudha — inbox, proof packs, ship.

Usage:
  aayu [global flags]              the inbox
  aayu inbox [--list] [--dry-run]  --list: read-only, prints the cards, allowed for agents
  aayu login                       presence check by GitHub device flow
  aayu pack STORY | DIR            best pack of a story on the ledger, or a local pack folder
           [--ready FILE] [--head SHA]   outside facts for checking a local pack folder
  aayu verify STORY                run the floors, build the pack in .aayudha/proof/STORY/
           [--raw-out DIR]       the merge gate's tests job: run the tests, keep raw outputs
           [--from-raw DIR]      the gate's pack job: build the pack from them, running none
  aayu ready STORY [--again]       freeze the Story's Completion Goal as its Ready snapshot
                                   on the ledger, on your yes (--again: the goal changed)
  aayu proof push STORY [--media]  land .aayudha/proof/STORY/ on the ledger as an advisory
                                   pack, with its own PR comment (never with --ci; --media:
                                   copy media to the [proof] media bucket)
  aayu ship PR [--solo-bypass]     the ship screen: read-only gates, presence, then your yes
                                   to the writes listed (a bypass only with --solo-bypass)
  aayu comment PR --ci [--dir DIR] the merge gate's one comment on the pull request (CI)
  aayu protected PR --ci           the protected-paths gate: each changed protected path
                                   needs its CODEOWNER's approval of the head (CI)
  aayu init [--yes] [--gates] [--identity] [--client-id ID]
                                   set up a repository: the merge gate, the protected-paths
                                   gate, config, LAYERS.md, CODEOWNERS, as one pull request;
                                   --identity: the presence check's OAuth App and variable
  aayu doctor                      check the set-up against GitHub, one next step per row
  aayu auth                        where each token comes from; never a token's value
  aayu audit                       every Solo-mode bypass, human-fallback write and
                                   bypass recorded late, from the ledger (read-only)
  aayu sandbox [--addr HOST:PORT]  only the sandbox GitHub, in the foreground
           [--faults SPEC] [--scale N]   e.g. --faults 5xx=0.1,latency=300ms
           [--reset]                     seed the demo again, throwing away every change, and exit

Global flags (before or after the command):
  --repo OWNER/NAME   the repository (default: from the checkout's origin)
  --plain             plain lines for screen readers and dumb terminals
                      (also TERM=dumb, NO_COLOR, [ui] plain = true, or no terminal)
  --ci                headless merge gate: no terminal, never waits for a person
  --sandbox           run against the built-in sandbox GitHub
  --set key=value     override one configuration key (repeatable)
  --dry-run           show what would be written, write nothing
  --api-url URL       REST base, default https://api.github.com/ (also AAYU_GITHUB_API_URL)
  --oauth-url URL     device-flow host, default https://github.com (also AAYU_GITHUB_OAUTH_URL)
  -h, --help          this text

Exit codes: 0 done, 1 failed, 2 usage, 3 a floor does not hold,
4 the pack does not verify, nothing qualifies, or a refusal.
`
}
