package hostconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// usersOwn is a person's own settings in each file a host's entries go
// into: keys aayu never reads, their own hooks and servers, an order of
// their own, a comment and layout in TOML.
var usersOwn = map[string]string{
	".claude/settings.json": `{
  "permissions": {"allow": ["Bash(go test:*)"], "deny": ["Read(./.env)"]},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./scripts/guard.sh", "timeout": 5}]}],
    "PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "gofmt -l ."}]}]
  },
  "model": "opus",
  "env": {"A": "<b>&amp;"},
  "cleanupPeriodDays": 30.50
}
`,
	".mcp.json":         `{"mcpServers": {"github": {"command": "gh-mcp", "args": ["--read-only"], "env": {"X": "1"}}}, "zeta": true}`,
	".codex/hooks.json": `{"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]}]}}`,
	".codex/config.toml": `# my Codex settings
model = "gpt-5-codex"   # the model

[mcp_servers.docs]
command = "docs-mcp"
args = ["serve"]`,
	".cursor/hooks.json": `{"version": 1, "hooks": {"afterFileEdit": [{"command": "./fmt.sh"}], "beforeShellExecution": [{"command": "./audit.sh"}]}}`,
	".cursor/mcp.json":   `{"mcpServers": {}}`,
	".gemini/settings.json": `{
  "theme": "GitHub",
  "mcpServers": {"other": {"httpUrl": "https://example.invalid/mcp"}},
  "hooks": {"AfterTool": [{"matcher": "write_file", "hooks": [{"type": "command", "command": "lint"}]}]}
}`,
}

// applyAll runs every entry of h on files (path → bytes; missing paths
// absent) and returns the files after, and every entry's state.
func applyAll(t *testing.T, h Host, files map[string][]byte) (map[string][]byte, []State) {
	t.Helper()
	out := map[string][]byte{}
	for k, v := range files {
		out[k] = v
	}
	var states []State
	for _, e := range Edits(h) {
		old, exists := out[e.Path]
		r, err := e.Apply(old, exists)
		if err != nil {
			t.Fatalf("%s %s: %v", h, e.Path, err)
		}
		out[e.Path] = r.Out
		states = append(states, r.State)
	}
	return out, states
}

// dump is every file of h in out, one after another, for a golden.
func dump(h Host, out map[string][]byte) []byte {
	var paths []string
	seen := map[string]bool{}
	for _, e := range Edits(h) {
		if !seen[e.Path] {
			seen[e.Path] = true
			paths = append(paths, e.Path)
		}
	}
	var b bytes.Buffer
	for _, p := range paths {
		fmt.Fprintf(&b, "=== %s\n%s", p, out[p])
	}
	return b.Bytes()
}

// TestGoldenPerHost: what install writes for each host, from no file and
// merged into a person's own settings, held to golden files
// (go test ./model/hostconfig -update); a second run over the result
// finds every entry present and changes no byte.
func TestGoldenPerHost(t *testing.T) {
	t.Parallel()
	for _, h := range Hosts() {
		for _, scenario := range []string{"fresh", "merged"} {
			t.Run(string(h)+"/"+scenario, func(t *testing.T) {
				t.Parallel()
				files := map[string][]byte{}
				if scenario == "merged" {
					for _, e := range Edits(h) {
						if s, ok := usersOwn[e.Path]; ok {
							files[e.Path] = []byte(s)
						}
					}
				}
				out, states := applyAll(t, h, files)
				for i, s := range states {
					if s != Missing {
						t.Errorf("entry %d (%s) was %v before install, want missing", i, Edits(h)[i].Part, s)
					}
				}
				golden.RequireEqual(t, dump(h, out))
				again, states := applyAll(t, h, out)
				for i, s := range states {
					if s != Present {
						t.Errorf("second run: entry %d (%s) is %v, want present", i, Edits(h)[i].Part, s)
					}
				}
				for p := range out {
					if !bytes.Equal(out[p], again[p]) {
						t.Errorf("second run changed %s:\n%s\nthen\n%s", p, out[p], again[p])
					}
				}
			})
		}
	}
}

