package tui

import (
	"errors"
	"os/exec"
	"runtime"
	"strings"
)

// ErrNoBrowser says this machine has no way to open a browser (an SSH
// session, a container); the screen then shows the link to open by hand.
var ErrNoBrowser = errors.New("no browser to open here; open the link on any device")

// OpenBrowser opens url in the person's browser without ever writing to the
// terminal: the browser's own output goes nowhere, and it is started, not
// waited for. getenv reads BROWSER; lookPath finds the opener (exec.LookPath
// in the program; tests pass their own).
func OpenBrowser(url string, getenv func(string) string, lookPath func(string) (string, error)) error {
	if !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
		return errors.New("refusing to open a link that is not http(s)")
	}
	var candidates [][]string
	if b := getenv("BROWSER"); b != "" {
		for _, name := range strings.Split(b, ":") {
			if name = strings.TrimSpace(name); name != "" {
				candidates = append(candidates, []string{name})
			}
		}
	}
	switch runtime.GOOS {
	case "darwin":
		candidates = append(candidates, []string{"open"})
	case "windows":
		candidates = append(candidates, []string{"rundll32", "url.dll,FileProtocolHandler"})
	default:
		// xdg-open starts happily without a display and then fails where
		// nobody sees it (an SSH session, a container): without a display
		// there is no browser to claim, unless BROWSER names one.
		if getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != "" {
			candidates = append(candidates, []string{"xdg-open"})
		}
		if getenv("WSL_DISTRO_NAME") != "" {
			candidates = append(candidates, []string{"wslview"})
		}
	}
	for _, c := range candidates {
		path, err := lookPath(c[0])
		if err != nil {
			continue
		}
		cmd := exec.Command(path, append(c[1:], url)...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, nil, nil // nil: the null device
		if err := cmd.Start(); err != nil {
			continue
		}
		go func() { _ = cmd.Wait() }()
		return nil
	}
	return ErrNoBrowser
}
