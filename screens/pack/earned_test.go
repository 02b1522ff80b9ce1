package pack

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// demoCopy copies the demo pack so a test can change it.
func demoCopy(t *testing.T) Options {
	t.Helper()
	opts := demo("pack")
	dst := filepath.Join(t.TempDir(), "pack")
	err := filepath.WalkDir(opts.Dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(opts.Dir, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	opts.Dir = dst
	return opts
}

func editDemoPack(t *testing.T, dir string, edit func(p map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	edit(p)
	if b, err = json.MarshalIndent(p, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPackScreenRecomputesFloors: a coverage check claiming pass at 10
// against 90 is shown not holding, on the full screen (verdict line and the
// check's detail) and in the plain twin, with why.
func TestPackScreenRecomputesFloors(t *testing.T) {
	opts := demoCopy(t)
	editDemoPack(t, opts.Dir, func(p map[string]any) {
		for _, c := range p["checks"].([]any) {
			if c := c.(map[string]any); c["floor"] == "coverage" {
				c["value"] = 10
			}
		}
	})
	m := verified(t, tuitest.Common(100, 30), opts)
	if code := ExitCode(m.verifying.report); code != tui.ExitFloor {
		t.Errorf("exit %d, want %d", code, tui.ExitFloor)
	}
	m.Update(tuitest.Key("3"))
	found := false
	for i := 0; i < 4 && !found; i++ {
		v := ansi.Strip(m.View().Content)
		if found = strings.Contains(v, "does not meet the threshold 90"); found && !strings.Contains(v, "a floor does not hold: coverage") {
			t.Fatalf("the verdict line does not name coverage:\n%s", v)
		}
		m.Update(tuitest.Key("down"))
	}
	if !found {
		t.Fatalf("no check's detail says coverage does not meet its threshold:\n%s", ansi.Strip(m.View().Content))
	}
	lines := strings.Join(plainReport(m.verifying.report, nil), "\n")
	for _, want := range []string{"floor coverage does not hold", "10 does not meet the threshold 90", "verified: ", "bytes hashed"} {
		if !strings.Contains(lines, want) {
			t.Errorf("the plain report does not say %q:\n%s", want, lines)
		}
	}
}

// TestPackScreenRefusesEvidenceKeptOnlyByHash: with the evidence's bytes
// gone and store none, the screen says the pack does not verify, why, and
// that nothing was hashed.
func TestPackScreenRefusesEvidenceKeptOnlyByHash(t *testing.T) {
	opts := demoCopy(t)
	editDemoPack(t, opts.Dir, func(p map[string]any) {
		for _, a := range p["artifacts"].([]any) {
			a.(map[string]any)["store"] = "none"
		}
	})
	if err := os.RemoveAll(filepath.Join(opts.Dir, "artifacts")); err != nil {
		t.Fatal(err)
	}
	m := verified(t, tuitest.Common(100, 30), opts)
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "does not verify") || !strings.Contains(v, "0 files, 0 bytes hashed") {
		t.Fatalf("the screen does not say the pack does not verify with nothing hashed:\n%s", v)
	}
	lines := strings.Join(plainReport(m.verifying.report, nil), "\n")
	if !strings.Contains(lines, "has no evidence whose bytes were hashed here") || !strings.Contains(lines, "checked: 0 files, 0 bytes hashed") {
		t.Errorf("the plain report does not say why:\n%s", lines)
	}
}
