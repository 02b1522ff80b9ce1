package tui

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want Invocation
	}{
		{"no arguments is the inbox", nil, Invocation{Command: "inbox", Flags: map[string]string{}}},
		{
			"globals before the command",
			[]string{"--repo", "acme/benefits", "--plain", "ship", "148"},
			Invocation{Command: "ship", Args: []string{"148"}, Global: Global{Repo: "acme/benefits", Plain: true}, Flags: map[string]string{}},
		},
		{
			"globals after the command, equals form",
			[]string{"verify", "131", "--ci", "--api-url=http://127.0.0.1:8765/", "--oauth-url", "http://127.0.0.1:8765"},
			Invocation{Command: "verify", Args: []string{"131"}, Global: Global{CI: true, APIURL: "http://127.0.0.1:8765/", OAuthURL: "http://127.0.0.1:8765"}, Flags: map[string]string{}},
		},
		{
			"ready with --again and --dry-run",
			[]string{"ready", "7", "--again", "--dry-run"},
			Invocation{Command: "ready", Args: []string{"7"}, Global: Global{DryRun: true}, Flags: map[string]string{"again": "true"}},
		},
		{
			"decide with its lists and a note",
			[]string{"decide", "7,9", "--accept", "2,1", "--note=cheapest to reverse"},
			Invocation{Command: "decide", Args: []string{"7,9"}, Flags: map[string]string{"accept": "2,1", "note": "cheapest to reverse"}},
		},
		{"next", []string{"next"}, Invocation{Command: "next", Flags: map[string]string{}}},
		{
			"plan with its bypass",
			[]string{"plan", "12", "--solo-bypass"},
			Invocation{Command: "plan", Args: []string{"12"}, Flags: map[string]string{"solo-bypass": "true"}},
		},
		{
			"proof push with --media",
			[]string{"proof", "push", "5", "--media"},
			Invocation{Command: "proof push", Args: []string{"5"}, Flags: map[string]string{"media": "true"}},
		},
		{
			"set repeats in order",
			[]string{"--set", "ui.plain=true", "--set=verify.coverage_threshold=80", "auth"},
			Invocation{Command: "auth", Global: Global{Set: []string{"ui.plain=true", "verify.coverage_threshold=80"}}, Flags: map[string]string{}},
		},
		{
			"inbox list and dry run",
			[]string{"inbox", "--list", "--dry-run"},
			Invocation{Command: "inbox", Global: Global{DryRun: true}, Flags: map[string]string{"list": "true"}},
		},
		{
			"list without the command name is the inbox's",
			[]string{"--list"},
			Invocation{Command: "inbox", Flags: map[string]string{"list": "true"}},
		},
		{
			"pack folder with ready and head",
			[]string{"pack", "./out/131", "--ready", "ready.md", "--head=B046D1A1D113339EB80E130C9DC0008FA223E76F"},
			Invocation{Command: "pack", Args: []string{"./out/131"}, Flags: map[string]string{"ready": "ready.md", "head": "b046d1a1d113339eb80e130c9dc0008fa223e76f"}},
		},
		{
			"sandbox flags",
			[]string{"sandbox", "--addr", "127.0.0.1:8765", "--faults", "5xx=0.1,latency=300ms", "--scale", "3"},
			Invocation{Command: "sandbox", Flags: map[string]string{"addr": "127.0.0.1:8765", "faults": "5xx=0.1,latency=300ms", "scale": "3"}},
		},
		{
			"double dash ends flags",
			[]string{"pack", "--", "--odd-folder"},
			Invocation{Command: "pack", Args: []string{"--odd-folder"}, Flags: map[string]string{}},
		},
		{
			"bool flag with explicit false",
			[]string{"--plain=false", "--sandbox"},
			Invocation{Command: "inbox", Global: Global{Sandbox: true}, Flags: map[string]string{}},
		},
		{"help long", []string{"ship", "--help"}, Invocation{Help: true, Flags: map[string]string{}}},
		{"help short", []string{"-h"}, Invocation{Help: true, Flags: map[string]string{}}},
		{"help wins over a bad command", []string{"nope", "-h"}, Invocation{Help: true, Flags: map[string]string{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseArgs(tt.args, testDefs())
			if err != nil {
				t.Fatalf("ParseArgs(%q) failed: %v", tt.args, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseArgs(%q) =\n%+v\nwant\n%+v", tt.args, got, tt.want)
			}
		})
	}
}

func TestParseArgsUsageErrors(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantWord string // the message must name what was wrong
	}{
		{"unknown flag", []string{"--colour"}, "--colour"},
		{"single dash flag", []string{"-x"}, "-x"},
		{"missing value at end", []string{"--repo"}, "--repo needs a value"},
		{"missing value before flag", []string{"--repo", "--plain"}, "--repo needs a value"},
		{"bad repo", []string{"--repo", "acme"}, "OWNER/NAME"},
		{"bad set", []string{"--set", "novalue"}, "key=value"},
		{"bad api url", []string{"--api-url", "ftp://x"}, "--api-url"},
		{"bad bool value", []string{"--plain=maybe"}, "--plain"},
		{"unknown command", []string{"deploy"}, `"deploy"`},
		{"story is not a command", []string{"131"}, "unknown command"},
		{"pack without argument", []string{"pack"}, "STORY or DIR"},
		{"ship with two arguments", []string{"ship", "1", "2"}, "got 2"},
		{"login with an argument", []string{"login", "me"}, "takes no arguments"},
		{"flag of another command", []string{"ship", "148", "--list"}, "--list belongs to aayu inbox"},
		{"again belongs to ready", []string{"ship", "148", "--again"}, "--again belongs to aayu ready"},
		{"ready without a story", []string{"ready"}, "STORY"},
		{"accept belongs to decide", []string{"ship", "148", "--accept", "1"}, "--accept belongs to aayu decide"},
		{"decide without a decision", []string{"decide", "--accept", "1"}, "DECISION"},
		{"decide with an empty accept", []string{"decide", "7", "--accept="}, "--accept needs a value"},
		{"next with an argument", []string{"next", "now"}, "takes no arguments"},
		{"solo-bypass belongs to ship and plan", []string{"ready", "7", "--solo-bypass"}, "--solo-bypass belongs to aayu"},
		{"proof without push", []string{"proof", "5"}, "the aayu proof commands are comment, push, verify"},
		{"proof push without a story", []string{"proof", "push"}, "needs one argument, STORY"},
		{"media belongs to proof", []string{"ship", "6", "--media"}, "--media belongs to aayu proof push"},
		{"head not a sha", []string{"pack", "d", "--head", "abc123"}, "40 hex"},
		{"scale not a number", []string{"sandbox", "--scale", "lots"}, "--scale"},
		{"addr without port", []string{"sandbox", "--addr", "localhost"}, "HOST:PORT"},
		{"sandbox with api url", []string{"--sandbox", "--api-url", "https://ghe.example.com/api/v3/"}, "--sandbox"},
		{"escape in flag name is not echoed raw", []string{"--\x1b]0;x\x07"}, "^["},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseArgs(tt.args, testDefs())
			var ue *UsageError
			if !errors.As(err, &ue) {
				t.Fatalf("ParseArgs(%q) error = %v, want a *UsageError", tt.args, err)
			}
			if !strings.Contains(ue.Error(), tt.wantWord) {
				t.Errorf("ParseArgs(%q) error %q does not mention %q", tt.args, ue.Error(), tt.wantWord)
			}
			if strings.ContainsRune(ue.Error(), 0x1b) {
				t.Errorf("usage error %q holds a raw ESC", ue.Error())
			}
		})
	}
}

