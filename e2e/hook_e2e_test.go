package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// runHookBinary runs the built aayu as a host runs its pre-tool hook:
// `aayu hook HOST`, the payload on standard input, nothing else in its
// environment but a PATH and a HOME of its own.
func runHookBinary(t *testing.T, host, payload string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(buildAayu(t), "hook", host)
	cmd.Stdin = strings.NewReader(payload)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "CLAUDECODE=1"}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("running aayu hook %s: %v", host, err)
	}
	return code, out.String(), errb.String()
}

// TestHookBinaryBlocksEachHostsHumanOnlyCall feeds the built binary each
// host's documented pre-tool payload (Claude Code and Codex PreToolUse,
// Cursor beforeShellExecution, Gemini CLI BeforeTool): a human-only step,
// spelled as an agent might, is blocked in the host's own way with the
// person's command; a read-only command passes quietly; a payload that is
// not JSON is refused.
func TestHookBinaryBlocksEachHostsHumanOnlyCall(t *testing.T) {
	t.Parallel()
	blockedLine := `cd /repo && env A=1 ./bin/aayu --repo acme/benefits ship 4`
	person := "aayu --repo acme/benefits ship 4"
	payloads := map[string]func(line string) string{
		"claude-code": func(line string) string {
			return mustJSON(t, map[string]any{"session_id": "abc", "transcript_path": "/tmp/t.jsonl", "cwd": "/repo",
				"permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "toolu_01",
				"tool_input": map[string]any{"command": line, "description": "Ship PR 4"}})
		},
		"codex": func(line string) string {
			return mustJSON(t, map[string]any{"session_id": "abc", "turn_id": "1", "transcript_path": nil, "cwd": "/repo",
				"model": "gpt-5", "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
				"tool_use_id": "call_1", "tool_input": map[string]any{"command": line}})
		},
		"cursor": func(line string) string {
			return mustJSON(t, map[string]any{"hook_event_name": "beforeShellExecution", "conversation_id": "c1",
				"generation_id": "g1", "workspace_roots": []string{"/repo"}, "command": line, "cwd": "/repo"})
		},
		"gemini": func(line string) string {
			return mustJSON(t, map[string]any{"session_id": "abc", "transcript_path": "/tmp/t.json", "cwd": "/repo",
				"hook_event_name": "BeforeTool", "timestamp": "2026-12-07T10:00:00Z", "tool_name": "run_shell_command",
				"tool_input": map[string]any{"command": line}})
		},
	}
	for host, payload := range payloads {
		code, out, errb := runHookBinary(t, host, payload(blockedLine))
		if host == "cursor" {
			var a map[string]string
			if code != 0 || json.Unmarshal([]byte(out), &a) != nil || a["permission"] != "deny" ||
				!strings.Contains(a["agent_message"], person) || !strings.Contains(a["user_message"], "human-only step") {
				t.Errorf("cursor: exit %d, stdout %q; want {\"permission\":\"deny\",…} naming %q", code, out, person)
			}
		} else if code != 2 || out != "" || !strings.Contains(errb, "human-only step") || !strings.Contains(errb, "at their own terminal: "+person) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and the reason with %q on standard error", host, code, out, errb, person)
		}

		code, out, errb = runHookBinary(t, host, payload("aayu inbox --json cards | head; aayu next"))
		quiet := map[bool]string{true: "{}\n", false: ""}[host == "gemini" || host == "cursor"]
		if code != 0 || out != quiet || errb != "" {
			t.Errorf("%s: a read-only command: exit %d, stdout %q, stderr %q; want a quiet pass", host, code, out, errb)
		}

		code, out, errb = runHookBinary(t, host, "tool_name=Bash")
		refused := strings.Contains(errb+out, "refused: the hook's input could not be read")
		if !refused || (host == "cursor" && !strings.Contains(out, `"permission":"deny"`)) || (host != "cursor" && code != 2) {
			t.Errorf("%s: input that is not JSON: exit %d, stdout %q, stderr %q; want it refused", host, code, out, errb)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
