// Package templates holds the workflow files aayu init proposes, embedded
// so that init, doctor and the sandbox's demo repository use the very same
// bytes: doctor calls a workflow current only when it is byte-identical.
package templates

import _ "embed"

// The files' paths in a repository.
const (
	MergeGatePath      = ".github/workflows/aayudha-merge-gate.yml"
	ProtectedPathsPath = ".github/workflows/aayudha-protected-paths.yml"
)

// MergeGate is the merge-gate workflow: the job that runs the pull
// request's code may only read; a separate job posts the comment.
//
//go:embed aayudha-merge-gate.yml
var MergeGate string

// ProtectedPaths is the protected-paths gate workflow; it never checks out
// the pull request's code.
//
//go:embed aayudha-protected-paths.yml
var ProtectedPaths string

// Workflows maps each workflow's path to its bytes, in the order init
// proposes them.
func Workflows() []File {
	return []File{{MergeGatePath, MergeGate}, {ProtectedPathsPath, ProtectedPaths}}
}

// File is one file of the set-up.
type File struct {
	Path string
	Body string
}
