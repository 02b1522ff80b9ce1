package hostshell

import (
	"strings"
	"testing"
)

// TestHumanOnlyCommandSpellings holds each way a shell can spell a
// human-only step, and the read-only commands that must pass, each decided
// right: block says the hook stops the line, step the step it names.
func TestHumanOnlyCommandSpellings(t *testing.T) {
	t.Parallel()
	cases := []struct {
		line  string
		block bool
		step  string
	}{
		// The plain forms.
		{"aayu ship 4", true, "ship"},
		{"aayu plan 7", true, "plan"},
		{"aayu decide 1,2 --accept 1,1", true, "decide"},
		{"aayu ready 3", true, "ready"},
		{"aayu ready 3 --again", true, "ready"},
		{"aayu approve 3f9c0a1b2d4e", true, "approve"},
		{"aayu release --to main", true, "release"},
		{"aayu login", true, "login"},
		{"aayu init", true, "init"},
		{"aayu init --identity --bot-app", true, "init"},
		{"aayu", true, "the full-screen inbox"},
		{"aayu inbox", true, "the full-screen inbox"},
		{"aayu inbox --list=false", true, "the full-screen inbox"},
		{"aayu --plain", true, "the full-screen inbox"},
		{"aayu inspect 4 --approve", true, "inspect --approve"},
		{"aayu counsel 4 --post", true, "counsel --post"},
		// Read-only and agent work: allowed.
		{"aayu inbox --list", false, ""},
		{"aayu inbox --json cards", false, ""},
		{"aayu inbox --json=cards", false, ""},
		{"aayu --list", false, ""},
		{"aayu next", false, ""},
		{"aayu pack 3", false, ""},
		{"aayu verify 3", false, ""},
		{"aayu proof push 3", false, ""},
		{"aayu proof verify 3", false, ""},
		{"aayu audit", false, ""},
		{"aayu doctor", false, ""},
		{"aayu inspect 4", false, ""},
		{"aayu counsel 4", false, ""},
		{"aayu hook claude-code", false, ""},
		{"aayu ship --help", false, ""},
		{"aayu ship 4 -h", false, ""},
		{"aayu --version", false, ""},
		{"aayu help ship", false, ""},
		{"aayu ship 4 --dry-run", false, ""},
		{"aayu --dry-run decide 1 --accept 1", false, ""},
		{"aayu init --dry-run", false, ""},
		{"aayu login --dry-run", true, "login"},
		{"aayu ship 4 --dry-run=false", true, "ship"},
		{"git commit -m 'aayu ship 4'", false, ""},
		{`grep -n "aayu ship" README.md`, false, ""},
		{"echo aayu", false, ""},
		{"command -v aayu", false, ""},
		{"which aayu && aayu next", false, ""},
		{"go test ./...", false, ""},
		{"go run .", false, ""},
		{"go run . next", false, ""},
		{"ls -la; cat go.mod", false, ""},
		{"bash scripts/build.sh", false, ""},
		{"gh pr view 4 --json title", false, ""},
		// After another command, in lists and pipes.
		{"cd /tmp/repo && aayu ship 4", true, "ship"},
		{"make build; aayu plan 7", true, "plan"},
		{"true || aayu ready 3", true, "ready"},
		{"aayu next | aayu ship 4", true, "ship"},
		{"sleep 1 & aayu approve abc", true, "approve"},
		{"echo start\naayu ship 4", true, "ship"},
		{"aayu ship \\\n  4", true, "ship"},
		{"if true; then aayu ship 4; fi", true, "ship"},
		{"for i in 1 2; do aayu ship $i; done", true, "ship"},
		{"f() { aayu ship 4; }; f", true, "ship"},
		{"( aayu ship 4 )", true, "ship"},
		{"! aayu ship 4", true, "ship"},
		// Inside substitutions.
		{"echo $(aayu ship 4)", true, "ship"},
		{"echo `aayu ship 4`", true, "ship"},
		{`X="$(aayu decide 1 --accept 1)"`, true, "decide"},
		{"diff <(aayu ship 4) /dev/null", true, "ship"},
		// Wrappers and environment.
		{"env A=1 aayu ship 4", true, "ship"},
		{"env -u CLAUDECODE aayu ship 4", true, "ship"},
		{"env -i PATH=/usr/bin aayu ship 4", true, "ship"},
		{"CLAUDECODE= aayu ship 4", true, "ship"},
		{"AAYU_AGENT=0 A=1 aayu ship 4", true, "ship"},
		{"sudo aayu ship 4", true, "ship"},
		{"sudo -u founder aayu ship 4", true, "ship"},
		{"command aayu ship 4", true, "ship"},
		{"exec aayu ship 4", true, "ship"},
		{"nohup aayu ship 4 &", true, "ship"},
		{"time aayu ship 4", true, "ship"},
		{"nice -n 10 aayu ship 4", true, "ship"},
		{"timeout 30 aayu ship 4", true, "ship"},
		{"timeout -s KILL 30s aayu ship 4", true, "ship"},
		{"echo 4 | xargs aayu ship", true, "ship"},
		{"echo 4 | xargs -I{} aayu ship {}", true, "ship"},
		{"find . -name '*.json' -exec aayu pack {} +", false, ""},
		{`[ ship = "$x" ] && echo yes`, false, ""},
		{"aayu ship {1..3}", true, "ship"},
		{"find . -name x -exec aayu ship 4 \\;", true, "ship"},
		{"script -qc 'aayu ship 4' /dev/null", true, "ship"},
		{"env -S 'aayu ship 4'", true, "ship"},
		// Paths and runners.
		{"./aayu ship 4", true, "ship"},
		{"/usr/local/bin/aayu ship 4", true, "ship"},
		{"~/go/bin/aayu ship 4", true, "ship"},
		{"../bin/aayu ship 4", true, "ship"},
		{"go run . ship 4", true, "ship"},
		{"go run ./ ship 4", true, "ship"},
		{"go run main.go ship 4", true, "ship"},
		{"go run github.com/aayudha/aayu ship 4", true, "ship"},
		{"go run github.com/aayudha/aayu@v0.9.0 ship 4", true, "ship"},
		{"go run github.com/aayudha/aayu@latest", true, "the full-screen inbox"},
		{"go run -tags netgo . ready 3", true, "ready"},
		{"$AAYU ship 4", true, "ship"},
		{`"$(go env GOPATH)/bin/aayu" ship 4`, true, "ship"},
		{"$AAYU next", false, ""},
		// Quotes and escapes.
		{"aayu 'ship' 4", true, "ship"},
		{`aayu "ship" 4`, true, "ship"},
		{`"aayu" ship 4`, true, "ship"},
		{`'aayu' ship 4`, true, "ship"},
		{`aayu s\hip 4`, true, "ship"},
		{`\aayu ship 4`, true, "ship"},
		{`a"a"yu sh''ip 4`, true, "ship"},
		{`aayu $'ship' 4`, true, "an aayu command"},
		{"aayu $VERB 4", true, "an aayu command"},
		{"aayu s*p 4", true, "an aayu command"},
		{"aayu {ship,pack} 4", true, "an aayu command"},
		// Shells given a string.
		{"bash -c 'aayu ship 4'", true, "ship"},
		{`sh -c "aayu ship 4"`, true, "ship"},
		{"zsh -c 'aayu ship 4'", true, "ship"},
		{"bash -lc 'cd x && aayu ship 4'", true, "ship"},
		{"bash -ce 'aayu ship 4'", true, "ship"},
		{`bash -c "aayu ship $N"`, true, "ship"},
		{`bash -c "aayu $VERB 4"`, true, "an aayu command"},
		{"eval 'aayu ship 4'", true, "ship"},
		{`eval "aayu" "ship" 4`, true, "ship"},
		{`bash -c "bash -c 'aayu ship 4'"`, true, "ship"},
		{"bash <<'EOF'\naayu ship 4\nEOF", true, "ship"},
		{"bash <<< 'aayu ship 4'", true, "ship"},
		{"echo 'aayu ship 4' | sh", true, "ship"},
		{"bash -c 'aayu next'", false, ""},
		{"alias s='aayu ship'", true, "ship"},
		{"busybox sh -c 'aayu ship 4'", true, "ship"},
		{"ssh -p 2222 me@laptop 'cd repo && aayu ship 4'", true, "ship"},
		{"ssh me@laptop aayu inbox --list", false, ""},
		// Global flags before the command.
		{"aayu --repo acme/benefits ship 4", true, "ship"},
		{"aayu --repo=acme/benefits ship 4", true, "ship"},
		{"aayu --plain --sandbox ship 4", true, "ship"},
		{"aayu --set ui.plain=true ready 3", true, "ready"},
		{"aayu --api-url http://127.0.0.1:8765/ decide 1 --accept 1", true, "decide"},
		{"aayu --repo ship/x pack 4", false, ""},
		{"aayu -- ship 4", true, "ship"},
	}
	if len(cases) < 60 {
		t.Fatalf("the table holds %d spellings; at least 60 are required", len(cases))
	}
	for _, c := range cases {
		v := HumanOnlyCommand(c.line)
		if v.Block != c.block || v.Step != c.step {
			t.Errorf("%q: block=%v step=%q (why: %s); want block=%v step=%q", c.line, v.Block, v.Step, v.Why, c.block, c.step)
		}
		if v.Block && (v.Why == "" || v.Person == "") {
			t.Errorf("%q: blocked without its reason or the person's command: %+v", c.line, v)
		}
	}
}

