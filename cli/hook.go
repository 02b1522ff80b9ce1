package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/aayudha/aayu/model/hostshell"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/tui"
)

// aayu hook HOST is the pre-tool hook each host runs before an agent's
// shell command (aayu hooks install writes the hosts' configuration): it
// reads the host's JSON on standard input and blocks a command line that
// runs a human-only step (hostshell.HumanOnlyCommand), with the reason and
// the command the person runs at their own terminal, in the host's own
// format; it lets every other call through quietly. It is paid before
// every shell command an agent types, so it runs before the command line
// is built (hookFast, from Run), reads nothing but its input and writes
// nothing but its answer.

// maxHookPayload caps the input read: a host's payload is a few
// kilobytes; more than this is not a payload, and is refused.
const maxHookPayload = 1 << 20

// hookHost is one host's pre-tool hook: how it hands over the shell
// command, and how it takes a refusal.
type hookHost struct {
	name, product string
	// command reads the shell command line from the payload; shell is
	// false for a call that runs no shell (an edit, an MCP tool), which
	// passes. An error is a payload the hook cannot read: refused.
	command func(p hookPayload) (line string, shell bool, err error)
	// deny answers a blocked call in the host's format; its exit code.
	deny func(stdout, stderr io.Writer, reason string) int
	// allow answers a call that passes, quietly: it never approves a
	// call the host would otherwise ask the person about.
	allow func(stdout io.Writer) int
}

// hookPayload is the part of a host's input the hook reads.
type hookPayload struct {
	HookEventName string          `json:"hook_event_name"`
	ToolName      *string         `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	Command       *string         `json:"command"` // Cursor's beforeShellExecution
}

// HookHosts are the hosts `aayu hook` speaks to, by the name the hosts'
// configuration passes it.
func HookHosts() []string {
	var names []string
	for _, h := range hookHosts() {
		names = append(names, h.name)
	}
	return names
}

func hookHosts() []hookHost {
	return []hookHost{
		// Claude Code's PreToolUse hook: {"tool_name": "Bash", "tool_input":
		// {"command": "…"}, …} on standard input; exit code 2 blocks the call
		// and standard error is the reason Claude is shown.
		// https://code.claude.com/docs/en/hooks (PreToolUse input; "Exit code 2
		// behavior"). Exit 2 is chosen over the JSON permissionDecision
		// because it blocks on its own: no JSON the host might read
		// differently decides it, and a crash of this program (Go exits 2
		// on a panic) blocks too.
		{name: "claude-code", product: "Claude Code", command: toolCommand("Bash"), deny: denyExit2, allow: allowQuietly},
		// Codex's PreToolUse hook speaks Claude Code's wire format:
		// tool_name "Bash" (Codex names its shell tool so in hooks),
		// tool_input.command a string; exit 2 with the reason on standard
		// error blocks. https://developers.openai.com/codex/hooks
		// (PreToolUse; the input schema codex-rs/hooks/schema/generated/
		// pre-tool-use.command.input.schema.json).
		{name: "codex", product: "Codex", command: toolCommand("Bash"), deny: denyExit2, allow: allowQuietly},
		// Cursor's beforeShellExecution hook: {"hook_event_name":
		// "beforeShellExecution", "command": "…", "cwd": "…", …}; the answer
		// {"permission": "deny", "user_message": …, "agent_message": …} on
		// standard output. https://cursor.com/docs/agent/hooks
		// (beforeShellExecution). Its preToolUse names the shell tool
		// "Shell", with tool_input.command.
		// A pass is {}: valid JSON with no decision, so a hooks.json entry
		// with failClosed (which blocks on output Cursor cannot read) does
		// not turn every pass into a block, and no "allow" skips a prompt.
		{name: "cursor", product: "Cursor", command: cursorCommand, deny: denyCursor, allow: allowEmptyJSON},
		// Gemini CLI's BeforeTool hook: {"hook_event_name": "BeforeTool",
		// "tool_name": "run_shell_command", "tool_input": {"command": "…"}};
		// exit code 2 is a block with standard error as the reason, and on
		// exit 0 standard output must be JSON only.
		// https://geminicli.com/docs/hooks/reference ("Exit codes", "Tool
		// hooks").
		{name: "gemini", product: "Gemini CLI", command: toolCommand("run_shell_command"), deny: denyExit2, allow: allowEmptyJSON},
	}
}

// toolCommand reads tool_input.command when tool_name is the host's shell
// tool; any other tool passes.
func toolCommand(shellTool string) func(p hookPayload) (string, bool, error) {
	return func(p hookPayload) (string, bool, error) {
		if p.ToolName == nil {
			return "", false, errors.New("it names no tool_name")
		}
		if *p.ToolName != shellTool {
			return "", false, nil
		}
		line, err := inputCommand(p.ToolInput)
		return line, true, err
	}
}

// inputCommand is tool_input.command: a string, or the program and its
// arguments as a list of strings (quoted back into one line).
func inputCommand(raw json.RawMessage) (string, error) {
	var in struct {
		Command json.RawMessage `json:"command"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &in) != nil || len(in.Command) == 0 {
		return "", errors.New("its tool_input holds no command")
	}
	var line string
	if json.Unmarshal(in.Command, &line) == nil {
		return line, nil
	}
	var argv []string
	if json.Unmarshal(in.Command, &argv) == nil && len(argv) > 0 {
		return quoteArgv(argv), nil
	}
	return "", errors.New("its tool_input.command is neither a string nor a list of strings")
}

// quoteArgv writes argv as one shell line, each word in single quotes.
func quoteArgv(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(words, " ")
}

