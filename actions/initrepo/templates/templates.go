// Package templates holds the workflow files aayu init proposes, embedded
// so that init, doctor and the sandbox's demo repository use the very same
// bytes: doctor calls a workflow current only when it is byte-identical.
package templates

import (
	_ "embed"
	"runtime/debug"
	"strings"
)

// The files' paths in a repository.
const (
	MergeGatePath      = ".github/workflows/aayudha-merge-gate.yml"
	ProtectedPathsPath = ".github/workflows/aayudha-protected-paths.yml"
	TokenBrokerPath    = ".github/workflows/aayudha-token.yml"
	ApprovePath        = ".github/workflows/aayudha-approve.yml"
	ReleasePath        = ".github/workflows/aayudha-release.yml"
	LoopsPath          = ".github/workflows/aayudha-loops.yml"
)

// Release is the release workflow: on the tag aayu release pushes, one job
// builds the project's artifacts read-only, another attests them.
//
//go:embed aayudha-release.yml
var Release string

// Loops is the scheduled loops workflow: aayu loops --ci as the bot App.
//
//go:embed aayudha-loops.yml
var Loops string

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

// TokenBroker is the token broker (seed 001, "The token broker"): a
// workflow_dispatch workflow that mints the bot App's installation token
// and hands it, age-encrypted, to the person's aayu that dispatched it.
//
//go:embed aayudha-token.yml
var TokenBroker string

// IdentityWorkflows are the files the bot identity needs: the token
// broker, with aayu pinned as in Workflows. aayu init --identity and
// --gates write them.
func IdentityWorkflows() []File {
	return []File{{TokenBrokerPath, Pin(TokenBroker, runningVersion())}}
}

// Approve is the reply path's workflow: on a new issue comment naming a
// batch, aayu approve --ci applies it only if every check passes.
//
//go:embed aayudha-approve.yml
var Approve string

// Workflows maps each workflow's path to its bytes, in the order init
// proposes them, with aayu pinned to the version running (Pin).
func Workflows() []File {
	v := runningVersion()
	return []File{{MergeGatePath, Pin(MergeGate, v)}, {ProtectedPathsPath, Pin(ProtectedPaths, v)}, {ApprovePath, Pin(Approve, v)},
		{ReleasePath, Pin(Release, v)}, {LoopsPath, Pin(Loops, v)}}
}

// module is how the workflows install aayu; @latest is the embedded
// default, for a build that has no release version (a checkout's build).
const module = "github.com/aayudha/aayu@latest"

// Pin installs aayu at version in a workflow instead of @latest: the gate
// then runs the release the person ran init with, and a new release
// reaches it only through a reviewed pull request (init or doctor again).
// version "" (or a development build's) keeps @latest.
func Pin(workflow, version string) string {
	if !strings.HasPrefix(version, "v") || strings.ContainsAny(version, " \t\n\"'$") {
		return workflow
	}
	return strings.ReplaceAll(workflow, module, "github.com/aayudha/aayu@"+version)
}

// runningVersion is the module version of the aayu binary running, "" for
// a development build.
func runningVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Path != "github.com/aayudha/aayu" {
		return ""
	}
	return info.Main.Version
}

// File is one file of the set-up.
type File struct {
	Path string
	Body string
}
