package e2e

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/aayudha/aayu/internal/paralleltest"
)

// serialTests are the Test functions of this package allowed not to call
// t.Parallel(), each with the reason. Every other one must: the package's
// end-to-end tests mostly wait (on the sandbox's latency, a device code, a
// tmux pane), so run one after another they took half an hour on the
// shared two-core machine. A test that truly cannot run beside others
// (it times itself, or races a timeout with heavy work; or it changes
// the process's environment or working folder, which t.Setenv and
// os.Chdir forbid with t.Parallel anyway) is listed here.
var serialTests = map[string]string{
	// Times whole processes (only with AAYU_SPEED=1): beside other tests
	// its figures would measure the neighbours.
	"TestSpeedOfStartup": "times whole processes",
	// A wall-clock bound (500 ms to refuse the file): beside 8 end-to-end
	// tests under -race it took 690 ms. Serial tests run before the
	// parallel ones start, so it is timed alone.
	"TestHostileUserConfigRefusedFast": "times itself",
	// Streams 600 MB over loopback until aayu's 32 MiB cap; under -race
	// beside 8 other tests, GET /user ran past aayu's 2-minute timeout
	// before the cap was reached.
	"TestHugeAnswerRefusedThroughTheBinary": "streams 600 MB against a timeout",
	// proof push reads the pack of the checkout it runs in, the process's
	// working folder, which t.Chdir sets for the whole process.
	"TestProofPushCLI": "changes the working folder",
}

// e2eWait is how long an end-to-end test waits for aayu's output, a pane
// or a process before it fails. A passing test never waits it out; it is
// long because up to 8 of these tests run at once under -race on two
// cores that other work shares, where 20 s was seen to run out before a
// sandbox had seeded.
const e2eWait = 2 * time.Minute

// TestMain runs this package's tests, several at once, and removes the
// shared aayu binary and the seeded demos afterwards.
//
// go test runs at most GOMAXPROCS parallel tests at a time unless told
// otherwise: two on the two-core machine. These tests spend most of their
// time waiting (the sandbox's latency, tmux panes, device codes), not
// computing, so unless -parallel is given they run 4 per core.
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", fmt.Sprint(4*runtime.GOMAXPROCS(0))); err != nil {
			fmt.Fprintln(os.Stderr, "setting -test.parallel:", err)
			os.Exit(2)
		}
	}
	code := m.Run()
	if builtAayu.dir != "" {
		_ = os.RemoveAll(builtAayu.dir)
	}
	if seeded.root != "" {
		_ = os.RemoveAll(seeded.root)
	}
	os.Exit(code)
}

// TestEveryE2ETestCallsParallel fails when a Test function in this
// package's test files does not call t.Parallel() at its top level and is
// not in serialTests: a new serial end-to-end test would quietly add its
// whole duration to the suite. Each test must also take its state (HOME,
// the sandbox's folder, caches) from t.TempDir and its environment through
// cli.Env, never from the process.
func TestEveryE2ETestCallsParallel(t *testing.T) {
	t.Parallel()
	paralleltest.Check(t, serialTests)
}