// cursorCommand reads Cursor's beforeShellExecution (or its preToolUse on
// the Shell tool); any other event passes.
func cursorCommand(p hookPayload) (string, bool, error) {
	switch {
	case p.HookEventName == "beforeShellExecution" || (p.HookEventName == "" && p.Command != nil):
		if p.Command == nil {
			return "", true, errors.New("its beforeShellExecution names no command")
		}
		return *p.Command, true, nil
	case p.HookEventName == "preToolUse":
		return toolCommand("Shell")(p)
	case p.HookEventName == "":
		return "", false, errors.New("it names no hook_event_name")
	}
	return "", false, nil
}

func denyExit2(_, stderr io.Writer, reason string) int {
	fmt.Fprintln(stderr, reason)
	return 2
}

func denyCursor(stdout, _ io.Writer, reason string) int {
	b, _ := json.Marshal(map[string]string{"permission": "deny", "user_message": reason, "agent_message": reason})
	fmt.Fprintln(stdout, string(b))
	return 0
}

func allowQuietly(io.Writer) int { return 0 }

func allowEmptyJSON(stdout io.Writer) int {
	fmt.Fprintln(stdout, "{}")
	return 0
}

// hookFast is `aayu hook HOST` routed before the command line is built:
// the hook runs before every shell command an agent types, and building
// the command tree and its help would be most of its cost. ok is false
// for any other command line (`aayu hook --help`, say), which takes the
// usual path.
func hookFast(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int, ok bool) {
	if len(args) != 2 || args[0] != hookCommand().def.Name || strings.HasPrefix(args[1], "-") {
		return 0, false
	}
	return runHook(args[1], stdin, stdout, stderr), true
}

// runHook is aayu hook HOST: the host's payload read, the command line
// decided, the answer in the host's format.
func runHook(name string, stdin io.Reader, stdout, stderr io.Writer) int {
	i := slices.IndexFunc(hookHosts(), func(h hookHost) bool { return h.name == name })
	if i < 0 {
		fmt.Fprintf(stderr, "aayu hook: refused: %q is not a host aayu knows; the hosts are %s. Nothing was allowed: the host's hook configuration must name one of them.\n",
			untrusted.Line(name), strings.Join(HookHosts(), ", "))
		return tui.ExitUsage
	}
	h := hookHosts()[i]
	line, shell, err := readHookCommand(h, stdin)
	if err != nil {
		return h.deny(stdout, stderr, fmt.Sprintf("aayu hook %s: refused: the hook's input could not be read as %s's pre-tool call (%s), so the command was stopped rather than guessed at. Nothing ran. Check that this host's hook configuration runs `aayu hook %s` on its shell calls.",
			h.name, h.product, untrusted.Line(err.Error()), h.name))
	}
	if !shell {
		return h.allow(stdout)
	}
	v := hostshell.HumanOnlyCommand(line)
	if !v.Block {
		return h.allow(stdout)
	}
	return h.deny(stdout, stderr, hookReason(v))
}

// readHookCommand reads and decodes the payload, at most maxHookPayload
// bytes of one JSON object.
func readHookCommand(h hookHost, stdin io.Reader) (line string, shell bool, err error) {
	if stdin == nil {
		return "", false, errors.New("nothing came on standard input")
	}
	b, err := io.ReadAll(io.LimitReader(stdin, maxHookPayload+1))
	if err != nil {
		return "", false, fmt.Errorf("reading standard input: %w", err)
	}
	if len(b) > maxHookPayload {
		return "", false, fmt.Errorf("more than %d bytes came on standard input", maxHookPayload)
	}
	var p hookPayload
	if err := json.Unmarshal(b, &p); err != nil {
		return "", false, fmt.Errorf("not JSON: %v", err)
	}
	return h.command(p)
}

// hookReason is a blocked line's answer: the step, why, and the next step.
func hookReason(v hostshell.Verdict) string {
	if v.Unreadable {
		return fmt.Sprintf("aayu hook: blocked: %s, so aayu's pre-tool hook stops it rather than guess whether it runs a human-only step. Next step: write it as a plain command line.", untrusted.Line(v.Why))
	}
	return fmt.Sprintf("aayu hook: blocked: %s; an agent's shell may not run it. Next step: ask the person to run it at their own terminal: %s",
		untrusted.Line(v.Why), untrusted.Line(v.Person))
}

// hookCommand is aayu hook's table entry and run.
func hookCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "hook",
			Arg:   "HOST",
			Group: "setup",
			Short: "the hosts' pre-tool hook: block a human-only step in an agent's shell",
			Long: "The pre-tool hook a host runs before each shell command its agent types (HOST: " + strings.Join(HookHosts(), ", ") + "): " +
				"reads the host's JSON on standard input and blocks a command line that runs a human-only step (ship, plan, decide, ready, approve, release, login, init, the full-screen inbox), " +
				"however the shell spells it, with the reason and the command the person runs at their own terminal, in the host's own format. " +
				"Every other call passes quietly; input it cannot read is refused.",
			Example: "echo '{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"aayu ship 4\"}}' | aayu hook claude-code",
		},
		run: func(w wiring) int {
			if len(w.inv.Args) != 1 {
				fmt.Fprintf(w.e.stderr, "aayu hook: name the host: one of %s.\n", strings.Join(HookHosts(), ", "))
				return tui.ExitUsage
			}
			return runHook(w.inv.Args[0], w.e.stdin, w.e.stdout, w.e.stderr)
		},
		local: true,
		token: never,
	}
}