// keysInOrder is a JSON object's keys, in the file's order.
func keysInOrder(t *testing.T, b []byte) []string {
	t.Helper()
	o, err := parseObject(b)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range o.members {
		keys = append(keys, m.key)
	}
	return keys
}

// TestMergeKeepsTheUsersSettings: every key and value of the person's
// own JSON settings is there after the merge, the same and in the same
// order (aayu's keys only added), and their TOML comes back byte for
// byte, with aayu's table after it.
func TestMergeKeepsTheUsersSettings(t *testing.T) {
	t.Parallel()
	for _, h := range Hosts() {
		files := map[string][]byte{}
		for _, e := range Edits(h) {
			if s, ok := usersOwn[e.Path]; ok {
				files[e.Path] = []byte(s)
			}
		}
		out, _ := applyAll(t, h, files)
		for p, before := range files {
			after := out[p]
			if strings.HasSuffix(p, ".toml") {
				if !bytes.HasPrefix(after, before) {
					t.Errorf("%s: the person's TOML is not kept byte for byte:\n%s", p, after)
				}
				continue
			}
			var was, is map[string]any
			if err := json.Unmarshal(before, &was); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(after, &is); err != nil {
				t.Fatalf("%s: the merged file is not JSON: %v", p, err)
			}
			assertKept(t, p, "", was, is)
			k0, k1 := keysInOrder(t, before), keysInOrder(t, after)
			if strings.Join(k1[:len(k0)], ",") != strings.Join(k0, ",") && !(h == Cursor && k1[0] == "version") {
				t.Errorf("%s: key order %v became %v", p, k0, k1)
			}
		}
	}
}

// assertKept checks that every value in was is in is: objects key by
// key, arrays as a prefix (aayu only appends), the rest equal.
func assertKept(t *testing.T, file, path string, was, is any) {
	t.Helper()
	switch w := was.(type) {
	case map[string]any:
		i, ok := is.(map[string]any)
		if !ok {
			t.Errorf("%s: %s is no longer an object", file, path)
			return
		}
		for k, v := range w {
			iv, ok := i[k]
			if !ok {
				t.Errorf("%s: %s.%s was dropped", file, path, k)
				continue
			}
			assertKept(t, file, path+"."+k, v, iv)
		}
	case []any:
		i, ok := is.([]any)
		if !ok || len(i) < len(w) {
			t.Errorf("%s: %s lost entries", file, path)
			return
		}
		for n := range w {
			assertKept(t, file, fmt.Sprintf("%s[%d]", path, n), w[n], i[n])
		}
	default:
		if fmt.Sprint(was) != fmt.Sprint(is) {
			t.Errorf("%s: %s was %v, is %v", file, path, was, is)
		}
	}
}

// TestNumbersAndEscapesKeptAsWritten: a value aayu does not touch keeps
// its bytes (30.50 stays 30.50; &amp; is not escaped again).
func TestNumbersAndEscapesKeptAsWritten(t *testing.T) {
	t.Parallel()
	out, _ := applyAll(t, ClaudeCode, map[string][]byte{".claude/settings.json": []byte(usersOwn[".claude/settings.json"])})
	got := string(out[".claude/settings.json"])
	for _, want := range []string{`"cleanupPeriodDays": 30.50`, `"A": "<b>&amp;"`, `"command": "./scripts/guard.sh"`} {
		if !strings.Contains(got, want) {
			t.Errorf("merged settings lack %s:\n%s", want, got)
		}
	}
}

