package pack

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// hostilePack is the demo pack with a check detail holding an OSC 52
// clipboard write, a screen clear, a title change and a bidi override, in a
// folder named "hostile" under root, opened by that relative name so the
// goldens do not carry a temporary path (see within).
func hostilePack(t *testing.T) (opts Options, root string) {
	t.Helper()
	opts = demo("pack")
	ready, err := filepath.Abs(opts.ReadyFile)
	if err != nil {
		t.Fatal(err)
	}
	root = t.TempDir()
	dir := filepath.Join(root, "hostile")
	copyDir(t, opts.Dir, dir)
	src, err := os.ReadFile(filepath.Join(dir, "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	attack := `EVIL\u001b]52;c;ZXZpbA==\u0007\u001b[2J\u001b]0;pwned\u0007\u202eEND`
	js := strings.Replace(string(src), `"detail": "9 of 9`, `"detail": "`+attack+` 9 of 9`, 1)
	if js == string(src) {
		t.Fatal("the demo pack changed; the attack was not planted")
	}
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Dir, opts.ReadyFile = "hostile", ready
	return opts, root
}

// within runs f in dir and comes back, so the golden files are still read
// from this package's testdata.
func within(t *testing.T, dir string, f func()) {
	t.Helper()
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.Chdir(here); err != nil {
			t.Fatal(err)
		}
	}()
	f()
}

// TestPackScreenHostileGolden: the checks section (3) with the coverage
// check chosen shows its hostile detail as visible caret text at 40, 80 and
// 120 columns.
func TestPackScreenHostileGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			opts, root := hostilePack(t)
			var m *Model
			within(t, root, func() { m = verified(t, tuitest.Common(w, 24), opts) })
			m.Update(tuitest.Key("3"))
			m.Update(tuitest.Key("down")) // coverage, whose detail is hostile
			view := m.View().Content
			tuitest.AssertDefused(t, view)
			tuitest.GoldenView(t, view, w, 24)
		})
	}
}

// TestPackScreenHostilePlainGolden: the same pack's plain twin.
func TestPackScreenHostilePlainGolden(t *testing.T) {
	var out bytes.Buffer
	opts, root := hostilePack(t)
	var code int
	var err error
	within(t, root, func() {
		code, err = tui.Run(context.Background(), New(context.Background(), tui.Common{Plain: true}, opts), tui.RunOptions{Plain: true, Out: &out})
	})
	if err != nil {
		t.Fatal(err)
	}
	tuitest.AssertDefused(t, out.String())
	tuitest.GoldenPlain(t, out.String(), code)
}
