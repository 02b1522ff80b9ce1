// Package initrepo sets a repository up for aayudha (SPEC §3, issue 12):
// it reads the repository, proposes the merge gate, the protected-paths
// gate, .aayudha/config.toml, LAYERS.md and CODEOWNERS entries in one pull
// request built through the Git Data API (the default branch is never
// pushed to), and sets the repository variable that names the presence
// check's OAuth App. It knows nothing of the terminal; screens/initrepo
// shows it.
package initrepo
