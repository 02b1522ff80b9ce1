package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/aayudha/aayu/model/hostshell"
	"github.com/aayudha/aayu/tui"
)

// hookCall runs aayu hook HOST on payload, as a host does.
func hookCall(host, payload string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = runHook(host, strings.NewReader(payload), &out, &errb)
	return code, out.String(), errb.String()
}

// shellPayload is host's pre-tool payload for the shell command line.
func shellPayload(t *testing.T, host, line string) string {
	t.Helper()
	var p map[string]any
	switch host {
	case "claude-code":
		p = map[string]any{"session_id": "s", "transcript_path": "/t.jsonl", "cwd": "/repo", "permission_mode": "default",
			"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "toolu_1",
			"tool_input": map[string]any{"command": line, "description": "run it", "timeout": 120000}}
	case "codex":
		p = map[string]any{"session_id": "s", "turn_id": "t", "transcript_path": nil, "cwd": "/repo", "model": "gpt-5",
			"permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "call_1",
			"tool_input": map[string]any{"command": line}}
	case "cursor":
		p = map[string]any{"hook_event_name": "beforeShellExecution", "conversation_id": "c", "generation_id": "g",
			"workspace_roots": []string{"/repo"}, "command": line, "cwd": "/repo"}
	case "gemini":
		p = map[string]any{"session_id": "s", "transcript_path": "/t.json", "cwd": "/repo", "hook_event_name": "BeforeTool",
			"timestamp": "2026-12-07T10:00:00Z", "tool_name": "run_shell_command", "tool_input": map[string]any{"command": line}}
	default:
		t.Fatalf("no payload for host %s", host)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// denied reads host's answer: whether it blocks, and the reason given.
func denied(t *testing.T, host string, code int, stdout, stderr string) (bool, string) {
	t.Helper()
	if host == "cursor" {
		if code != 0 {
			t.Fatalf("cursor: exit %d; Cursor reads its answer on exit 0", code)
		}
		if stdout == "{}\n" && stderr == "" {
			return false, ""
		}
		var a struct {
			Permission   string `json:"permission"`
			UserMessage  string `json:"user_message"`
			AgentMessage string `json:"agent_message"`
		}
		if err := json.Unmarshal([]byte(stdout), &a); err != nil {
			t.Fatalf("cursor: the answer is not JSON: %v: %q", err, stdout)
		}
		if a.Permission != "deny" || a.UserMessage == "" || a.AgentMessage == "" {
			t.Fatalf("cursor: an answer that is not a deny with its messages: %q", stdout)
		}
		return true, a.AgentMessage
	}
	switch code {
	case 2:
		if stdout != "" {
			t.Fatalf("%s: exit 2 with standard output %q; the host ignores it", host, stdout)
		}
		return true, stderr
	case 0:
		quiet := ""
		if host == "gemini" {
			quiet = "{}\n"
		}
		if stdout != quiet || stderr != "" {
			t.Fatalf("%s: a pass that is not quiet: stdout %q stderr %q", host, stdout, stderr)
		}
		return false, ""
	}
	t.Fatalf("%s: exit %d, which the host reads as neither a pass nor a block", host, code)
	return false, ""
}

// TestHookBlocksAHumanOnlyStepInEachHostsFormat: each host's real payload
// for `cd repo && aayu ship 4` is blocked in the host's own format, with
// the reason and the command the person runs; a read-only command passes
// quietly.
func TestHookBlocksAHumanOnlyStepInEachHostsFormat(t *testing.T) {
	t.Parallel()
	for _, host := range HookHosts() {
		code, out, errb := hookCall(host, shellPayload(t, host, "cd repo && aayu ship 4"))
		blocked, reason := denied(t, host, code, out, errb)
		if !blocked {
			t.Errorf("%s: aayu ship 4 was let through", host)
			continue
		}
		for _, want := range []string{"human-only step", "at their own terminal: aayu ship 4"} {
			if !strings.Contains(reason, want) {
				t.Errorf("%s: the reason does not say %q: %s", host, want, reason)
			}
		}
		code, out, errb = hookCall(host, shellPayload(t, host, "aayu inbox --list && go test ./..."))
		if blocked, _ := denied(t, host, code, out, errb); blocked {
			t.Errorf("%s: aayu inbox --list was blocked", host)
		}
	}
}

// TestHookLetsOtherToolsThrough: a call that runs no shell (an edit, an
// MCP tool, another Cursor event) passes, whatever its input holds.
func TestHookLetsOtherToolsThrough(t *testing.T) {
	t.Parallel()
	for host, payload := range map[string]string{
		"claude-code": `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/x","content":"aayu ship 4"}}`,
		"codex":       `{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"aayu ship 4"}}`,
		"cursor":      `{"hook_event_name":"beforeMCPExecution","tool_name":"q","tool_input":"{}","command":"aayu ship 4"}`,
		"gemini":      `{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"content":"aayu ship 4"}}`,
	} {
		code, out, errb := hookCall(host, payload)
		if blocked, _ := denied(t, host, code, out, errb); blocked {
			t.Errorf("%s: a call that runs no shell was blocked", host)
		}
	}
}

// TestHookRefusesAnUnreadablePayload: input that is not the host's JSON,
// or a shell call without its command, is refused in words (fail closed).
func TestHookRefusesAnUnreadablePayload(t *testing.T) {
	t.Parallel()
	for _, host := range HookHosts() {
		for _, payload := range []string{
			"", "not json", `["aayu ship 4"]`, `{"tool_name":`,
			shellPayload(t, host, "x")[:20],
		} {
			code, out, errb := hookCall(host, payload)
			blocked, reason := denied(t, host, code, out, errb)
			if !blocked || !strings.Contains(reason, "refused: the hook's input could not be read") {
				t.Errorf("%s, payload %q: blocked=%v reason %q; want refused in words", host, payload, blocked, reason)
			}
		}
	}
	for host, payload := range map[string]string{
		"claude-code": `{"tool_name":"Bash","tool_input":{"description":"no command"}}`,
		"codex":       `{"tool_name":"Bash","tool_input":{"command":42}}`,
		"cursor":      `{"hook_event_name":"beforeShellExecution","cwd":"/x"}`,
		"gemini":      `{"hook_event_name":"BeforeTool","tool_input":{"command":"aayu next"}}`,
	} {
		code, out, errb := hookCall(host, payload)
		if blocked, reason := denied(t, host, code, out, errb); !blocked || !strings.Contains(reason, "could not be read") {
			t.Errorf("%s: a shell call without its command, or without its tool, was not refused: %q", host, reason)
		}
	}
}

// TestHookRefusesAPayloadOverItsCap: more than maxHookPayload bytes is
// not a host's payload; it is refused, not read.
func TestHookRefusesAPayloadOverItsCap(t *testing.T) {
	t.Parallel()
	payload := `{"tool_name":"Bash","tool_input":{"command":"aayu next` + strings.Repeat(" ", maxHookPayload) + `"}}`
	code, _, errb := hookCall("claude-code", payload)
	if code != 2 || !strings.Contains(errb, "more than") {
		t.Errorf("exit %d, %q; want refused for its size", code, errb)
	}
}

// TestHookRefusesAnUnknownHost: a host aayu does not know gets a usage
// error naming the hosts (exit 2, which the hosts that read exit codes
// take as a block), never a pass.
func TestHookRefusesAnUnknownHost(t *testing.T) {
	t.Parallel()
	code, out, errb := hookCall("amp", `{"tool_name":"Bash","tool_input":{"command":"aayu next"}}`)
	if code != tui.ExitUsage || out != "" || !strings.Contains(errb, "claude-code, codex, cursor, gemini") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errb)
	}
}

