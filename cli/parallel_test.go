package cli

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
	// Runs where no checkout names a repository: the working folder.
	"TestInboxWithoutRepositoryIsAUsageError": "changes the working folder",
}

// e2eWait is how long an end-to-end test waits for aayu's output, a pane
// or a process before it fails. A passing test never waits it out; it is
// long because up to 8 of these tests run at once under -race on two
// cores that other work shares, where 20 s was seen to run out before a
// sandbox had seeded.
const e2eWait = 2 * time.Minute

// TestMain runs this package's tests, several at once, and removes the
// shared aayu binary afterwards.
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
	if builtWithVCS.dir != "" {
		_ = os.RemoveAll(builtWithVCS.dir)
	}
	os.Exit(code)
}

// TestEveryRootTestCallsParallel fails when a Test function in this
// package's test files does not call t.Parallel() at its top level and is
// not in serialTests: a new serial end-to-end test would quietly add its
// whole duration to the suite. Each test must also take its state (HOME,
// the sandbox's folder, caches) from t.TempDir and its environment through
// run's env, never from the process.
func TestEveryRootTestCallsParallel(t *testing.T) {
	t.Parallel()
	paralleltest.Check(t, serialTests)
}