// TestUnparsableFileIsRefusedInWords: a file that does not parse, or a key
// in a shape the host does not document, is an error naming why, and
// no bytes come back to write.
func TestUnparsableFileIsRefusedInWords(t *testing.T) {
	t.Parallel()
	cases := []struct {
		host Host
		path string
		body string
		want string
	}{
		{ClaudeCode, ".claude/settings.json", `{"hooks": {`, "ends early"},
		{ClaudeCode, ".claude/settings.json", "{\n  // my settings\n  \"model\": \"x\"\n}", "not valid JSON"},
		{ClaudeCode, ".claude/settings.json", `{"model": "x", "model": "y"}`, `"model" appears twice`},
		{ClaudeCode, ".claude/settings.json", `[]`, "not a JSON object"},
		{ClaudeCode, ".claude/settings.json", `{} {}`, "more text follows"},
		{ClaudeCode, ".claude/settings.json", ``, "ends early"},
		{ClaudeCode, ".claude/settings.json", `{"hooks": "none"}`, "hooks is not an object"},
		{ClaudeCode, ".claude/settings.json", `{"hooks": {"PreToolUse": {}}}`, "hooks.PreToolUse is not an array"},
		{ClaudeCode, ".mcp.json", `{"mcpServers": []}`, "mcpServers is not an object"},
		{Cursor, ".cursor/hooks.json", `{"version": 1, "hooks": {"beforeShellExecution": "x"}}`, "hooks.beforeShellExecution is not an array"},
		{Gemini, ".gemini/settings.json", `{"mcpServers": 3}`, "mcpServers is not an object"},
		{Codex, ".codex/config.toml", "model = \n", "not valid TOML"},
		{Codex, ".codex/config.toml", "mcp_servers = 3\n", "mcp_servers is not a table"},
		{Codex, ".codex/config.toml", "mcp_servers = { docs = { command = \"d\" } }\n", "without rewriting"},
	}
	for _, c := range cases {
		var hit bool
		for _, e := range Edits(c.host) {
			if e.Path != c.path {
				continue
			}
			r, err := e.Apply([]byte(c.body), true)
			if err == nil {
				// A part whose keys are not in the file may still merge;
				// the file's other part must refuse.
				if r.State == Missing && strings.Contains(c.want, "is not") {
					continue
				}
				t.Errorf("%s %s %q: merged (%v), want refused with %q", c.host, e.Part, c.body, r.State, c.want)
				continue
			}
			hit = true
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s %q: %v, want it to say %q", c.path, c.body, err, c.want)
			}
			if r.Out != nil {
				t.Errorf("%s %q: a refusal came back with bytes to write", c.path, c.body)
			}
		}
		if !hit {
			t.Errorf("%s %q: no entry refused it", c.path, c.body)
		}
	}
}

// TestSomethingElseInAayusPlaceIsLeftAlone: a server named aayudha that
// runs another program, or a command file with other text, is left as
// written and said.
func TestSomethingElseInAayusPlaceIsLeftAlone(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		host Host
		path string
		body string
	}{
		"claude .mcp.json":    {ClaudeCode, ".mcp.json", `{"mcpServers": {"aayudha": {"command": "node", "args": ["x.js"]}}}`},
		"gemini settings":     {Gemini, ".gemini/settings.json", `{"mcpServers": {"aayudha": {"command": "aayu", "args": ["mcp", "--debug"]}}}`},
		"codex config.toml":   {Codex, ".codex/config.toml", "[mcp_servers.aayudha]\ncommand = \"other\"\n"},
		"cursor command":      {Cursor, ".cursor/commands/aayudha-inbox.md", "my own words\n"},
		"gemini toml command": {Gemini, ".gemini/commands/aayudha/inbox.toml", "prompt = \"mine\"\n"},
	}
	for name, c := range cases {
		for _, e := range Edits(c.host) {
			if e.Path != c.path || e.Part == HookPart {
				continue
			}
			r, err := e.Apply([]byte(c.body), true)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if r.State != Differs || string(r.Out) != c.body || !strings.Contains(r.Note, "leaves it as you wrote it") {
				t.Errorf("%s: state %v, note %q, out %q; want it left as written and said", name, r.State, r.Note, r.Out)
			}
		}
	}
}

