package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSpeedOfStartup measures, in one run, how long aayu takes from exec
// to exit for `--version`, `--help` and the pre-tool hook (`aayu hook
// claude-code` on a typical payload, which a host pays before every shell
// command its agent types), beside /bin/true (what starting
// any process costs here), alternating the commands round by round so a
// busy machine slows each alike. It reports each command's median wall
// time, CPU time (user + system, from getrusage) and what
// GODEBUG=inittrace=1 sums of its package inits. (Peak RSS is not among
// them: a child started by os/exec shares the test's memory until its exec,
// so getrusage's maxrss of a command this small is the test's own.) It is a measurement, not
// a check: it fails only when a command fails (the shape it measures is
// held by TestAayuLinksNoneOfTheStartupHeavyPackages and
// TestAayuStartupAllocatesUnderItsBound).
//
//	AAYU_SPEED=1 go test -count=1 -run TestSpeedOfStartup -v ./e2e/
//
// AAYU_SPEED_ROUNDS (default 50) sets the rounds; AAYU_SPEED_BIN measures
// that binary instead of one built from this tree, and AAYU_SPEED_VS_BIN
// adds a second binary to every round, so two builds are measured side
// by side.
func TestSpeedOfStartup(t *testing.T) {
	if os.Getenv("AAYU_SPEED") != "1" {
		t.Skip("set AAYU_SPEED=1 to measure aayu's start-up")
	}
	rounds := 50
	if n, err := strconv.Atoi(os.Getenv("AAYU_SPEED_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	bin := os.Getenv("AAYU_SPEED_BIN")
	if bin == "" {
		bin = buildAayu(t)
	}
	type subject struct {
		name  string
		argv  []string
		stdin string
		wall  []time.Duration
		cpu   []time.Duration
	}
	var subjects []*subject
	add := func(name string, argv ...string) { subjects = append(subjects, &subject{name: name, argv: argv}) }
	add("/bin/true", "/bin/true")
	for _, b := range []string{bin, os.Getenv("AAYU_SPEED_VS_BIN")} {
		if b != "" {
			add(b+" --version", b, "--version")
			add(b+" --help", b, "--help")
			add(b+" hook claude-code", b, "hook", "claude-code")
			subjects[len(subjects)-1].stdin = hookSpeedPayload
		}
	}
	home := t.TempDir()
	run := func(s *subject, env ...string) (time.Duration, time.Duration, []byte) {
		c := exec.Command(s.argv[0], s.argv[1:]...)
		c.Env = append(os.Environ(), append([]string{"HOME=" + home, "XDG_CONFIG_HOME=" + home, "NO_COLOR=1"}, env...)...)
		var stderr bytes.Buffer
		c.Stderr = &stderr
		if s.stdin != "" {
			c.Stdin = strings.NewReader(s.stdin)
		}
		start := time.Now()
		if err := c.Run(); err != nil {
			t.Fatalf("%s: %v\n%s", s.name, err, stderr.Bytes())
		}
		took := time.Since(start)
		return took, c.ProcessState.UserTime() + c.ProcessState.SystemTime(), stderr.Bytes()
	}
	for _, s := range subjects { // one warm-up each
		run(s)
	}
	for range rounds {
		for _, s := range subjects {
			wall, cpu, _ := run(s)
			s.wall, s.cpu = append(s.wall, wall), append(s.cpu, cpu)
		}
	}
	load, _ := os.ReadFile("/proc/loadavg")
	t.Logf("%d rounds, load %s", rounds, strings.TrimSpace(string(load)))
	for _, s := range subjects {
		t.Logf("%s: wall median %v (min %v, max %v), CPU median %v", s.name, medianOf(s.wall), slices.Min(s.wall), slices.Max(s.wall), medianOf(s.cpu))
		if s.argv[0] == "/bin/true" {
			continue
		}
		// The inits' own account, over as many runs, median of the sums.
		var ms []float64
		var tot initTotals
		for range min(rounds, 20) {
			_, _, stderr := run(s, "GODEBUG=inittrace=1")
			var err error
			if tot, err = parseInitTrace(stderr); err != nil {
				t.Fatal(err)
			}
			ms = append(ms, tot.ms)
		}
		slices.Sort(ms)
		t.Logf("%s: %d package inits, %.1f ms (median of %d runs), %d bytes, %d allocations", s.name, tot.inits, ms[len(ms)/2], len(ms), tot.bytes, tot.allocs)
	}
}

// hookSpeedPayload is a typical Claude Code PreToolUse payload: a shell
// command the hook lets through, as most are.
const hookSpeedPayload = `{"session_id":"8f2c","transcript_path":"/home/me/.claude/projects/repo/8f2c.jsonl","cwd":"/home/me/repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"toolu_01ABC","tool_input":{"command":"cd /home/me/repo && go test ./... 2>&1 | tail -20","description":"Run the tests"}}`

func medianOf(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
