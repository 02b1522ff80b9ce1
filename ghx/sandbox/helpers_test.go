package sandbox_test

import (
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
)

var demoNow = time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC)

// coverage records the operations every validated sandbox of this test
// binary served; TestMain fails the suite when one was never tried.
var coverage = conformance.NewCoverage()

func TestMain(m *testing.M) { os.Exit(conformance.RunWithCoverage(m, coverage)) }

func fixedClock() time.Time { return demoNow }

// startValidated runs the demo with the conformance validator on.
func startValidated(t *testing.T, opts sandbox.Options) (*sandbox.Server, *conformance.Validator, string) {
	t.Helper()
	if opts.Now == nil {
		opts.Now = fixedClock
	}
	s, v, base := conformance.StartSandbox(t, opts)
	coverage.Add(v)
	return s, v, base
}

func client(t *testing.T, base, token string) *github.Client {
	t.Helper()
	c := github.NewClient(nil).WithAuthToken(token)
	u, err := url.Parse(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	c.BaseURL = u
	return c
}