// TestHookFoundHoweverItIsWritten: the hook counts as present when a
// group's matcher covers the shell tool and a command handler runs aayu
// hook HOST, by name or path; not when the matcher misses the shell or
// the host is another's.
func TestHookFoundHoweverItIsWritten(t *testing.T) {
	t.Parallel()
	e := Edits(ClaudeCode)[0]
	cases := map[string]State{
		`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"aayu hook claude-code"}]}]}}`:                     Present,
		`{"hooks":{"PreToolUse":[{"matcher":"Edit|Bash","hooks":[{"type":"command","command":"/usr/local/bin/aayu hook claude-code"}]}]}}`: Present,
		`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"aayu  hook  claude-code"}]}]}}`:                      Present,
		`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"aayu hook claude-code"}]}]}}`:                                      Present,
		`{"hooks":{"PreToolUse":[{"matcher":"Edit","hooks":[{"type":"command","command":"aayu hook claude-code"}]}]}}`:                     Missing,
		`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"aayu hook codex"}]}]}}`:                           Missing,
		`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"prompt","command":"aayu hook claude-code"}]}]}}`:                      Missing,
		`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"notaayu hook claude-code"}]}]}}`:                  Missing,
		`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"aayu hook claude-code; rm -rf x"}]}]}}`:           Missing,
		`{"hooks":{"PreToolUse":["not a group"]}}`: Missing,
	}
	for body, want := range cases {
		r, err := e.Apply([]byte(body), true)
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if r.State != want {
			t.Errorf("%s: %v, want %v", body, r.State, want)
		}
	}
	cursor := Edits(Cursor)[0]
	for body, want := range map[string]State{
		`{"version":1,"hooks":{"beforeShellExecution":[{"command":"aayu hook cursor"}]}}`:                 Present,
		`{"version":1,"hooks":{"beforeShellExecution":[{"command":"aayu hook cursor","matcher":"git"}]}}`: Missing,
		`{"version":1,"hooks":{"beforeMCPExecution":[{"command":"aayu hook cursor"}]}}`:                   Missing,
	} {
		r, err := cursor.Apply([]byte(body), true)
		if err != nil || r.State != want {
			t.Errorf("cursor %s: %v %v, want %v", body, r.State, err, want)
		}
	}
}

func TestParseHosts(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "claude-code codex cursor gemini", "all": "claude-code codex cursor gemini", "codex": "codex", "gemini": "gemini"} {
		hs, err := ParseHosts(in)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range hs {
			got = append(got, string(h))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%q: %v, want %s", in, got, want)
		}
	}
	for _, bad := range []string{"amp", "Claude", "claude", "all,codex"} {
		if _, err := ParseHosts(bad); err == nil || !strings.Contains(err.Error(), "claude-code, codex, cursor, gemini or all") {
			t.Errorf("%q: %v, want a usage error naming the hosts", bad, err)
		}
	}
}

// TestEveryEntryCitesItsHostsDocs: each entry names the page its format
// comes from, and the files stay inside the project.
func TestEveryEntryCitesItsHostsDocs(t *testing.T) {
	t.Parallel()
	var paths []string
	for _, h := range Hosts() {
		for _, e := range Edits(h) {
			if !strings.HasPrefix(e.Doc, "https://") || e.What == "" {
				t.Errorf("%s %s: doc %q, what %q", h, e.Part, e.Doc, e.What)
			}
			if strings.HasPrefix(e.Path, "/") || strings.Contains(e.Path, "..") {
				t.Errorf("%s: path %q leaves the project", h, e.Path)
			}
			paths = append(paths, e.Path)
		}
	}
	sort.Strings(paths)
	if len(paths) != 11 {
		t.Errorf("entries: %v", paths)
	}
}
