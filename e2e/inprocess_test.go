package e2e

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/aayudha/aayu/cli"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// demoHead is the head commit the demo pack under ../testdata/demo names.
const demoHead = "b046d1a1d113339eb80e130c9dc0008fa223e76f"

// runCLI runs aayu in this process through cli.Run, as main does, with
// vars as its whole environment: a variable vars lacks is unset, whatever
// the test process holds. e gives the streams, the variables a process
// aayu starts inherits (Environ) and the terminal flags; a nil Stdin reads
// as empty. This is the one place the tests call into aayu's code.
func runCLI(ctx context.Context, vars map[string]string, args []string, e cli.Env) int {
	seedSandboxCache(vars, args)
	e.Getenv = func(k string) string { return vars[k] }
	if e.Stdin == nil {
		e.Stdin = strings.NewReader("")
	}
	return cli.Run(ctx, args, e)
}

// runAayuEnv runs aayu in-process with exactly vars as its environment
// (HOME a fresh folder unless vars names one) and no terminal.
func runAayuEnv(t *testing.T, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	if vars["HOME"] == "" {
		vars["HOME"] = t.TempDir()
	}
	var out, errb bytes.Buffer
	code := runCLI(context.Background(), vars, args, cli.Env{Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

// countingSandbox is the sandbox GitHub on 127.0.0.1 with a log of every
// request it answered, so a test can say "nothing was sent".
type countingSandbox struct {
	srv  *sandbox.Server
	url  string
	mu   sync.Mutex
	reqs []string
}

func startCountingSandbox(t *testing.T) *countingSandbox {
	t.Helper()
	c := &countingSandbox{}
	srv, url := sandboxWith(t, sandbox.Options{Logf: func(format string, args ...any) {
		c.mu.Lock()
		c.reqs = append(c.reqs, fmt.Sprintf(format, args...))
		c.mu.Unlock()
	}})
	c.srv, c.url = srv, url
	return c
}

// writes are the requests the sandbox answered that were not reads.
func (c *countingSandbox) writes() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, r := range c.reqs {
		if !strings.HasPrefix(r, "GET ") && !strings.HasPrefix(r, "HEAD ") {
			out = append(out, r)
		}
	}
	return out
}
