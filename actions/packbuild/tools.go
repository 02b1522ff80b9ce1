package packbuild

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/aayudha/aayu/proof"
)

// Tools runs the real git and go binaries. The zero value finds both on
// PATH and uses the process environment.
type Tools struct {
	Git, Go string // program paths; "" means "git" and "go" on PATH
	// FFmpeg is the program that assembles the web floor's recordings;
	// "" means "ffmpeg" on PATH.
	FFmpeg  string
	Environ []string // the environment commands start from; nil means os.Environ()
	// NoIsolation skips the network namespace even where the machine
	// allows one (the checks then say "not isolated", truthfully).
	NoIsolation bool
}

func (t Tools) gitBin() string { return orDefault(t.Git, "git") }
func (t Tools) goBin() string  { return orDefault(t.Go, "go") }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (t Tools) environ() []string {
	if t.Environ != nil {
		return t.Environ
	}
	return os.Environ()
}

// goEnv is the environment of every go command: no module downloads, no
// workspace from a parent folder, no toolchain switch, and no cached test
// results, so each run really runs.
func (t Tools) goEnv() []string {
	env := make([]string, 0, len(t.environ())+5)
	for _, kv := range t.environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "GOPROXY", "GOFLAGS", "GOWORK", "GOTOOLCHAIN", "GONOSUMDB":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOPROXY=off", "GOFLAGS=-count=1", "GOWORK=off", "GOTOOLCHAIN=local")
}

// git runs git in dir and returns its standard output. The error carries
// git's own words from standard error.
func (t Tools) git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, t.gitBin(), args...)
	cmd.Dir = dir
	cmd.Env = append(t.environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("git %s: %w%s", strings.Join(args, " "), err, quoteStderr(stderr.Bytes()))
	}
	return out, nil
}

func quoteStderr(b []byte) string {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return ""
	}
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return ": " + s
}

// isolation decides how go commands run: inside a new network namespace
// when unshare can make one here, else as they are. It returns the prefix
// to put before the command and the network value the checks record.
func (t Tools) isolation(ctx context.Context) (prefix []string, network string) {
	if t.NoIsolation {
		return nil, proof.NetworkNotIsolated
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		return nil, proof.NetworkNotIsolated
	}
	for _, p := range [][]string{{unshare, "--net", "--map-root-user", "--"}, {unshare, "--net", "--"}} {
		probe := exec.CommandContext(ctx, p[0], append(p[1:], "true")...)
		if probe.Run() == nil {
			return p, proof.NetworkIsolated
		}
	}
	return nil, proof.NetworkNotIsolated
}

// runGo runs a go command in dir behind prefix, handing each line of its
// standard output to line as it arrives. A go command that ran and reported
// failures (exit status 1 or 2 with output) is not an error here: the caller
// reads the failures from the output. err is for a go that could not run.
func (t Tools) runGo(ctx context.Context, dir string, prefix []string, args []string, line func([]byte)) (exitCode int, stderr string, err error) {
	argv := append(append(append([]string{}, prefix...), t.goBin()), args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = t.goEnv()
	var errBuf bytes.Buffer
	cmd.Stderr = &limitedBuffer{buf: &errBuf, max: 1 << 20}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, "", err
	}
	if err := cmd.Start(); err != nil {
		return 0, "", fmt.Errorf("starting %s: %w", strings.Join(argv, " "), err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line(sc.Bytes())
	}
	scanErr := sc.Err()
	if scanErr != nil {
		_, _ = io.Copy(io.Discard, out)
	}
	waitErr := cmd.Wait()
	if ctx.Err() != nil {
		return 0, errBuf.String(), ctx.Err()
	}
	if scanErr != nil {
		return 0, errBuf.String(), fmt.Errorf("reading the output of go %s: %w", args[0], scanErr)
	}
	var exit *exec.ExitError
	if errors.As(waitErr, &exit) {
		return exit.ExitCode(), errBuf.String(), nil
	}
	return 0, errBuf.String(), waitErr
}

// limitedBuffer keeps the first max bytes written and drops the rest, so
// a runaway command cannot fill memory with its standard error.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// goVersion is the toolchain's version, e.g. go1.26.8.
func (t Tools) goVersion(ctx context.Context, dir string) (string, error) {
	cmd := exec.CommandContext(ctx, t.goBin(), "env", "GOVERSION")
	cmd.Dir = dir
	cmd.Env = t.goEnv()
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOVERSION: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}
