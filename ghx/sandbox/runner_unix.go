//go:build unix

package sandbox

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own and returns what ends
// the group once the step is over: a step's leftover processes do not
// outlive it, as the runner's orphan-process clean-up ensures on GitHub.
func ownGroup(cmd *exec.Cmd) func() {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return func() {
		if cmd.Process != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}
}
