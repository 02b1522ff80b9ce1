package packbuild

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/proof"
)

// commitWithMessage adds an empty commit with msg on the checkout dir and
// returns its hash.
func commitWithMessage(t *testing.T, dir, msg string) string {
	t.Helper()
	if out, err := exec.Command("git", "-C", dir, "-c", "user.name=builder", "-c", "user.email=builder@example.com",
		"commit", "-q", "--allow-empty", "-m", msg).CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v %s", err, out)
	}
	out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// TestPackRecordsCheckpointAndModelFromTrailers: the head commit's
// Aayudha-Checkpoint and Aayudha-Model trailers become the pack's
// checkpoint and model, and the pack still passes its schema and verifies.
func TestPackRecordsCheckpointAndModelFromTrailers(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	req := d.request(t, 3, beforeBlock)
	commitWithMessage(t, req.Dir, "deductible: show it on the summary\n\nAayudha-Checkpoint: 2/3\nAayudha-Model: claude-opus-5-5\n")
	out, _ := run(t, req)
	if out.ExitCode != ExitOK {
		t.Fatalf("exit %d, want 0; problems %v", out.ExitCode, out.Report.Problems)
	}
	if out.Pack.Checkpoint != "2/3" || out.Pack.Model != "claude-opus-5-5" {
		t.Errorf("pack checkpoint %q model %q, want 2/3 and claude-opus-5-5", out.Pack.Checkpoint, out.Pack.Model)
	}
	var written map[string]any
	b, err := os.ReadFile(filepath.Join(out.Dir, "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &written); err != nil {
		t.Fatal(err)
	}
	if written["checkpoint"] != "2/3" || written["model"] != "claude-opus-5-5" {
		t.Errorf("pack.json checkpoint %v model %v", written["checkpoint"], written["model"])
	}
	if _, err := proof.Decode(b); err != nil {
		t.Errorf("pack.json with checkpoint and model does not pass its schema: %v", err)
	}
}

// TestBuilderTrailersLeaveOutWrongForms: a checkpoint that is not n/N, a
// model with a space or an escape, and a commit without trailers give
// nothing; the last of two trailers wins.
func TestBuilderTrailersLeaveOutWrongForms(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	cases := []struct {
		msg, checkpoint, model string
	}{
		{"plain commit\n", "", ""},
		{"x\n\nAayudha-Checkpoint: 1/4\nAayudha-Model: gpt-6.1\n", "1/4", "gpt-6.1"},
		{"x\n\nAayudha-Checkpoint: 1/4\nAayudha-Checkpoint: 3/4\n", "3/4", ""},
		{"x\n\nAayudha-Checkpoint: three of four\nAayudha-Model: my model\n", "", ""},
		{"x\n\nAayudha-Checkpoint: 12345/1\nAayudha-Model: evil\x1b[31m\n", "", ""},
		{"x\n\nAayudha-Model: " + strings.Repeat("m", 201) + "\n", "", ""},
		{"Aayudha-Checkpoint: 1/2 in the body is no trailer\n\nsome text\n", "", ""},
	}
	for _, tc := range cases {
		head := commitWithMessage(t, dir, tc.msg)
		r := &runner{req: Request{Dir: dir}, head: head}
		cp, model, err := r.builderTrailers(context.Background())
		if err != nil {
			t.Fatalf("%q: %v", tc.msg, err)
		}
		if cp != tc.checkpoint || model != tc.model {
			t.Errorf("%q: checkpoint %q model %q, want %q and %q", tc.msg, cp, model, tc.checkpoint, tc.model)
		}
	}
}