// TestHookBlocksAnUnreadableCommandLine: a command line no shell parser
// reads is blocked with its reason, never passed.
func TestHookBlocksAnUnreadableCommandLine(t *testing.T) {
	t.Parallel()
	code, _, errb := hookCall("claude-code", shellPayload(t, "claude-code", "aayu next 'unclosed"))
	if code != 2 || !strings.Contains(errb, "could not be read") {
		t.Errorf("exit %d, %q", code, errb)
	}
}

// TestHookTakesCodexsArgvForm: a command given as the program and its
// arguments is read as the shell would run them.
func TestHookTakesCodexsArgvForm(t *testing.T) {
	t.Parallel()
	code, _, errb := hookCall("codex", `{"tool_name":"Bash","tool_input":{"command":["bash","-lc","aayu ship 4"]}}`)
	if code != 2 || !strings.Contains(errb, "aayu ship 4") {
		t.Errorf("exit %d, %q", code, errb)
	}
}

// TestHookRoutesBeforeTheCommandLine: aayu hook HOST is answered by Run
// before the command table is built, and through the table alike.
func TestHookRoutesBeforeTheCommandLine(t *testing.T) {
	t.Parallel()
	payload := `{"tool_name":"Bash","tool_input":{"command":"aayu ship 4"}}`
	if code, ok := hookFast([]string{"hook", "claude-code"}, strings.NewReader(payload), &bytes.Buffer{}, &bytes.Buffer{}); !ok || code != 2 {
		t.Errorf("the early route: ok=%v exit %d", ok, code)
	}
	if _, ok := hookFast([]string{"hook", "--help"}, nil, nil, nil); ok {
		t.Error("aayu hook --help took the early route; its help page is the table's")
	}
	var out, errb bytes.Buffer
	code := Run(t.Context(), []string{"--plain", "hook", "claude-code"}, Env{
		Stdin: strings.NewReader(payload), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" },
	})
	if code != 2 || !strings.Contains(errb.String(), "aayu ship 4") {
		t.Errorf("through the table: exit %d, %q", code, errb.String())
	}
}

