//go:build unix

package packbuild

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own and returns what ends
// the whole group: an app started with go run leaves the program it built
// as a child, which must not outlive the web floor.
func ownGroup(cmd *exec.Cmd) func() {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return func() {
		if cmd.Process != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}
}
