package packbuild

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/proof"
)

// TestPackFromRawOutputsRunsNoGoCommand: the tests job's raw outputs
// (RunRaw) build, in another checkout, the same verdict a direct run
// gives — and the assembling run starts no go command: with go made to
// fail, it still builds and verifies the pack.
func TestPackFromRawOutputsRunsNoGoCommand(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	raw := d.rawRun(t, sandbox.DemoBug) // RunRaw in a checkout of its own
	for _, f := range []string{RawManifest, rawTests, rawCover, rawRedOnBase} {
		if _, err := os.Stat(filepath.Join(raw, f)); err != nil {
			t.Errorf("the raw outputs lack %s: %v", f, err)
		}
	}

	req := d.request(t, sandbox.DemoBug, beforeBlock)
	req.FromRaw = raw
	// As the merge gate's pack step: --ci in Actions, whose upload step
	// reads the retention from the step's output.
	stepOut := filepath.Join(t.TempDir(), "github_output")
	req.CI, req.Getenv = true, func(k string) string { return map[string]string{"GITHUB_OUTPUT": stepOut}[k] }
	noGo := filepath.Join(t.TempDir(), "go")
	if err := os.WriteFile(noGo, []byte("#!/bin/sh\necho the assembling run started go >&2\nexit 97\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := Run(context.Background(), Tools{Go: noGo}, req, nil)
	if err != nil {
		t.Fatalf("Run from raw: %v", err)
	}
	_, direct, _ := d.directRun(t, sandbox.DemoBug, beforeBlock)
	if out.ExitCode != direct.ExitCode || out.ExitCode != ExitOK {
		t.Fatalf("from raw exit %d, direct exit %d, want both 0; problems %v", out.ExitCode, direct.ExitCode, out.Report.Problems)
	}
	if b, err := os.ReadFile(stepOut); err != nil || string(b) != "retention_days=30\n" {
		t.Errorf("the step output is %q (%v), want retention_days=30 from [proof] retention_days", b, err)
	}
	for _, floor := range []string{"tests", "coverage", "vet", proof.FloorRedOnBase} {
		a, b := checkOf(t, out.Pack, floor), checkOf(t, direct.Pack, floor)
		if a.Result != b.Result || a.Detail != b.Detail {
			t.Errorf("%s from raw: %s %q; direct: %s %q", floor, a.Result, a.Detail, b.Result, b.Detail)
		}
	}
}

// TestPackFromRawRefusesAnotherHead: raw outputs of another commit (or
// story) build no pack: the tests ran on something else.
func TestPackFromRawRefusesAnotherHead(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	other := d.checkout(t, 5)
	raw := filepath.Join(t.TempDir(), "raw")
	if err := RunRaw(context.Background(), Tools{}, RawRequest{Dir: other, Story: 3, BaseBranch: "dev", Out: raw}, nil); err != nil {
		t.Fatalf("RunRaw: %v", err)
	}
	req := d.request(t, 3, beforeBlock)
	req.FromRaw = raw
	out, err := Run(context.Background(), Tools{}, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.ExitCode != ExitRefused || !strings.Contains(out.Refusal, "the tests ran on another commit") {
		t.Fatalf("exit %d refusal %q, want 4 naming another commit", out.ExitCode, out.Refusal)
	}
	if _, err := os.Stat(PackDir(req.Dir, 3)); err == nil {
		t.Error("a pack folder was written from another commit's raw outputs")
	}
}