func TestResolveURLs(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		name       string
		g          Global
		env        map[string]string
		api, oauth string
	}{
		{"defaults", Global{}, nil, "https://api.github.com/", "https://github.com"},
		{"environment", Global{}, map[string]string{"AAYU_GITHUB_API_URL": "https://ghe.example.com/api/v3", "AAYU_GITHUB_OAUTH_URL": "https://ghe.example.com/"}, "https://ghe.example.com/api/v3/", "https://ghe.example.com"},
		{"flags win over environment", Global{APIURL: "http://127.0.0.1:8765/", OAuthURL: "http://127.0.0.1:8765"}, map[string]string{"AAYU_GITHUB_API_URL": "https://ghe.example.com/api/v3/"}, "http://127.0.0.1:8765/", "http://127.0.0.1:8765"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api, oauth := ResolveURLs(tt.g, env(tt.env))
			if api != tt.api || oauth != tt.oauth {
				t.Errorf("ResolveURLs = %q, %q; want %q, %q", api, oauth, tt.api, tt.oauth)
			}
		})
	}
}

// TestHelpPagesNameEveryCommandAndFlag: the root page lists every command,
// and each command's page its own flags and the global ones, so nothing the
// parser accepts is missing from help.
func TestHelpPagesNameEveryCommandAndFlag(t *testing.T) {
	page := func(args ...string) string {
		var out, errb bytes.Buffer
		_, code, done := Execute(context.Background(), args, testDefs(), CLI{Stdout: &out, Stderr: &errb, ConfigPath: "/home/me/.config/aayu/config.toml"})
		if !done || code != ExitOK || errb.Len() > 0 {
			t.Fatalf("aayu %q: done %v, exit %d, stderr %q", args, done, code, errb.String())
		}
		return out.String()
	}
	root := page("--help")
	for _, want := range append(commandNames(), "/home/me/.config/aayu/config.toml", "Exit codes", "--repo", "--list", "--json") {
		// fang capitalises a command's line, so "proof push: …" reads "Proof push: …".
		if !strings.Contains(strings.ToLower(root), strings.ToLower(want)) {
			t.Errorf("aayu --help does not mention %s", want)
		}
	}
	for _, d := range testDefs() {
		p := page(append(strings.Fields(d.Name), "--help")...)
		for _, f := range append(d.Flags, GlobalFlags()...) {
			if !strings.Contains(p, "--"+f.Name) {
				t.Errorf("aayu %s --help does not mention --%s", d.Name, f.Name)
			}
		}
		for _, env := range []string{"AAYU_GITHUB_API_URL", "AAYU_GITHUB_OAUTH_URL"} {
			if !strings.Contains(p, env) {
				t.Errorf("aayu %s --help does not mention %s", d.Name, env)
			}
		}
	}
}

// commandNames lists the table's commands, in help's order.
func commandNames() []string {
	var names []string
	for _, d := range testDefs() {
		if d.Of == "" { // another name is listed on its parent's page
			names = append(names, d.Name)
		}
	}
	return names
}
