package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/vsigstore"
)

// aayuAssetName is the release file self-update takes on this machine.
func aayuAssetName() string {
	name := "aayu_" + runtime.GOOS + "_" + runtime.GOARCH
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	return name
}

// selfUpdateRig is a copy of the built aayu in a folder of its own (the
// binary self-update replaces) and a sandbox serving aayudha/aayu's
// release whose file for this platform is release.
type selfUpdateRig struct {
	t       *testing.T
	srv     *sandbox.Server
	url     string
	root    string // the sandbox's Sigstore trusted root
	bin     string // the copied aayu
	old     []byte // its bytes before self-update
	release []byte // the release's file
}

// newSelfUpdateRig copies the built aayu and serves as the release file
// either the bytes release gives or, when nil, that aayu with a trailing
// line (a different file that runs the same).
func newSelfUpdateRig(t *testing.T, release []byte) *selfUpdateRig {
	t.Helper()
	built, err := os.ReadFile(buildAayu(t))
	if err != nil {
		t.Fatal(err)
	}
	if release == nil {
		release = append(append([]byte{}, built...), "\n# aayu v0.99.0, the sandbox's release\n"...)
	}
	state := filepath.Join(t.TempDir(), "state")
	srv, url := sandboxWith(t, sandbox.Options{StateDir: state,
		AayuRelease: &sandbox.AayuRelease{Tag: "v0.99.0", Files: map[string][]byte{aayuAssetName(): release}}})
	bin := filepath.Join(t.TempDir(), "aayu")
	if err := os.WriteFile(bin, built, 0o755); err != nil {
		t.Fatal(err)
	}
	return &selfUpdateRig{t: t, srv: srv, url: url, root: filepath.Join(state, sandbox.TrustedRootFile), bin: bin, old: built, release: release}
}

// run runs the copied aayu's self-update against the sandbox, with vars
// added to a person's environment (no agent marker, no CI).
func (r *selfUpdateRig) run(vars map[string]string, extra ...string) (int, string) {
	r.t.Helper()
	home := r.t.TempDir()
	args := append([]string{"--api-url", r.url + "/", "--set", "proof.trusted_root=" + r.root, "self-update"}, extra...)
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "AAYU_GITHUB_TOKEN=sandbox-reader"}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	var out bytes.Buffer
	var err error
	// The copy was just written: a process another test forks at that
	// moment holds it open for writing until its own exec, and this exec
	// fails with "text file busy" (golang/go#22315), nothing having run.
	// cmd/go tries again the same way when it runs a binary it just wrote.
	for try := 0; ; try++ {
		cmd := exec.Command(r.bin, args...)
		cmd.Env = env
		cmd.Stdout, cmd.Stderr = &out, &out
		if err = cmd.Run(); !errors.Is(err, syscall.ETXTBSY) || try == 20 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	return code, out.String()
}

// kept fails unless the copied aayu is byte for byte the one before, with
// no aayu.old or half-written file left beside it.
func (r *selfUpdateRig) kept() {
	r.t.Helper()
	now, err := os.ReadFile(r.bin)
	if err != nil {
		r.t.Fatal(err)
	}
	if !bytes.Equal(now, r.old) {
		r.t.Fatalf("the aayu at %s changed; a refusal must keep the old binary byte for byte", r.bin)
	}
	r.onlyBinary()
}

func (r *selfUpdateRig) onlyBinary() {
	r.t.Helper()
	entries, err := os.ReadDir(filepath.Dir(r.bin))
	if err != nil {
		r.t.Fatal(err)
	}
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		r.t.Fatalf("beside the binary: %q, want only aayu", names)
	}
}

func TestSelfUpdateReplacesTheBinaryWithAnAttestedRelease(t *testing.T) {
	t.Parallel()
	r := newSelfUpdateRig(t, nil)
	code, out := r.run(nil)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{
		"proven built by aayudha/aayu's release workflow at its tag: signed by https://github.com/aayudha/aayu/.github/workflows/aayudha-release.yml@refs/tags/v0.99.0",
		"replaced the aayu at " + r.bin + " with release v0.99.0; the new aayu runs: aayu version",
		"the old aayu was kept as " + r.bin + ".old until the new one ran, then removed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	now, err := os.ReadFile(r.bin)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(now, r.release) {
		t.Fatal("the binary is not the release's file")
	}
	if info, err := os.Stat(r.bin); err != nil || info.Mode().Perm()&0o100 == 0 {
		t.Fatalf("the new binary is not executable: %v %v", info.Mode(), err)
	}
	r.onlyBinary()
	// The new aayu is now the release: a second run finds nothing to do.
	if code, out := r.run(nil); code != 0 || !strings.Contains(out, "aayu is up to date") {
		t.Fatalf("second run, exit %d:\n%s", code, out)
	}
}