// TestHumanOnlyCommandNamesThePersonsCommand: the next step is the
// command the person runs, without the agent's path, runner or wrapper.
func TestHumanOnlyCommandNamesThePersonsCommand(t *testing.T) {
	t.Parallel()
	for line, want := range map[string]string{
		"cd x && sudo /usr/local/bin/aayu --repo acme/b ship 4":     "aayu --repo acme/b ship 4",
		"go run github.com/aayudha/aayu@v1 decide 1,2 --accept 1,1": "aayu decide 1,2 --accept 1,1",
		`bash -c "aayu plan 7 --note 'a b'"`:                        "aayu plan 7 --note 'a b'",
		"aayu ship $PR":                                             "aayu ship …",
	} {
		if got := HumanOnlyCommand(line).Person; got != want {
			t.Errorf("%q: the person's command is %q, want %q", line, got, want)
		}
	}
}

// TestHumanOnlyCommandRefusesAnUnreadableLine: a line no shell parser can
// read is blocked in words (fail closed), never allowed.
func TestHumanOnlyCommandRefusesAnUnreadableLine(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		"aayu next 'unclosed",
		"echo $(aayu next",
		"if then fi ((",
		"bash -c 'aayu next \"'",
		nestedShells(maxDepth + 2),
	} {
		v := HumanOnlyCommand(line)
		if !v.Block || !v.Unreadable || v.Why == "" {
			t.Errorf("%q: %+v; want blocked as unreadable, with its reason", line, v)
		}
	}
}

