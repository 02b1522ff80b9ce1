//go:build !unix

package packbuild

import "os/exec"

// ownGroup has no process groups here: only the app itself is ended.
func ownGroup(cmd *exec.Cmd) func() {
	return func() {
		if cmd.Process != nil {
			_ = cmd.Process.Kill()
		}
	}
}
