package tui

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func TestOpenBrowserNeverWritesToTheTerminal(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "opened")
	// A fake browser that chatters on stdout and stderr, as real ones do.
	script := filepath.Join(dir, "chatty-browser")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho 'Opening in existing browser session.'\necho warning >&2\necho \"$1\" > "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string { return map[string]string{"BROWSER": script}[k] }
	lookPath := func(name string) (string, error) {
		if name == script {
			return script, nil
		}
		return "", errors.New("not found")
	}
	// The test's own stdout stands in for the terminal.
	if err := OpenBrowser("https://github.com/login/device", getenv, lookPath); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile(marker)
		if err == nil && string(b) == "https://github.com/login/device\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the browser was not started with the link")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestOpenBrowserRefusesOtherSchemesAndSaysWhenNone(t *testing.T) {
	none := func(string) (string, error) { return "", errors.New("not found") }
	if err := OpenBrowser("file:///etc/passwd", func(string) string { return "" }, none); err == nil {
		t.Fatal("opened a file: link")
	}
	if err := OpenBrowser("https://github.com", func(string) string { return "" }, none); !errors.Is(err, ErrNoBrowser) {
		t.Fatalf("got %v, want ErrNoBrowser", err)
	}
}

// TestOpenBrowserWithoutADisplayClaimsNone: on a machine without a display
// (SSH, a container), xdg-open would start and fail unseen; no browser is
// claimed, so the screen shows the link instead.
func TestOpenBrowserWithoutADisplayClaimsNone(t *testing.T) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		t.Skip("a display is not needed to open a browser here")
	}
	found := func(name string) (string, error) { return "/usr/bin/" + name, nil }
	if err := OpenBrowser("https://github.com", func(string) string { return "" }, found); !errors.Is(err, ErrNoBrowser) {
		t.Fatalf("got %v, want ErrNoBrowser without DISPLAY or WAYLAND_DISPLAY", err)
	}
}