// nestedShells is eval quoted inside itself n times around aayu next.
func nestedShells(n int) string {
	cmd := "aayu next"
	for range n {
		cmd = "eval " + quoteSingle(cmd)
	}
	return cmd
}

func quoteSingle(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// FuzzHumanOnlyCommand: no line panics the recogniser, and a line the
// shell parser cannot read is never allowed.
func FuzzHumanOnlyCommand(f *testing.F) {
	for _, s := range []string{"aayu ship 4", "bash -c 'aayu ship 4'", "aayu inbox --list", "echo $(aayu", "go run . ship 4", "env -S 'x'", "a\\\nb", "find . -exec aayu ship \\;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		v := HumanOnlyCommand(line)
		if _, err := parse(line); err != nil && !v.Block {
			t.Fatalf("%q cannot be parsed (%v) but was allowed", line, err)
		}
		if v.Block && v.Why == "" {
			t.Fatalf("%q blocked without a reason", line)
		}
	})
}

// BenchmarkHumanOnlyCommand is the recogniser's cost on lines an agent
// types: a read-only command, a compound line, and a human-only step in a
// shell string. docs/performance.md quotes it.
func BenchmarkHumanOnlyCommand(b *testing.B) {
	for _, line := range []string{
		"go test ./...",
		"cd /repo && git status --short && aayu inbox --json cards | head -20",
		`bash -lc "cd /repo && env A=1 aayu --repo acme/benefits ship 4"`,
	} {
		b.Run(strings.Fields(line)[0], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				HumanOnlyCommand(line)
			}
		})
	}
}
