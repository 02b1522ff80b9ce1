package login

import (
	"context"
	"errors"
	"os/exec"
	"runtime"
	"time"
)

// OpenInBrowser returns the usual Deps.OpenBrowser: it opens a URL with the
// system's opener (open, xdg-open or wslview, rundll32) and never writes to
// the terminal, since the opener's output is discarded and it gets no input.
// getenv tells a desktop session apart from SSH or a bare console: there,
// xdg-open may start a text browser on the very terminal the screen is
// drawn on, so it is not tried and the person opens the link on any device.
func OpenInBrowser(getenv func(string) string) func(url string) error {
	return func(url string) error {
		name, args, err := opener(runtime.GOOS, getenv)
		if err != nil {
			return err
		}
		path, err := exec.LookPath(name)
		if err != nil {
			return errors.New("no program to open a browser was found")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, path, append(args, url)...)
		// Stdin, Stdout and Stderr stay nil: the null device, never the terminal.
		if err := cmd.Run(); err != nil {
			return errors.New("the browser could not be started")
		}
		return nil
	}
}

func opener(goos string, getenv func(string) string) (string, []string, error) {
	switch goos {
	case "darwin":
		if getenv("SSH_CONNECTION") != "" {
			return "", nil, errors.New("this is an SSH session")
		}
		return "open", nil, nil
	case "windows":
		return "rundll32", []string{"url.dll,FileProtocolHandler"}, nil
	}
	if getenv("WSL_DISTRO_NAME") != "" {
		return "wslview", nil, nil
	}
	if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
		return "", nil, errors.New("there is no desktop session")
	}
	return "xdg-open", nil, nil
}
