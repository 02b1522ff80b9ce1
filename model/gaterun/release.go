package gaterun

// The release workflow: on a release tag it builds a repository's files
// and attests them (actions/attest-build-provenance), so its run at the
// tag is the identity a release file's build attestation must name. aayu's
// own repository releases aayu with it, and aayu self-update holds aayu's
// release files to it.
const (
	ReleaseWorkflowFile = "aayudha-release.yml"
	ReleaseWorkflowPath = ".github/workflows/" + ReleaseWorkflowFile
)