// TestHookRuleKnowsTheCommandTable: the recogniser's lists follow the
// command table, so a new human-only command or a flag that takes a value
// cannot slip past the hook unseen.
func TestHookRuleKnowsTheCommandTable(t *testing.T) {
	t.Parallel()
	steps := hostshell.HumanOnlySteps()
	for _, c := range commands() {
		if c.humanOnly && !slices.Contains(steps, c.def.Name) {
			t.Errorf("aayu %s is human-only but hostshell.HumanOnlySteps does not name it", c.def.Name)
		}
	}
	for _, s := range []string{"login", "init"} {
		if !slices.Contains(steps, s) {
			t.Errorf("hostshell.HumanOnlySteps does not name %s", s)
		}
	}
	valued := hostshell.ValueFlags()
	flags := tui.GlobalFlags()
	for _, d := range commandDefs() {
		flags = append(flags, d.Flags...)
	}
	for _, f := range flags {
		if f.Value != "" && !slices.Contains(valued, f.Name) {
			t.Errorf("--%s takes a value but hostshell.ValueFlags does not name it: the word after it would be read as the command", f.Name)
		}
	}
}

// FuzzHookPayload: no input panics the hook, and input that is not JSON
// is never let through.
func FuzzHookPayload(f *testing.F) {
	f.Add("claude-code", `{"tool_name":"Bash","tool_input":{"command":"aayu ship 4"}}`)
	f.Add("cursor", `{"hook_event_name":"beforeShellExecution","command":"aayu next"}`)
	f.Add("gemini", `{"tool_name":"run_shell_command","tool_input":{"command":["a"]}}`)
	f.Add("codex", `{"tool_name":"Bash","tool_input":{"command":"bash -c 'aayu ship 4'"}}`)
	f.Fuzz(func(t *testing.T, host, payload string) {
		code, out, errb := hookCall(host, payload)
		if !slices.Contains(HookHosts(), host) {
			if code != tui.ExitUsage {
				t.Fatalf("unknown host %q: exit %d", host, code)
			}
			return
		}
		if json.Valid([]byte(payload)) {
			return
		}
		if blocked, _ := denied(t, host, code, out, errb); !blocked {
			t.Fatalf("%s: input that is not JSON was let through: %q", host, payload)
		}
	})
}

// BenchmarkHookClaudeCode is aayu hook claude-code's work inside the
// process on a typical payload: the JSON read, the line decided, the
// answer written. docs/performance.md quotes it beside the whole process.
func BenchmarkHookClaudeCode(b *testing.B) {
	payload := `{"session_id":"abc","transcript_path":"/tmp/t.jsonl","cwd":"/repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"toolu_01","tool_input":{"command":"cd /repo && go test ./... 2>&1 | tail -20","description":"Run the tests"}}`
	b.ReportAllocs()
	for b.Loop() {
		if code := runHook("claude-code", strings.NewReader(payload), io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