// TestSelfUpdateRefusals: each release self-update must not install is
// refused in words, exit 4, the old binary kept byte for byte.
func TestSelfUpdateRefusals(t *testing.T) {
	t.Parallel()
	name := aayuAssetName()
	cases := []struct {
		name    string
		release []byte // nil: a runnable aayu
		stage   func(t *testing.T, srv *sandbox.Server, release []byte)
		vars    map[string]string
		says    []string
	}{
		{
			name: "refuses a tampered asset (digest mismatch)",
			stage: func(t *testing.T, srv *sandbox.Server, release []byte) {
				if err := srv.TamperAayuRelease(name, append(append([]byte{}, release...), "evil"...)); err != nil {
					t.Fatal(err)
				}
			},
			says: []string{"refused: " + name + " as downloaded (sha256 ", "is not the file GitHub recorded for release v0.99.0", "was not changed"},
		},
		{
			name: "refuses another repository's attestation",
			stage: func(t *testing.T, srv *sandbox.Server, _ []byte) {
				if err := srv.AttestAayuRelease(name, func(c *vsigstore.Claims) { c.Repository = "mallory/aayu" }); err != nil {
					t.Fatal(err)
				}
			},
			says: []string{"is not proven built by aayudha/aayu's release workflow", "the attestation was made in another repository (https://github.com/mallory/aayu), not aayudha/aayu"},
		},
		{
			name: "refuses a missing attestation",
			stage: func(t *testing.T, srv *sandbox.Server, _ []byte) {
				if err := srv.UnattestAayuRelease(name); err != nil {
					t.Fatal(err)
				}
			},
			says: []string{"no attestation signs " + name, "the release was not attested"},
		},
		{
			name: "refuses an attestation made at a branch, not the tag",
			stage: func(t *testing.T, srv *sandbox.Server, _ []byte) {
				if err := srv.AttestAayuRelease(name, func(c *vsigstore.Claims) { c.Ref = "refs/heads/main" }); err != nil {
					t.Fatal(err)
				}
			},
			says: []string{"at refs/heads/main, not at the release's tag refs/tags/v0.99.0"},
		},
		{
			name:    "rolls back a new binary that does not run",
			release: []byte("#!/bin/sh\necho broken >&2\nexit 3\n"),
			says:    []string{"the new aayu (release v0.99.0) did not run: `aayu --version` failed", "the old aayu is back in place"},
		},
		{
			name: "refuses in an agent lane",
			vars: map[string]string{"CLAUDECODE": "1"},
			says: []string{"an agent lane (CLAUDECODE is set) never replaces aayu", "Nothing was changed."},
		},
		{
			name: "refuses in CI",
			vars: map[string]string{"GITHUB_ACTIONS": "true"},
			says: []string{"a CI run (GITHUB_ACTIONS is set) never replaces aayu"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if runtime.GOOS == "windows" && tc.release != nil {
				t.Skip("a shell script is no Windows binary")
			}
			r := newSelfUpdateRig(t, tc.release)
			if tc.stage != nil {
				tc.stage(t, r.srv, r.release)
			}
			code, out := r.run(tc.vars)
			if code != 4 {
				t.Fatalf("exit %d, want 4 (refused):\n%s", code, out)
			}
			for _, want := range tc.says {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "sandbox-reader") {
				t.Fatalf("the token was printed:\n%s", out)
			}
			r.kept()
		})
	}
}

// TestSelfUpdateRefusesABinaryPathNotWritable: a folder aayu cannot write
// is refused before anything is downloaded.
func TestSelfUpdateRefusesABinaryPathNotWritable(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("root writes any folder; actions/selfupdate's TestCheckRefusesABinaryPathNotWritable covers the refusal")
	}
	r := newSelfUpdateRig(t, nil)
	dir := filepath.Dir(r.bin)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
	code, out := r.run(nil)
	if code != 4 || !strings.Contains(out, "aayu cannot write beside "+r.bin) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	r.kept()
}

// TestSelfUpdateSaysUpToDate: a release whose file is this aayu changes
// nothing.
func TestSelfUpdateSaysUpToDate(t *testing.T) {
	t.Parallel()
	built, err := os.ReadFile(buildAayu(t))
	if err != nil {
		t.Fatal(err)
	}
	r := newSelfUpdateRig(t, built)
	code, out := r.run(nil)
	if code != 0 || !strings.Contains(out, "aayu is up to date: release v0.99.0's "+aayuAssetName()+" is the aayu at "+r.bin) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	r.kept()
}
