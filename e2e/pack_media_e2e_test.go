package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mediaPackDir is the demo pack with media (screens/pack/testdata/media):
// a screenshot, a recording and a screen-reader transcript with their
// bytes, and a screenshot in the media bucket that was not fetched.
const mediaPackDir = "screens/pack/testdata/media"

// TestTmuxPackMedia: the pack viewer in a real terminal (tmux, which
// answers the graphics check for itself and passes no kitty answer
// through) lists the media with their kind and size, draws no image,
// says so, and o hands the system opener (here a script standing in for
// xdg-open) a copy holding exactly the pack's bytes.
func TestTmuxPackMedia(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	wd, _ := os.Getwd()
	wd = filepath.Dir(wd) // the module root
	fake := t.TempDir()
	opened := filepath.Join(fake, "opened")
	script := fmt.Sprintf("#!/bin/sh\ncp \"$1\" %s\n", opened)
	if err := os.WriteFile(filepath.Join(fake, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := fmt.Sprintf("cd %s && PATH=%s:$PATH %s pack %s --ready testdata/demo/ready.md --head %s", wd, fake, bin, mediaPackDir, demoHead)
	s := newTmux(t, 100, 30, cmd)
	s.waitFor("floors hold")
	s.keys("2")
	scr := s.waitFor("[2 Artifacts (9)]")
	for _, want := range []string{"screenshot    none      142 B  screens/1.png", "recording     none       36 B  recordings/1.webm",
		"sr-transcript none       55 B  sr/1.txt", "unchecked  screenshot    bucket     103 B  screens/2.png"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the artifacts list does not show %q:\n%s", want, scr)
		}
	}
	for range 5 {
		s.keys("Down")
	}
	s.waitFor("media: screenshot, 142 B; enter shows it, o opens it in the system viewer")
	s.keys("Enter")
	s.waitFor("did not answer the kitty graphics or sixel check")
	s.keys("o")
	s.waitFor("opened screens/1.png (sha256 checked)")
	want, _ := os.ReadFile(filepath.Join(wd, mediaPackDir, "artifacts", "screens", "1.png"))
	deadline := time.Now().Add(e2eWait)
	for {
		got, err := os.ReadFile(opened)
		if err == nil && bytes.Equal(got, want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the opener was not handed the pack's bytes (%v)", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.keys("Escape")
	s.waitFor("[2 Artifacts (9)]")
	s.keys("Down", "Down", "Down", "o")
	s.waitFor("nothing to show or open") // screens/2.png is in the media bucket, not fetched
	s.keys("q")
	s.waitFor("AAYU-EXIT=0")
}

// TestPackMediaPlainNamesEachFile: --plain names each media file, its
// kind, size, hash state and where it is, one line each, with no escape
// sequence (and so no graphics query).
func TestPackMediaPlainNamesEachFile(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", mediaPackDir)
	code, out, errOut := runAayuEnv(t, map[string]string{}, "--plain", "pack", dir, "--ready", filepath.Join("..", "testdata", "demo", "ready.md"), "--head", demoHead)
	if code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"media screens/1.png: screenshot, 142 B, hash checked; file " + filepath.Join(dir, "artifacts", "screens", "1.png"),
		"media screens/2.png: screenshot, 103 B, hash not checked, in the media bucket, not fetched; in the media bucket as object aayudha/131/screens/2.png",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plain mode does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out+errOut, "\x1b") {
		t.Errorf("plain mode wrote an escape sequence: %q", out)
	}
}
